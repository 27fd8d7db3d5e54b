/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Judging the measurements: outliers by median and MAD within the same
 * rail, phase and size; rails judged against each other; repeatability
 * (coefficient of variation across repeats); the DD/HH ratio gate; and the
 * per-round coverage of every intended association.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet.h"
#include "util/error.h"

const struct gd_fleet_phase *gd_fleet_phase_of(const struct gd_fleet_run *r,
					       const char *name)
{
	int i;

	for (i = 0; i < r->n_phases; i++)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

static bool run_tested(const struct gd_fleet_run *r)
{
	return r->have_measure || r->have_server;
}

bool gd_fleet_run_bad(const struct gd_fleet_run *r)
{
	return run_tested(r) && (!r->ok || r->slow);
}

static double phase_at(const struct gd_fleet_phase *p, double size)
{
	int i;

	for (i = 0; p && i < p->n; i++)
		if (p->size_bytes[i] == size)
			return p->value[i];
	return NAN;
}

/* Isolated rounds (1, 2) and the concurrency round are judged apart: a
 * rail shared by all pairs at once is a different condition. */
static int run_class(const struct gd_fleet_run *r)
{
	return r->round == 3;
}

struct sel {
	int cls;       /* -1: any */
	int rail;      /* -1: any */
	int host, gpu; /* -1: any */
	bool ok_only;
};

static size_t gather(const struct gd_fleet *fl, const struct sel *s,
		     const char *phase, double size, double *out)
{
	size_t i, n = 0;

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];
		double v;

		if (!r->have_measure || (s->ok_only && !r->ok) ||
		    (s->cls >= 0 && run_class(r) != s->cls) ||
		    (s->rail >= 0 && r->rail != s->rail) ||
		    (s->host >= 0 && r->a != s->host && r->b != s->host) ||
		    (s->gpu >= 0 && r->gpu != s->gpu))
			continue;
		v = phase_at(gd_fleet_phase_of(r, phase), size);
		if (!isnan(v))
			out[n++] = v;
	}
	return n;
}

/* Sizes at or above gate_from are judged; a curve that stops below it is
 * judged at its largest size. */
static bool size_judged(const struct gd_fleet *fl,
			const struct gd_fleet_phase *p, int i)
{
	return p->size_bytes[i] >= fl->opt.gate_from_bytes ||
	       (i == p->n - 1 && p->size_bytes[i] < fl->opt.gate_from_bytes);
}

static void judge_run(struct gd_fleet *fl, struct gd_fleet_run *r, double *buf)
{
	struct sel s = { run_class(r), r->rail, -1, -1, true };
	int pi, i;

	for (pi = 0; pi < r->n_phases; pi++) {
		const struct gd_fleet_phase *p = &r->phases[pi];
		int judged = 0, out = 0;
		double worst = 0;

		for (i = 0; i < p->n; i++) {
			size_t n;
			double med, mad;

			if (!size_judged(fl, p, i))
				continue;
			n = gather(fl, &s, p->name, p->size_bytes[i], buf);
			if (n < 3)
				continue;
			med = gd_fleet_median(buf, n);
			mad = gd_fleet_mad(buf, n);
			judged++;
			if (gd_fleet_is_outlier(p->value[i], med, mad, r->lat,
						fl->opt.mad_k,
						fl->opt.min_dev)) {
				out++;
				if (fabs(p->value[i] / med - 1) > worst)
					worst = fabs(p->value[i] / med - 1);
			}
		}
		if (!judged || out * 2 < judged)
			continue;
		if (!r->slow)
			r->slow_why[0] = '\0';
		r->slow = true;
		snprintf(r->slow_why + strlen(r->slow_why),
			 sizeof(r->slow_why) - strlen(r->slow_why),
			 "%s%s %.0f%% %s the rail-%d median at %d/%d sizes",
			 r->slow_why[0] ? "; " : "", p->name, worst * 100,
			 r->lat ? "above" : "below", r->rail, out, judged);
	}
}

/* Rails against each other: each rail's median per phase and size, then
 * the median and MAD of those medians. Needs at least three rails. */
static void judge_rails(struct gd_fleet *fl, double *buf, double *meds)
{
	const struct gd_fleet_run *ref = NULL;
	int rail, pi, i;
	size_t k;

	for (k = 0; k < fl->n_runs && !ref; k++)
		if (fl->runs[k].have_measure && fl->runs[k].ok &&
		    run_class(&fl->runs[k]) == 0)
			ref = &fl->runs[k];
	if (!ref || fl->rails < 3)
		return;
	for (pi = 0; pi < ref->n_phases; pi++) {
		const struct gd_fleet_phase *p = &ref->phases[pi];
		int *out = calloc(fl->rails, sizeof(int)), judged = 0;

		if (!out)
			return;
		for (i = 0; i < p->n; i++) {
			double m, mad;

			if (!size_judged(fl, p, i))
				continue;
			for (rail = 0; rail < fl->rails; rail++) {
				struct sel s = { 0, rail, -1, -1, true };
				size_t n = gather(fl, &s, p->name,
						  p->size_bytes[i], buf);

				meds[rail] = gd_fleet_median(buf, n);
			}
			m = gd_fleet_median(meds, fl->rails);
			mad = gd_fleet_mad(meds, fl->rails);
			judged++;
			for (rail = 0; rail < fl->rails; rail++)
				out[rail] += gd_fleet_is_outlier(
					meds[rail], m, mad, ref->lat,
					fl->opt.mad_k, fl->opt.min_dev);
		}
		for (rail = 0; judged && rail < fl->rails; rail++)
			if (out[rail] * 2 >= judged)
				fl->rail_slow[rail] = true;
		free(out);
	}
}

/* A run on a slow rail is slow too, whatever its rank inside the rail. */
static void mark_rail(struct gd_fleet *fl, struct gd_fleet_run *r)
{
	size_t len;

	if (!r->have_measure || !r->ok || r->rail < 0 || r->rail >= fl->rails ||
	    !fl->rail_slow[r->rail])
		return;
	if (!r->slow)
		r->slow_why[0] = '\0';
	r->slow = true;
	len = strlen(r->slow_why);
	snprintf(r->slow_why + len, sizeof(r->slow_why) - len,
		 "%srail %d is "
		 "an outlier against the other rails",
		 len ? "; " : "", r->rail);
}

static bool same_series(const struct gd_fleet_run *x,
			const struct gd_fleet_run *y)
{
	return x->round == y->round && x->step == y->step && x->a == y->a &&
	       x->b == y->b && x->gpu == y->gpu && x->b_to_a == y->b_to_a;
}

static void judge_repeats(struct gd_fleet *fl, size_t first, double *buf)
{
	const struct gd_fleet_run *r = &fl->runs[first];
	int pi, i;
	size_t k;

	for (pi = 0; pi < r->n_phases; pi++) {
		const struct gd_fleet_phase *p = &r->phases[pi];

		for (i = 0; i < p->n; i++) {
			size_t n = 0;
			double cv;

			if (!size_judged(fl, p, i))
				continue;
			for (k = first; k < fl->n_runs; k++) {
				const struct gd_fleet_run *o = &fl->runs[k];
				double v;

				if (!o->have_measure || !o->ok ||
				    !same_series(o, r))
					continue;
				v = phase_at(gd_fleet_phase_of(o, p->name),
					     p->size_bytes[i]);
				if (!isnan(v))
					buf[n++] = v;
			}
			cv = n > 1 ? gd_fleet_cv(buf, n) : 0;
			if (cv > fl->worst_cv) {
				fl->worst_cv = cv;
				snprintf(fl->worst_cv_where,
					 sizeof(fl->worst_cv_where),
					 "%s %s at %.0f bytes over %zu repeats",
					 r->id, p->name, p->size_bytes[i], n);
			}
		}
	}
}

static void judge_ratio(struct gd_fleet *fl, const struct gd_fleet_run *r)
{
	const struct gd_fleet_phase *hh = gd_fleet_phase_of(r, "HH");
	int pi, i;

	if (!hh || r->lat || fl->opt.expect_ratio <= 0)
		return;
	for (pi = 0; pi < r->n_phases; pi++) {
		const struct gd_fleet_phase *p = &r->phases[pi];

		if (!strchr(p->name, 'D'))
			continue;
		for (i = 0; i < p->n; i++) {
			double h = phase_at(hh, p->size_bytes[i]);

			if (!size_judged(fl, p, i) || isnan(h) || h <= 0 ||
			    p->value[i] / h >= fl->opt.expect_ratio)
				continue;
			if (!fl->ratio_failures++)
				snprintf(fl->ratio_where,
					 sizeof(fl->ratio_where),
					 "%s: %s/HH %.2f at %.0f bytes", r->id,
					 p->name, p->value[i] / h,
					 p->size_bytes[i]);
		}
	}
}

int gd_fleet_analyze(struct gd_fleet *fl)
{
	double *buf = calloc(fl->n_runs + 1, sizeof(double));
	double *meds = calloc(fl->rails + 1, sizeof(double));
	size_t i, k;

	fl->rail_slow = calloc(fl->rails + 1, sizeof(bool));
	if (!buf || !meds || !fl->rail_slow) {
		free(buf);
		free(meds);
		return gd_err(-ENOMEM, "out of memory analysing %zu runs",
			      fl->n_runs);
	}
	for (i = 0; i < fl->n_runs; i++)
		if (fl->runs[i].have_measure && fl->runs[i].ok)
			judge_run(fl, &fl->runs[i], buf);
	judge_rails(fl, buf, meds);
	for (i = 0; i < fl->n_runs; i++)
		mark_rail(fl, &fl->runs[i]);
	for (i = 0; i < fl->n_runs; i++) {
		for (k = 0; k < i && !same_series(&fl->runs[k], &fl->runs[i]);
		     k++)
			;
		if (k == i && fl->runs[i].have_measure)
			judge_repeats(fl, i, buf);
		if (fl->runs[i].have_measure && fl->runs[i].ok)
			judge_ratio(fl, &fl->runs[i]);
	}
	free(buf);
	free(meds);
	return 0;
}

enum gd_cov gd_fleet_coverage(const struct gd_fleet *fl, int round, int host,
			      int gpu, int *planned, int *passed)
{
	int tested = 0, bad = 0;
	size_t i;

	*planned = *passed = 0;
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (r->round != round || r->gpu != gpu ||
		    (r->a != host && r->b != host))
			continue;
		(*planned)++;
		tested += run_tested(r);
		bad += gd_fleet_run_bad(r);
		*passed += run_tested(r) && !gd_fleet_run_bad(r);
	}
	if (!tested)
		return GD_COV_UNTESTED;
	if (bad)
		return GD_COV_FAIL;
	return *passed == *planned ? GD_COV_PASS : GD_COV_PARTIAL;
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
	struct sel s = { 0, -1, host, gpu, true };
	double *buf = calloc(fl->n_runs + 1, sizeof(double)), v;

	if (!buf)
		return NAN;
	v = gd_fleet_median(buf, gather(fl, &s, phase, size_bytes, buf));
	free(buf);
	return v;
}

double gd_fleet_rail_value(const struct gd_fleet *fl, int rail,
			   const char *phase, double size_bytes)
{
	struct sel s = { 0, rail, -1, -1, true };
	double *buf = calloc(fl->n_runs + 1, sizeof(double)), v;

	if (!buf)
		return NAN;
	v = gd_fleet_median(buf, gather(fl, &s, phase, size_bytes, buf));
	free(buf);
	return v;
}
