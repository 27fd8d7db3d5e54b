/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The statistics over a campaign's repeats (labels repeat=1..N): per
 * series (the repeats of one execution) and device phase, the ratio to HH
 * of its direction from every round of every repeat, by the run's own
 * rule with each repeat a cluster of its rounds (fleet_decide.h); the
 * campaign's list of slow series at a false discovery rate. The
 * repeatability gate reads gd_spread_of's coefficient of variation.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet_decide.h"
#include "tools/cluster/fleet_index.h"
#include "util/assess.h"
#include "util/infer.h"

const char gd_fleet_cv_method[] =
	"coefficient of variation in percent (sample standard deviation / mean x 100) of the ok repeats of each series, per phase and judged size; the worst one against --max-cv";

/* The most rounds of one repeat read (fleet_ingest.c keeps as many). */
#define GD_FLEET_ROUNDS_CAP 64

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

/* Round @r of @p at @size: its figure in that round, or with one figure
 * per size (no rounds kept) that figure as round 0. */
static double round_at(const struct gd_fleet_phase *p, double size, int r)
{
	int i;

	if (!p)
		return NAN;
	if (!p->round_value)
		return r ? NAN : gd_fleet_phase_at(p, size);
	for (i = 0; i < p->n && p->size_bytes[i] != size; i++)
		;
	return i < p->n && r < p->rounds ? p->round_value[i * p->rounds + r]
					 : NAN;
}

/* The rounds of one repeat: log(device/HH) at each of @nc sizes, paired
 * by round (the run's own pairing), rows up to the last round with both
 * figures at some size, into @d; their number. */
static unsigned int repeat_rows(const struct gd_fleet_phase *x,
				const struct gd_fleet_phase *h,
				const double *cols, unsigned int nc, double *d)
{
	int nr = x && h ? (x->rounds > 0 ? x->rounds : 1) : 0, span = 0, r;

	if (h && nr > (h->rounds > 0 ? h->rounds : 1))
		nr = h->rounds > 0 ? h->rounds : 1;
	for (r = 0; r < nr; r++)
		for (unsigned int c = 0; c < nc; c++) {
			double dv = round_at(x, cols[c], r);
			double hv = round_at(h, cols[c], r);

			d[r * nc + c] = dv > 0 && hv > 0 ? log(dv / hv) : NAN;
			span = isnan(d[r * nc + c]) ? span : r + 1;
		}
	return (unsigned int)span;
}

/* "HH" of @name's direction: "HH:rev" for "DD:rev". */
static void ref_name(const char *name, char *dst, size_t len)
{
	const char *dir = strchr(name, ':');

	snprintf(dst, len, "HH%s", dir ? dir : "");
}

/* Keep @nc columns of the @rows rows of @d that have a figure in some
 * row (the run judges those sizes only); their number. */
static unsigned int drop_empty(double *d, unsigned int rows, double *cols,
			       unsigned int nc)
{
	unsigned int keep = 0;

	for (unsigned int c = 0; c < nc; c++) {
		bool any = false;

		for (unsigned int r = 0; r < rows; r++)
			any |= !isnan(d[r * nc + c]);
		if (!any)
			continue;
		for (unsigned int r = 0; r < rows; r++)
			d[r * nc + keep] = d[r * nc + c];
		cols[keep++] = cols[c];
	}
	for (unsigned int r = 1; keep < nc && r < rows; r++)
		memmove(d + r * keep, d + r * nc, keep * sizeof(*d));
	return keep;
}

struct series_ctx {
	const uint32_t *runs;
	size_t n;
};

/* One device phase of the series against HH of its direction, into @a:
 * every ok repeat's rounds (fleet_decide.h); 1 when assessed. */
static int ratio_phase(struct gd_fleet *fl, const struct gd_fleet_phase *p,
		       const struct series_ctx *sc, struct gd_assessment *a,
		       unsigned int *nreps)
{
	double cols[GD_FLEET_SIZES_MAX], *d;
	unsigned int nc = ratio_cols(fl, p, cols), reps = 0, total = 0, *rows;
	unsigned int looks = 1;
	char ref[16];
	int ret = 0;

	if (!nc)
		return 0;
	ref_name(p->name, ref, sizeof(ref));
	rows = calloc(sc->n, sizeof(*rows));
	d = malloc(sc->n * GD_FLEET_ROUNDS_CAP * nc * sizeof(*d));
	if (!rows || !d) {
		ret = -ENOMEM;
		goto free_all;
	}
	for (size_t k = 0; k < sc->n; k++) {
		const struct gd_fleet_run *o = &fl->runs[sc->runs[k]];

		if (!repeat_ok(o) || o->lat)
			continue;
		rows[reps] = repeat_rows(gd_fleet_phase_of(o, p->name),
					 gd_fleet_phase_of(o, ref), cols, nc,
					 d + (size_t)total * nc);
		if (rows[reps])
			looks = (unsigned int)o->looks;
		total += rows[reps];
		reps += rows[reps] > 0;
	}
	nc = drop_empty(d, total, cols, nc);
	if (reps && nc)
		ret = gd_fleet_series_assess(d, rows, reps, nc, cols,
					     fl->opt.expect_ratio,
					     reps == 1 ? looks : 1, a);
	ret = ret ? ret : reps && nc;
	*nreps = reps;
free_all:
	free(rows);
	free(d);
	return ret;
}

static void judged_fill(struct gd_fleet_judged *j,
			const struct gd_assessment *a)
{
	unsigned int looks = a->looks ? a->looks : 1;

	j->decision = a->decision;
	j->rows = a->rounds;
	j->sizes = a->sizes;
	j->nundecided = a->nundecided;
	j->need = a->repeats_needed;
	j->p = gd_fleet_p_slower(a);
	j->ratio = a->ci.ratio;
	j->lo = a->ci.lo;
	j->hi = a->ci.hi;
	j->seg_p = a->seg.found ? a->seg.p_run * looks : 1;
	j->seg_up = a->seg.to == (int)a->sizes - 1;
	j->seg_from = a->seg.lo_bytes;
	j->seg_to = a->seg.hi_bytes;
	j->seg_ratio = a->seg.ratio;
	j->seg_lo = a->seg.lo;
	j->seg_hi = a->seg.hi;
	j->seg_sizes = a->seg.sizes;
}

static int count(struct gd_fleet *fl, const struct gd_fleet_run *ref,
		 const char *phase, const struct gd_assessment *a,
		 unsigned int reps)
{
	struct gd_fleet_ratio_counts *c = &fl->ratio;
	struct gd_fleet_series_rec *rec;
	struct gd_fleet_judged *grown;

	rec = gd_fleet_grow(fl->series_recs, &fl->series_recs_cap,
			    fl->n_series_recs, sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	fl->series_recs = rec;
	rec = &fl->series_recs[fl->n_series_recs++];
	rec->id = ref->id;
	snprintf(rec->phase, sizeof(rec->phase), "%s", phase);
	rec->judged = a->decision == GD_DECISION_NOT_BELOW
			      ? UINT32_MAX
			      : (uint32_t)fl->n_judged;
	c->assessed++;
	c->by_repeats += reps > 1;
	c->by_rounds += reps == 1 && a->by_rounds;
	c->slower += a->decision == GD_DECISION_SLOWER;
	if (a->decision == GD_DECISION_NOT_BELOW) {
		c->no_difference++;
		return 0;
	}
	grown = gd_fleet_grow(fl->judged, &fl->judged_cap, fl->n_judged,
			      sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	fl->judged = grown;
	grown = &fl->judged[fl->n_judged++];
	memset(grown, 0, sizeof(*grown));
	grown->id = ref->id;
	grown->series = c->series;
	grown->reps = reps;
	snprintf(grown->phase, sizeof(grown->phase), "%s", phase);
	judged_fill(grown, a);
	return 0;
}

/* Every device phase (first of its name) of the series, bandwidth only,
 * decided together: Holm across them, as the run tool does. */
static int ratio_series(struct gd_fleet *fl, const struct gd_fleet_run *ref,
			const struct series_ctx *sc)
{
	struct gd_assessment *a;
	const char **name;
	unsigned int na = 0, *reps;
	int pi, j, ret = 0;

	if (ref->lat || !gd_fleet_phase_of(ref, "HH") || ref->n_phases <= 0)
		return 0;
	a = calloc((size_t)ref->n_phases, sizeof(*a));
	name = calloc((size_t)ref->n_phases, sizeof(*name));
	reps = calloc((size_t)ref->n_phases, sizeof(*reps));
	if (!a || !name || !reps) {
		ret = -ENOMEM;
		goto free_all;
	}
	for (pi = 0; ret >= 0 && pi < ref->n_phases; pi++) {
		const struct gd_fleet_phase *p = &ref->phases[pi];

		for (j = 0; j < pi && strcmp(ref->phases[j].name, p->name); j++)
			;
		if (j != pi || !strchr(p->name, 'D'))
			continue;
		ret = ratio_phase(fl, p, sc, &a[na], &reps[na]);
		if (ret > 0)
			name[na++] = p->name;
	}
	if (ret < 0)
		goto free_all;
	gd_assess_run(a, na);
	ret = 0;
	for (unsigned int i = 0; !ret && i < na; i++)
		ret = count(fl, ref, name[i], &a[i], reps[i]);
	fl->ratio.series += na > 0;
free_all:
	free(a);
	free(name);
	free(reps);
	return ret;
}

/* The campaign's list of slow series: Benjamini-Hochberg over every
 * series judged, each by its smallest p (fleet_decide.h); a listed
 * series' assessments at or under the threshold are listed. */
static int ratio_list(struct gd_fleet *fl)
{
	struct gd_fleet_ratio_counts *c = &fl->ratio;
	double *p = malloc((fl->n_judged ? fl->n_judged : 1) * sizeof(*p));
	size_t n = 0, i, last = SIZE_MAX;

	if (!p)
		return -ENOMEM;
	/* records are in series order: one p per series, its smallest */
	for (i = 0; i < fl->n_judged; i++) {
		const struct gd_fleet_judged *j = &fl->judged[i];

		if (j->p > GD_FLEET_FDR_LEVEL)
			continue;
		if (j->series != last)
			p[n++] = j->p;
		else if (j->p < p[n - 1])
			p[n - 1] = j->p;
		last = j->series;
	}
	c->fdr_threshold =
		gd_fleet_fdr_threshold(p, n, c->series, GD_FLEET_FDR_LEVEL);
	free(p);
	last = SIZE_MAX;
	for (i = 0; i < fl->n_judged; i++) {
		struct gd_fleet_judged *j = &fl->judged[i];

		j->listed = c->fdr_threshold >= 0 && j->p <= c->fdr_threshold;
		c->listed += j->listed;
		if (j->listed && j->series != last)
			c->listed_series++;
		if (j->listed)
			last = j->series;
		if (!j->listed && j->need > c->repeats_needed)
			c->repeats_needed = j->need;
	}
	c->inconclusive = c->assessed - c->no_difference - c->listed;
	return 0;
}

/* "from 1 MiB up", "from 64 KiB to 256 KiB", "at 1 MiB": as the run's
 * evidence names a segment (report/evidence_segment.c). */
static int seg_where(const struct gd_fleet_judged *j, char *dst, size_t len)
{
	char lo[32], hi[32];

	gd_assess_bytes_str(j->seg_from, lo, sizeof(lo));
	gd_assess_bytes_str(j->seg_to, hi, sizeof(hi));
	if (j->seg_up)
		return snprintf(dst, len, "from %s up", lo);
	if (j->seg_sizes == 1)
		return snprintf(dst, len, "at %s", lo);
	return snprintf(dst, len, "from %s to %s", lo, hi);
}

void gd_fleet_judged_text(const struct gd_fleet_judged *j, double floor,
			  char *dst, size_t len)
{
	int n;

	n = snprintf(dst, len,
		     "%s: %s/HH %.2f, %.0f%% interval %.2f..%.2f over %u "
		     "%s and %u sizes, p=%.2g",
		     j->id, j->phase, j->ratio, GD_INFER_CONFIDENCE * 100,
		     j->lo, j->hi, j->rows,
		     j->reps > 1   ? "repeats"
		     : j->rows > 1 ? "rounds"
				   : "round",
		     j->sizes, j->p);
	/* the segment at the level the list was drawn at */
	if (j->seg_p > GD_FLEET_FDR_LEVEL || !j->seg_sizes || n < 0 ||
	    (size_t)n >= len)
		return;
	n += snprintf(dst + n, len - n, "; below %.2f ", floor);
	if ((size_t)n >= len)
		return;
	n += seg_where(j, dst + n, len - n);
	if ((size_t)n < len)
		snprintf(dst + n, len - n, ": %.2f (%.2f..%.2f)", j->seg_ratio,
			 j->seg_lo, j->seg_hi);
}

void gd_fleet_undecided_text(const struct gd_fleet_judged *j, char *dst,
			     size_t len)
{
	if (j->decision == GD_DECISION_SLOWER)
		snprintf(dst, len,
			 "%s %s (slower on its own, p=%.2g, not at the "
			 "campaign's false discovery rate: more repeats)",
			 j->id, j->phase, j->p);
	else if (j->reps > 1)
		snprintf(dst, len,
			 "%s %s (%u of %u sizes undecided; about %u%s repeats)",
			 j->id, j->phase, j->nundecided, j->sizes, j->need,
			 j->need >= GD_ASSESS_REPEATS_CAP ? " or more" : "");
	else
		snprintf(dst, len,
			 "%s %s (%u of %u sizes undecided; one repeat: its "
			 "run would need about %u%s rounds, --repeat=%u, or "
			 "more repeats)",
			 j->id, j->phase, j->nundecided, j->sizes, j->need,
			 j->need >= GD_ASSESS_REPEATS_CAP ? " or more" : "",
			 j->need);
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
			ret = ratio_series(fl, ref,
					   &(struct series_ctx){ runs, n });
	}
	free(buf);
	return !ret && fl->opt.expect_ratio > 0 ? ratio_list(fl) : ret;
}
