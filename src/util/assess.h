/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Is a device phase slower than host memory beyond a floor? One decision
 * for the run's verdicts (report/evidence.c) and for a campaign's repeats
 * (gd_report), on a plain matrix of log speed ratios: with two or more
 * rounds, the paired t-interval of the geometric-mean ratio over the rounds
 * and per-size Bonferroni intervals with pooled spread; with one round, the
 * exact sign and longest-run tests over sizes, never one size alone.
 */
#ifndef GD_ASSESS_H
#define GD_ASSESS_H

#include <stdbool.h>

#include "util/infer.h"

#define GD_ASSESS_MAX_SIZES 128
#define GD_ASSESS_REPEATS_CAP 100 /* most rounds an assessment asks for */

enum gd_decision {
	GD_DECISION_INCONCLUSIVE,
	GD_DECISION_NO_DIFFERENCE,
	GD_DECISION_SLOWER,
};

struct gd_assessment {
	enum gd_decision decision;
	const char *decision_name;  /* "slower", "no_difference", ... */
	bool by_rounds;		    /* two or more rounds: their t-interval */
	unsigned int rounds, sizes; /* with a figure */
	struct gd_log_ci ci;	    /* geometric-mean ratio */
	/* one round: "below the floor" over sizes */
	unsigned int below, longest;
	double p_sign, p_run;
	bool consistent;
	/* two or more rounds: per size */
	double pooled_sd;
	unsigned int pooled_df;
	double each_conf; /* of the per-size intervals */
	unsigned int nslow;
	int worst; /* column of the slowest flagged size, -1 */
	double worst_ratio, worst_size;
	double ratio_cv_pct;	     /* CV of one ratio, percent */
	double resolution_pct;	     /* interval half-width, percent */
	double detectable_ratio;     /* a ratio below it would be flagged */
	unsigned int repeats_needed; /* inconclusive: what would settle it */
};

/* Per column (size): mean over its rounds, its interval's half-width (log
 * units) and whether that interval lies below the floor. */
struct gd_assess_size {
	unsigned int n;
	double mean, sd, half;
	bool slow;
};

/*
 * @d holds @rounds rows of @sizes log speed ratios (bandwidth: log device /
 * host; latency: log host / device; below 0 is slower), NAN where a figure
 * is missing; @size_bytes (may be NULL) names the columns. @per (may be
 * NULL) receives @sizes entries. 0, or -EINVAL (bad floor, too many sizes).
 */
int gd_assess(const double *d, const double *size_bytes, unsigned int rounds,
	      unsigned int sizes, double floor, struct gd_assessment *a,
	      struct gd_assess_size *per);

#endif
