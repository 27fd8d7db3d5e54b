/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Verbs transport: opening the device, choosing port and GID, creating
 * PD/CQ/QP and moving QPs through INIT, RTR and RTS. Every failure names the
 * device and port and says what to check next.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "util/error.h"
#include "transport/verbs.h"

#define GD_UD_QKEY 0x11111111u

const char *gd_mtu_text(enum ibv_mtu mtu)
{
	switch (mtu) {
	case IBV_MTU_256:
		return "256";
	case IBV_MTU_512:
		return "512";
	case IBV_MTU_1024:
		return "1024";
	case IBV_MTU_2048:
		return "2048";
	case IBV_MTU_4096:
		return "4096";
	}
	return "?";
}

static uint32_t gd_mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

static enum ibv_mtu gd_mtu_enum(uint32_t bytes)
{
	enum ibv_mtu m = IBV_MTU_256;

	while (m < IBV_MTU_4096 && gd_mtu_bytes(m + 1) <= bytes)
		m++;
	return m;
}

static void gd_device_names(struct ibv_device **list, int n, char *buf,
			    size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "",
					ibv_get_device_name(list[i]));
}

const char *gd_conn_name(enum gd_conn conn)
{
	static const char *const names[] = { "RC", "UC", "UD" };

	return conn <= GD_CONN_UD ? names[conn] : "?";
}

void gd_verbs_no_scatter_to_cqe(char *record, size_t len)
{
	const char *v = getenv("MLX5_SCATTER_TO_CQE");

	if (!v) {
		setenv("MLX5_SCATTER_TO_CQE", "0", 0);
		snprintf(record, len, "0 (set by gdperf: GPU receive buffers)");
	} else if (!strcmp(v, "0")) {
		snprintf(record, len, "0 (set by the user)");
	} else {
		/* The user's choice is kept: it may be the experiment. */
		snprintf(
			record, len,
			"%.32s (set by the user and kept: with GPU receive buffers, receives of 32 B or less crash on mlx5)",
			v);
	}
}

int gd_verbs_open(struct gd_verbs *v, const char *name, unsigned int port,
		  int gid_index)
{
	struct ibv_device **list;
	struct ibv_device *dev = NULL;
	char names[512];
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		if (list)
			ibv_free_device_list(list);
		return gd_err(
			-ENODEV,
			"no RDMA device found: check that the NIC driver is loaded (ls /sys/class/infiniband), that rdma-core providers are installed (ibv_devices), or create a Soft-RoCE device (rdma link add rxe0 type rxe netdev IFACE)");
	}
	gd_device_names(list, n, names, sizeof(names));
	for (int i = 0; i < n && !dev; i++)
		if (!name || !strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		ibv_free_device_list(list);
		return gd_err(
			-ENODEV,
			"RDMA device '%s' not found; devices present: %s (check -d)",
			name, names);
	}
	v->ctx = ibv_open_device(dev);
	if (!v->ctx) {
		int err = errno ? -errno : -EIO;

		gd_err(err,
		       "cannot open RDMA device %s: %s; check permissions on /dev/infiniband/uverbs*",
		       ibv_get_device_name(dev), strerror(-err));
		ibv_free_device_list(list);
		return err;
	}
	v->ctx_owned = true;
	ibv_free_device_list(list);
	return gd_verbs_query_port(v, port, gid_index);
}

/* GID type from sysfs, for an rdma-core without ibv_query_gid_ex. */
static const char *gd_gid_type_sysfs(struct ibv_context *ctx, uint8_t port,
				     int idx, bool *is_v2)
{
	char path[512], text[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/ports/%u/gid_attrs/types/%d",
		 ctx->device->ibdev_path, port, idx);
	f = fopen(path, "r");
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	*is_v2 = !strncasecmp(text, "RoCE v2", 7);
	return *is_v2				      ? "RoCE v2"
	       : !strncasecmp(text, "IB/RoCE v1", 10) ? "RoCE v1"
						      : "unknown";
}

static const char *gd_gid_type_text(struct ibv_context *ctx, uint8_t port,
				    int idx, bool *is_v2)
{
#ifdef HAVE__IBV_QUERY_GID_EX
	struct ibv_gid_entry e;

	if (!ibv_query_gid_ex(ctx, port, (uint32_t)idx, &e, 0)) {
		*is_v2 = e.gid_type == IBV_GID_TYPE_ROCE_V2;
		return e.gid_type == IBV_GID_TYPE_ROCE_V2   ? "RoCE v2"
		       : e.gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1"
							    : "IB";
	}
#endif
	return gd_gid_type_sysfs(ctx, port, idx, is_v2);
}

static bool gd_gid_valid(struct ibv_context *ctx, uint8_t port, int idx,
			 union ibv_gid *gid)
{
	static const union ibv_gid zero;

	return !ibv_query_gid(ctx, port, idx, gid) &&
	       memcmp(gid, &zero, sizeof(zero));
}

static bool gd_gid_is_ipv4(const union ibv_gid *g)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0,    0,
					    0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(g->raw, prefix, sizeof(prefix));
}

/* The first RoCE v2 GID of the family asked (IPv4-mapped, or with
 * GD_GID_PICK_IPV6 an IPv6 address); for IPv4 failing that the first
 * RoCE v2 GID, then the first valid one (InfiniBand). -1: none. */
static int gd_pick_gid(struct gd_verbs *v, int tbl_len, bool ipv6)
{
	union ibv_gid g;
	int first_v2 = -1, first = -1;
	bool v2;

	for (int i = 0; i < tbl_len; i++) {
		if (!gd_gid_valid(v->ctx, v->port.port, i, &g))
			continue;
		if (first < 0)
			first = i;
		gd_gid_type_text(v->ctx, v->port.port, i, &v2);
		if (v2 && gd_gid_is_ipv4(&g) != ipv6)
			return i;
		if (v2 && first_v2 < 0)
			first_v2 = i;
	}
	if (ipv6)
		return -1;
	return first_v2 >= 0 ? first_v2 : first;
}

static void gd_valid_gids(struct gd_verbs *v, int tbl_len, char *buf,
			  size_t len)
{
	union ibv_gid g;
	size_t off = 0;
	bool v2;

	buf[0] = '\0';
	for (int i = 0; i < tbl_len && off < len; i++) {
		char text[64];

		if (!gd_gid_valid(v->ctx, v->port.port, i, &g))
			continue;
		inet_ntop(AF_INET6, g.raw, text, sizeof(text));
		off += (size_t)snprintf(
			buf + off, len - off, "%s%d (%s %s)", off ? ", " : "",
			i, text,
			gd_gid_type_text(v->ctx, v->port.port, i, &v2));
	}
	if (!off)
		snprintf(buf, len, "none (is the netdev up with an address?)");
}

int gd_verbs_query_port(struct gd_verbs *v, unsigned int port, int gid_index)
{
	struct ibv_port_attr pa;
	struct gd_port_info *p = &v->port;
	char valid[768];
	bool v2;
	int ret;

	snprintf(p->dev_name, sizeof(p->dev_name), "%s",
		 ibv_get_device_name(v->ctx->device));
	p->port = (uint8_t)port;
	ret = ibv_query_port(v->ctx, p->port, &pa);
	if (ret)
		return gd_err(
			-(ret > 0 ? ret : EINVAL),
			"cannot query port %u of %s: %s; check -i (ports are numbered from 1)",
			port, p->dev_name, strerror(ret > 0 ? ret : EINVAL));
	if (pa.state != IBV_PORT_ACTIVE)
		return gd_err(
			-ENETDOWN,
			"port %u of %s is %s, not ACTIVE; check the cable/link (ibv_devinfo, ip link) and the subnet manager on InfiniBand",
			port, p->dev_name, ibv_port_state_str(pa.state));
	p->state = pa.state;
	p->link_layer = pa.link_layer;
	p->active_mtu = pa.active_mtu;
	p->active_mtu_bytes = gd_mtu_bytes(pa.active_mtu);
	p->lid = pa.lid;
	p->pkey_tbl_len = pa.pkey_tbl_len;
	if (gid_index == GD_GID_PICK_IPV6) {
		gid_index = gd_pick_gid(v, pa.gid_tbl_len, true);
		if (gid_index < 0) {
			gd_valid_gids(v, pa.gid_tbl_len, valid, sizeof(valid));
			return gd_err(
				-EADDRNOTAVAIL,
				"--ipv6: %s port %u has no RoCE v2 GID that is an IPv6 address (valid GID indexes: %s); give the netdev an IPv6 address or drop --ipv6",
				p->dev_name, port, valid);
		}
	} else if (gid_index < 0) {
		gid_index = gd_pick_gid(v, pa.gid_tbl_len, false);
	}
	if (gid_index < 0 || gid_index >= pa.gid_tbl_len ||
	    !gd_gid_valid(v->ctx, p->port, gid_index, &p->gid)) {
		gd_valid_gids(v, pa.gid_tbl_len, valid, sizeof(valid));
		return gd_err(
			-EINVAL,
			"GID index %d is not valid on %s port %u; valid GID indexes: %s (check -x)",
			gid_index, p->dev_name, port, valid);
	}
	p->gid_index = gid_index;
	inet_ntop(AF_INET6, p->gid.raw, p->gid_text, sizeof(p->gid_text));
	snprintf(p->gid_type, sizeof(p->gid_type), "%s",
		 gd_gid_type_text(v->ctx, p->port, gid_index, &v2));
	return 0;
}

/* --use-srq: one shared receive queue of -r entries for every QP. */
static int gd_verbs_create_srq(struct gd_verbs *v, const struct gd_qp_cfg *c)
{
	struct ibv_srq_init_attr ia = {
		.attr = { .max_wr = (uint32_t)c->rx_depth, .max_sge = 1 },
	};
	struct ibv_device_attr da;

	v->srq = ibv_create_srq(v->pd, &ia);
	if (v->srq)
		return 0;
	if (ibv_query_device(v->ctx, &da))
		memset(&da, 0, sizeof(da));
	return gd_err(
		-errno ? -errno : -ENOMEM,
		"--use-srq: cannot create a shared receive queue of %llu entries (-r) on %s: %s; the device allows %d SRQs of up to %d entries (max_srq, max_srq_wr)",
		(unsigned long long)c->rx_depth, v->port.dev_name,
		strerror(errno), da.max_srq, da.max_srq_wr);
}

int gd_verbs_create_pd_cq(struct gd_verbs *v, const struct gd_qp_cfg *c)
{
	int cqe_send = (int)(c->tx_depth * c->num_qps + 16);
	int cqe_recv = (int)(c->rx_depth * c->num_qps + 16);

	v->pd = ibv_alloc_pd(v->ctx);
	if (!v->pd)
		return gd_err(-ENOMEM, "ibv_alloc_pd failed on %s: %s",
			      v->port.dev_name, strerror(errno));
	if (c->use_event) {
		v->channel = ibv_create_comp_channel(v->ctx);
		if (!v->channel)
			return gd_err(
				-errno,
				"cannot create a completion channel on %s: %s",
				v->port.dev_name, strerror(errno));
	}
	if (c->comp_vector >= (uint64_t)v->ctx->num_comp_vectors)
		return gd_err(
			-EINVAL,
			"-X %llu: %s has %d completion vector%s (num_comp_vectors), so -X is 0..%d",
			(unsigned long long)c->comp_vector, v->port.dev_name,
			v->ctx->num_comp_vectors,
			v->ctx->num_comp_vectors == 1 ? "" : "s",
			v->ctx->num_comp_vectors - 1);
	v->send_cq = ibv_create_cq(v->ctx, cqe_send, NULL, v->channel,
				   (int)c->comp_vector);
	v->recv_cq = v->send_cq ? ibv_create_cq(v->ctx, cqe_recv, NULL,
						v->channel, (int)c->comp_vector)
				: NULL;
	if (!v->send_cq || !v->recv_cq)
		return gd_err(
			-errno ? -errno : -ENOMEM,
			"cannot create CQs of %d/%d entries on %s: %s; lower -t/-r/-q or check the device's max_cqe (ibv_devinfo -v)",
			cqe_send, cqe_recv, v->port.dev_name, strerror(errno));
	return c->use_srq ? gd_verbs_create_srq(v, c) : 0;
}

uint32_t gd_sq_depth(const struct gd_qp_cfg *c)
{
	uint64_t d = c->tx_depth > c->cq_mod ? c->tx_depth : c->cq_mod;

	return (uint32_t)d + 1;
}

static enum ibv_qp_type gd_qp_type(enum gd_conn conn)
{
	return conn == GD_CONN_UC   ? IBV_QPT_UC
	       : conn == GD_CONN_UD ? IBV_QPT_UD
				    : IBV_QPT_RC;
}

static int gd_qp_to_init(struct gd_verbs *v, struct ibv_qp *qp, int access,
			 uint16_t pkey_index)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .pkey_index = pkey_index,
				 .port_num = v->port.port };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
	int ret;

	if (v->conn == GD_CONN_UD) {
		a.qkey = GD_UD_QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags =
			v->conn == GD_CONN_UC
				? (access & (IBV_ACCESS_REMOTE_WRITE |
					     IBV_ACCESS_LOCAL_WRITE))
				: access;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	ret = ibv_modify_qp(qp, &a, mask);
	if (ret)
		return gd_err(-ret, "cannot move QP 0x%x on %s to INIT: %s",
			      qp->qp_num, v->port.dev_name, strerror(ret));
	return 0;
}

/* --pkey_index against the port's P_Key table (its P_Key recorded), and
 * --dlid only where LIDs address (InfiniBand). */
static int gd_verbs_check_path(struct gd_verbs *v, const struct gd_qp_cfg *c)
{
	__be16 pkey;
	int ret;

	if (c->dlid && v->port.link_layer == IBV_LINK_LAYER_ETHERNET)
		return gd_err(
			-EINVAL,
			"--dlid %llu: %s port %u is Ethernet (RoCE), where the peer is addressed by its GID, not a LID; drop --dlid",
			(unsigned long long)c->dlid, v->port.dev_name,
			v->port.port);
	/* index 0 is what the QPs always used: a device without a P_Key
	 * table (iWARP) or an answer keeps running as before, unrecorded */
	if (!c->pkey_index && v->port.pkey_tbl_len <= 0)
		return 0;
	if (c->pkey_index >= (uint64_t)v->port.pkey_tbl_len)
		return gd_err(
			-EINVAL,
			"--pkey_index %llu: %s port %u has %d P_Key table entr%s (pkey_tbl_len), so 0..%d",
			(unsigned long long)c->pkey_index, v->port.dev_name,
			v->port.port, v->port.pkey_tbl_len,
			v->port.pkey_tbl_len == 1 ? "y" : "ies",
			v->port.pkey_tbl_len - 1);
	ret = ibv_query_pkey(v->ctx, v->port.port, (int)c->pkey_index, &pkey);
	if (ret && !c->pkey_index)
		return 0;
	if (ret)
		return gd_err(
			-EIO,
			"--pkey_index %llu: cannot read that P_Key of %s port %u (ibv_query_pkey)",
			(unsigned long long)c->pkey_index, v->port.dev_name,
			v->port.port);
	v->port.pkey = ntohs(pkey);
	if (c->pkey_index && !(v->port.pkey & 0x7fff))
		return gd_err(
			-EINVAL,
			"--pkey_index %llu: %s port %u has no partition at that index (P_Key 0x%04x); see the port's pkeys/ in sysfs",
			(unsigned long long)c->pkey_index, v->port.dev_name,
			v->port.port, v->port.pkey);
	return 0;
}

int gd_verbs_create_qps(struct gd_verbs *v, const struct gd_qp_cfg *c,
			int access)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = v->send_cq,
		.recv_cq = v->recv_cq,
		.cap = { .max_send_wr = gd_sq_depth(c),
			 .max_recv_wr = (uint32_t)c->rx_depth,
			 .max_send_sge = 1,
			 .max_recv_sge = 1,
			 .max_inline_data = (uint32_t)c->inline_bytes },
		.qp_type = gd_qp_type(c->conn),
		.srq = v->srq,
	};

	if (gd_verbs_check_path(v, c))
		return gd_err_code();
	v->conn = c->conn;
	v->num_qps = (unsigned int)c->num_qps;
	for (unsigned int i = 0; i < v->num_qps; i++) {
		v->qp[i] = ibv_create_qp(v->pd, &ia);
		if (!v->qp[i] && ia.cap.max_inline_data) {
			/* The device allows less inline data than asked:
			 * latency tests fall back to no inline. */
			ia.cap.max_inline_data = 0;
			v->qp[i] = ibv_create_qp(v->pd, &ia);
		}
		if (!v->qp[i])
			return gd_err(
				-errno ? -errno : -ENOMEM,
				"cannot create %s QP %u on %s: %s; lower -t/-r/-q or check ibv_devinfo -v limits",
				gd_conn_name(c->conn), i, v->port.dev_name,
				strerror(errno));
		v->port.max_inline_bytes = ia.cap.max_inline_data;
		v->psn[i] = (uint32_t)(lrand48() & 0xffffff);
		if (gd_qp_to_init(v, v->qp[i], access, (uint16_t)c->pkey_index))
			return gd_err_code();
	}
	return 0;
}

void gd_verbs_local_peer(const struct gd_verbs *v, struct gd_qp_peer *p)
{
	memset(p, 0, sizeof(*p));
	for (unsigned int i = 0; i < v->num_qps; i++) {
		p->qpn[i] = v->qp[i]->qp_num;
		p->psn[i] = v->psn[i];
	}
	p->gid = v->port.gid;
	p->lid = v->port.lid;
	p->mtu_bytes = v->port.active_mtu_bytes;
}

struct json_object *gd_qp_peer_to_json(const struct gd_qp_peer *p,
				       unsigned int num_qps)
{
	struct json_object *j = json_object_new_object();
	struct json_object *qpn = json_object_new_array();
	struct json_object *psn = json_object_new_array();
	char gid[64];

	for (unsigned int i = 0; i < num_qps; i++) {
		json_object_array_add(qpn, json_object_new_int64(p->qpn[i]));
		json_object_array_add(psn, json_object_new_int64(p->psn[i]));
	}
	inet_ntop(AF_INET6, p->gid.raw, gid, sizeof(gid));
	json_object_object_add(j, "qpn", qpn);
	json_object_object_add(j, "psn", psn);
	json_object_object_add(j, "gid", json_object_new_string(gid));
	json_object_object_add(j, "lid", json_object_new_int(p->lid));
	json_object_object_add(j, "mtu_bytes",
			       json_object_new_int64(p->mtu_bytes));
	return j;
}

static int gd_json_u32(struct json_object *j, const char *key, uint32_t max,
		       uint32_t *out)
{
	struct json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(j, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return gd_err(-EPROTO, "peer's QP data lacks integer '%s'",
			      key);
	x = json_object_get_int64(v);
	if (x < 0 || x > (int64_t)max)
		return gd_err(-EPROTO,
			      "peer's QP data: '%s'=%" PRId64 " out of range",
			      key, x);
	*out = (uint32_t)x;
	return 0;
}

static int gd_json_u32_array(struct json_object *j, const char *key,
			     unsigned int n, uint32_t *out)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(j, key, &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) != n)
		return gd_err(
			-EPROTO,
			"peer's QP data: '%s' must list %u QPs (same -q on both ends?)",
			key, n);
	for (unsigned int i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		int64_t x = json_object_get_int64(e);

		if (!json_object_is_type(e, json_type_int) || x < 0 ||
		    x > 0xffffff)
			return gd_err(-EPROTO, "peer's QP data: bad '%s'[%u]",
				      key, i);
		out[i] = (uint32_t)x;
	}
	return 0;
}

int gd_qp_peer_from_json(struct json_object *j, unsigned int num_qps,
			 struct gd_qp_peer *p)
{
	struct json_object *g;
	uint32_t lid;

	memset(p, 0, sizeof(*p));
	if (gd_json_u32_array(j, "qpn", num_qps, p->qpn) ||
	    gd_json_u32_array(j, "psn", num_qps, p->psn) ||
	    gd_json_u32(j, "lid", 0xffff, &lid) ||
	    gd_json_u32(j, "mtu_bytes", 4096, &p->mtu_bytes))
		return gd_err_code();
	p->lid = (uint16_t)lid;
	if (!json_object_object_get_ex(j, "gid", &g) ||
	    inet_pton(AF_INET6, json_object_get_string(g), p->gid.raw) != 1)
		return gd_err(-EPROTO, "peer's QP data lacks a valid 'gid'");
	return 0;
}

static void gd_fill_ah(const struct gd_verbs *v, const struct gd_qp_cfg *c,
		       const struct gd_qp_peer *peer, unsigned int qp,
		       struct ibv_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->dlid = c->dlid ? (uint16_t)c->dlid : peer->lid;
	ah->sl = (uint8_t)c->sl;
	ah->port_num = v->port.port;
	if (v->port.link_layer == IBV_LINK_LAYER_ETHERNET ||
	    peer->gid.global.interface_id) {
		ah->is_global = 1;
		ah->grh.dgid = peer->gid;
		ah->grh.sgid_index = (uint8_t)v->port.gid_index;
		ah->grh.hop_limit = 64;
		ah->grh.traffic_class = c->tos >= 0 ? (uint8_t)c->tos : 0;
		/* --flow_label: round robin over the QPs, as perftest */
		if (c->num_flow_labels)
			ah->grh.flow_label =
				c->flow_labels[qp % c->num_flow_labels];
	}
}

int gd_verbs_rd_atom(struct gd_verbs *v, uint64_t want, uint64_t *rd_atom)
{
	struct ibv_device_attr da;
	int limit, ret = ibv_query_device(v->ctx, &da);

	if (ret)
		return gd_err(
			-ret,
			"cannot ask %s for its outstanding reads/atomics limit (ibv_query_device): %s; check the device with ibv_devinfo -v",
			v->port.dev_name, strerror(ret));
	/* both ends use one value as initiator and as responder */
	limit = da.max_qp_rd_atom < da.max_qp_init_rd_atom
			? da.max_qp_rd_atom
			: da.max_qp_init_rd_atom;
	if (limit < 0)
		limit = 0;
	if (want > (uint64_t)limit)
		return gd_err(
			-EINVAL,
			"-o %llu: %s allows at most %d outstanding reads/atomics per QP (max_qp_rd_atom %d, max_qp_init_rd_atom %d); give -o %d or less on both ends",
			(unsigned long long)want, v->port.dev_name, limit,
			da.max_qp_rd_atom, da.max_qp_init_rd_atom, limit);
	if (!want)
		want = limit < GD_RD_ATOM_DEFAULT ? (uint64_t)limit
						  : GD_RD_ATOM_DEFAULT;
	*rd_atom = want;
	return 0;
}

static int gd_qp_rtr_rts(struct gd_verbs *v, const struct gd_qp_cfg *c,
			 const struct gd_qp_peer *peer, unsigned int i)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	uint32_t mtu = c->mtu_bytes ? (uint32_t)c->mtu_bytes
				    : v->port.active_mtu_bytes;
	int mask = IBV_QP_STATE, ret;

	if (peer->mtu_bytes && peer->mtu_bytes < mtu)
		mtu = peer->mtu_bytes;
	if (v->conn != GD_CONN_UD) {
		a.path_mtu = gd_mtu_enum(mtu);
		a.dest_qp_num = peer->qpn[i];
		a.rq_psn = peer->psn[i];
		gd_fill_ah(v, c, peer, i, &a.ah_attr);
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN;
		if (v->conn == GD_CONN_RC) {
			a.max_dest_rd_atomic = (uint8_t)c->rd_atom;
			a.min_rnr_timer = 12;
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC |
				IBV_QP_MIN_RNR_TIMER;
		}
	}
	ret = ibv_modify_qp(v->qp[i], &a, mask);
	if (ret)
		return gd_err(
			-ret,
			"cannot move QP 0x%x on %s to RTR (peer QP 0x%x, MTU %u): %s; check GID index (-x) and MTU (-m) on both ends",
			v->qp[i]->qp_num, v->port.dev_name, peer->qpn[i], mtu,
			strerror(ret));
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = v->psn[i];
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (v->conn == GD_CONN_RC) {
		a.timeout = (uint8_t)c->qp_timeout;
		a.retry_cnt = (uint8_t)c->retry_count;
		a.rnr_retry = 7;
		a.max_rd_atomic = (uint8_t)c->rd_atom;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	ret = ibv_modify_qp(v->qp[i], &a, mask);
	if (ret)
		return gd_err(-ret, "cannot move QP 0x%x on %s to RTS: %s",
			      v->qp[i]->qp_num, v->port.dev_name,
			      strerror(ret));
	return 0;
}

int gd_verbs_connect(struct gd_verbs *v, const struct gd_qp_cfg *c,
		     const struct gd_qp_peer *peer)
{
	for (unsigned int i = 0; i < v->num_qps; i++) {
		v->remote_qpn[i] = peer->qpn[i];
		if (gd_qp_rtr_rts(v, c, peer, i))
			return gd_err_code();
	}
	if (v->conn == GD_CONN_UD) {
		struct ibv_ah_attr ah;

		gd_fill_ah(v, c, peer, 0, &ah);
		v->ah = ibv_create_ah(v->pd, &ah);
		if (!v->ah)
			return gd_err(
				-errno ? -errno : -EINVAL,
				"cannot create an address handle to the peer on %s: %s; check the GID index (-x)",
				v->port.dev_name, strerror(errno));
	}
	return 0;
}

void gd_verbs_close(struct gd_verbs *v)
{
	if (v->ah)
		ibv_destroy_ah(v->ah);
	/* rdma_cm's QPs are gone already (gd_cm_close runs first) */
	for (unsigned int i = 0; i < GD_MAX_QPS; i++)
		if (v->qp[i])
			ibv_destroy_qp(v->qp[i]);
	if (v->srq)
		ibv_destroy_srq(v->srq);
	if (v->send_cq)
		ibv_destroy_cq(v->send_cq);
	if (v->recv_cq)
		ibv_destroy_cq(v->recv_cq);
	if (v->channel)
		ibv_destroy_comp_channel(v->channel);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx && v->ctx_owned)
		ibv_close_device(v->ctx);
	memset(v, 0, sizeof(*v));
}

/* The GRH flow label of each connected RC/UC QP as the device reports it
 * (ibv_query_qp), the evidence that --flow_label reached the QPs; nothing
 * before the QPs are connected, for UD (its address handle carries it)
 * or without a GRH. */
static void gd_describe_flow_labels(const struct gd_verbs *v,
				    struct json_object *j)
{
	struct json_object *arr = NULL;

	for (unsigned int i = 0; i < v->num_qps && v->conn != GD_CONN_UD; i++) {
		struct ibv_qp_attr a;
		struct ibv_qp_init_attr ia;

		if (!v->qp[i] ||
		    ibv_query_qp(v->qp[i], &a, IBV_QP_STATE | IBV_QP_AV, &ia) ||
		    a.qp_state < IBV_QPS_RTR || !a.ah_attr.is_global)
			break;
		if (!arr)
			arr = json_object_new_array();
		json_object_array_add(
			arr, json_object_new_int64(a.ah_attr.grh.flow_label));
	}
	if (arr)
		json_object_object_add(j, "grh_flow_labels", arr);
}

struct json_object *gd_verbs_describe(const struct gd_verbs *v)
{
	struct json_object *j = json_object_new_object();
	const struct gd_port_info *p = &v->port;

	json_object_object_add(j, "device",
			       json_object_new_string(p->dev_name));
	json_object_object_add(j, "port", json_object_new_int(p->port));
	json_object_object_add(
		j, "link_layer",
		json_object_new_string(p->link_layer == IBV_LINK_LAYER_ETHERNET
					       ? "Ethernet"
					       : "InfiniBand"));
	json_object_object_add(j, "active_mtu_bytes",
			       json_object_new_int64(p->active_mtu_bytes));
	json_object_object_add(j, "gid_index",
			       json_object_new_int(p->gid_index));
	json_object_object_add(j, "gid", json_object_new_string(p->gid_text));
	json_object_object_add(j, "gid_type",
			       json_object_new_string(p->gid_type));
	json_object_object_add(j, "lid", json_object_new_int(p->lid));
	json_object_object_add(j, "qp_type",
			       json_object_new_string(gd_conn_name(v->conn)));
	json_object_object_add(j, "max_inline_bytes",
			       json_object_new_int64(p->max_inline_bytes));
	json_object_object_add(j, "srq",
			       json_object_new_boolean(v->srq != NULL));
	if (v->port.pkey) {
		char pk[8];

		snprintf(pk, sizeof(pk), "0x%04x", v->port.pkey);
		json_object_object_add(j, "pkey", json_object_new_string(pk));
	}
	gd_describe_flow_labels(v, j);
	return j;
}

static const char *gd_wc_hint(enum ibv_wc_status s)
{
	switch (s) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer stopped acknowledging: is the peer process still running, the link up, and the GID (-x) and MTU right on both ends?";
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return "the receiver had no receive buffer posted: check the peer's -r and that it runs the same test";
	case IBV_WC_REM_ACCESS_ERR:
		return "the peer refused the remote address or key: check that both ends run the same test and memory placement";
	case IBV_WC_LOC_PROT_ERR:
	case IBV_WC_LOC_ACCESS_ERR:
		return "local memory registration does not cover the buffer: check the memory backend and its registration route";
	case IBV_WC_WR_FLUSH_ERR:
		return "the QP went to the error state after an earlier failure";
	default:
		return "check the port counters (hw_counters) and dmesg on both ends";
	}
}

int gd_verbs_poll(struct gd_verbs *v, struct ibv_cq *cq, struct ibv_wc *wc,
		  int max, bool use_event)
{
	int n = ibv_poll_cq(cq, max, wc);

	if (n == 0 && use_event) {
		struct ibv_cq *ev_cq;
		void *ev_ctx;

		if (ibv_req_notify_cq(cq, 0))
			return gd_err(-EIO, "ibv_req_notify_cq failed on %s",
				      v->port.dev_name);
		n = ibv_poll_cq(cq, max, wc);
		if (n == 0) {
			if (ibv_get_cq_event(v->channel, &ev_cq, &ev_ctx))
				return gd_err(-EIO,
					      "ibv_get_cq_event failed on %s",
					      v->port.dev_name);
			ibv_ack_cq_events(ev_cq, 1);
			n = ibv_poll_cq(cq, max, wc);
		}
	}
	if (n < 0)
		return gd_err(-EIO, "ibv_poll_cq failed on %s",
			      v->port.dev_name);
	for (int i = 0; i < n; i++)
		if (wc[i].status != IBV_WC_SUCCESS)
			return gd_err(
				-EIO,
				"work completion failed on %s: %s (status %d, opcode %d, vendor error 0x%x): %s",
				v->port.dev_name,
				ibv_wc_status_str(wc[i].status), wc[i].status,
				wc[i].opcode, wc[i].vendor_err,
				gd_wc_hint(wc[i].status));
	return n;
}

int gd_gid_to_ipv4(const union ibv_gid *gid, char *buf, size_t len)
{
	if (!gd_gid_is_ipv4(gid))
		return gd_err(
			-EINVAL,
			"GID is not IPv4-mapped: -R needs an IPv4 RoCE GID (check -x)");
	if (!inet_ntop(AF_INET, gid->raw + 12, buf, (socklen_t)len))
		return -EINVAL;
	return 0;
}
