/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Verbs transport: device/port/GID selection, PD/CQ/QP creation, QP state
 * transitions, and the small post/poll helpers the test loops use.
 */
#ifndef GD_VERBS_H
#define GD_VERBS_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "transport/conn.h"

struct json_object;

#define GD_MAX_QPS 256
#define GD_UD_GRH_BYTES 40

struct gd_port_info {
	char dev_name[64];
	uint8_t port;
	enum ibv_port_state state;
	uint8_t link_layer; /* IBV_LINK_LAYER_* */
	enum ibv_mtu active_mtu;
	uint32_t active_mtu_bytes;
	uint16_t lid;
	int gid_index;
	union ibv_gid gid;
	char gid_text[64];
	char gid_type[16]; /* "RoCE v2", "RoCE v1", "IB" */
	uint32_t max_inline_bytes;
	int pkey_tbl_len; /* the port's P_Key table */
	uint16_t pkey;	  /* the P_Key at the QPs' index (host order) */
};

/* The test settings the QPs and CQs are built with (the engine fills it
 * from its options; the types are the options'). */
struct gd_qp_cfg {
	enum gd_conn conn;
	uint64_t num_qps;
	uint64_t tx_depth, rx_depth;
	uint64_t cq_mod;
	uint64_t inline_bytes;
	bool use_event;	    /* completion channel (-e) */
	uint64_t mtu_bytes; /* 0: the port's active MTU */
	int64_t sl, tos;    /* tos -1: the default traffic class */
	uint64_t qp_timeout, retry_count;
	/* RC: outstanding reads/atomics, as initiator (max_rd_atomic) and
	 * as responder (max_dest_rd_atomic); gd_verbs_rd_atom sets it */
	uint64_t rd_atom;
	uint64_t comp_vector; /* -X: the CQs' completion vector */
	uint64_t pkey_index;  /* --pkey_index */
	uint64_t dlid;	      /* --dlid: the peer's LID instead; 0 none */
	bool use_srq;	      /* --use-srq: the QPs share one SRQ */
	/* --flow_label: QP i's GRH flow label is [i % n]; n 0: label 0 */
	const uint32_t *flow_labels;
	unsigned int num_flow_labels;
};

/* What one side tells the other to connect its QPs. */
struct gd_qp_peer {
	uint32_t qpn[GD_MAX_QPS];
	uint32_t psn[GD_MAX_QPS];
	union ibv_gid gid;
	uint16_t lid;
	uint32_t mtu_bytes;
};

struct gd_verbs {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *channel;
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	struct ibv_srq *srq; /* --use-srq, else NULL */
	struct ibv_qp *qp[GD_MAX_QPS];
	uint32_t psn[GD_MAX_QPS];
	struct ibv_ah *ah; /* UD: address of the peer */
	uint32_t remote_qpn[GD_MAX_QPS];
	unsigned int num_qps;
	enum gd_conn conn;
	struct gd_port_info port;
	bool ctx_owned; /* false when rdma_cm gave us the context */
};

/*
 * Call before any device is opened when receives may land in GPU memory:
 * rdma-core's mlx5 provider copies receives of up to 32 B (64 B with
 * 128-byte CQEs) from the CQE into the buffer with the CPU, a CPU store into
 * device memory. Sets MLX5_SCATTER_TO_CQE=0 as perftest does, unless the
 * user set it; writes what was done to @record for the header and JSON.
 */
void gd_verbs_no_scatter_to_cqe(char *record, size_t len);

/* Open @name (NULL: the first device), query @port and pick the GID:
 * @gid_index, or when negative the first RoCE v2 IPv4-mapped one, or with
 * GD_GID_PICK_IPV6 (--ipv6) the first RoCE v2 IPv6 one. Errors name the
 * device and list the alternatives. */
#define GD_GID_PICK_IPV6 (-2)
int gd_verbs_open(struct gd_verbs *v, const char *name, unsigned int port,
		  int gid_index);
/* Query port/GID details for an already open context (rdma_cm path). */
int gd_verbs_query_port(struct gd_verbs *v, unsigned int port, int gid_index);
/* The outstanding reads/atomics per QP for @c->rd_atom: @want (-o), or
 * with 0 GD_RD_ATOM_DEFAULT or the device's limit if lower; -EINVAL
 * naming the device's limit when @want exceeds it. */
#define GD_RD_ATOM_DEFAULT 16
int gd_verbs_rd_atom(struct gd_verbs *v, uint64_t want, uint64_t *rd_atom);
/* PD, CQs (sized for the depths), completion channel with -e. */
int gd_verbs_create_pd_cq(struct gd_verbs *v, const struct gd_qp_cfg *c);
/* Send queue depth: -t, or -Q when latency sends go unsignalled. */
uint32_t gd_sq_depth(const struct gd_qp_cfg *c);
/* Create the QPs and move them to INIT (not for rdma_cm). */
int gd_verbs_create_qps(struct gd_verbs *v, const struct gd_qp_cfg *c,
			int access);
/* Our side of the connection data. */
void gd_verbs_local_peer(const struct gd_verbs *v, struct gd_qp_peer *p);
struct json_object *gd_qp_peer_to_json(const struct gd_qp_peer *p,
				       unsigned int num_qps);
int gd_qp_peer_from_json(struct json_object *j, unsigned int num_qps,
			 struct gd_qp_peer *p);
/* INIT -> RTR -> RTS against the peer (UD: create the address handle). */
int gd_verbs_connect(struct gd_verbs *v, const struct gd_qp_cfg *c,
		     const struct gd_qp_peer *peer);
void gd_verbs_close(struct gd_verbs *v);
/* Header block fields and the endpoint identity for the JSON document. */
struct json_object *gd_verbs_describe(const struct gd_verbs *v);
/* Wait for @n completions on @cq (busy poll or events); -EIO with the
 * decoded status on a failed completion. */
int gd_verbs_poll(struct gd_verbs *v, struct ibv_cq *cq, struct ibv_wc *wc,
		  int max, bool use_event);
const char *gd_mtu_text(enum ibv_mtu mtu);

/* The IPv4 address in an IPv4-mapped GID, or -EINVAL. */
int gd_gid_to_ipv4(const union ibv_gid *gid, char *buf, size_t len);

#endif
