/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sweep: sizes, phases (placement x direction), the order both sides
 * walk them in (interleaved A B A B per size by default, rounds of it with
 * --repeat, as many rounds as --precision needs), and handing the results
 * to the report (sweep_report.c): each (phase, size) row when its last
 * round is in, the progress line before each step, the document's rows
 * once every step has run.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "util/stats.h"
#include "util/stop.h"
#include "report/progress.h"
#include "engine/limits.h"
#include "engine/session.h"
#include "engine/sweep.h"

/* A peer that was interrupted may show first as a failed transfer (its
 * QPs are gone) or a closed channel: its word may be waiting, unread. So
 * may the failure of a peer that failed first (a server that reached
 * --max-time inside the step): that is why this side's step failed, so
 * its word leads; otherwise the step's own error stays. */
static void gd_walk_peer_word(struct gd_session *s)
{
	struct json_object *m = NULL;
	char ours[GD_ERR_MSG_MAX], theirs[GD_ERR_MSG_MAX];
	int code = gd_err_code();

	snprintf(ours, sizeof(ours), "%s", gd_err_msg());
	gd_err_clear();
	if (gd_oob_try_recv(&s->oob, GD_FRAME_SYNC, &m) == -ECONNABORTED) {
		snprintf(theirs, sizeof(theirs), "%s", gd_err_msg());
		gd_err_replace(-ECONNABORTED,
			       "%.600s; then on this side: %.380s", theirs,
			       ours);
	} else if (code) {
		gd_err_replace(code, "%s", ours);
	}
	json_object_put(m);
}

/* -s, -a or --sizes: the options own the rule (gd_opts_sizes). */
static int gd_plan_sizes(struct gd_session *s)
{
	return gd_opts_sizes(s->o, s->sizes, GD_MAX_SIZES, &s->num_sizes);
}

/* One --phases word; names are canonical (a bare D is D1 in a numbered
 * list), so "DD" and "D1D1" are one phase and both ends name it alike. */
static int gd_add_phase(struct gd_session *s, const char *tok, enum gd_dir dir,
			bool numbered)
{
	struct gd_phase *ph;
	char name[12];

	if (s->num_phases == GD_MAX_PHASES)
		return gd_err(-E2BIG, "too many phases (at most %d)",
			      GD_MAX_PHASES);
	ph = &s->phases[s->num_phases];
	memset(ph, 0, sizeof(*ph));
	if (gd_placement_parse(tok, strlen(tok), &ph->client_place,
			       &ph->server_place))
		return gd_err_code();
	gd_placement_name(ph->client_place, ph->server_place, numbered, name,
			  sizeof(name));
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (s->phases[i].client_place == ph->client_place &&
		    s->phases[i].server_place == ph->server_place &&
		    s->phases[i].dir == dir)
			return gd_err(-EINVAL, "--phases: '%s' is listed twice",
				      name);
	ph->dir = dir;
	snprintf(ph->name, sizeof(ph->name), "%s%s", name,
		 dir == GD_DIR_REVERSE ? ":rev"
		 : dir == GD_DIR_BIDIR ? ":bidir"
				       : "");
	s->num_phases++;
	return 0;
}

static int gd_plan_phases(struct gd_session *s)
{
	char *list = strdup(s->o->phases ? s->o->phases : "HH");
	/* perftest's --reversed: the server initiates every phase */
	enum gd_dir dir = s->o->bidir	   ? GD_DIR_BIDIR
			  : s->o->reversed ? GD_DIR_REVERSE
					   : GD_DIR_FORWARD;
	bool numbered = gd_placement_numbered(list);
	char *save = NULL;
	unsigned int forward;
	int ret = 0;

	s->num_phases = 0;
	for (char *t = strtok_r(list, ",", &save); t && !ret;
	     t = strtok_r(NULL, ",", &save))
		ret = gd_add_phase(s, t, dir, numbered);
	free(list);
	if (!ret && !s->num_phases)
		ret = gd_err(-EINVAL, "--phases names no phase");
	forward = s->num_phases;
	if (!ret && s->o->reverse && !s->o->bidir)
		for (unsigned int i = 0; i < forward && !ret; i++) {
			char tok[12];

			snprintf(tok, sizeof(tok), "%.*s",
				 (int)strcspn(s->phases[i].name, ":"),
				 s->phases[i].name);
			ret = gd_add_phase(s, tok, GD_DIR_REVERSE, numbered);
		}
	return ret;
}

static bool gd_plan_has_device(const struct gd_session *s)
{
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (s->phases[i].client_place != GD_PLACE_HOST ||
		    s->phases[i].server_place != GD_PLACE_HOST)
			return true;
	return false;
}

/* A paired run must send the same way in every phase, and device buffers
 * cannot be sent inline (options.c refuses an explicit -I with GPU memory). */
static int gd_plan_inline(struct gd_session *s)
{
	struct gd_opts *o = s->o;

	if (!gd_plan_has_device(s))
		return 0;
	o->inline_bytes = 0;
	return 0;
}

/* Does this end initiate, and so measure, any phase? Latency samples
 * live only on an end that does. */
static bool gd_measures_any(const struct gd_session *s)
{
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (s->phases[i].dir == GD_DIR_BIDIR ||
		    (s->phases[i].dir == GD_DIR_FORWARD) != s->is_server)
			return true;
	return false;
}

int gd_sweep_plan(struct gd_session *s)
{
	const struct gd_opts *o = s->o;
	int ret = gd_plan_sizes(s);

	if (!ret)
		ret = gd_plan_phases(s);
	if (ret)
		return ret;
	/* The CPU cannot poll device memory, so write latency with any
	 * device phase completes through write-with-immediate, and every
	 * phase uses the same method so only the memory path differs. */
	s->use_imm = o->write_with_imm || o->send_with_imm;
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (s->test->verb->imm && s->test->measure == GD_MEASURE_LAT &&
		    (s->phases[i].client_place != GD_PLACE_HOST ||
		     s->phases[i].server_place != GD_PLACE_HOST))
			s->use_imm = true;
	ret = gd_plan_inline(s);
	if (ret || s->test->measure != GD_MEASURE_LAT)
		return ret;
	/* the -D loop's bound on both ends; the samples where they are
	 * taken */
	s->samples_cap = gd_limits_lat_samples(o);
	if (s->samples_cap > GD_LAT_MAX_SAMPLES)
		return gd_err(-E2BIG,
			      "-n %" PRIu64
			      " is too many latency samples (at most %llu)",
			      o->iters, GD_LAT_MAX_SAMPLES);
	if (!gd_measures_any(s))
		return 0;
	s->samples_ns = calloc(s->samples_cap, sizeof(uint64_t));
	if (!s->samples_ns)
		return gd_err(-ENOMEM, "cannot allocate %zu latency samples",
			      s->samples_cap);
	return 0;
}

/* Phase order of round @r inside a size: A B, B A, B A, A B, ... (ABBA
 * over rounds), so that a linear drift adds as much to each phase over
 * every four rounds and neither phase is always first after a size
 * change. */
static bool gd_round_backwards(unsigned int r)
{
	return r % 4 == 1 || r % 4 == 2;
}

/* Size index at position @zi of round @r: ascending in even rounds,
 * descending in odd ones, so a size's rounds are spread over the run and
 * a drift favours neither end of the sweep. */
static unsigned int gd_round_size(unsigned int nz, unsigned int r,
				  unsigned int zi)
{
	return r % 2 ? nz - 1 - zi : zi;
}

void gd_sweep_order(const struct gd_session *s, unsigned int step,
		    unsigned int *phase, unsigned int *size_idx,
		    unsigned int *round)
{
	unsigned int np = s->num_phases, nz = s->num_sizes, k, j;
	unsigned int nr = s->o->repeat ? (unsigned int)s->o->repeat : 1;

	if (s->o->no_interleave) {
		*phase = step / (nz * nr);
		*size_idx = (step / nr) % nz;
		*round = step % nr;
		return;
	}
	/* Interleaved: a round is a block of time that sweeps every size,
	 * every phase at one size before the next, so rounds are independent
	 * samples of the machine's state (the statistics pair round r of a
	 * device phase with round r of HH and check their autocorrelation)
	 * and a drifting machine cannot pass for a memory-path difference. */
	*round = step / (np * nz);
	j = step % (np * nz);
	*size_idx = gd_round_size(nz, *round, j / np);
	k = j % np;
	*phase = gd_round_backwards(*round) ? np - 1 - k : k;
}
/* The steps of one invocation: outcomes by (phase, size, round), the
 * rounds each size got, and the first fatal error (later steps not run). */
struct gd_walk {
	struct gd_step_outcome *outs;
	struct gd_rounds rd;
	unsigned int step;   /* the protocol's step number */
	unsigned long total; /* steps in the sweep (--precision: the most) */
	uint64_t t0_ns;	     /* the sweep's start, for the time left */
	int fatal;
	bool stopped; /* SIGINT/SIGTERM on this side or the peer's */
	char fatal_msg[600];
};

/*
 * The run is to stop: this side got SIGINT or SIGTERM (the peer is told at
 * once, so it ends now rather than by its silence limit), or the peer said
 * it did. The error says which; @o, the step it came during, says so too.
 */
static void gd_walk_interrupted(struct gd_session *s, struct gd_walk *w,
				struct gd_step_outcome *o)
{
	const char *sig = gd_stop_signal_name(gd_stop_signal());
	const char *during = gd_stop_during_text();

	if (gd_stop_signal()) {
		gd_oob_send_interrupted(&s->oob, sig, during);
		gd_err_replace(-EINTR,
			       "interrupted by %s during %s; the results "
			       "measured before it are kept",
			       sig, during);
		snprintf(o->error, sizeof(o->error), "interrupted by %s", sig);
		snprintf(w->fatal_msg, sizeof(w->fatal_msg), "interrupted");
	} else {
		gd_err_replace(-EINTR,
			       "peer %s was interrupted by %s during %s; this "
			       "side stops too and keeps what was measured "
			       "before",
			       s->oob.peer_name, s->oob.peer_stop_signal,
			       s->oob.peer_stop_during);
		snprintf(o->error, sizeof(o->error),
			 "interrupted: the peer got %s",
			 s->oob.peer_stop_signal);
		snprintf(w->fatal_msg, sizeof(w->fatal_msg),
			 "interrupted (the peer got %s)",
			 s->oob.peer_stop_signal);
	}
	o->err = -EINTR;
	o->stage = "interrupted";
	w->fatal = -EINTR;
	w->stopped = true;
}

/* A step broke the run: an interruption on either side, or the step's
 * own error. */
static void gd_walk_failed(struct gd_session *s, struct gd_walk *w,
			   struct gd_step_outcome *o, int ret)
{
	if (!gd_stop_signal() && !s->oob.peer_stop_signal[0] && s->oob.fd >= 0)
		gd_walk_peer_word(s);
	if (gd_stop_signal() || s->oob.peer_stop_signal[0]) {
		gd_walk_interrupted(s, w, o);
		return;
	}
	/* a server that reached --max-time inside the step tells why */
	if (ret == -ETIME && s->is_server)
		gd_oob_send_error(&s->oob, -ETIME, gd_err_msg());
	w->fatal = ret;
	snprintf(w->fatal_msg, sizeof(w->fatal_msg), "%s", gd_err_msg());
}

static struct gd_step_outcome *gd_walk_at(struct gd_session *s,
					  struct gd_walk *w, unsigned int p,
					  unsigned int z, unsigned int r)
{
	return &w->outs[(p * s->num_sizes + z) * w->rd.stride + r];
}

/* The progress line for the step about to run (the client's; the report
 * shows it only on a terminal or with --progress=line). */
static void gd_walk_progress(struct gd_session *s, const struct gd_walk *w,
			     unsigned int p, unsigned int z, unsigned int r)
{
	struct gd_progress pr = {
		.tool = s->test->name,
		.phase = s->phases[p].name,
		.size_bytes = s->sizes[z],
		.round = r + 1,
		.rounds = w->rd.stride,
		.rounds_at_most = gd_opts_adaptive(s->o),
		.done = w->step,
		.total = w->total,
		.elapsed_s = (double)(gd_now_ns() - w->t0_ns) / 1e9,
		.step_s = (double)s->o->duration_s,
	};

	if (!s->is_server)
		gd_report_progress(s->rep, &pr);
}

static int64_t gd_max_i64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* --max-time: a server ends a run that outlasts its limit before the next
 * step (the estimate let it start), and tells the client why. */
static bool gd_walk_over_time(struct gd_session *s, struct gd_walk *w)
{
	double ran_s = s->accept_ms
			       ? (double)(gd_oob_now_ms() - s->accept_ms) / 1e3
			       : (double)(gd_now_ns() - w->t0_ns) / 1e9;

	if (!s->is_server || !s->limit_deadline_ns ||
	    gd_now_ns() < s->limit_deadline_ns)
		return false;
	gd_err(-ETIME,
	       "the run has gone on %.0f s, past this server's limit of %" PRIu64
	       " s (--max-time); stopped before the next step: ask for a shorter run, or start the server with a larger --max-time",
	       ran_s, s->limit_time_s);
	gd_oob_send_error(&s->oob, -ETIME, gd_err_msg());
	w->fatal = -ETIME;
	snprintf(w->fatal_msg, sizeof(w->fatal_msg), "%s", gd_err_msg());
	return true;
}

static void gd_walk_step(struct gd_session *s, struct gd_walk *w,
			 unsigned int p, unsigned int z, unsigned int r)
{
	struct gd_step_outcome *o = gd_walk_at(s, w, p, z, r);
	int ret;

	if (!w->fatal) {
		gd_stop_during("phase %s size %" PRIu64 " round %u",
			       s->phases[p].name, s->sizes[z], r + 1);
		if (gd_stop_signal()) {
			gd_walk_interrupted(s, w, o);
			return;
		}
		(void)gd_walk_over_time(s, w);
	}
	if (w->fatal) {
		snprintf(o->error, sizeof(o->error), "not run: %.500s",
			 w->fatal_msg);
		if (w->stopped) {
			o->err = -EINTR;
			o->stage = "interrupted";
		}
		return;
	}
	gd_walk_progress(s, w, p, z, r);
	ret = gd_step_run(s, w->step++, &s->phases[p], s->sizes[z], o);
	if (o->ran)
		gd_acct_add_step(&s->acct, p, s->phases[p].name, &o->times);
	if (ret)
		gd_walk_failed(s, w, o, ret);
}

/* Round @r at size @z: every phase, in the round's ABBA order. */
static void gd_walk_round(struct gd_session *s, struct gd_walk *w,
			  unsigned int z, unsigned int r)
{
	for (unsigned int k = 0; k < s->num_phases; k++)
		gd_walk_step(s, w,
			     gd_round_backwards(r) ? s->num_phases - 1 - k : k,
			     z, r);
}

static void gd_walk_fixed(struct gd_session *s, struct gd_walk *w)
{
	unsigned int total = s->num_phases * s->num_sizes * w->rd.stride;

	for (unsigned int z = 0; z < s->num_sizes; z++)
		w->rd.done[z] = w->rd.stride;
	for (unsigned int i = 0; i < total; i++) {
		unsigned int p, z, r;

		gd_sweep_order(s, i, &p, &z, &r);
		gd_walk_step(s, w, p, z, r);
		if (r + 1 == w->rd.stride)
			gd_sweep_live_size(s, p, z, gd_walk_at(s, w, p, z, 0),
					   w->rd.stride, w->rd.stride > 1);
	}
}

/* --until-decided, --precision: why size @z takes no round @r, or NULL;
 * @judged: the judged sizes' answer at this look. */
static const char *gd_precise_why(struct gd_session *s, struct gd_walk *w,
				  unsigned int z, unsigned int r,
				  const char *judged)
{
	bool gated = gd_precision_judged(s->o, s->sizes[z]);
	unsigned int base =
		gated ? gd_precision_base(s->o) : (unsigned int)s->o->repeat;

	if (w->fatal)
		return "failed";
	if (r < base)
		return NULL;
	if (!gated)
		return "not_gated";
	return judged;
}

/*
 * --until-decided, --precision, client: rounds over every size still
 * open, so that rounds stay blocks of time as with --repeat. The judged
 * sizes move together (each look's assessments then see the same rounds
 * at every size, a fixed design of that many rounds) and close together
 * once decided, after --max-repeat rounds, or at --precision-time. The
 * server follows the announcements and learns the end from a last SYNC
 * frame.
 */
static void gd_walk_precise(struct gd_session *s, struct gd_walk *w,
			    struct gd_precision *pr)
{
	const char *why[GD_MAX_SIZES] = { NULL };
	uint64_t t0 = gd_now_ns();
	unsigned int open = s->num_sizes;

	for (unsigned int r = 0; open; r++) {
		double elapsed_s = (double)(gd_now_ns() - t0) / 1e9;
		const char *judged = NULL;

		for (unsigned int z = 0; z < s->num_sizes; z++)
			if (!why[z])
				w->rd.done[z] = r;
		if (!w->fatal && r >= gd_precision_base(s->o)) {
			judged = gd_precision_stop(s, w->outs, &w->rd, r,
						   elapsed_s);
			pr->decided = judged && (!strcmp(judged, "decided") ||
						 !strcmp(judged, "precision"));
		}
		for (unsigned int z = 0; z < s->num_sizes; z++) {
			if (why[z])
				continue;
			why[z] = gd_precise_why(s, w, z, r, judged);
			open -= why[z] != NULL;
			for (unsigned int p = 0; why[z] && p < s->num_phases;
			     p++)
				gd_sweep_live_size(s, p, z,
						   gd_walk_at(s, w, p, z, 0), r,
						   true);
		}
		for (unsigned int zi = 0; zi < s->num_sizes; zi++) {
			unsigned int z = gd_round_size(s->num_sizes, r, zi);

			if (!why[z])
				gd_walk_round(s, w, z, r);
		}
	}
	for (unsigned int z = 0; z < s->num_sizes; z++)
		gd_precision_note(s, pr, w->outs, &w->rd, z, why[z]);
	pr->elapsed_s = (double)(gd_now_ns() - t0) / 1e9;
	if (!w->fatal)
		w->fatal = gd_step_end(s);
}

/* --precision, server: whatever the client announces, until its end. */
static void gd_walk_follow(struct gd_session *s, struct gd_walk *w)
{
	while (!w->fatal) {
		struct gd_step_outcome o = { .ran = false };
		const struct gd_phase *ph = NULL;
		uint64_t size = 0;
		int ret = 0;

		gd_stop_during("step %u of the client's --precision sweep",
			       w->step + 1);
		if (gd_stop_signal()) {
			gd_walk_interrupted(s, w, &o);
			return;
		}
		if (gd_walk_over_time(s, w))
			return;
		ret = gd_step_follow(s, w->step, &ph, &size);
		if (ret > 0)
			return;
		if (!ret) {
			gd_stop_during("phase %s size %" PRIu64 " step %u",
				       ph->name, size, w->step + 1);
			ret = gd_step_run(s, w->step++, ph, size, &o);
		}
		if (o.ran)
			gd_acct_add_step(&s->acct,
					 (unsigned int)(ph - s->phases),
					 ph->name, &o.times);
		if (ret)
			gd_walk_failed(s, w, &o, ret);
		gd_outcome_free(&o);
	}
}

/* The memory spec this side gave for place @place, or NULL. */
static const char *gd_own_spec(const struct gd_session *s, unsigned int place)
{
	if (place == GD_PLACE_HOST)
		return s->o->use_hugepages ? "hugepage" : "host";
	return place <= s->o->num_mem ? s->o->mem_list[place - 1] : NULL;
}

/* A reason as either side words it ("this side has no device memory
 * configured (no --mem)", the peer's prefixed with "peer: "), from its
 * verb on, so that the line can name the side itself. */
static const char *gd_why_of_side(const char *why)
{
	const char *p = strstr(why, "this side ");

	return p ? p + strlen("this side ") : why;
}

void gd_sweep_announce(const struct gd_session *s)
{
	for (unsigned int p = 0; p < s->num_phases && !s->is_server; p++) {
		const struct gd_phase *ph = &s->phases[p];
		const struct gd_local_buf *lb = &s->local[ph->client_place];
		const struct gd_remote_buf *rb = &s->remote[ph->server_place];
		const char *spec = gd_own_spec(s, ph->server_place);

		if (!lb->ok && !lb->stage[0])
			gd_report_notice(
				"%s: phase %s will not run: this side %s; add --mem here, or choose --phases that match",
				s->test->name, ph->name,
				gd_why_of_side(lb->why_absent));
		else if (!rb->present && !rb->stage[0])
			gd_report_notice(
				"%s: phase %s will not run: the server %s; start the server with --mem=%s as well (its own device of that kind), or choose --phases that match",
				s->test->name, ph->name,
				gd_why_of_side(rb->why_absent),
				spec ? spec : "...");
	}
}

int gd_sweep_run(struct gd_session *s)
{
	bool precise = gd_opts_adaptive(s->o);
	struct gd_walk w = { .rd.stride =
				     precise ? (unsigned int)s->o->max_repeat
					     : (unsigned int)s->o->repeat };
	struct gd_precision pr = { .n = 0 };
	size_t total = (size_t)s->num_phases * s->num_sizes * w.rd.stride;

	w.outs = calloc(total, sizeof(*w.outs));
	if (!w.outs)
		return gd_err(-ENOMEM, "cannot allocate the step table");
	w.total = total;
	w.t0_ns = gd_now_ns();
	/* the connection's --max-time deadline (from accept), in this
	 * clock; a session without one (tests) from the sweep's start */
	if (s->is_server && s->limit_time_s && s->oob.until_ms)
		s->limit_deadline_ns =
			w.t0_ns +
			(uint64_t)gd_max_i64(s->oob.until_ms - gd_oob_now_ms(),
					     0) *
				1000000ULL;
	else if (s->is_server && s->limit_time_s)
		s->limit_deadline_ns =
			w.t0_ns + s->limit_time_s * 1000000000ULL;
	if (precise && s->is_server)
		gd_walk_follow(s, &w);
	else if (precise)
		gd_walk_precise(s, &w, &pr);
	else
		gd_walk_fixed(s, &w);
	gd_report_progress_end(s->rep);
	gd_acct_mark(&s->acct, GD_ACCT_STEPS);
	if (!s->is_server) {
		for (unsigned int p = 0; p < s->num_phases; p++)
			gd_sweep_report_phase(s, p, gd_walk_at(s, &w, p, 0, 0),
					      &w.rd);
		if (precise)
			gd_precision_report(s, &pr);
	}
	gd_acct_mark(&s->acct, GD_ACCT_REPORT);
	for (size_t i = 0; i < total; i++)
		gd_outcome_free(&w.outs[i]);
	free(w.outs);
	return w.fatal;
}

struct json_object *gd_sweep_describe(const struct gd_session *s)
{
	struct json_object *t = s->o->ops->describe(s->test, s->o);
	struct json_object *sizes = json_object_new_array();

	for (unsigned int z = 0; z < s->num_sizes; z++)
		json_object_array_add(
			sizes, json_object_new_int64((int64_t)s->sizes[z]));
	json_object_object_add(t, "sizes_bytes", sizes);
	return t;
}
