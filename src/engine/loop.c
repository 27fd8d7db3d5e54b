/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the measured loops (bandwidth and latency) and the step around them
 * share: the opcode, which side posts receives and keeping them posted, the
 * initiator's "done" frame, and how long a step may go without news.
 * Both loops and the step call down into this file, never back up.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <arpa/inet.h>

#include <json-c/json.h>

#include "engine/session.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/stop.h"

bool gd_step_needs_recv(const struct gd_session *s)
{
	return s->test->verb->target_recv || s->use_imm;
}

enum ibv_wr_opcode gd_step_opcode(const struct gd_session *s)
{
	return s->use_imm ? s->test->verb->opcode_imm : s->test->verb->opcode;
}

int gd_step_check_recv(const struct gd_session *s, const struct ibv_wc *wc)
{
	if (!s->use_imm)
		return 0;
	if (!(wc->wc_flags & IBV_WC_WITH_IMM))
		return gd_err(
			-EPROTO,
			"a message on %s QP 0x%x came without immediate data although this run posts %s: check that both ends run the same gdperf version",
			s->v.port.dev_name, wc->qp_num,
			s->test->verb->target_recv ? "send with immediate"
						   : "write with immediate");
	if (ntohl(wc->imm_data) != GD_IMM_DATA)
		return gd_err(
			-EPROTO,
			"a message on %s QP 0x%x carried immediate data 0x%x, not gdperf's 0x%x: is another program using this QP's peer?",
			s->v.port.dev_name, wc->qp_num, ntohl(wc->imm_data),
			GD_IMM_DATA);
	return 0;
}

unsigned int gd_step_recv_queues(const struct gd_session *s)
{
	return s->v.srq ? 1 : s->v.num_qps;
}

uint64_t gd_step_recv_per_queue(const struct gd_step *st)
{
	uint64_t per_qp = st->iters ? st->iters + st->warmup : UINT64_MAX;

	if (per_qp == UINT64_MAX || !st->s->v.srq)
		return per_qp;
	return per_qp * st->s->v.num_qps;
}

bool gd_step_polls_byte(const struct gd_session *s)
{
	return s->test->verb->pingpong && !gd_step_needs_recv(s);
}

/* Post @n receives on QP @q in one ibv_post_recv call, as a list. */
static int gd_post_recv_list(struct gd_step *st, unsigned int q, uint64_t n)
{
	struct gd_session *s = st->s;
	struct ibv_recv_wr wr[GD_RECV_LIST_MAX], *bad;
	/* Full slot length: a receive left over from an earlier step (an
	 * unreliable transport dropped its message) still fits any size. */
	struct ibv_sge sge = {
		.addr = (uintptr_t)st->lb->mem.addr + q * s->slot_bytes,
		.length = (uint32_t)s->slot_bytes,
		.lkey = gd_slot_lkey(st->lb, q),
	};

	for (uint64_t i = 0; i < n; i++) {
		/* a receive the verb itself does not post is there for an
		 * immediate, which consumes it but no buffer; the entries
		 * share one sge: ibv_post_recv only reads it */
		wr[i] = (struct ibv_recv_wr){
			.wr_id = q,
			.next = i + 1 < n ? &wr[i + 1] : NULL,
			.sg_list = &sge,
			.num_sge = s->test->verb->target_recv ? 1 : 0,
		};
	}
	if (s->v.srq ? ibv_post_srq_recv(s->v.srq, wr, &bad)
		     : ibv_post_recv(s->v.qp[q], wr, &bad))
		return gd_err(
			-EIO,
			"ibv_post_%srecv of %llu receives failed on %s %s %u: %s; check -r against the device's %s",
			s->v.srq ? "srq_" : "", (unsigned long long)n,
			s->v.port.dev_name, s->v.srq ? "SRQ of" : "QP", q,
			strerror(errno), s->v.srq ? "max_srq_wr" : "max_qp_wr");
	s->recv_outstanding[q] += n;
	return 0;
}

/* Keep min(rx-depth, still needed) receives posted on QP @q, in lists of
 * --recv_post_list; a shorter list only for the last ones still needed. */
int gd_step_recv_refill(struct gd_step *st, unsigned int q,
			uint64_t still_needed)
{
	struct gd_session *s = st->s;
	uint64_t list = s->o->recv_post_list;
	uint64_t want =
		still_needed < s->o->rx_depth ? still_needed : s->o->rx_depth;

	while (s->recv_outstanding[q] < want) {
		uint64_t n = want - s->recv_outstanding[q];

		if (n > list)
			n = list;
		else if (n < list && want < still_needed)
			return 0; /* a full list fits once more complete */
		if (gd_post_recv_list(st, q, n))
			return gd_err_code();
	}
	return 0;
}

int gd_step_post_recvs(struct gd_step *st)
{
	uint64_t per_queue = gd_step_recv_per_queue(st);

	for (unsigned int q = 0; q < gd_step_recv_queues(st->s); q++)
		if (gd_step_recv_refill(st, q, per_queue))
			return gd_err_code();
	return 0;
}

int gd_step_done_frame(struct gd_session *s, struct json_object *m, bool *done,
		       uint64_t *sent)
{
	const char *perr = gd_json_str(m, "error");
	int64_t n;

	if (!json_object_object_get_ex(m, "done", NULL))
		return 0; /* not the done frame */
	*done = true;
	if (perr)
		return gd_err(-ECONNABORTED,
			      "peer %s failed during the step: %s",
			      s->oob.peer_name, perr);
	n = gd_json_int(m, "sent", (int64_t)*sent);
	if (n < 0)
		return gd_err(
			-EPROTO,
			"peer %s sent %" PRId64
			" as its message count; are both ends the same gdperf version?",
			s->oob.peer_name, n);
	*sent = (uint64_t)n;
	return 0;
}

int gd_step_over_time(const struct gd_session *s)
{
	return gd_err_replace(
		-ETIME,
		"the run reached this server's limit of %" PRIu64
		" s (--max-time) inside a step and was stopped there: ask for a shorter run, or start the server with a larger --max-time",
		s->limit_time_s);
}

int gd_step_check_stop(const struct gd_step *st)
{
	const struct gd_session *s = st->s;

	if (gd_stop_signal())
		return gd_err(-EINTR,
			      "interrupted by %s in the measured loop on %s",
			      gd_stop_signal_name(gd_stop_signal()),
			      s->v.port.dev_name);
	/* the estimate let the run start; a slow fabric may still outlast
	 * the limit within one step */
	if (s->limit_deadline_ns && gd_now_ns() >= s->limit_deadline_ns)
		return gd_step_over_time(s);
	return 0;
}

/* How long without news means a dead peer: the side-channel timeout, or
 * longer when what may be in flight would take that long even at
 * GD_SLOWEST_BPS. rxe runs the protocol inside the poster's system call,
 * so a healthy peer can be quiet for as long as its window takes to drain:
 * with every guest vCPU busy this project's guest moved 14 MiB/s; the
 * floor leaves a factor of 3.5. A dead RC peer is still caught sooner by
 * the transport's retry error, a dead process by its closed socket. */
#define GD_SLOWEST_BPS (4ULL << 20)

uint64_t gd_step_silence_ns(const struct gd_step *st)
{
	const struct gd_opts *o = st->s->o;
	uint64_t in_flight = o->tx_depth * st->s->v.num_qps * st->size_bytes;
	/* in double: bytes x 1e9 overflows 64 bits past 18 GB in flight,
	 * and dividing first rounded anything under the rate down to 0 */
	uint64_t drain_ns =
		(uint64_t)((double)in_flight * 1e9 / (double)GD_SLOWEST_BPS);
	uint64_t base_ns = o->oob_timeout_ms * 1000000ULL;

	return drain_ns > base_ns ? drain_ns : base_ns;
}
