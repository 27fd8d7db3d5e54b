/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Is a device phase slower than host memory beyond a floor? One decision
 * for the run's verdicts (report/evidence.c) and for a campaign's repeats
 * (gd_report), on a plain matrix of log speed ratios, rounds (blocks of
 * time) by sizes. "Not below" needs every size's own 95% lower bound to
 * clear the floor; "slower" is shown by a band (<= 4 KiB, 4-64 KiB,
 * >= 64 KiB), a size or a run of sizes, Holm-corrected, each interval
 * widened for correlated rounds (assess_corr.h). A size's spread is moderated
 * only towards sizes of like noise, so no size can hide another.
 * gd_assess_run() corrects "slower" across a run's assessments.
 */
#ifndef GD_ASSESS_H
#define GD_ASSESS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/assess_corr.h"
#include "util/assess_segment.h"
#include "util/infer.h"

#define GD_ASSESS_MAX_SIZES 128
#define GD_ASSESS_REPEATS_CAP 100 /* most rounds an assessment asks for */
#define GD_ASSESS_BANDS 3
/* Band edges: sizes up to the first are "small", from the second "large". */
#define GD_ASSESS_SMALL_BYTES 4096.0
#define GD_ASSESS_LARGE_BYTES 65536.0
/* The level of "slower" across a run (Holm over its assessments, and
 * within each over bands and sizes): half of the 5% run-level rate that
 * gdperf(7) states, so that the rate stays within it when rounds are
 * correlated or tails are heavy (tests/assess_sim_test.c measures it). */
#define GD_ASSESS_ALPHA 0.025
/* Power at which the detectable ratio is quoted. */
#define GD_ASSESS_POWER 0.80
/* Prior degrees of freedom of a band's spread: it is shrunk towards its
 * sizes' pooled spread with this weight, never floored at it. */
#define GD_ASSESS_PRIOR_DF 2
/* A size's spread pools with the sizes whose noise level (the median log
 * variance of a size and GD_ASSESS_POOL_REACH neighbours either side) is
 * within this factor of its own, and only when its own variance agrees
 * with the pool's: an F test, at GD_ASSESS_POOL_LOW for a size more
 * precise than its pool and GD_ASSESS_POOL_HIGH for a noisier one (a
 * false alarm there costs "not below" its power over many sizes); see
 * assess.c and tests/assess_sim_test.c for the rates this gives. */
#define GD_ASSESS_POOL_FACTOR 4.0
#define GD_ASSESS_POOL_REACH 2
#define GD_ASSESS_POOL_LOW 0.025
#define GD_ASSESS_POOL_HIGH 0.001

enum gd_decision {
	GD_DECISION_INCONCLUSIVE,
	GD_DECISION_NOT_BELOW,
	GD_DECISION_SLOWER,
};

/* One band of sizes: its interval over rounds (each round: the mean over
 * the band's sizes), or over its sizes when it has one round. */
struct gd_assess_band {
	unsigned int sizes;	   /* with a figure */
	double lo_bytes, hi_bytes; /* smallest and largest of them */
	bool by_rounds;
	bool decided;		   /* has an interval (enough replicates) */
	struct gd_log_ci ci;	   /* 95%, two-sided, widened (assess_corr.h) */
	struct gd_log_ci ci_plain; /* as its replicates say, before that */
	double se_log;		   /* standard error of ci.mean_log */
	double rho;		   /* lag-1 autocorrelation of rounds; NAN */
	double widen;		   /* its variance's factor for correlation */
	double p_slower;	   /* one-sided, "at or above the floor" */
	double p_not_below;	   /* one-sided, "below the floor" */
	double holm_p;		   /* p_slower adjusted within the run */
	double detectable_ratio;   /* flagged with GD_ASSESS_POWER */
};

/* Per column (size): its rounds' mean and spread; for "slower" the spread
 * shrunk towards its band's (sd_mod, df), the one-sided p-value and its
 * Holm adjustment (within the assessment; gd_assess_run() scales it for
 * the run); for "not below" the spread pooled with sizes of like noise
 * (sd_nb; df_nb counting the pool's, by rounds where its sizes move
 * together), the 95% lower bound (widened for correlated rounds) and its
 * one-sided p-value; and, when undecided, the rounds that would settle
 * it. */
struct gd_assess_size {
	unsigned int n, df, band;
	double mean, sd, sd_mod, half;
	double p_slower, holm_p;
	unsigned int df_nb;
	double sd_nb, p_not_below, lo;
	unsigned int need;
	bool slow, undecided;
};

struct gd_assessment {
	enum gd_decision decision;
	const char *decision_name;  /* "slower", "not_below", "inconclusive" */
	const char *reason;	    /* inconclusive: why, in words */
	bool by_rounds;		    /* two or more rounds */
	unsigned int rounds, sizes; /* with a figure */
	double floor;
	double lo_bytes, hi_bytes; /* judged range */
	struct gd_log_ci ci;	   /* all judged sizes, geometric mean */
	struct gd_assess_band band[GD_ASSESS_BANDS];
	unsigned int nbands, bands_decided;
	struct gd_assess_segment seg; /* where the curves part */
	/* further slow runs, each apart from the others by a size not below
	 * the floor, weaker than seg: named only where seg is */
	struct gd_assess_segment seg_also[GD_ASSESS_SEG_ALSO];
	unsigned int nseg_also;
	struct gd_assess_corr corr; /* how rounds and sizes correlate */
	double rho; /* largest lag-1 autocorrelation of any band; NAN */
	/* slower: the assessment's p-value (Holm within it: half of the
	 * level to the bands, half to the sizes) and after the run's Holm */
	double p_slower, p_slower_run;
	double p_not_below; /* the largest size's: every size must clear */
	unsigned int tests; /* sizes with a per-size test */
	unsigned int nslow; /* sizes flagged on their own */
	int worst;	    /* column of the slowest flagged size, -1 */
	double worst_ratio, worst_size;
	int slow_band;		     /* band flagged, -1 */
	unsigned int family;	     /* assessments in the run's correction */
	double ratio_cv_pct;	     /* CV of one ratio, percent */
	double resolution_pct;	     /* overall interval half-width, percent */
	double detectable_ratio;     /* flagged with GD_ASSESS_POWER */
	unsigned int repeats_needed; /* inconclusive: what would settle it */
	bool can_clear;		     /* every size's lower bound clears */
	unsigned int nundecided;     /* inconclusive: sizes not settled */
	/* the design's looks (gd_assess_seq): the levels of this look,
	 * "not below" one-sided per size and "slower" across the run */
	unsigned int looks;
	double alpha_not_below, alpha_slower;
	/* the judged sizes, compacted: input column, bytes, statistics */
	unsigned int col[GD_ASSESS_MAX_SIZES];
	double size_bytes[GD_ASSESS_MAX_SIZES];
	struct gd_assess_size st[GD_ASSESS_MAX_SIZES];
};

/*
 * @d holds @rounds rows of @sizes log speed ratios (bandwidth: log device /
 * host; latency: log host / device; below 0 is slower), NAN where a figure
 * is missing; row r is one block of time. @size_bytes (may be NULL: then
 * all columns are one band) names the columns. @per (may be NULL) receives
 * @sizes entries. The decision is as if this were the run's only
 * assessment. 0, or -EINVAL (bad floor, too many sizes), -ENOMEM.
 */
int gd_assess(const double *d, const double *size_bytes, unsigned int rounds,
	      unsigned int sizes, double floor, struct gd_assessment *a,
	      struct gd_assess_size *per);

/*
 * gd_assess() at one look of an adaptive design (rounds added until every
 * assessment is decided) that plans at most @looks looks: each look's
 * levels are the fixed design's divided by @looks (an alpha split, valid
 * however the looks are chosen and whenever the run stops), so that the
 * run's rates of a false "not below" and a false "slower" stay within the
 * fixed design's. @looks 1 is gd_assess().
 */
int gd_assess_seq(const double *d, const double *size_bytes,
		  unsigned int rounds, unsigned int sizes, double floor,
		  unsigned int looks, struct gd_assessment *a,
		  struct gd_assess_size *per);
/* Looks an adaptive design plans when it looks after every round from
 * @first_round to @max_rounds: at least 1. */
unsigned int gd_assess_looks(unsigned int first_round, unsigned int max_rounds);
/* Every assessment of a run decided ("slower", or every size "not
 * below"): an adaptive design stops adding rounds. */
bool gd_assess_all_decided(const struct gd_assessment *a, unsigned int n);
/*
 * An adaptive design stops at this look: every one of the @n assessments
 * decided, and each "slower" one "slower" at the previous look too (@prev:
 * the decisions there, NULL at the first look). A look that says "slower"
 * by a lucky draw (correlated rounds make its tail heavier than its
 * level) rarely says it twice running, so the run stops on a "slower" that
 * two looks agree on; "not below" stops at once (each size's interval is
 * widened for correlated rounds, assess_corr.h).
 */
bool gd_assess_seq_stop(const enum gd_decision *prev,
			const struct gd_assessment *a, unsigned int n);

/* Holm across the @n assessments of one run (every device phase and
 * direction): "slower" at the run-level GD_ASSESS_ALPHA. "not below" needs
 * every size of every assessment to clear the floor, an intersection-union
 * test that needs no correction. */
void gd_assess_run(struct gd_assessment *a, unsigned int n);

/* The least --repeat with which these sizes can be decided: 3 (a size's
 * own interval needs rounds); 0 without sizes. */
unsigned int gd_assess_rounds_needed(const double *size_bytes,
				     unsigned int sizes);

/* Band of a size (0 small, 1 middle, 2 large) and its name. */
unsigned int gd_assess_band_of(double size_bytes);
/* "2 B", "64 KiB", "8 MiB", "1000 B": @buf, always terminated. */
const char *gd_assess_bytes_str(double bytes, char *buf, size_t len);

#endif
