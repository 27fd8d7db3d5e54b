/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Per-step outcomes the sweep collects before reporting them phase by
 * phase, and the one-step protocol (step.c) that produces them.
 */
#ifndef GD_SWEEP_H
#define GD_SWEEP_H

#include "engine/session.h"
#include "engine/time_account.h"

struct json_object;

struct gd_step_outcome {
	bool ran;
	bool ok;
	int err;
	char error[512];
	const char *stage; /* register, oob, transfer, verify */
	struct gd_step_result res;
	struct gd_bw_summary peer_bw; /* bidir: the server's direction */
	bool has_peer_bw;
	uint64_t target_received; /* send tests: messages the target got */
	struct json_object *counters_local;
	struct json_object *counters_remote;
	struct json_object *verify;
	struct gd_step_times times; /* where the step's time went */
};

/* How many rounds each size got; outcomes are laid out by phase, then
 * size, then round, @stride rounds per size. */
struct gd_rounds {
	unsigned int stride;
	unsigned int done[GD_MAX_SIZES];
};

/* sweep.c, client: one line, before the first step, for each phase that
 * cannot run because a side has no memory configured for it, saying what
 * to add (its steps then report "not configured"). */
void gd_sweep_announce(const struct gd_session *s);

/* sweep_report.c */
void gd_outcome_free(struct gd_step_outcome *o);
/* The figure a round is ranked and paired by: average bandwidth (both
 * directions for bidir), or typical latency. */
double gd_outcome_figure(const struct gd_step_outcome *o,
			 const struct gd_phase *ph);
/* Phase @p's rows, counters and steps into the report; @outs is the
 * phase's first outcome. */
void gd_sweep_report_phase(struct gd_session *s, unsigned int p,
			   const struct gd_step_outcome *outs,
			   const struct gd_rounds *rd);
/* Size @z of phase @p is complete (its @n outcomes from @o, in round
 * order; @rounds with --repeat or --precision): its row's text now, in
 * the median round's figures (the document gets it at the end). */
void gd_sweep_live_size(struct gd_session *s, unsigned int p, unsigned int z,
			const struct gd_step_outcome *o, unsigned int n,
			bool rounds);

/* sweep_precision.c: --precision, size by size. */
struct gd_precision_size {
	uint64_t size_bytes;
	unsigned int rounds;
	double half_pct;     /* widest interval's half-width, percent */
	const char *stopped; /* decided, precision, max_repeat, ... */
	bool reached, gated; /* gated: judged */
};
struct gd_precision {
	struct gd_precision_size sz[GD_MAX_SIZES];
	unsigned int n;
	double elapsed_s;
	bool decided; /* the judged sizes closed decided */
};
/* Rounds every judged size gets before the first look (at least 3). */
unsigned int gd_precision_base(const struct gd_opts *o);
/* Looks the design plans: one after each round from the base to
 * --max-repeat; the levels are split over them. */
unsigned int gd_precision_looks(const struct gd_opts *o);
/* A size the run's assessments judge: every one, or from --gate-from. */
bool gd_precision_judged(const struct gd_opts *o, uint64_t size_bytes);
/* Why the judged sizes need no round after their first @rounds
 * ("decided", "precision", "max_repeat", "time_limit"), or NULL. */
const char *gd_precision_stop(const struct gd_session *s,
			      const struct gd_step_outcome *outs,
			      const struct gd_rounds *rd, unsigned int rounds,
			      double elapsed_s);
void gd_precision_note(const struct gd_session *s, struct gd_precision *pr,
		       const struct gd_step_outcome *outs,
		       const struct gd_rounds *rd, unsigned int z,
		       const char *why);
/* The "precision" section and its text line. */
void gd_precision_report(struct gd_session *s, const struct gd_precision *pr);

/* Warm-up messages per QP before a step's window at @size_bytes:
 * --warmup, at most 1 MiB of them, at least one (step.c says why). */
uint64_t gd_step_warmup_msgs(const struct gd_opts *o, uint64_t size_bytes);
/* Run step @phase x @size; fills @out. Returns 0 when the run may go on
 * (the step itself may have failed), -errno when the connection or the
 * QPs are no longer usable. */
int gd_step_run(struct gd_session *s, unsigned int step_no,
		const struct gd_phase *ph, uint64_t size_bytes,
		struct gd_step_outcome *out);
/* --precision, server: take the client's next announcement, its phase and
 * size from this side's plan (kept for gd_step_run); 1 at the client's end
 * frame, -errno on a broken channel or a step not in the plan. */
int gd_step_follow(struct gd_session *s, unsigned int step_no,
		   const struct gd_phase **ph, uint64_t *size_bytes);
/* --precision, client: tell the server the sweep is over. */
int gd_step_end(struct gd_session *s);
/* Client: the server's RESULT payload @m for step @st of phase @ph into
 * @out, every field checked for type and range (the fuzz target drives
 * it); -EPROTO, recorded, when a count or the figures are malformed.
 * Malformed counters become a note, a malformed verification a failed one. */
int gd_step_take_result(const struct gd_session *s, const struct gd_phase *ph,
			const struct gd_step *st, uint64_t received,
			struct json_object *m, struct gd_step_outcome *out);

#endif
