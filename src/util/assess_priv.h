/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Between assess.c (one assessment's figures) and assess_run.c (its
 * p-values combined, within it and across a run, into the decision).
 */
#ifndef GD_ASSESS_PRIV_H
#define GD_ASSESS_PRIV_H

#include "util/assess.h"

/* Holm within @a (a quarter of the level to the bands, three eighths to
 * the sizes and to the segments each), then
 * the decision as if @a were the run's only assessment. */
void gd_assess_combine(struct gd_assessment *a);

#endif
