/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The rdma_cm connection path (-R): the QPs are created on rdma_cm ids and
 * connected by the connection manager instead of by exchanging QP numbers.
 * The TCP side channel still carries the test description and results.
 * The connection manager's state lives here (struct gd_cm) and points down
 * to the verbs it fills; verbs.c knows nothing of it, so teardown goes one
 * way: gd_cm_close, then gd_verbs_close.
 */
#include <config.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>

#include <rdma/rdma_cma.h>

#include "util/error.h"
#include "transport/cm.h"
#include "transport/verbs.h"

#define GD_CM_TIMEOUT_MS 5000

int gd_cm_open(struct gd_cm *cm, struct gd_verbs *v, const char *name,
	       unsigned int port, int gid_index)
{
	struct ibv_context **list;
	int n = 0;

	list = rdma_get_devices(&n);
	if (!list || n == 0) {
		if (list)
			rdma_free_devices(list);
		return gd_err(
			-ENODEV,
			"rdma_cm sees no RDMA device: check that rdma_ucm is loaded (ls /dev/infiniband/rdma_cm)");
	}
	for (int i = 0; i < n && !v->ctx; i++)
		if (!name ||
		    !strcmp(ibv_get_device_name(list[i]->device), name))
			v->ctx = list[i];
	rdma_free_devices(list);
	if (!v->ctx)
		return gd_err(
			-ENODEV,
			"rdma_cm does not know device '%s' (check -d; ibv_devices lists the names)",
			name);
	v->ctx_owned = false;
	cm->v = v;
	cm->channel = rdma_create_event_channel();
	if (!cm->channel)
		return gd_err(
			-errno,
			"cannot create an rdma_cm event channel: %s; check /dev/infiniband/rdma_cm",
			strerror(errno));
	return gd_verbs_query_port(v, port, gid_index);
}

void gd_cm_close(struct gd_cm *cm)
{
	struct gd_verbs *v = cm->v;

	for (unsigned int i = 0; i < GD_MAX_QPS; i++) {
		if (!cm->id[i])
			continue;
		rdma_disconnect(cm->id[i]);
		if (cm->id[i]->qp)
			rdma_destroy_qp(cm->id[i]);
		rdma_destroy_id(cm->id[i]);
		cm->id[i] = NULL;
		/* the QP was the id's: gd_verbs_close must not see it */
		v->qp[i] = NULL;
	}
	if (cm->listen)
		rdma_destroy_id(cm->listen);
	if (cm->channel)
		rdma_destroy_event_channel(cm->channel);
	cm->listen = NULL;
	cm->channel = NULL;
}

/* Wait for one event of @type; any other event is an error. */
static int gd_cm_expect(struct gd_cm *cm, enum rdma_cm_event_type type,
			struct rdma_cm_id **id_out)
{
	struct gd_verbs *v = cm->v;
	struct rdma_cm_event *ev;
	int status;

	if (rdma_get_cm_event(cm->channel, &ev))
		return gd_err(-errno, "rdma_get_cm_event failed on %s: %s",
			      v->port.dev_name, strerror(errno));
	if (ev->event != type) {
		status = ev->status;
		gd_err(-ECONNREFUSED,
		       "rdma_cm on %s: got event %s (status %d) while waiting for %s; check that the server runs with -R on the same port and that its address is reachable over RDMA",
		       v->port.dev_name, rdma_event_str(ev->event), status,
		       rdma_event_str(type));
		rdma_ack_cm_event(ev);
		return -ECONNREFUSED;
	}
	if (id_out)
		*id_out = ev->id;
	rdma_ack_cm_event(ev);
	return 0;
}

static void gd_cm_qp_attr(struct gd_verbs *v, const struct gd_qp_cfg *c,
			  struct ibv_qp_init_attr *ia)
{
	memset(ia, 0, sizeof(*ia));
	ia->send_cq = v->send_cq;
	ia->recv_cq = v->recv_cq;
	ia->cap.max_send_wr = gd_sq_depth(c);
	ia->cap.max_recv_wr = (uint32_t)c->rx_depth;
	ia->cap.max_send_sge = 1;
	ia->cap.max_recv_sge = 1;
	ia->cap.max_inline_data = (uint32_t)c->inline_bytes;
	ia->qp_type = c->conn == GD_CONN_UC ? IBV_QPT_UC : IBV_QPT_RC;
	ia->srq = v->srq;
}

static int gd_cm_make_qp(struct gd_cm *cm, const struct gd_qp_cfg *c,
			 struct rdma_cm_id *id, unsigned int i)
{
	struct gd_verbs *v = cm->v;
	struct ibv_qp_init_attr ia;

	gd_cm_qp_attr(v, c, &ia);
	if (rdma_create_qp(id, v->pd, &ia)) {
		ia.cap.max_inline_data = 0;
		if (rdma_create_qp(id, v->pd, &ia))
			return gd_err(-errno, "rdma_create_qp failed on %s: %s",
				      v->port.dev_name, strerror(errno));
	}
	cm->id[i] = id;
	v->qp[i] = id->qp;
	v->port.max_inline_bytes = ia.cap.max_inline_data;
	return 0;
}

/* rdma_cm grants remote write/read only; atomics need the flag added. */
static int gd_cm_set_access(struct gd_verbs *v, unsigned int i, int access)
{
	struct ibv_qp_attr a = { .qp_access_flags = (unsigned int)access };

	if (v->conn != GD_CONN_RC)
		return 0;
	if (ibv_modify_qp(v->qp[i], &a, IBV_QP_ACCESS_FLAGS))
		return gd_err(
			-errno,
			"cannot set access flags on rdma_cm QP %u of %s: %s", i,
			v->port.dev_name, strerror(errno));
	return 0;
}

int gd_cm_listen(struct gd_cm *cm, const char *bind_ip, uint16_t port)
{
	struct gd_verbs *v = cm->v;
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_flags = AI_NUMERICHOST };
	struct addrinfo *ai;
	char service[16];

	snprintf(service, sizeof(service), "%u", port);
	if (getaddrinfo(bind_ip, service, &hints, &ai))
		return gd_err(-EINVAL, "bad rdma_cm address %s", bind_ip);
	if (rdma_create_id(cm->channel, &cm->listen, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(cm->listen, ai->ai_addr) ||
	    rdma_listen(cm->listen, 16)) {
		int err = -errno;

		freeaddrinfo(ai);
		return gd_err(
			err,
			"rdma_cm cannot listen on %s:%u (%s): %s; is the port in use by another test?",
			bind_ip, port, v->port.dev_name, strerror(-err));
	}
	freeaddrinfo(ai);
	return 0;
}

int gd_cm_accept(struct gd_cm *cm, const struct gd_qp_cfg *c, int access)
{
	struct gd_verbs *v = cm->v;
	struct rdma_conn_param cp = {
		.responder_resources = (uint8_t)c->rd_atom,
		.initiator_depth = (uint8_t)c->rd_atom,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};

	v->conn = c->conn;
	v->num_qps = (unsigned int)c->num_qps;
	for (unsigned int i = 0; i < v->num_qps; i++) {
		struct rdma_cm_id *id;

		if (gd_cm_expect(cm, RDMA_CM_EVENT_CONNECT_REQUEST, &id) ||
		    gd_cm_make_qp(cm, c, id, i))
			return gd_err_code();
		if (rdma_accept(id, &cp))
			return gd_err(-errno, "rdma_accept failed on %s: %s",
				      v->port.dev_name, strerror(errno));
		if (gd_cm_expect(cm, RDMA_CM_EVENT_ESTABLISHED, NULL) ||
		    gd_cm_set_access(v, i, access))
			return gd_err_code();
	}
	return 0;
}

static int gd_cm_connect_one(struct gd_cm *cm, const struct gd_qp_cfg *c,
			     struct addrinfo *ai, unsigned int i, int access)
{
	struct gd_verbs *v = cm->v;
	struct rdma_conn_param cp = {
		.responder_resources = (uint8_t)c->rd_atom,
		.initiator_depth = (uint8_t)c->rd_atom,
		.retry_count = 7,
		.rnr_retry_count = 7,
	};
	struct rdma_cm_id *id;

	if (rdma_create_id(cm->channel, &id, NULL, RDMA_PS_TCP))
		return gd_err(-errno, "rdma_create_id failed: %s",
			      strerror(errno));
	cm->id[i] = id;
	if (rdma_resolve_addr(id, NULL, ai->ai_addr, GD_CM_TIMEOUT_MS) ||
	    gd_cm_expect(cm, RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, GD_CM_TIMEOUT_MS) ||
	    gd_cm_expect(cm, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL))
		return gd_err(
			-EHOSTUNREACH,
			"rdma_cm cannot resolve a route to the server over %s: %s; check the server's RDMA address and -x",
			v->port.dev_name, strerror(errno));
	if (id->verbs != v->ctx)
		return gd_err(
			-EXDEV,
			"rdma_cm routes to the server through %s, not through -d %s; check the routing table or pick that device",
			ibv_get_device_name(id->verbs->device),
			v->port.dev_name);
	if (gd_cm_make_qp(cm, c, id, i))
		return gd_err_code();
	if (rdma_connect(id, &cp))
		return gd_err(-errno, "rdma_connect failed on %s: %s",
			      v->port.dev_name, strerror(errno));
	if (gd_cm_expect(cm, RDMA_CM_EVENT_ESTABLISHED, NULL))
		return gd_err_code();
	return gd_cm_set_access(v, i, access);
}

int gd_cm_connect(struct gd_cm *cm, const struct gd_qp_cfg *c,
		  const char *server_ip, uint16_t port, int access)
{
	struct gd_verbs *v = cm->v;
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_flags = AI_NUMERICHOST };
	struct addrinfo *ai;
	char service[16];
	int ret = 0;

	v->conn = c->conn;
	v->num_qps = (unsigned int)c->num_qps;
	snprintf(service, sizeof(service), "%u", port);
	if (getaddrinfo(server_ip, service, &hints, &ai))
		return gd_err(-EINVAL, "bad rdma_cm server address %s",
			      server_ip);
	for (unsigned int i = 0; i < v->num_qps && !ret; i++)
		ret = gd_cm_connect_one(cm, c, ai, i, access);
	freeaddrinfo(ai);
	return ret;
}
