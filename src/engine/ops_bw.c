/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Bandwidth loops. The initiator keeps up to tx-depth work requests in
 * flight per QP, posts them in lists of -l, signals one in every -Q and
 * allocates nothing per message. The receiving side of send tests reposts
 * receives as they complete and learns the sent count from the peer.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "util/error.h"
#include "engine/pace.h"
#include "engine/session.h"
#include "util/stats.h"

/* Deadline, silence limit, sign of life and (on the receiver) a look at the
 * side channel happen every GD_CHECK_MS, timed by the raw clock: a count
 * of loop turns is no clock (under rxe one post can take a millisecond),
 * and a system call every few polls cost ~1% of send bandwidth. */
#define GD_CHECK_MS 10
/* ...and the clock itself is read only every 64 turns (rdtsc is a helper
 * call under emulation, and the receiver's turn is its repost latency). */
#define GD_CHECK_TURNS_MASK 63
#define GD_UD_QKEY 0x11111111u

struct gd_bw_loop {
	struct gd_step *st;
	struct ibv_send_wr *wr;
	struct ibv_sge *sge;
	struct ibv_wc *wc; /* --cqe_poll of them */
	uint64_t posted[GD_MAX_QPS];
	uint64_t completed[GD_MAX_QPS];
	uint64_t last_signal[GD_MAX_QPS];
	uint64_t count[GD_MAX_QPS];
	uint64_t done_total, want_total, posted_total;
	struct gd_pace pace;  /* --rate_limit */
	unsigned int first_q; /* paced: the QP the next burst starts on */
	uint64_t seg_t_ns[GD_BW_SEGMENTS + 1];
	uint64_t seg_msgs[GD_BW_SEGMENTS + 1];
	unsigned int segs;
	uint64_t cq_mod; /* -Q, capped by bytes per signal */
};

static uint64_t gd_check_ticks(void)
{
	return (uint64_t)(GD_CHECK_MS * 1e6 / gd_clock_ns_per_tick());
}

/* Fill the template work requests once per step; the loop only changes
 * wr_id and the signal flag. */
static int gd_bw_templates(struct gd_bw_loop *L)
{
	struct gd_step *st = L->st;
	struct gd_session *s = st->s;
	size_t n = (size_t)s->o->post_list * s->v.num_qps;
	enum ibv_wr_opcode op =
		gd_verb_post_opcode(s->test->verb, gd_step_opcode(s),
				    s->o->atomic_op == GD_ATOMIC_CMP_AND_SWAP);
	bool inl = s->test->verb->inline_ok &&
		   st->size_bytes <= s->v.port.max_inline_bytes &&
		   st->size_bytes <= s->o->inline_bytes &&
		   st->lb->mem.ops->cpu_accessible;

	L->wr = calloc(n, sizeof(*L->wr));
	L->sge = calloc(n, sizeof(*L->sge));
	L->wc = calloc(s->o->cqe_poll, sizeof(*L->wc));
	if (!L->wr || !L->sge || !L->wc)
		return gd_err(
			-ENOMEM,
			"cannot allocate %zu work requests and %llu completions (--cqe_poll)",
			n, (unsigned long long)s->o->cqe_poll);
	for (size_t i = 0; i < n; i++) {
		unsigned int q = (unsigned int)(i / s->o->post_list);
		struct ibv_send_wr *w = &L->wr[i];

		L->sge[i].addr =
			(uintptr_t)st->lb->mem.addr + q * s->slot_bytes +
			(s->v.conn == GD_CONN_UD ? GD_UD_GRH_BYTES : 0);
		L->sge[i].length = (uint32_t)st->size_bytes;
		L->sge[i].lkey = gd_slot_lkey(st->lb, q);
		w->sg_list = &L->sge[i];
		w->num_sge = 1;
		w->opcode = op;
		w->send_flags = inl ? IBV_SEND_INLINE : 0;
		w->imm_data = htonl(GD_IMM_DATA);
		if (op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
		    op == IBV_WR_ATOMIC_CMP_AND_SWP) {
			w->wr.atomic.remote_addr =
				st->rb->addr + q * s->slot_bytes;
			w->wr.atomic.rkey = gd_slot_rkey(st->rb, q);
			/* add 1; or compare with 0 and swap in 0, which
			 * leaves the word as it was, matched or not */
			w->wr.atomic.compare_add =
				op == IBV_WR_ATOMIC_FETCH_AND_ADD ? 1 : 0;
			w->wr.atomic.swap = 0;
		} else if (s->v.conn == GD_CONN_UD) {
			w->wr.ud.ah = s->v.ah;
			w->wr.ud.remote_qpn = s->v.remote_qpn[q];
			w->wr.ud.remote_qkey = GD_UD_QKEY;
		} else {
			w->wr.rdma.remote_addr =
				st->rb->addr + q * s->slot_bytes;
			w->wr.rdma.rkey = gd_slot_rkey(st->rb, q);
		}
	}
	return 0;
}

/*
 * Signal at least once per GD_SIGNAL_EVERY_BYTES: with -Q 100 and 8 MiB
 * messages the first completion would otherwise come after 800 MiB and the
 * peak-bandwidth checkpoints would see nothing. Not much more often: on rxe
 * a completion per 1 MiB message cost about 2% of the bandwidth. Below
 * 640 KiB messages -Q applies unchanged.
 */
#define GD_SIGNAL_EVERY_BYTES (64ULL << 20)

static uint64_t gd_bw_cq_mod(const struct gd_step *st)
{
	uint64_t by_bytes = GD_SIGNAL_EVERY_BYTES / st->size_bytes;
	uint64_t mod = st->s->o->cq_mod;

	if (by_bytes < 1)
		by_bytes = 1;
	return mod < by_bytes ? mod : by_bytes;
}

static int gd_bw_post_some(struct gd_bw_loop *L, unsigned int q)
{
	struct gd_session *s = L->st->s;
	uint64_t depth = s->o->tx_depth, list = s->o->post_list;
	uint64_t cq_mod = L->cq_mod;
	struct ibv_send_wr *base = &L->wr[q * list], *bad;

	while (L->posted[q] < L->count[q] &&
	       L->posted[q] - L->completed[q] < depth) {
		uint64_t n = L->count[q] - L->posted[q];
		uint64_t room = depth - (L->posted[q] - L->completed[q]);

		uint64_t paced = gd_pace_room(&L->pace, gd_clock_ticks());
		bool burst_end;

		n = n < list ? n : list;
		/* a burst's last list is cut to the burst; none between */
		n = n < paced ? n : paced;
		if (!n || n > room)
			break;
		/* A burst ends signalled: the pause after it may outlast -Q's
		 * next signal, and -e would wait for an event none brings. */
		burst_end = L->pace.burst_msgs && n == paced;
		for (uint64_t j = 0; j < n; j++) {
			uint64_t idx = L->posted[q] + j + 1;
			bool sig = idx % cq_mod == 0 || idx == L->count[q] ||
				   (burst_end && j + 1 == n);

			base[j].next = j + 1 < n ? &base[j + 1] : NULL;
			base[j].send_flags =
				sig ? (base[j].send_flags | IBV_SEND_SIGNALED)
				    : (base[j].send_flags & ~IBV_SEND_SIGNALED);
			if (sig) {
				base[j].wr_id = ((uint64_t)q << 32) |
						(idx - L->last_signal[q]);
				L->last_signal[q] = idx;
			}
		}
		if (ibv_post_send(s->v.qp[q], base, &bad))
			return gd_err(
				-EIO,
				"ibv_post_send failed on %s QP %u: %s; check -t against the device's max_qp_wr",
				s->v.port.dev_name, q, strerror(errno));
		L->posted[q] += n;
		L->posted_total += n;
		gd_pace_took(&L->pace, n);
		/* the next burst starts on the next QP, so that all share */
		if (L->pace.burst_msgs && !L->pace.left)
			L->first_q = (q + 1) % s->v.num_qps;
	}
	return 0;
}

/* Paced and idle with -e: sleep until the next burst, in steps of at most
 * GD_CHECK_MS (the checks still run), instead of waiting for an event that
 * no posted request will bring. */
static void gd_bw_pace_sleep(const struct gd_bw_loop *L)
{
	uint64_t ns = gd_pace_wait_ns(&L->pace, gd_clock_ticks());
	struct timespec ts;

	if (ns > GD_CHECK_MS * 1000000ULL)
		ns = GD_CHECK_MS * 1000000ULL;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)ns;
	if (ns)
		nanosleep(&ts, NULL);
}

/* Read the clock only when another eighth of the run has completed. */
static void gd_bw_checkpoint(struct gd_bw_loop *L)
{
	if (L->segs > GD_BW_SEGMENTS || !L->want_total)
		return;
	if (L->done_total * GD_BW_SEGMENTS >= L->want_total * L->segs) {
		L->seg_t_ns[L->segs] = gd_now_ns();
		L->seg_msgs[L->segs] = L->done_total;
		L->segs++;
	}
}

static void gd_bw_stop_posting(struct gd_bw_loop *L)
{
	for (unsigned int q = 0; q < L->st->s->v.num_qps; q++)
		/* One more, signalled, so every posted request completes. */
		L->count[q] = L->posted[q] + (L->last_signal[q] < L->posted[q]);
}

static bool gd_bw_all_done(const struct gd_bw_loop *L)
{
	for (unsigned int q = 0; q < L->st->s->v.num_qps; q++)
		if (L->completed[q] < L->count[q])
			return false;
	return true;
}

/* Every GD_CHECK_MS of the loop, busy or not: the duration
 * deadline, the silence limit and the sign of life. 0 or -errno. */
static int gd_bw_check(struct gd_bw_loop *L, uint64_t deadline_ns,
		       uint64_t *last_total, uint64_t *last_progress_ns,
		       bool *stopping)
{
	struct gd_session *s = L->st->s;
	uint64_t timeout_ns = gd_step_silence_ns(L->st);
	uint64_t now = gd_now_ns();
	int ret = gd_step_check_stop(L->st);
	bool heard;

	/* the peer's ERROR frame (it failed, or stopped at --max-time) ends
	 * this side's loop now, not after the silence limit */
	if (!ret && !L->st->oob_elsewhere)
		ret = gd_oob_heard_within(&s->oob, INT_MAX, &heard);
	if (ret)
		return ret;
	if (L->done_total != *last_total) {
		*last_total = L->done_total;
		*last_progress_ns = now;
	}
	if (deadline_ns && !*stopping && now >= deadline_ns) {
		gd_bw_stop_posting(L);
		*stopping = true;
	}
	if (now - *last_progress_ns > timeout_ns)
		return gd_err(
			-ETIMEDOUT,
			"no completion on %s for %llu ms with %llu of the messages done; is the peer %s still running?",
			s->v.port.dev_name,
			(unsigned long long)(timeout_ns / 1000000),
			(unsigned long long)L->done_total, s->oob.peer_name);
	gd_oob_alive(&s->oob);
	return 0;
}

/* Run until every QP completed count[q] requests, or until @deadline_ns
 * (duration mode) when it is non-zero. */
static int gd_bw_burst(struct gd_bw_loop *L, uint64_t deadline_ns)
{
	struct gd_session *s = L->st->s;
	struct ibv_wc *wc = L->wc;
	uint64_t last_total = 0, last_progress = gd_now_ns(), turns = 0;
	uint64_t check_ticks = gd_check_ticks(), next_check = gd_clock_ticks();
	bool stopping = false;
	int n;

	gd_pace_start(&L->pace, s->o, L->st->size_bytes, gd_clock_ticks(),
		      gd_clock_ns_per_tick());
	while (!gd_bw_all_done(L)) {
		uint64_t posted = L->posted_total;

		for (unsigned int i = 0; i < s->v.num_qps; i++)
			if (gd_bw_post_some(L, (L->first_q + i) % s->v.num_qps))
				return gd_err_code();
		posted = L->posted_total - posted;
		if (s->o->use_event && L->posted_total == L->done_total) {
			/* nothing in flight: only the pacer holds us */
			gd_bw_pace_sleep(L);
			n = 0;
		} else {
			n = gd_verbs_poll(&s->v, s->v.send_cq, wc,
					  (int)s->o->cqe_poll, s->o->use_event);
		}
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++) {
			unsigned int q = (unsigned int)(wc[i].wr_id >> 32);
			uint64_t k = wc[i].wr_id & 0xffffffffULL;

			L->completed[q] += k;
			L->done_total += k;
		}
		if (n)
			gd_bw_checkpoint(L);
		/* A turn that posted may have spent long in the provider
		 * (rxe runs the protocol inside ibv_post_send): the clock
		 * then, whatever the turn count, or -D overran by 64 such
		 * turns (28 s for -D 2 with busy guest CPUs). */
		if ((!posted && (++turns & GD_CHECK_TURNS_MASK)) ||
		    gd_clock_ticks() < next_check)
			continue;
		next_check = gd_clock_ticks() + check_ticks;
		if (gd_bw_check(L, deadline_ns, &last_total, &last_progress,
				&stopping))
			return gd_err_code();
	}
	return 0;
}

static void gd_bw_reset(struct gd_bw_loop *L, uint64_t per_qp)
{
	unsigned int nq = L->st->s->v.num_qps;

	memset(L->posted, 0, sizeof(L->posted));
	memset(L->completed, 0, sizeof(L->completed));
	memset(L->last_signal, 0, sizeof(L->last_signal));
	L->posted_total = 0;
	for (unsigned int q = 0; q < nq; q++)
		L->count[q] = per_qp;
	L->done_total = 0;
	L->want_total = per_qp == UINT64_MAX / 4 ? 0 : per_qp * nq;
	L->segs = 0;
}

/*
 * Peak: the fastest stretch of the run that lasts at least an eighth of it.
 * Completions arrive in bursts, so a stretch is grown checkpoint by
 * checkpoint until it spans that long; a shorter one would time a burst
 * boundary, not the link (two batches polled a few ns apart would read as
 * millions of MiB/s).
 */
static void gd_bw_best_segment(const struct gd_bw_loop *L, uint64_t elapsed_ns,
			       uint64_t *best_ns, uint64_t *best_msgs)
{
	uint64_t min_dt = elapsed_ns / GD_BW_SEGMENTS;
	double best_rate = 0;

	*best_ns = 0;
	*best_msgs = 0;
	for (unsigned int i = 0; i + 1 < L->segs; i++) {
		unsigned int j = i + 1;

		while (j + 1 < L->segs &&
		       L->seg_t_ns[j] - L->seg_t_ns[i] < min_dt)
			j++;
		uint64_t dt = L->seg_t_ns[j] - L->seg_t_ns[i];
		uint64_t dm = L->seg_msgs[j] - L->seg_msgs[i];

		if (dt >= min_dt && dt && dm &&
		    (double)dm / (double)dt > best_rate) {
			best_rate = (double)dm / (double)dt;
			*best_ns = dt;
			*best_msgs = dm;
		}
	}
}

/*
 * -f: perftest's duration margins. Traffic runs for @secs before the
 * measured window and as long after it, outside the figures, so that the
 * window sees neither the start nor the drain of either end; each margin
 * drains before the next part starts. Adds the messages to @msgs.
 */
static int gd_bw_margin(struct gd_bw_loop *L, uint64_t secs, uint64_t *msgs)
{
	int ret;

	gd_bw_reset(L, UINT64_MAX / 4);
	ret = gd_bw_burst(L, gd_now_ns() + secs * 1000000000ULL);
	*msgs += L->done_total;
	return ret;
}

int gd_bw_initiate(struct gd_step *st, struct gd_step_result *r)
{
	struct gd_session *s = st->s;
	struct gd_bw_loop L = { .st = st, .cq_mod = gd_bw_cq_mod(st) };
	uint64_t t0, t1, best_ns = 0, best_msgs = 0, deadline = 0;
	uint64_t margin = st->iters ? 0 : s->o->margin_s, outside = 0;
	int ret;

	ret = gd_bw_templates(&L);
	if (!ret && st->warmup) {
		gd_bw_reset(&L, st->warmup);
		ret = gd_bw_burst(&L, 0);
	}
	if (!ret && margin)
		ret = gd_bw_margin(&L, margin, &outside);
	if (ret)
		goto out;
	gd_bw_reset(&L, st->iters ? st->iters : UINT64_MAX / 4);
	t0 = gd_now_ns();
	L.seg_t_ns[0] = t0;
	L.seg_msgs[0] = 0;
	L.segs = 1;
	if (!st->iters)
		deadline = t0 + (s->o->duration_s - 2 * margin) * 1000000000ULL;
	ret = gd_bw_burst(&L, deadline);
	t1 = gd_now_ns();
	if (ret)
		goto out;
	if (!s->o->no_peak)
		gd_bw_best_segment(&L, t1 - t0, &best_ns, &best_msgs);
	/* Completions that all arrive at the end (rxe under emulation) leave
	 * no stretch faster than the whole: then the peak is the average. */
	if (best_ns && (double)best_msgs / (double)best_ns <
			       (double)L.done_total / (double)(t1 - t0))
		best_ns = best_msgs = 0;
	r->is_bw = true;
	r->msgs_done = L.done_total;
	r->app_bytes = L.done_total * st->size_bytes;
	ret = gd_bw_summarize(st->size_bytes, L.done_total, t1 - t0, best_ns,
			      best_msgs, &r->bw);
	/* -N: no peak computed, and none claimed (perftest prints 0) */
	if (s->o->no_peak)
		r->bw.peak_MiBps = 0;
	if (!ret && margin)
		ret = gd_bw_margin(&L, margin, &outside);
	/* The peer counts warm-up and margin messages too. */
	r->msgs_done += st->warmup * s->v.num_qps + outside;
out:
	free(L.wr);
	free(L.sge);
	free(L.wc);
	return ret;
}

/* Non-blocking look at the side channel for the initiator's "done". */
static int gd_bw_check_done(struct gd_session *s, bool *done_seen,
			    uint64_t *peer_sent)
{
	struct json_object *m = NULL;
	int ret = gd_oob_try_recv(&s->oob, GD_FRAME_SYNC, &m);

	if (ret == 1)
		ret = gd_step_done_frame(s, m, done_seen, peer_sent);
	json_object_put(m);
	return ret;
}

static int gd_bw_receive_into(struct gd_step *st, struct ibv_wc *wc,
			      uint64_t *received, bool *done_seen,
			      uint64_t *peer_sent)
{
	struct gd_session *s = st->s;
	uint64_t got[GD_MAX_QPS] = { 0 };
	/* what all QPs receive together; and what each receive queue does
	 * (one per QP, or the one SRQ's for all) */
	uint64_t want_total = st->iters
				      ? (st->iters + st->warmup) * s->v.num_qps
				      : UINT64_MAX;
	uint64_t per_queue = gd_step_recv_per_queue(st);
	uint64_t idle_since = gd_now_ns(), check_ticks = gd_check_ticks(),
		 turns = 0;
	uint64_t next_check = gd_clock_ticks() + check_ticks;
	uint64_t timeout_ns = gd_step_silence_ns(st);
	int n, ret;

	*received = 0;
	for (;;) {
		if (*received >= want_total)
			return 0;
		if (*done_seen && *received >= *peer_sent)
			return 0;
		n = gd_verbs_poll(&s->v, s->v.recv_cq, wc, (int)s->o->cqe_poll,
				  false);
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++) {
			unsigned int q = (unsigned int)wc[i].wr_id;

			ret = gd_step_check_recv(s, &wc[i]);
			if (ret)
				return ret;
			(*received)++;
			got[q]++;
			s->recv_outstanding[q]--;
			ret = gd_step_recv_refill(st, q,
						  per_queue == UINT64_MAX
							  ? UINT64_MAX
							  : per_queue - got[q]);
			if (ret)
				return ret;
		}
		if (n)
			idle_since = 0;
		if ((++turns & GD_CHECK_TURNS_MASK) ||
		    gd_clock_ticks() < next_check)
			continue;
		next_check = gd_clock_ticks() + check_ticks;
		uint64_t now = gd_now_ns();

		if (!idle_since)
			idle_since = now;
		ret = gd_step_check_stop(st);
		if (!ret)
			ret = gd_bw_check_done(s, done_seen, peer_sent);
		if (ret)
			return ret;
		/* Unreliable transports may drop: once the sender is done,
		 * a short quiet spell ends the count. */
		if (*done_seen && now - idle_since > 200000000ULL)
			return 0;
		if (now - idle_since > timeout_ns)
			return gd_err(
				-ETIMEDOUT,
				"no message arrived on %s for %llu ms (%llu received); is the peer %s still running?",
				s->v.port.dev_name,
				(unsigned long long)(timeout_ns / 1000000),
				(unsigned long long)*received,
				s->oob.peer_name);
	}
}

int gd_bw_receive(struct gd_step *st, uint64_t *received, bool *done_seen,
		  uint64_t *peer_sent)
{
	uint64_t batch = st->s->o->cqe_poll;
	struct ibv_wc *wc = calloc(batch, sizeof(*wc));
	int ret;

	if (!wc)
		return gd_err(-ENOMEM,
			      "cannot allocate %llu completions (--cqe_poll)",
			      (unsigned long long)batch);
	ret = gd_bw_receive_into(st, wc, received, done_seen, peer_sent);
	free(wc);
	return ret;
}
