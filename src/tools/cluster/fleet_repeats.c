/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The statistics over a campaign's repeats (labels repeat=1..N), the run
 * tool's own (src/report/evidence.c, util/infer.h): per series (the repeats
 * of one execution) and device phase, the DD/HH ratio is "slower" only when
 * the repeats say so (paired log-ratio t-interval, per-size Bonferroni
 * intervals) or, with one repeat, when the sizes do (exact sign and
 * longest-run tests), never from one size alone. The repeatability gate
 * reads gd_spread_of's coefficient of variation.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet_index.h"
#include "util/assess.h"
#include "util/infer.h"

const char gd_fleet_ratio_method[] =
	"per series (the repeats of one execution: same round, step, pair, GPU and direction, labels repeat=1..N) and device phase: with two or more repeats, the paired log-ratio t-interval over the repeats (each repeat: the mean over the judged sizes of log(device/HH) in that run) at 95%, slower when its upper bound is below R, or when a size's own interval (t over its repeats, spread pooled across sizes and never below its own, Bonferroni-corrected over the sizes) is; with one repeat, the exact one-sided sign test and longest-run test of 'below R' over the judged sizes, each at alpha 0.005, never from one size alone; otherwise no difference (interval above R) or inconclusive, with the repeats that would settle it";
const char gd_fleet_cv_method[] =
	"coefficient of variation in percent (sample standard deviation / mean x 100) of the ok repeats of each series, per phase and judged size; the worst one against --max-cv";

/* The first ok measured repeat of a series: its phases and judged sizes
 * are the grid the others are read on. */
static const struct gd_fleet_run *series_ref(const struct gd_fleet *fl,
					     const uint32_t *runs, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (fl->runs[runs[k]].have_measure && fl->runs[runs[k]].ok)
			return &fl->runs[runs[k]];
	return NULL;
}

static bool repeat_ok(const struct gd_fleet_run *o)
{
	return o->have_measure && o->ok;
}

/* The figures of phase @name at @size in the ok repeats, in run order. */
static size_t repeat_values(const struct gd_fleet *fl, const uint32_t *runs,
			    size_t n, const char *name, double size,
			    double *buf)
{
	size_t k, m = 0;

	for (k = 0; k < n; k++) {
		const struct gd_fleet_run *o = &fl->runs[runs[k]];
		double v;

		if (!repeat_ok(o))
			continue;
		v = gd_fleet_phase_at(gd_fleet_phase_of(o, name), size);
		if (!isnan(v))
			buf[m++] = v;
	}
	return m;
}

static void repeat_cv(struct gd_fleet *fl, const struct gd_fleet_run *ref,
		      const uint32_t *runs, size_t n, double *buf)
{
	struct gd_spread sp;
	bool judged = false;
	size_t m;
	int pi, i;

	for (pi = 0; pi < ref->n_phases; pi++) {
		const struct gd_fleet_phase *p = &ref->phases[pi];

		for (i = 0; i < p->n; i++) {
			if (!gd_fleet_size_judged(fl, p, i))
				continue;
			m = repeat_values(fl, runs, n, p->name,
					  p->size_bytes[i], buf);
			if (m < 2 || gd_spread_of(buf, m, &sp))
				continue;
			judged = true;
			if (sp.cv_pct <= fl->rep.worst_cv_pct)
				continue;
			fl->rep.worst_cv_pct = sp.cv_pct;
			snprintf(fl->rep.worst_cv_where,
				 sizeof(fl->rep.worst_cv_where),
				 "%s %s at %.0f bytes over %zu repeats",
				 ref->id, p->name, p->size_bytes[i], m);
		}
	}
	fl->rep.series += judged;
}

/* The judged sizes of @p (the series' grid) into @cols; their number. */
static unsigned int ratio_cols(const struct gd_fleet *fl,
			       const struct gd_fleet_phase *p, double *cols)
{
	unsigned int nc = 0;
	int i;

	for (i = 0; i < p->n; i++)
		if (gd_fleet_size_judged(fl, p, i))
			cols[nc++] = p->size_bytes[i];
	return nc;
}

/* log(device/HH) of every ok repeat (rows) of phase @name at @nc sizes
 * @cols (columns); NAN where a figure is missing. */
static void ratio_rows(const struct gd_fleet *fl, const char *name,
		       const uint32_t *runs, size_t n, double *d,
		       const double *cols, unsigned int nc)
{
	unsigned int c;
	size_t k;

	for (k = 0; k < n; k++) {
		const struct gd_fleet_run *o = &fl->runs[runs[k]];
		const struct gd_fleet_phase *x = gd_fleet_phase_of(o, name);
		const struct gd_fleet_phase *h = gd_fleet_phase_of(o, "HH");

		for (c = 0; c < nc; c++) {
			double dv = gd_fleet_phase_at(x, cols[c]);
			double hv = gd_fleet_phase_at(h, cols[c]);

			d[k * nc + c] =
				repeat_ok(o) && !o->lat && dv > 0 && hv > 0
					? log(dv / hv)
					: NAN;
		}
	}
}

static void slower_text(const struct gd_fleet_slower *s, char *dst, size_t len)
{
	const struct gd_assessment *a = &s->a;
	int n;

	if (a->by_rounds)
		n = snprintf(dst, len,
			     "%s: %s/HH %.2f, %.0f%% interval %.2f..%.2f over "
			     "%u repeats and %u sizes",
			     s->id, s->phase, a->ci.ratio,
			     GD_INFER_CONFIDENCE * 100, a->ci.lo, a->ci.hi,
			     a->rounds, a->sizes);
	else
		n = snprintf(
			dst, len,
			"%s: %s/HH %.2f over %u sizes of one repeat, %u "
			"below R (sign test p=%.2g, longest run %u p=%.2g)",
			s->id, s->phase, a->ci.ratio, a->sizes, a->below,
			a->p_sign, a->longest, a->p_run);
	if (a->nslow && n > 0 && (size_t)n < len)
		snprintf(dst + n, len - n,
			 "; %u size(s) below R on their own interval, worst "
			 "%.2f at %.0f bytes",
			 a->nslow, a->worst_ratio, a->worst_size);
}

static int count(struct gd_fleet *fl, const struct gd_fleet_run *ref,
		 const char *phase, const struct gd_assessment *a)
{
	struct gd_fleet_ratio_counts *c = &fl->ratio;
	struct gd_fleet_slower *grown;

	c->assessed++;
	c->by_repeats += a->by_rounds;
	if (!strcmp(a->decision_name, "no_difference"))
		c->no_difference++;
	if (!strcmp(a->decision_name, "inconclusive")) {
		c->inconclusive++;
		if (a->repeats_needed > c->repeats_needed)
			c->repeats_needed = a->repeats_needed;
	}
	if (strcmp(a->decision_name, "slower"))
		return 0;
	grown = gd_fleet_grow(fl->slower, &fl->slower_cap, fl->n_slower,
			      sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	fl->slower = grown;
	grown = &fl->slower[fl->n_slower++];
	grown->id = ref->id;
	snprintf(grown->phase, sizeof(grown->phase), "%s", phase);
	grown->a = *a;
	if (!c->slower++)
		slower_text(grown, c->first_slower, sizeof(c->first_slower));
	return 0;
}

/* One device phase of the series against HH. */
static int ratio_phase(struct gd_fleet *fl, const struct gd_fleet_run *ref,
		       const struct gd_fleet_phase *p, const uint32_t *runs,
		       size_t n)
{
	double cols[GD_FLEET_SIZES_MAX], *d;
	unsigned int nc = ratio_cols(fl, p, cols);
	struct gd_assessment a;
	int ret;

	if (!nc)
		return 0;
	d = malloc(n * nc * sizeof(*d));
	if (!d)
		return -ENOMEM;
	ratio_rows(fl, p->name, runs, n, d, cols, nc);
	ret = gd_assess(d, cols, (unsigned int)n, nc, fl->opt.expect_ratio, &a,
			NULL);
	free(d);
	return ret ? ret : count(fl, ref, p->name, &a);
}

/* Every device phase (first of its name) of the series, bandwidth only. */
static int ratio_series(struct gd_fleet *fl, const struct gd_fleet_run *ref,
			const uint32_t *runs, size_t n)
{
	int pi, j, ret = 0;

	if (ref->lat || !gd_fleet_phase_of(ref, "HH"))
		return 0;
	for (pi = 0; !ret && pi < ref->n_phases; pi++) {
		const struct gd_fleet_phase *p = &ref->phases[pi];

		for (j = 0; j < pi && strcmp(ref->phases[j].name, p->name); j++)
			;
		if (j == pi && strchr(p->name, 'D'))
			ret = ratio_phase(fl, ref, p, runs, n);
	}
	return ret;
}

int gd_fleet_judge_repeats(struct gd_fleet *fl)
{
	size_t s, n, most = 1;
	const uint32_t *runs;
	double *buf;
	int ret = 0;

	for (s = 0; s < fl->ix->n_series; s++) {
		n = gd_fleet_index_series(fl->ix, s, &runs);
		most = n > most ? n : most;
	}
	buf = malloc(most * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (s = 0; !ret && s < fl->ix->n_series; s++) {
		const struct gd_fleet_run *ref;

		n = gd_fleet_index_series(fl->ix, s, &runs);
		ref = series_ref(fl, runs, n);
		if (!ref)
			continue;
		repeat_cv(fl, ref, runs, n, buf);
		if (fl->opt.expect_ratio > 0)
			ret = ratio_series(fl, ref, runs, n);
	}
	free(buf);
	return ret;
}
