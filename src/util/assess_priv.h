/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Between assess.c (one assessment's figures), assess_run.c (its
 * p-values combined, within it and across a run, into the decision) and
 * assess_family.c (a run's assessments together).
 */
#ifndef GD_ASSESS_PRIV_H
#define GD_ASSESS_PRIV_H

#include "util/assess.h"

/* Holm within @a (a quarter of the level to the bands, three eighths to
 * the sizes and to the segments each), then
 * the decision as if @a were the run's only assessment. */
void gd_assess_combine(struct gd_assessment *a);

/* Holm across the @n (at most GD_ASSESS_MAX_SIZES) assessments of a run
 * and each one's decision after it (gd_assess_run's last step). */
void gd_assess_run_holm(struct gd_assessment *a, unsigned int n);

/* Every test of @a ("not below" per size; "slower" by bands, sizes,
 * segments) again with its correlation model a->corr (after
 * gd_assess_run set the run's pooled one), then gd_assess_combine(). */
void gd_assess_retest(struct gd_assessment *a);

#endif
