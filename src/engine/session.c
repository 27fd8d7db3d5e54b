/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Session setup: the side-channel handshake (hello, test description,
 * accept or reject), the verbs resources, the buffers of every memory
 * placement registered once up front, and the QP/buffer exchange.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/socket.h>

#include <json-c/json.h>

#include "transport/counters.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/stop.h"
#include "engine/session.h"
#include "engine/payload.h"
#include "engine/limits.h"
#include "engine/session_auth.h"
#include "engine/serve.h"

static int gd_connect_oob(struct gd_session *s)
{
	struct gd_opts *o = s->o;
	int ret;

	gd_oob_init(&s->oob, (int)o->oob_timeout_ms);
	s->oob.bind_host = o->bind_addr;
	s->oob.family = o->ipv6_addr ? AF_INET6 : AF_UNSPEC;
	/* a bad key file ends the run before it waits for anyone */
	ret = gd_session_auth_prepare(s);
	if (ret)
		return ret;
	if (s->is_server)
		return gd_session_serve(s);
	gd_stop_during("connecting to %s port %" PRIu64, o->server_host,
		       o->tcp_port);
	return gd_oob_connect(&s->oob, o->server_host, (uint16_t)o->tcp_port);
}

/* cuda:near, cuda:far: the device the GPU-to-NIC map of this side's
 * envelope puts nearest to the NIC in use, or farthest with a route. */
static int gd_resolve_place(struct gd_session *s, unsigned int p,
			    const char *text, struct gd_mem_spec *spec)
{
	const struct gd_mem_ops *ops = gd_mem_device_backend(text);
	struct json_object *env =
		gd_json_path(gd_report_root(s->rep), "envelope", NULL);
	int ret;

	if (spec->locality == GD_MEM_NAMED)
		return 0;
	if (!ops || !ops->envelope)
		return gd_err(
			-EINVAL,
			"--mem %s: this memory has no GPU-to-NIC map to choose from",
			text);
	ret = gd_envelope_pick_device(
		env, ops->envelope->map_index_key, s->v.port.dev_name,
		spec->locality == GD_MEM_NEAR ? GD_LOCALITY_NEAR
					      : GD_LOCALITY_FAR,
		&s->pick[p]);
	if (ret)
		return ret;
	s->picked[p] = true;
	spec->gpu_index = s->pick[p].index;
	spec->locality = GD_MEM_NAMED;
	return 0;
}

/* --mr_per_qp: each QP's slot of @lb registered again as an MR of its
 * own, the keys the posts then use. */
static int gd_register_slots(struct gd_session *s, struct gd_local_buf *lb)
{
	for (unsigned int q = 0; q < s->o->num_qps; q++) {
		int ret = gd_mem_register_part(&lb->mem, q * s->slot_bytes,
					       s->slot_bytes, s->v.pd,
					       s->mr_access, &lb->qp_mr[q]);

		if (ret)
			return gd_err(ret, "--mr_per_qp: QP %u's slot: %s", q,
				      gd_err_msg());
		lb->qp_rkeys[q] = lb->qp_mr[q]->rkey;
		lb->num_qp_mr = q + 1;
	}
	/* Only the per-QP MRs stay, as in perftest: a post with the whole
	 * buffer's key would now fail, so a passing run used the QPs' own.
	 * mem.mr names the first for what asks whether it is registered. */
	if (ibv_dereg_mr(lb->mem.mr))
		return gd_err(
			-EIO,
			"--mr_per_qp: cannot deregister the %s buffer's whole MR: %s",
			lb->mem.ops->name, strerror(errno));
	lb->mem.mr = lb->qp_mr[0];
	return 0;
}

/* Deregister and free what gd_alloc_place made of @lb; 0 or the first
 * error of the buffer's release (cuMemFree, the GPU context), recorded. */
static int gd_release_place(struct gd_local_buf *lb)
{
	if (lb->num_qp_mr && lb->mem.mr == lb->qp_mr[0])
		lb->mem.mr = NULL;
	for (unsigned int q = 0; q < lb->num_qp_mr; q++)
		(void)ibv_dereg_mr(lb->qp_mr[q]);
	lb->num_qp_mr = 0;
	return gd_mem_free(&lb->mem);
}

/* @options: this side's effective options, where a backend finds the
 * per-run settings perftest spells as options of their own. */
static int gd_alloc_place(struct gd_session *s, unsigned int p,
			  const char *spec_text, struct json_object *options)
{
	struct gd_local_buf *lb = &s->local[p];
	size_t len = s->slot_bytes * s->o->num_qps;
	struct json_object *ev;
	struct gd_mem_spec spec;
	int ret;

	ret = gd_mem_spec_parse(spec_text, &spec);
	if (!ret)
		ret = gd_resolve_place(s, p, spec_text, &spec);
	if (!ret)
		gd_mem_spec_apply_options(&spec, options);
	if (!ret)
		ret = gd_mem_alloc(&lb->mem, &spec, len);
	if (!ret && s->o->payload)
		ret = gd_payload_fill(&lb->mem, s->o->payload,
				      s->o->payload_bytes);
	if (!ret)
		ret = gd_mem_register(&lb->mem, s->v.pd, s->mr_access);
	if (!ret && s->o->mr_per_qp)
		ret = gd_register_slots(s, lb);
	if (ret) {
		snprintf(lb->why_absent, sizeof(lb->why_absent), "%s",
			 gd_err_msg());
		snprintf(lb->stage, sizeof(lb->stage), "register");
		lb->err = ret;
		/* the registration's failure is the one recorded; its route
		 * evidence stays for the header (freed with the buffer) */
		ev = gd_mem_take_evidence(&lb->mem);
		(void)gd_release_place(lb);
		lb->mem.evidence = ev;
		if (p == GD_PLACE_HOST)
			return ret;
		/* A device placement that fails only fails its phases. */
		gd_report_notice("%s%s: %s memory unavailable: %s",
				 s->test->name, s->is_server ? " (server)" : "",
				 spec_text, lb->why_absent);
		gd_err_clear();
		return 0;
	}
	lb->ok = true;
	return 0;
}

static int gd_setup_buffers(struct gd_session *s)
{
	const char *host = s->o->use_hugepages ? "hugepage" : "host";
	struct json_object *options = s->o->ops->effective(s->o);
	int ret;

	ret = gd_alloc_place(s, GD_PLACE_HOST, host, options);
	for (unsigned int p = GD_PLACE_DEV; !ret && p < GD_PLACE_COUNT; p++) {
		struct gd_local_buf *lb = &s->local[p];

		if (p <= s->o->num_mem)
			ret = gd_alloc_place(s, p, s->o->mem_list[p - 1],
					     options);
		else if (!s->o->num_mem)
			snprintf(
				lb->why_absent, sizeof(lb->why_absent),
				"this side has no device memory configured (no --mem)");
		else
			snprintf(
				lb->why_absent, sizeof(lb->why_absent),
				"this side has no D%u: its --mem lists %u device memor%s",
				p, s->o->num_mem,
				s->o->num_mem == 1 ? "y" : "ies");
	}
	json_object_put(options);
	return ret;
}

/* D1 travels as "D", so a one-memory run is what it always was. */
static const char *const gd_place_key[GD_PLACE_COUNT] = { "H", "D", "D2", "D3",
							  "D4" };

/* The peer's --mr_per_qp keys, one per QP, into @rb. */
static int gd_slot_keys_from_json(struct gd_session *s,
				  struct gd_remote_buf *rb,
				  struct json_object *keys)
{
	size_t n = json_object_is_type(keys, json_type_array)
			   ? json_object_array_length(keys)
			   : 0;

	if (n != s->o->num_qps)
		return gd_err(
			-EPROTO,
			"peer %s sent %zu per-QP keys (--mr_per_qp) for %llu QPs; are both ends the same gdperf version?",
			s->oob.peer_name, n, (unsigned long long)s->o->num_qps);
	for (size_t q = 0; q < n; q++) {
		struct json_object *k = json_object_array_get_idx(keys, q);
		int64_t v = json_object_get_int64(k);

		if (!json_object_is_type(k, json_type_int) || v < 0 ||
		    v > UINT32_MAX)
			return gd_err(
				-EPROTO,
				"peer %s sent a per-QP key that is no 32-bit number",
				s->oob.peer_name);
		rb->rkeys[q] = (uint32_t)v;
	}
	rb->num_rkeys = (unsigned int)n;
	return 0;
}

static struct json_object *gd_bufs_json(const struct gd_session *s)
{
	struct json_object *b = json_object_new_object();

	for (unsigned int p = 0; p < GD_PLACE_COUNT; p++) {
		const struct gd_local_buf *lb = &s->local[p];
		struct json_object *e = json_object_new_object();

		if (lb->ok) {
			json_object_object_add(
				e, "addr",
				json_object_new_int64(
					(int64_t)(uintptr_t)lb->mem.addr));
			json_object_object_add(
				e, "rkey",
				json_object_new_int64(lb->mem.mr->rkey));
			json_object_object_add(e, "memory",
					       gd_mem_describe(&lb->mem));
			if (lb->num_qp_mr)
				json_object_object_add(
					e, "rkeys",
					gd_keys_json(lb->qp_rkeys,
						     lb->num_qp_mr));
		} else {
			json_object_object_add(
				e, "error",
				json_object_new_string(lb->why_absent));
			if (lb->stage[0])
				json_object_object_add(
					e, "stage",
					json_object_new_string(lb->stage));
			if (lb->err)
				json_object_object_add(
					e, "code",
					json_object_new_int(lb->err));
		}
		json_object_object_add(b, gd_place_key[p], e);
	}
	return b;
}

static int gd_bufs_from_json(struct gd_session *s, struct json_object *b)
{
	for (unsigned int p = 0; p < GD_PLACE_COUNT; p++) {
		struct gd_remote_buf *rb = &s->remote[p];
		struct json_object *e = NULL, *a, *k, *err;

		if (!json_object_object_get_ex(b, gd_place_key[p], &e) &&
		    p > GD_PLACE_DEV) {
			snprintf(rb->why_absent, sizeof(rb->why_absent),
				 "peer: it has no D%u configured", p);
			continue;
		}
		if (!e)
			return gd_err(-EPROTO,
				      "peer %s sent no buffer entry '%s'",
				      s->oob.peer_name, gd_place_key[p]);
		if (json_object_object_get_ex(e, "addr", &a) &&
		    json_object_object_get_ex(e, "rkey", &k) &&
		    json_object_is_type(a, json_type_int) &&
		    json_object_is_type(k, json_type_int) &&
		    json_object_get_int64(k) >= 0 &&
		    json_object_get_int64(k) <= UINT32_MAX) {
			rb->present = true;
			rb->addr = (uint64_t)json_object_get_int64(a);
			rb->rkey = (uint32_t)json_object_get_int64(k);
			if (json_object_object_get_ex(e, "rkeys", &k) &&
			    gd_slot_keys_from_json(s, rb, k))
				return gd_err_code();
			/* the document's readers expect an object there */
			if (json_object_object_get_ex(e, "memory", &err) &&
			    json_object_is_type(err, json_type_object))
				rb->memory = json_object_get(err);
		} else if (json_object_object_get_ex(e, "error", &err)) {
			snprintf(rb->why_absent, sizeof(rb->why_absent),
				 "peer: %s", json_object_get_string(err));
			if (json_object_object_get_ex(e, "stage", &err))
				snprintf(rb->stage, sizeof(rb->stage), "%s",
					 json_object_get_string(err));
			if (json_object_object_get_ex(e, "code", &err) &&
			    json_object_is_type(err, json_type_int) &&
			    json_object_get_int(err) < 0)
				rb->err = json_object_get_int(err);
		} else {
			return gd_err(
				-EPROTO,
				"peer %s sent a malformed buffer entry '%s'",
				s->oob.peer_name, gd_place_key[p]);
		}
	}
	return 0;
}

int gd_session_take_peer_info(struct gd_session *s, struct json_object *peer,
			      struct gd_qp_peer *rp, char *cm_ip,
			      size_t cm_ip_len)
{
	struct json_object *x;
	const char *ip;
	int ret = 0;

	if (!json_object_is_type(peer, json_type_object))
		return gd_err(-EPROTO, "peer %s sent QP data that is no object",
			      s->oob.peer_name);
	if (!s->o->rdma_cm)
		ret = json_object_object_get_ex(peer, "qp", &x)
			      ? gd_qp_peer_from_json(x, s->v.num_qps, rp)
			      : gd_err(-EPROTO, "peer sent no QP data");
	else if (!s->is_server && (ip = gd_json_str(peer, "cm_ip")))
		snprintf(cm_ip, cm_ip_len, "%s", ip);
	if (!ret)
		ret = json_object_object_get_ex(peer, "bufs", &x)
			      ? gd_bufs_from_json(s, x)
			      : gd_err(-EPROTO, "peer sent no buffer data");
	if (!ret && json_object_object_get_ex(peer, "endpoint", &x) &&
	    json_object_is_type(x, json_type_object)) {
		json_object_put(s->remote_endpoint);
		s->remote_endpoint = json_object_get(x);
	}
	return ret;
}

static int gd_exchange_qp_info(struct gd_session *s, char *cm_ip,
			       size_t cm_ip_len)
{
	struct json_object *mine = json_object_new_object(), *peer = NULL;
	struct gd_qp_peer lp, rp;
	int ret;

	if (!s->o->rdma_cm) {
		gd_verbs_local_peer(&s->v, &lp);
		/* -g: the peer sends to our group, not to our QP */
		if (s->o->mcg) {
			gd_mcast_group(&s->v.port,
				       s->o->mgid ? s->o->mgid_raw : NULL,
				       !s->is_server, &s->mcast.group);
			if (gd_mcast_join(&s->v, &s->mcast)) {
				json_object_put(mine);
				return gd_err_code();
			}
			lp.gid = s->mcast.group;
			lp.qpn[0] = GD_MCAST_QPN;
		}
		json_object_object_add(mine, "qp",
				       gd_qp_peer_to_json(&lp, s->v.num_qps));
	}
	json_object_object_add(mine, "bufs", gd_bufs_json(s));
	json_object_object_add(mine, "endpoint", gd_verbs_describe(&s->v));
	if (s->o->mcg)
		json_object_object_add(json_object_object_get(mine, "endpoint"),
				       "multicast",
				       gd_mcast_describe(&s->mcast));
	json_object_object_add(mine, "cm_ip", json_object_new_string(cm_ip));
	/* The server speaks first so a client never waits on a dead server. */
	if (s->is_server)
		ret = gd_oob_send(&s->oob, GD_FRAME_QP_INFO, mine);
	else
		ret = gd_oob_recv(&s->oob, GD_FRAME_QP_INFO, &peer);
	if (!ret && s->is_server)
		ret = gd_oob_recv(&s->oob, GD_FRAME_QP_INFO, &peer);
	else if (!ret)
		ret = gd_oob_send(&s->oob, GD_FRAME_QP_INFO, mine);
	json_object_put(mine);
	if (!ret)
		ret = gd_session_take_peer_info(s, peer, &rp, cm_ip, cm_ip_len);
	if (!ret && !s->o->rdma_cm)
		ret = gd_verbs_connect(&s->v, &s->qp, &rp);
	json_object_put(peer);
	return ret;
}

static uint64_t gd_max_size(const struct gd_opts *o)
{
	return gd_opts_max_size(o);
}

static int gd_check_ud_mtu(struct gd_session *s)
{
	uint32_t mtu = s->o->mtu_bytes ? (uint32_t)s->o->mtu_bytes
				       : s->v.port.active_mtu_bytes;

	if (s->o->conn == GD_CONN_UD && gd_max_size(s->o) > mtu)
		return gd_err(
			-EINVAL,
			"UD messages cannot exceed the path MTU (%u bytes on %s); use -s or --max-size of at most %u",
			mtu, s->v.port.dev_name, mtu);
	return 0;
}

/* Does any planned phase put this side's buffer in GPU memory? */
static bool gd_uses_gpu_memory(const struct gd_session *s)
{
	for (unsigned int i = 0; i < s->num_phases; i++) {
		unsigned int p = s->is_server ? s->phases[i].server_place
					      : s->phases[i].client_place;

		if (p != GD_PLACE_HOST && p <= s->o->num_mem &&
		    gd_mem_spec_is_device(s->o->mem_list[p - 1]))
			return true;
	}
	return false;
}

/* Relaxed ordering lets the PCIe root complex reorder the NIC's writes, as
 * perftest does by default: without it GPU bandwidth can read low. It is an
 * optional flag (rdma-core >= 28 drops it where unsupported); the build
 * knows it for sure with rdma-core >= 34 (ibv_reg_dmabuf_mr). */
static void gd_setup_access(struct gd_session *s)
{
	s->access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		    IBV_ACCESS_REMOTE_READ;
	if (s->o->conn == GD_CONN_RC)
		s->access |= IBV_ACCESS_REMOTE_ATOMIC;
	s->mr_access = s->access;
#ifdef HAVE_IBV_REG_DMABUF_MR
	if (!s->o->disable_pcie_relaxed)
		s->mr_access |= IBV_ACCESS_RELAXED_ORDERING;
#endif
}

const char *gd_session_relaxed_ordering(const struct gd_session *s)
{
	if (s->o->disable_pcie_relaxed)
		return "off (--disable_pcie_relaxed)";
#ifdef HAVE_IBV_REG_DMABUF_MR
	return "on (IBV_ACCESS_RELAXED_ORDERING on every registration)";
#else
	return "off (this build's rdma-core predates IBV_ACCESS_RELAXED_ORDERING)";
#endif
}

int gd_session_setup_memory(struct gd_session *s)
{
	gd_setup_access(s);
	return gd_setup_buffers(s);
}

static void gd_setup_qp_cfg(struct gd_session *s)
{
	const struct gd_opts *o = s->o;

	s->qp = (struct gd_qp_cfg){
		.conn = o->conn,
		.num_qps = o->num_qps,
		.tx_depth = o->tx_depth,
		.rx_depth = o->rx_depth,
		.cq_mod = o->cq_mod,
		.inline_bytes = o->inline_bytes,
		.use_event = o->use_event,
		.mtu_bytes = o->mtu_bytes,
		.sl = o->sl,
		.tos = o->tos,
		.qp_timeout = o->qp_timeout,
		.retry_count = o->retry_count,
		.comp_vector = o->comp_vector,
		.pkey_index = o->pkey_index,
		.dlid = o->dlid,
		.use_srq = o->use_srq,
		.flow_labels = o->flow_labels,
		.num_flow_labels = o->num_flow_labels,
	};
}

static int gd_setup_verbs(struct gd_session *s, char *cm_ip, size_t len)
{
	struct gd_opts *o = s->o;
	int ret;

	gd_setup_qp_cfg(s);
	/* mlx5 reads it when the device context is created. */
	if (gd_uses_gpu_memory(s))
		gd_verbs_no_scatter_to_cqe(s->scatter_to_cqe,
					   sizeof(s->scatter_to_cqe));
	ret = o->rdma_cm
		      ? gd_cm_open(&s->cm, &s->v, o->ib_dev,
				   (unsigned int)o->ib_port, (int)o->gid_index)
		      : gd_verbs_open(&s->v, o->ib_dev,
				      (unsigned int)o->ib_port,
				      o->ipv6_gid ? GD_GID_PICK_IPV6
						  : (int)o->gid_index);
	if (!ret)
		ret = gd_check_ud_mtu(s);
	if (!ret)
		ret = gd_verbs_rd_atom(&s->v, o->outs, &s->qp.rd_atom);
	if (!ret)
		ret = gd_verbs_create_pd_cq(&s->v, &s->qp);
	gd_acct_mark(&s->acct, GD_ACCT_DEVICE);
	if (!ret)
		ret = gd_session_setup_memory(s);
	gd_acct_mark(&s->acct, GD_ACCT_MEMORY);
	if (ret)
		return ret;
	if (!o->rdma_cm)
		return gd_verbs_create_qps(&s->v, &s->qp, s->access);
	ret = gd_gid_to_ipv4(&s->v.port.gid, cm_ip, len);
	if (!ret && s->is_server)
		ret = gd_cm_listen(&s->cm, cm_ip, (uint16_t)(o->tcp_port + 1));
	return ret;
}

int gd_session_setup(struct gd_session *s)
{
	char cm_ip[64] = "";
	int ret;

	ret = gd_connect_oob(s);
	gd_acct_mark(&s->acct, GD_ACCT_CONNECT);
	if (ret)
		return ret;
	gd_stop_during("setting up the test with peer %s", s->oob.peer_name);
	/* the server's handshake was its accept loop's */
	ret = s->is_server ? 0 : gd_session_handshake(s);
	if (!ret)
		ret = gd_sweep_plan(s);
	gd_acct_mark(&s->acct, GD_ACCT_HANDSHAKE);
	if (!ret) {
		/* Two page-aligned halves: outgoing data and, for ping-pong
		 * writes, the region the peer writes into (a message that
		 * straddles a page costs the provider a second page copy);
		 * the bytes the server's --max-memory counted. */
		s->slot_bytes = (size_t)gd_limits_slot_bytes(
			gd_max_size(s->o), s->o->conn == GD_CONN_UD);
		ret = gd_setup_verbs(s, cm_ip, sizeof(cm_ip));
	}
	gd_acct_mark(&s->acct, GD_ACCT_DEVICE);
	if (!ret) {
		s->counters_lifespan_ms = gd_counters_lifespan_ms(
			gd_counters_root(s->o->counters_root),
			s->v.port.dev_name, s->v.port.port);
		ret = gd_exchange_qp_info(s, cm_ip, sizeof(cm_ip));
	}
	if (!ret && s->o->rdma_cm)
		ret = s->is_server
			      ? gd_cm_accept(&s->cm, &s->qp, s->access)
			      : gd_cm_connect(&s->cm, &s->qp, cm_ip,
					      (uint16_t)(s->o->tcp_port + 1),
					      s->access);
	gd_acct_mark(&s->acct, GD_ACCT_QP);
	if (ret && s->oob.fd >= 0 && gd_stop_signal())
		gd_oob_send_interrupted(&s->oob,
					gd_stop_signal_name(gd_stop_signal()),
					gd_stop_during_text());
	else if (ret && s->oob.fd >= 0)
		gd_oob_send_error(&s->oob, gd_err_code(), gd_err_msg());
	return ret;
}

static double gd_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until @until (CLOCK_MONOTONIC seconds) in slices of 50 ms, so that
 * a signal ends it within one; the signal's number, 0 when none came. */
static int gd_sleep_until(double until)
{
	const struct timespec slice = { .tv_nsec = 50 * 1000 * 1000 };

	while (!gd_stop_signal() && gd_mono_s() < until)
		nanosleep(&slice, NULL);
	return gd_stop_signal();
}

int gd_session_wait_destroy(struct gd_session *s)
{
	const char *who = s->is_server ? " (server)" : "";
	double start;
	int sig;

	if (!s->o->wait_destroy_s || gd_stop_signal())
		return 0;
	/* the peer's teardown must not wait on this end's heartbeat */
	gd_oob_close(&s->oob);
	start = gd_mono_s();
	gd_stop_during("the --wait_destroy wait");
	gd_report_notice("%s%s: --wait_destroy: waiting %" PRIu64
			 " s before destroying the QPs, CQs, MRs and PD",
			 s->test->name, who, s->o->wait_destroy_s);
	sig = gd_sleep_until(start + (double)s->o->wait_destroy_s);
	if (sig)
		gd_report_notice(
			"%s%s: --wait_destroy: %s ended the wait after %.1f of %" PRIu64
			" s; the results are complete",
			s->test->name, who, gd_stop_signal_name(sig),
			gd_mono_s() - start, s->o->wait_destroy_s);
	return sig;
}

/* A buffer's release failed at teardown: said once, beside the table, and
 * never in place of the run's own error. */
static void gd_teardown_notice(struct gd_session *s, unsigned int p)
{
	const struct gd_mem_ops *ops = s->local[p].mem.ops;
	bool was_set = gd_err_is_set();
	char msg[GD_ERR_MSG_MAX];
	int ret = gd_release_place(&s->local[p]);

	if (!ret)
		return;
	gd_err_take(was_set, ret, msg, sizeof(msg));
	gd_report_notice("%s: teardown of the %s buffer failed: %s",
			 s->test->name, ops ? ops->name : "unknown", msg);
}

void gd_session_teardown(struct gd_session *s)
{
	for (unsigned int p = 0; p < GD_PLACE_COUNT; p++) {
		gd_teardown_notice(s, p);
		json_object_put(s->remote[p].memory);
		s->remote[p].memory = NULL;
	}
	gd_cm_close(&s->cm);
	gd_mcast_leave(&s->v, &s->mcast);
	gd_verbs_close(&s->v);
	gd_oob_close(&s->oob);
	gd_auth_clear(&s->auth);
	free(s->samples_ns);
	gd_serve_forget(s);
	json_object_put(s->remote_endpoint);
	s->samples_ns = NULL;
	s->remote_endpoint = NULL;
}
