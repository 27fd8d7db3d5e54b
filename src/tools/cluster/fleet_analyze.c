/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Judging the measurements: outliers by median and MAD within the same
 * rail, phase and size; rails judged against each other; then the repeats
 * of every series (fleet_repeats.c: repeatability and the DD/HH ratio); and
 * the per-round coverage of every intended association. Every group
 * statistic comes from the indexes (fleet_index.c), computed once.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet_index.h"
#include "util/error.h"

/* Room for the reason a run stands out, on its first reason. */
static char *slow_text(struct gd_fleet *fl, struct gd_fleet_run *r)
{
	if (!r->slow_why)
		r->slow_why = gd_fleet_pool_alloc(&fl->pool, GD_FLEET_TEXT_MAX);
	if (r->slow_why && !r->slow)
		r->slow_why[0] = '\0';
	return r->slow_why;
}

static int mark_slow(struct gd_fleet *fl, struct gd_fleet_run *r,
		     const struct gd_fleet_phase *p, double worst, int out,
		     int judged)
{
	char *why = slow_text(fl, r);
	size_t len;

	if (!why)
		return -ENOMEM;
	r->slow = true;
	len = strlen(why);
	snprintf(why + len, GD_FLEET_TEXT_MAX - len,
		 "%s%s %.0f%% %s the rail-%d median at %d/%d sizes",
		 len ? "; " : "", p->name, worst * 100,
		 r->lat ? "above" : "below", r->rail, out, judged);
	return 0;
}

static int judge_run(struct gd_fleet *fl, struct gd_fleet_run *r)
{
	int pi, i, cls = gd_fleet_run_class(r), ret = 0;

	for (pi = 0; !ret && pi < r->n_phases; pi++) {
		const struct gd_fleet_phase *p = &r->phases[pi];
		int judged = 0, out = 0;
		double worst = 0;

		for (i = 0; i < p->n; i++) {
			const struct gd_fleet_group *g;

			if (!gd_fleet_size_judged(fl, p, i))
				continue;
			g = gd_fleet_index_group(fl->ix, cls, r->rail, p->name,
						 p->size_bytes[i]);
			if (!g || g->n < 3)
				continue;
			judged++;
			if (gd_fleet_is_outlier(p->value[i], g->median, g->mad,
						r->lat, fl->opt.mad_k,
						fl->opt.min_dev)) {
				out++;
				if (fabs(p->value[i] / g->median - 1) > worst)
					worst = fabs(p->value[i] / g->median -
						     1);
			}
		}
		if (judged && out * 2 >= judged)
			ret = mark_slow(fl, r, p, worst, out, judged);
	}
	return ret;
}

static double group_median(const struct gd_fleet *fl, int cls, int rail,
			   const char *phase, double size)
{
	const struct gd_fleet_group *g =
		gd_fleet_index_group(fl->ix, cls, rail, phase, size);

	return g ? g->median : NAN;
}

/* Rails against each other at one phase: each rail's median per size,
 * then the median and MAD of those medians. */
static int judge_rails_phase(struct gd_fleet *fl,
			     const struct gd_fleet_run *ref,
			     const struct gd_fleet_phase *p, double *meds)
{
	int *out = calloc(fl->rails, sizeof(int)), judged = 0, rail, i;

	if (!out)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		double m, mad;

		if (!gd_fleet_size_judged(fl, p, i))
			continue;
		for (rail = 0; rail < fl->rails; rail++)
			meds[rail] = group_median(fl, 0, rail, p->name,
						  p->size_bytes[i]);
		m = gd_fleet_median(meds, fl->rails);
		mad = gd_fleet_mad(meds, fl->rails);
		judged++;
		for (rail = 0; rail < fl->rails; rail++)
			out[rail] += gd_fleet_is_outlier(
				meds[rail], m, mad, ref->lat, fl->opt.mad_k,
				fl->opt.min_dev);
	}
	for (rail = 0; judged && rail < fl->rails; rail++)
		if (out[rail] * 2 >= judged)
			fl->rail_slow[rail] = true;
	free(out);
	return 0;
}

/* Needs at least three rails; the first ok run of rounds 1-2 gives the
 * phases and sizes. */
static int judge_rails(struct gd_fleet *fl, double *meds)
{
	const struct gd_fleet_run *ref = NULL;
	int pi, ret = 0;
	size_t k;

	for (k = 0; k < fl->n_runs && !ref; k++)
		if (fl->runs[k].have_measure && fl->runs[k].ok &&
		    gd_fleet_run_class(&fl->runs[k]) == 0)
			ref = &fl->runs[k];
	if (!ref || fl->rails < 3)
		return 0;
	for (pi = 0; !ret && pi < ref->n_phases; pi++)
		ret = judge_rails_phase(fl, ref, &ref->phases[pi], meds);
	return ret;
}

/* A run on a slow rail is slow too, whatever its rank inside the rail. */
static int mark_rail(struct gd_fleet *fl, struct gd_fleet_run *r)
{
	char *why;
	size_t len;

	if (!r->have_measure || !r->ok || r->rail < 0 || r->rail >= fl->rails ||
	    !fl->rail_slow[r->rail])
		return 0;
	why = slow_text(fl, r);
	if (!why)
		return -ENOMEM;
	r->slow = true;
	len = strlen(why);
	snprintf(why + len, GD_FLEET_TEXT_MAX - len,
		 "%srail %d is an outlier against the other rails",
		 len ? "; " : "", r->rail);
	return 0;
}

static int analyze(struct gd_fleet *fl, double *meds)
{
	size_t i;
	int ret = gd_fleet_index_build(fl);

	for (i = 0; !ret && i < fl->n_runs; i++)
		if (fl->runs[i].have_measure && fl->runs[i].ok)
			ret = judge_run(fl, &fl->runs[i]);
	if (!ret)
		ret = judge_rails(fl, meds);
	for (i = 0; !ret && i < fl->n_runs; i++)
		ret = mark_rail(fl, &fl->runs[i]);
	if (!ret)
		ret = gd_fleet_judge_repeats(fl);
	if (!ret)
		ret = gd_fleet_index_coverage(fl);
	return ret;
}

int gd_fleet_analyze(struct gd_fleet *fl)
{
	double *meds = calloc(fl->rails + 1, sizeof(double));
	int ret;

	free(fl->rail_slow);
	fl->rail_slow = calloc(fl->rails + 1, sizeof(bool));
	memset(&fl->rep, 0, sizeof(fl->rep));
	memset(&fl->ratio, 0, sizeof(fl->ratio));
	fl->n_judged = 0;
	fl->n_series_recs = 0;
	ret = meds && fl->rail_slow ? analyze(fl, meds) : -ENOMEM;
	free(meds);
	if (ret)
		return gd_err(ret,
			      "out of memory analysing %zu runs on %zu "
			      "servers; run gd_report with more memory",
			      fl->n_runs, fl->n_hosts);
	return 0;
}

enum gd_cov gd_fleet_coverage(const struct gd_fleet *fl, int round, int host,
			      int gpu, int *planned, int *passed)
{
	const struct gd_fleet_cov *c =
		gd_fleet_index_cov(fl->ix, round, host, gpu);

	*planned = c ? c->planned : 0;
	*passed = c ? c->passed : 0;
	if (!c || !c->tested)
		return GD_COV_UNTESTED;
	if (c->bad)
		return GD_COV_FAIL;
	return c->passed == c->planned ? GD_COV_PASS : GD_COV_PARTIAL;
}

const char *gd_fleet_cov_name(enum gd_cov c)
{
	static const char *const names[] = { "untested", "pass", "fail",
					     "partial" };

	return names[c];
}

double gd_fleet_assoc_value(const struct gd_fleet *fl, int host, int gpu,
			    const char *phase, double size_bytes)
{
	const uint32_t *runs;
	size_t i, k = 0,
		  n = fl->ix ? gd_fleet_index_host(fl->ix, host, &runs) : 0;
	double *buf = malloc((n ? n : 1) * sizeof(double)), v;

	if (!buf)
		return NAN;
	for (i = 0; i < n; i++) {
		const struct gd_fleet_run *r = &fl->runs[runs[i]];

		if (!r->have_measure || !r->ok || gd_fleet_run_class(r) ||
		    r->gpu != gpu)
			continue;
		v = gd_fleet_phase_at(gd_fleet_phase_of(r, phase), size_bytes);
		if (!isnan(v))
			buf[k++] = v;
	}
	v = gd_fleet_median(buf, k);
	free(buf);
	return v;
}

/* Any negative rail stands for every rail, as a plan's bad rail number
 * read into the heat map always did. */
static double any_rail_value(const struct gd_fleet *fl, const char *phase,
			     double size_bytes)
{
	double *buf = malloc((fl->n_runs + 1) * sizeof(double)), v;
	size_t i, k = 0;

	if (!buf)
		return NAN;
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (!r->have_measure || !r->ok || gd_fleet_run_class(r))
			continue;
		v = gd_fleet_phase_at(gd_fleet_phase_of(r, phase), size_bytes);
		if (!isnan(v))
			buf[k++] = v;
	}
	v = gd_fleet_median(buf, k);
	free(buf);
	return v;
}

double gd_fleet_rail_value(const struct gd_fleet *fl, int rail,
			   const char *phase, double size_bytes)
{
	if (rail < 0)
		return any_rail_value(fl, phase, size_bytes);
	return group_median(fl, 0, rail, phase, size_bytes);
}
