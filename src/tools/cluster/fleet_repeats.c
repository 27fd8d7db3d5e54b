/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The statistics over a campaign's repeats (labels repeat=1..N), the run
 * tool's own (src/report/evidence.c, util/infer.h): per series (the repeats
 * of one execution) and device phase, the DD/HH ratio is judged by the run
 * tool's own decision (util/assess.h: bands of sizes and single sizes,
 * repeats as rounds, Holm across the series' device phases). The
 * repeatability gate reads gd_spread_of's coefficient of variation.
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
	"per series (the repeats of one execution: same round, step, pair, GPU and direction, labels repeat=1..N) and device phase, the run tool's decision with the repeats as rounds: the judged sizes in three bands (at most 4 KiB, 4-64 KiB, at least 64 KiB), each band's paired log-ratio t-interval over the repeats (or, with one repeat, over its sizes), each size's t-test over its repeats with its spread shrunk towards its band's; slower when a band or a size lies below R at the Holm-adjusted 2.5% level (across the series' device phases too), not below when every band's 95% lower bound clears R, otherwise inconclusive, with the repeats that would settle it";
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

/* "; sizes 1 MiB..8 MiB below R: 0.75 (0.73..0.77)" at @dst + @n when
 * @g was found; the new length. */
static int segment_text(const struct gd_assess_segment *g, char *dst,
			size_t len, int n)
{
	char w[32], w2[32];

	if (!g->found || n < 0 || (size_t)n >= len)
		return n;
	return n + snprintf(dst + n, len - n,
			    "; sizes %s..%s below R: %.2f (%.2f..%.2f)",
			    gd_assess_bytes_str(g->lo_bytes, w, sizeof(w)),
			    gd_assess_bytes_str(g->hi_bytes, w2, sizeof(w2)),
			    g->ratio, g->lo, g->hi);
}

static void slower_text(const struct gd_fleet_slower *s, char *dst, size_t len)
{
	const struct gd_assessment *a = &s->a;
	char w[32];
	int n;

	n = snprintf(dst, len,
		     "%s: %s/HH %.2f, %.0f%% interval %.2f..%.2f over %u "
		     "repeat(s) and %u sizes, Holm-adjusted p=%.2g",
		     s->id, s->phase, a->ci.ratio, GD_INFER_CONFIDENCE * 100,
		     a->ci.lo, a->ci.hi, a->rounds, a->sizes, a->p_slower_run);
	n = segment_text(&a->seg, dst, len, n);
	for (unsigned int i = 0; i < a->nseg_also; i++)
		n = segment_text(&a->seg_also[i], dst, len, n);
	if (a->slow_band >= 0 && n > 0 && (size_t)n < len)
		n += snprintf(
			dst + n, len - n, "; band from %s %.2f (%.2f..%.2f)",
			gd_assess_bytes_str(a->band[a->slow_band].lo_bytes, w,
					    sizeof(w)),
			a->band[a->slow_band].ci.ratio,
			a->band[a->slow_band].ci.lo,
			a->band[a->slow_band].ci.hi);
	if (a->nslow && n > 0 && (size_t)n < len)
		snprintf(dst + n, len - n,
			 "; %u size(s) below R on their own, worst %.2f at %s",
			 a->nslow, a->worst_ratio,
			 gd_assess_bytes_str(a->worst_size, w, sizeof(w)));
}

static int count(struct gd_fleet *fl, const struct gd_fleet_run *ref,
		 const char *phase, const struct gd_assessment *a)
{
	struct gd_fleet_ratio_counts *c = &fl->ratio;
	struct gd_fleet_slower *grown;

	c->assessed++;
	c->by_repeats += a->by_rounds;
	if (a->decision == GD_DECISION_NOT_BELOW)
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

/* One device phase of the series against HH, into @a; 1 when assessed. */
static int ratio_phase(struct gd_fleet *fl, const struct gd_fleet_phase *p,
		       const uint32_t *runs, size_t n, struct gd_assessment *a)
{
	double cols[GD_FLEET_SIZES_MAX], *d;
	unsigned int nc = ratio_cols(fl, p, cols);
	int ret;

	if (!nc)
		return 0;
	d = malloc(n * nc * sizeof(*d));
	if (!d)
		return -ENOMEM;
	ratio_rows(fl, p->name, runs, n, d, cols, nc);
	ret = gd_assess(d, cols, (unsigned int)n, nc, fl->opt.expect_ratio, a,
			NULL);
	free(d);
	return ret ? ret : 1;
}

/* Every device phase (first of its name) of the series, bandwidth only,
 * decided together: Holm across them, as the run tool does. */
static int ratio_series(struct gd_fleet *fl, const struct gd_fleet_run *ref,
			const uint32_t *runs, size_t n)
{
	struct gd_assessment *a;
	const char **name;
	unsigned int na = 0;
	int pi, j, ret = 0;

	if (ref->lat || !gd_fleet_phase_of(ref, "HH") || ref->n_phases <= 0)
		return 0;
	a = calloc((size_t)ref->n_phases, sizeof(*a));
	name = calloc((size_t)ref->n_phases, sizeof(*name));
	if (!a || !name) {
		ret = -ENOMEM;
		goto free_all;
	}
	for (pi = 0; ret >= 0 && pi < ref->n_phases; pi++) {
		const struct gd_fleet_phase *p = &ref->phases[pi];

		for (j = 0; j < pi && strcmp(ref->phases[j].name, p->name); j++)
			;
		if (j != pi || !strchr(p->name, 'D'))
			continue;
		ret = ratio_phase(fl, p, runs, n, &a[na]);
		if (ret > 0)
			name[na++] = p->name;
	}
	if (ret < 0)
		goto free_all;
	gd_assess_run(a, na);
	ret = 0;
	for (unsigned int i = 0; !ret && i < na; i++)
		ret = count(fl, ref, name[i], &a[i]);
free_all:
	free(a);
	free(name);
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
