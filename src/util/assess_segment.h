/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Where the curves part: the contiguous run of sizes (a segment) whose mean
 * log ratio lies furthest below the floor, found by a scan over every
 * segment of the judged sizes, wherever it starts; its p-value is
 * Bonferroni-corrected over the segments scanned. Fixed band edges play no
 * part. One part of an assessment's "slower" family (assess_run.c).
 */
#ifndef GD_ASSESS_SEGMENT_H
#define GD_ASSESS_SEGMENT_H

#include <stdbool.h>

struct gd_assessment;

/* Slow runs named beside the one furthest below the floor, at most. */
#define GD_ASSESS_SEG_ALSO 3

/* The segment of one assessment; from and to index its judged sizes. */
struct gd_assess_segment {
	unsigned int tested; /* segments scanned: the correction's count */
	int from, to;	     /* the best segment's first and last size, -1 */
	unsigned int sizes;
	double lo_bytes, hi_bytes;
	double ratio, lo, hi; /* geometric mean, 95% two-sided interval */
	double t;	      /* (mean log ratio - log floor) / its se */
	unsigned int df;
	double rho;   /* pooled correlation of sizes within a round, >= 0 */
	double widen; /* variance factor for correlated rounds, >= 1 */
	double p;     /* one-sided "at or above the floor", unadjusted */
	double p_adj; /* times the segments scanned and the family's share */
	double p_run; /* p_adj after the run's Holm */
	bool found;   /* below the floor at the run's level */
};

void gd_assess_segment_init(struct gd_assess_segment *s);

/*
 * Scan every contiguous run of @a's sizes that have two or more rounds
 * (their order in @a: ascending size) for the one furthest below log
 * floor @lf. A segment's mean is the mean of its sizes' means; its
 * variance their variances of the mean (the "not below" spread, pooled
 * with sizes of like noise) plus their covariance within a round, from
 * the correlation of the sizes' residuals pooled over every pair of
 * sizes, so that a drift a round's sizes share is counted; each part
 * widened when neighbouring rounds are correlated (a->corr, read
 * before). Fills a->seg but for p_adj, p_run and found; then, the same
 * way, a->seg_also: the next furthest below the floor among the segments
 * below it that are apart from every one kept by a size whose mean is not
 * (a second dip, where the curve came back up between), at most
 * GD_ASSESS_SEG_ALSO. Each has the same correction as a->seg (Bonferroni
 * over every segment scanned), so naming them all keeps the rate of a
 * wrongly named segment within the level.
 */
void gd_assess_segments(double lf, struct gd_assessment *a);

/* Holm within the assessment (@share: its parts) and across the run
 * (@mult), at @alpha, the assessment's "slower" level (the fixed design's
 * 2.5%, split over the looks of an adaptive run): fills p_adj, p_run and
 * found of a->seg and of each a->seg_also (found only beside a->seg). */
void gd_assess_segment_flag(struct gd_assessment *a, double share, double mult,
			    double alpha);

#endif
