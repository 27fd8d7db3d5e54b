/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A campaign's ratio decision (fleet_decide.c), apart from the documents:
 * one series' repeats, each a separate launch with its own rounds, judged
 * by the run's rule (util/assess.h), and the list of slow series held to a
 * false discovery rate over the campaign. gd_report and the campaign
 * simulation (tests/cluster/campaign_sim_test.c) call the same functions.
 */
#ifndef GD_CLUSTER_FLEET_DECIDE_H
#define GD_CLUSTER_FLEET_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/assess.h"

/* The level of the campaign's list of slow series: Benjamini-Hochberg over
 * series at the run's own level, so that a campaign of one series lists
 * exactly what its run decides "slower"; the false discovery rate it
 * controls is stated as the run's, GD_FLEET_FDR_STATED. */
#define GD_FLEET_FDR_LEVEL GD_ASSESS_ALPHA
#define GD_FLEET_FDR_STATED 0.05

/*
 * One device phase of a series: @reps repeats, repeat k holding
 * @rows[k] rounds (rows of @sizes log speed ratios, stacked in @d in
 * repeat order; NAN where a figure is missing). One repeat: its rounds
 * are the run's own matrix, at @looks (the run's adaptive looks, 1 for a
 * fixed design): the run's decision. Two or more: each repeat is a
 * cluster of its rounds, its mean log ratio per size one row, so that
 * run-to-run variation is the spread the rule sees and rounds of
 * different runs are never taken as independent (one look). The decision
 * is as if this were the series' only assessment: gd_assess_run() the
 * series' phases after. 0, -EINVAL, -ENOMEM.
 */
int gd_fleet_series_assess(const double *d, const unsigned int *rows,
			   unsigned int reps, unsigned int sizes,
			   const double *size_bytes, double floor,
			   unsigned int looks, struct gd_assessment *a);

/* An assessment's "slower" p-value on the scale of GD_FLEET_FDR_LEVEL
 * (its run-level p times its looks): at most the level exactly when the
 * assessment decided "slower". */
double gd_fleet_p_slower(const struct gd_assessment *a);

/*
 * Benjamini-Hochberg over @m series: @p holds the @n series p-values at
 * most @q (each series' smallest gd_fleet_p_slower; larger ones can never
 * be listed and need not be given), sorted here. Returns the threshold a
 * series' p-value (and, within a listed series, an assessment's) must not
 * exceed to be listed: k q / m for the largest k with p_(k) <= k q / m,
 * or -1 when none is listed.
 */
double gd_fleet_fdr_threshold(double *p, size_t n, size_t m, double q);

/* What gd_report says of its rule, written from the constants above and
 * util/assess.h's: @buf, always terminated. */
const char *gd_fleet_ratio_rule(char *buf, size_t len);

#endif
