/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Latency loops. Read and atomic time one request to its completion.
 * Write and send are ping-pong: write polls the last byte of the incoming
 * half of the buffer (host memory, like perftest) or, with device memory,
 * uses write-with-immediate and polls the receive completion.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include "util/error.h"
#include "engine/lat_tail.h"
#include "engine/session.h"
#include "report/perftest_modes.h"
#include "util/stats.h"

#define GD_SPIN_CHECK (1u << 20)

bool gd_lat_is_pingpong(const struct gd_session *s)
{
	return s->test->verb->pingpong;
}

struct gd_lat_loop {
	struct gd_step *st;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	uint64_t sent; /* ping-pong sends posted */
	uint64_t recv_needed;
	uint64_t timeout_ns;
	uint64_t wait_began_ns; /* the wait that has run past the limit */
};

/*
 * No completion for the silence limit: a dead peer, or a healthy one whose
 * CPU is busy (a ping-pong peer must be scheduled to answer). Its
 * heartbeats tell them apart: while they arrive the wait goes on, for
 * GD_LAT_ALIVE_WAIT_MS in all at most, so a peer that beats but never
 * answers (a lost message on UC) still ends the step soon.
 */
#define GD_LAT_ALIVE_WAIT_MS 5000ULL

static int gd_lat_timeout(struct gd_lat_loop *L, uint64_t *start_ns,
			  const char *what)
{
	struct gd_session *s = L->st->s;
	int ret = gd_step_check_stop(L->st);
	bool heard = false;

	if (ret)
		return ret;
	if (gd_now_ns() - *start_ns < L->timeout_ns)
		return 0;
	ret = gd_oob_heard_within(&s->oob, (int)(L->timeout_ns / 1000000),
				  &heard);
	if (ret)
		return ret;
	if (heard &&
	    gd_now_ns() - L->wait_began_ns < GD_LAT_ALIVE_WAIT_MS * 1000000) {
		*start_ns = gd_now_ns();
		return 0;
	}
	if (heard)
		return gd_err(
			-ETIMEDOUT,
			"no %s on %s for %llu ms although peer %s is alive (its heartbeats arrive): a message was lost (UC and UD do not retransmit) or the peer is stuck; check the error counters",
			what, s->v.port.dev_name,
			(unsigned long long)((gd_now_ns() - L->wait_began_ns) /
					     1000000),
			s->oob.peer_name);
	return gd_err(-ETIMEDOUT,
		      "no %s on %s for %llu ms; is the peer %s still running?",
		      what, s->v.port.dev_name,
		      (unsigned long long)s->o->oob_timeout_ms,
		      s->oob.peer_name);
}

/* Wait for one completion on @cq, failing after the silence timeout. */
static int gd_lat_wait_cq(struct gd_lat_loop *L, struct ibv_cq *cq,
			  const char *what, struct ibv_wc *out)
{
	struct gd_session *s = L->st->s;
	struct ibv_wc local, *wc = out ? out : &local;
	uint64_t start = 0;
	unsigned int spins = 0;
	int n;

	for (;;) {
		n = gd_verbs_poll(&s->v, cq, wc, 1, s->o->use_event);
		if (n)
			return n < 0 ? n : 0;
		if (++spins % GD_SPIN_CHECK)
			continue;
		if (!start) {
			start = gd_now_ns();
			L->wait_began_ns = start;
		} else if (gd_lat_timeout(L, &start, what))
			return gd_err_code();
	}
}

/*
 * Ping-pong sends are signalled one in -Q (and the last one), as perftest
 * does: a completion per message costs the provider work inside the
 * measured round trip. The SQ is sized for -Q unsignalled requests; the
 * signalled one is reaped at once so the queue never fills. Read and atomic
 * requests are always signalled: their completion is the measurement.
 */
static int gd_lat_send(struct gd_lat_loop *L, bool last)
{
	struct gd_session *s = L->st->s;
	bool sig =
		!gd_lat_is_pingpong(s) || ++L->sent % s->o->cq_mod == 0 || last;
	struct ibv_send_wr *bad;

	if (sig)
		L->wr.send_flags |= IBV_SEND_SIGNALED;
	else
		L->wr.send_flags &= ~IBV_SEND_SIGNALED;
	if (ibv_post_send(s->v.qp[0], &L->wr, &bad))
		return gd_err(-EIO, "ibv_post_send failed on %s: %s",
			      s->v.port.dev_name, strerror(errno));
	if (sig && gd_lat_is_pingpong(s))
		return gd_lat_wait_cq(L, s->v.send_cq, "send completion", NULL);
	return 0;
}

static int gd_lat_recv(struct gd_lat_loop *L)
{
	struct gd_session *s = L->st->s;

	struct ibv_wc wc;

	if (gd_lat_wait_cq(L, s->v.recv_cq, "message from the peer", &wc) ||
	    gd_step_check_recv(s, &wc))
		return gd_err_code();
	s->recv_outstanding[0]--;
	L->recv_needed--;
	return gd_step_recv_refill(L->st, 0, L->recv_needed);
}

/* Spin on the last byte of the incoming half until it equals @val. */
static int gd_lat_wait_byte(struct gd_lat_loop *L, volatile uint8_t *p,
			    uint8_t val)
{
	uint64_t start = 0;
	unsigned int spins = 0;

	while (*p != val) {
		if (++spins % GD_SPIN_CHECK)
			continue;
		if (!start) {
			start = gd_now_ns();
			L->wait_began_ns = start;
		} else if (gd_lat_timeout(L, &start, "write from the peer"))
			return gd_err_code();
	}
	return 0;
}

static void gd_lat_template(struct gd_lat_loop *L)
{
	struct gd_step *st = L->st;
	struct gd_session *s = st->s;
	size_t half = s->slot_bytes / 2;
	bool cpu = st->lb->mem.ops->cpu_accessible;

	L->sge.addr = (uintptr_t)st->lb->mem.addr;
	L->sge.length = (uint32_t)st->size_bytes;
	L->sge.lkey = gd_slot_lkey(st->lb, 0);
	L->wr.sg_list = &L->sge;
	L->wr.num_sge = 1;
	L->wr.send_flags = 0;
	L->wr.imm_data = htonl(GD_IMM_DATA);
	L->wr.opcode =
		gd_verb_post_opcode(s->test->verb, gd_step_opcode(s),
				    s->o->atomic_op == GD_ATOMIC_CMP_AND_SWAP);
	if (cpu && st->size_bytes <= s->v.port.max_inline_bytes &&
	    st->size_bytes <= s->o->inline_bytes && s->test->verb->inline_ok)
		L->wr.send_flags |= IBV_SEND_INLINE;
	/* the union member of wr.wr follows the opcode */
	switch (L->wr.opcode) {
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
		if (s->v.conn == GD_CONN_UD) {
			L->sge.addr += GD_UD_GRH_BYTES;
			L->wr.wr.ud.ah = s->v.ah;
			L->wr.wr.ud.remote_qpn = s->v.remote_qpn[0];
			L->wr.wr.ud.remote_qkey = 0x11111111u;
		}
		return;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		L->wr.wr.atomic.remote_addr = st->rb->addr;
		L->wr.wr.atomic.rkey = gd_slot_rkey(st->rb, 0);
		/* add 1; or compare with 0 and swap in 0 (the word stays) */
		L->wr.wr.atomic.compare_add =
			L->wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ? 1 : 0;
		L->wr.wr.atomic.swap = 0;
		return;
	default:
		/* ping-pong peers write into each other's second half; the
		 * first half is each side's source */
		L->wr.wr.rdma.remote_addr =
			st->rb->addr + (gd_lat_is_pingpong(s) ? half : 0);
		L->wr.wr.rdma.rkey = gd_slot_rkey(st->rb, 0);
	}
}

static int gd_lat_ping(struct gd_lat_loop *L, uint8_t val, bool poll_byte,
		       bool last)
{
	struct gd_step *st = L->st;
	size_t half = st->s->slot_bytes / 2;
	uint8_t *base = st->lb->mem.addr;

	if (poll_byte) {
		base[st->size_bytes - 1] = val;
		if (gd_lat_send(L, last))
			return gd_err_code();
		return gd_lat_wait_byte(L, base + half + st->size_bytes - 1,
					val);
	}
	if (gd_lat_send(L, last))
		return gd_err_code();
	if (!gd_lat_is_pingpong(st->s))
		return gd_lat_wait_cq(L, st->s->v.send_cq, "completion", NULL);
	return gd_lat_recv(L);
}

static int gd_lat_pong(struct gd_lat_loop *L, uint8_t val, bool poll_byte,
		       bool last)
{
	struct gd_step *st = L->st;
	size_t half = st->s->slot_bytes / 2;
	uint8_t *base = st->lb->mem.addr;

	if (poll_byte) {
		if (gd_lat_wait_byte(L, base + half + st->size_bytes - 1, val))
			return gd_err_code();
		base[st->size_bytes - 1] = val;
		return gd_lat_send(L, last);
	}
	if (gd_lat_recv(L))
		return gd_err_code();
	return gd_lat_send(L, last);
}

static void gd_lat_gap(const struct gd_session *s)
{
	struct timespec ts;

	if (!s->o->latency_gap_us)
		return;
	ts.tv_sec = (time_t)(s->o->latency_gap_us / 1000000);
	ts.tv_nsec = (long)(s->o->latency_gap_us % 1000000) * 1000;
	nanosleep(&ts, NULL);
}

/* -H, -U, -C: the samples, still in clock ticks, into the report. */
static int gd_lat_modes_report(const struct gd_step *st, uint64_t n)
{
	const struct gd_session *s = st->s;
	struct gd_lat_modes m = { .histogram = s->o->lat_histogram,
				  .unsorted = s->o->lat_unsorted,
				  .cycles = s->o->lat_cycles };
	struct gd_lat_step ls = {
		.phase = st->phase,
		.size_bytes = st->size_bytes,
		.ticks = s->samples_ns,
		.n = n,
		.divisor = gd_lat_is_pingpong(s) ? 2 : 1,
		.ns_per_tick = gd_clock_ns_per_tick(),
		.tsc = !strncmp(gd_clock_describe(), "tsc", 3),
	};

	if (!m.histogram && !m.unsorted && !m.cycles)
		return 0;
	return gd_report_lat_samples(s->rep, &ls, &m);
}

int gd_lat_run(struct gd_step *st, struct gd_step_result *r)
{
	struct gd_session *s = st->s;
	struct gd_lat_loop L = { .st = st };
	bool poll_byte = gd_step_polls_byte(s);
	uint64_t total = st->iters ? st->iters + st->warmup : s->samples_cap;
	uint64_t deadline = 0, k = 0, t0, t1;
	double ns_per_tick = gd_clock_ns_per_tick();
	int ret = 0;

	L.timeout_ns = s->o->oob_timeout_ms * 1000000ULL;
	L.recv_needed = st->iters + st->warmup;
	gd_lat_template(&L);
	if (!st->iters)
		deadline =
			gd_clock_ticks() + (uint64_t)((double)s->o->duration_s *
						      1e9 / ns_per_tick);
	for (uint64_t i = 0; i < total && !ret; i++) {
		uint8_t val = (uint8_t)(i % 255 + 1);

		/* The side channel's heartbeat thread beats while this loop
		 * shows life; a clock read every 16 turns, outside the
		 * sample. */
		if (!(i & 15)) {
			gd_oob_alive(&s->oob);
			ret = gd_step_check_stop(st);
			if (ret)
				break;
		}
		if (!st->initiator) {
			ret = gd_lat_pong(&L, val, poll_byte, i + 1 == total);
			continue;
		}
		t0 = gd_clock_ticks();
		ret = gd_lat_ping(&L, val, poll_byte, i + 1 == total);
		t1 = gd_clock_ticks();
		if (i >= st->warmup && k < s->samples_cap)
			s->samples_ns[k++] = t1 - t0;
		if (deadline && t1 >= deadline)
			break;
		gd_lat_gap(s);
	}
	if (ret || !st->initiator)
		return ret;
	ret = gd_lat_modes_report(st, k);
	if (ret)
		return ret;
	/* samples were taken in ticks: convert once, outside the loop */
	for (uint64_t i = 0; i < k; i++)
		s->samples_ns[i] =
			(uint64_t)((double)s->samples_ns[i] * ns_per_tick +
				   0.5);
	r->is_bw = false;
	r->msgs_done = k;
	r->app_bytes = k * st->size_bytes * (gd_lat_is_pingpong(s) ? 2 : 1);
	ret = gd_lat_summarize(s->samples_ns, k, gd_lat_is_pingpong(s) ? 2 : 1,
			       &r->lat);
	if (!ret)
		gd_lat_tail_ci(s->samples_ns, k, gd_lat_is_pingpong(s) ? 2 : 1,
			       &r->lat);
	return ret;
}
