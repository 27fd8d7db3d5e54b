/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Where a run's wall time goes (time_account.c): setup, each step's parts
 * (agreeing on the step, preparing it, the start signal, the transfer with
 * its measured window, the counter snapshots, verification, the result
 * exchange), the gaps between steps, the verdicts and the teardown. Every
 * part is the difference of two consecutive clock readings, so the parts
 * add up to the wall time.
 */
#ifndef GD_TIME_ACCOUNT_H
#define GD_TIME_ACCOUNT_H

#include <stdbool.h>

struct json_object;

/* One step's parts, seconds. transfer_s holds window_s (the measured
 * window: first post to last completion, or the timed latency samples)
 * plus the warm-up and the drain around it. */
struct gd_step_times {
	double agree_s, prepare_s, start_s, transfer_s, window_s, counters_s,
		verify_s, exchange_s;
};

enum gd_acct_stage {
	GD_ACCT_PREFLIGHT, /* device and memory checks before the peer */
	GD_ACCT_CONNECT,   /* side channel: waiting for / reaching the peer */
	GD_ACCT_HANDSHAKE, /* hello, the test's options, the plan */
	GD_ACCT_DEVICE,	   /* device, PD, CQs, QPs */
	GD_ACCT_MEMORY,	   /* buffers: allocation and registration */
	GD_ACCT_QP,	   /* QP and buffer exchange, connection */
	GD_ACCT_STEPS,	   /* the sweep (split by step parts below) */
	GD_ACCT_REPORT,	   /* tables, comparison, verdicts */
	GD_ACCT_TEARDOWN,  /* waits, deregistration, close */
	GD_ACCT_STAGES
};

#define GD_ACCT_MAX_PHASES 16

struct gd_time_account {
	double start_s, mark_s; /* monotonic: the run's start, last mark */
	double stage_s[GD_ACCT_STAGES];
	struct gd_step_times step[GD_ACCT_MAX_PHASES]; /* summed per phase */
	unsigned int steps[GD_ACCT_MAX_PHASES];
	const char *phase_name[GD_ACCT_MAX_PHASES];
	unsigned int num_phases;
	double (*now_s)(void); /* the clock of every mark */
};

/* Monotonic seconds. */
double gd_acct_now_s(void);
/* Start the account now, on gd_acct_now_s. */
void gd_acct_start(struct gd_time_account *a);
/* The same on the clock @now_s: a test steps time instead of sleeping. */
void gd_acct_start_on(struct gd_time_account *a, double (*now_s)(void));
/* The time since the last mark goes to @stage; returns now. */
double gd_acct_mark(struct gd_time_account *a, enum gd_acct_stage stage);
/* Add one step of phase @p (@name) to the phase's sums. */
void gd_acct_add_step(struct gd_time_account *a, unsigned int p,
		      const char *name, const struct gd_step_times *t);
/* Sum of one step's parts. */
double gd_step_times_total(const struct gd_step_times *t);
/*
 * The account as JSON (wall_s, stages, steps: per part and per phase, the
 * gaps between steps, and closure: wall minus the sum of the parts) and
 * one line for the text report into @line. Marks nothing: call after the
 * last gd_acct_mark.
 */
struct json_object *gd_acct_json(const struct gd_time_account *a, char *line,
				 unsigned long len);

#endif
