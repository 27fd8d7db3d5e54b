/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One side of a test: the side channel, the verbs resources, the buffers of
 * each memory placement, and the plan of steps both sides walk in lockstep.
 * Private to the engine (engine.c, session.c, sweep.c, ops_*.c).
 */
#ifndef GD_SESSION_H
#define GD_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "engine/limits.h"
#include "engine/time_account.h"
#include "mem/mem.h"
#include "transport/auth.h"
#include "transport/oob.h"
#include "engine/opts.h"
#include "engine/placement.h"
#include "envelope/locality.h"
#include "report/report.h"
#include "engine/test.h"
#include "transport/cm.h"
#include "transport/mcast.h"
#include "transport/verbs.h"

enum gd_dir { GD_DIR_FORWARD, GD_DIR_REVERSE, GD_DIR_BIDIR };

#define GD_MAX_PHASES 16
#define GD_MAX_SIZES 40
#define GD_BW_SEGMENTS 8 /* peak bandwidth: best of 8 windows */

struct gd_phase {
	char name[24]; /* "HH", "DD:rev", "D2D2:bidir", ... */
	unsigned int client_place, server_place; /* GD_PLACE_*, D<k> = k */
	enum gd_dir dir;
	int report_idx;
	bool failed;
};

struct gd_remote_buf {
	bool present;
	uint64_t addr;
	uint32_t rkey;
	uint32_t rkeys[GD_MAX_QPS]; /* the peer's --mr_per_qp: one per slot */
	unsigned int num_rkeys;	    /* 0: rkey covers every slot */
	char why_absent[600];
	char stage[16];		    /* where the peer's buffer failed */
	int err;		    /* the peer's -errno for it */
	struct json_object *memory; /* the peer's description */
};

struct gd_local_buf {
	struct gd_mem_buf mem;
	/* --mr_per_qp: QP q's slot as an MR of its own */
	struct ibv_mr *qp_mr[GD_MAX_QPS];
	uint32_t qp_rkeys[GD_MAX_QPS]; /* their rkeys, for the peer and JSON */
	unsigned int num_qp_mr;
	bool ok;
	char why_absent[512];
	char stage[16]; /* "register" when alloc/reg failed */
	int err;	/* -errno of that failure */
};

/* The keys of QP @q's slot: its own MR's with --mr_per_qp (either end's),
 * else the whole buffer's. */
static inline uint32_t gd_slot_lkey(const struct gd_local_buf *lb,
				    unsigned int q)
{
	return lb->num_qp_mr ? lb->qp_mr[q]->lkey : lb->mem.mr->lkey;
}

static inline uint32_t gd_slot_rkey(const struct gd_remote_buf *rb,
				    unsigned int q)
{
	return rb->num_rkeys ? rb->rkeys[q] : rb->rkey;
}

/* --mr_per_qp's keys as a JSON array (this end's qp_rkeys on the wire
 * and in the document, the peer's rkeys in the document); inline, so that
 * the session and the sweep's report need not call each other. */
static inline struct json_object *gd_keys_json(const uint32_t *keys,
					       unsigned int n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int q = 0; q < n; q++)
		json_object_array_add(a, json_object_new_int64(keys[q]));
	return a;
}

/* What one step measured on the initiating side. */
struct gd_step_result {
	bool is_bw;
	struct gd_bw_summary bw;
	struct gd_lat_summary lat;
	uint64_t msgs_done;
	uint64_t app_bytes;
	double cpu_util_pct; /* --cpu_util, -1 when not sampled */
};

/* --loopback: the side channel's address, with and without --ipv6-addr */
#define GD_LOOPBACK_IPV4 "127.0.0.1"
#define GD_LOOPBACK_IPV6 "::1"

struct gd_session {
	const struct gd_test *test;
	struct gd_opts *o;
	bool is_server;
	struct gd_oob oob;
	struct gd_auth auth; /* --auth-key: the key, this connection's nonces */
	struct gd_verbs v;
	struct gd_mcast mcast; /* -g: this end's group */
	struct gd_cm cm;       /* -R only */
	struct gd_qp_cfg qp;   /* the options the QPs and CQs are built with */
	struct gd_report *rep;
	/* what this end checked before it waited (preflight.c): "rxe0 port
	 * 1, memory: host, cuda:0"; "" when it did not */
	char ready[256];
	struct gd_time_account acct; /* where the run's wall time went */
	/* server: this client's request, a fresh copy of the server's own
	 * options (@own_o, never changed) that s->o points to once the
	 * client is accepted; freed by gd_session_teardown */
	struct gd_opts *client_o, *own_o;
	/* server: what its own options ask for, which its limits allow */
	struct gd_request server_own;
	bool server_own_set;
	uint64_t limit_time_s; /* server: --max-time as it applies, 0: none */
	/* server: when the connection was accepted (gd_oob_now_ms), and the
	 * side channel's deadline's words: "this server's limit of 3 s
	 * (--max-time)" */
	int64_t accept_ms;
	char limit_text[96];
	/* server: when --max-time ends the run (gd_now_ns), 0: never */
	uint64_t limit_deadline_ns;
	int access;    /* QP access flags */
	int mr_access; /* registrations: access plus relaxed ordering */
	/* MLX5_SCATTER_TO_CQE as this side opened the device; "" untouched */
	char scatter_to_cqe[160];
	size_t slot_bytes; /* per-QP region of each buffer */
	struct gd_local_buf local[GD_PLACE_COUNT];
	struct gd_remote_buf remote[GD_PLACE_COUNT];
	struct gd_phase phases[GD_MAX_PHASES];
	unsigned int num_phases;
	uint64_t sizes[GD_MAX_SIZES];
	unsigned int num_sizes;
	bool use_imm;	      /* write latency/bw via write-with-imm */
	char numa_bind[64];   /* --numa_node as the kernel holds it, or "" */
	uint64_t *samples_ns; /* latency samples, preallocated */
	size_t samples_cap;
	struct json_object *remote_endpoint;
	uint64_t recv_outstanding[GD_MAX_QPS];
	unsigned int counters_lifespan_ms; /* hw_counters cache, read once */
	/* --mem=...:near/far: which device each place got, and why */
	struct gd_device_pick pick[GD_PLACE_COUNT];
	bool picked[GD_PLACE_COUNT];
	/* --precision, server: the announcement gd_step_follow took */
	struct json_object *announced;
	/* server, --persist: the listen socket the loop keeps across
	 * clients (serve.c neither opens nor closes it) */
	bool listen_kept;
	int listen_fd;
	bool client_seen; /* server: a client connected to this run */
};

/* session.c: setup and teardown of everything before the steps.
 * gd_session_handshake (handshake.c): hello and test description (accept
 * or reject) over an already connected s->oob; no RDMA device involved. */
int gd_session_handshake(struct gd_session *s);
/* Client: the --phases a run without one gets (HH and each device memory
 * against itself), set in @o before the test travels. */
void gd_session_default_phases(struct gd_opts *o);
/* Server: check the client's test @w and adopt it into s->o, then hold it
 * against this server's limits (raised to what its own command line asks
 * for); 0, or -errno with the message recorded and @field, @ours and
 * @theirs filled for the REJECT frame. --dry-run calls it too, with a
 * server's options and no connection. */
int gd_session_adopt(struct gd_session *s, struct json_object *w, char *field,
		     size_t field_len, char *ours, char *theirs,
		     size_t val_len);
int gd_session_setup(struct gd_session *s);
/* The readers of the peer's HELLO and QP_INFO payloads (the fuzz target
 * drives them): every field's type and range checked, nothing connected. */
int gd_session_take_hello(struct gd_session *s, struct json_object *peer);
int gd_session_take_peer_info(struct gd_session *s, struct json_object *peer,
			      struct gd_qp_peer *rp, char *cm_ip,
			      size_t cm_ip_len);
/* The access flags of this side's QPs and registrations, then the buffers
 * of every placement allocated and registered with s->v.pd (what setup
 * does once the device is open; tests call it with a stand-in PD). A
 * device placement that fails only fails its phases: 0, recorded in
 * s->local[]. */
int gd_session_setup_memory(struct gd_session *s);
/* "on (...)" or "off (why)": relaxed ordering of this side's registrations. */
const char *gd_session_relaxed_ordering(const struct gd_session *s);
/* --wait_destroy: after a completed run, close the side channel (the peer
 * has had its last message) and wait that many seconds before the
 * teardown; SIGINT or SIGTERM ends the wait (a notice says so, the run's
 * exit status stands). Nothing without the option or after a signal.
 * The signal that ended the wait, 0 when none did. */
int gd_session_wait_destroy(struct gd_session *s);
void gd_session_teardown(struct gd_session *s);

/* sweep.c: plan and walk the steps. */
int gd_sweep_plan(struct gd_session *s);
int gd_sweep_run(struct gd_session *s);
/* Which phase, size and round (--repeat) step number @step runs (both
 * sides agree). */
void gd_sweep_order(const struct gd_session *s, unsigned int step,
		    unsigned int *phase, unsigned int *size_idx,
		    unsigned int *round);
/* The "test" section: options with units plus the planned sizes. */
struct json_object *gd_sweep_describe(const struct gd_session *s);

/* ops_bw.c / ops_lat.c: the measured loops. @lb/@rb are the local buffer
 * and the remote buffer of this step. */
struct gd_step {
	struct gd_session *s;
	struct gd_local_buf *lb;
	const struct gd_remote_buf *rb;
	uint64_t size_bytes;
	uint64_t iters; /* 0 in duration mode */
	uint64_t warmup;
	bool initiator;
	bool target;
	const char *phase; /* its phase's name, for what the loops print */
	/* another thread reads the side channel (bidirectional receive):
	 * the sending loop leaves it alone */
	bool oob_elsewhere;
};
/* The measured loops: ops_bw.c and ops_lat.c. */
int gd_bw_initiate(struct gd_step *st, struct gd_step_result *r);
int gd_bw_receive(struct gd_step *st, uint64_t *received, bool *done_seen,
		  uint64_t *peer_sent);
int gd_lat_run(struct gd_step *st, struct gd_step_result *r);
bool gd_lat_is_pingpong(const struct gd_session *s);

/* What the loops and the step share: loop.c. */
/* Does the target of this test need receives posted? */
bool gd_step_needs_recv(const struct gd_session *s);
/* The verb's opcode, its with-immediate form when the run uses one. */
enum ibv_wr_opcode gd_step_opcode(const struct gd_session *s);
/* A ping-pong with no receive to complete on (write without immediate):
 * each side polls the last byte of the incoming message instead. */
bool gd_step_polls_byte(const struct gd_session *s);
/* The receive queues: every QP's own, or with --use-srq the one SRQ
 * (index 0; its receives land in QP 0's slot). */
unsigned int gd_step_recv_queues(const struct gd_session *s);
/* The messages one receive queue takes in this step (UINT64_MAX: -D). */
uint64_t gd_step_recv_per_queue(const struct gd_step *st);
/* A receive completion of a run with immediate data: -EPROTO (recorded)
 * unless it carries gdperf's GD_IMM_DATA. */
#define GD_IMM_DATA 0x6764u
int gd_step_check_recv(const struct gd_session *s, const struct ibv_wc *wc);
/* Keep min(rx-depth, @still_needed) receives posted on receive queue @q
 * (QP @q, or the SRQ). */
int gd_step_recv_refill(struct gd_step *st, unsigned int q,
			uint64_t still_needed);
/* The receives a step needs, on every QP. */
int gd_step_post_recvs(struct gd_step *st);
/* Read an initiator's "done" SYNC frame (another SYNC leaves @done false):
 * its sent count into @sent, its failure as -ECONNABORTED (recorded). */
int gd_step_done_frame(struct gd_session *s, struct json_object *m, bool *done,
		       uint64_t *sent);
/* How long this step may go without news before the peer counts as dead. */
uint64_t gd_step_silence_ns(const struct gd_step *st);
/* For the measured loops' periodic check: -EINTR, recorded, once SIGINT or
 * SIGTERM asked the run to stop (util/stop.h), -ETIME once a server's
 * --max-time passed (limit_deadline_ns), else 0. */
int gd_step_check_stop(const struct gd_step *st);
/* -ETIME with the line that names --max-time: a server's run reached its
 * limit inside a step (gd_step_check_stop, the wait for "done"). */
int gd_step_over_time(const struct gd_session *s);

#endif
