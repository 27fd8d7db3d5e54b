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
#include "util/infer.h"

const char gd_fleet_ratio_method[] =
	"per series (the repeats of one execution: same round, step, pair, GPU and direction, labels repeat=1..N) and device phase: with two or more repeats, the paired log-ratio t-interval over the repeats (each repeat: the mean over the judged sizes of log(device/HH) in that run) at 95%, slower when its upper bound is below R, or when a size's own interval (t over its repeats, spread pooled across sizes and never below its own, Bonferroni-corrected over the sizes) is; with one repeat, the exact one-sided sign test and longest-run test of 'below R' over the judged sizes, each at alpha 0.005, never from one size alone; otherwise no difference (interval above R) or inconclusive, with the repeats that would settle it";
const char gd_fleet_cv_method[] =
	"coefficient of variation in percent (sample standard deviation / mean x 100) of the ok repeats of each series, per phase and judged size; the worst one against --max-cv";

/* One size of a series: its log-ratios over the repeats. */
struct size_stat {
	unsigned int n;
	double mean, sd;
};

static void size_stats(const double *d, unsigned int reps, unsigned int sizes,
		       unsigned int z, struct size_stat *st)
{
	double sum = 0, sq = 0;
	unsigned int r;

	memset(st, 0, sizeof(*st));
	for (r = 0; r < reps; r++)
		if (!isnan(d[r * sizes + z])) {
			sum += d[r * sizes + z];
			st->n++;
		}
	if (!st->n)
		return;
	st->mean = sum / st->n;
	for (r = 0; r < reps; r++)
		if (!isnan(d[r * sizes + z]))
			sq += (d[r * sizes + z] - st->mean) *
			      (d[r * sizes + z] - st->mean);
	st->sd = st->n > 1 ? sqrt(sq / (st->n - 1)) : 0;
}

/* One repeat: sign and longest-run tests of "below the floor" over the
 * sizes. Under "the true ratio is at the floor or above" each size is
 * below it with probability 1/2 at most, independently of its neighbours;
 * each test gets half of GD_INFER_ALPHA. */
static bool shape_test(const struct size_stat *st, unsigned int nsz, double lf,
		       struct gd_fleet_assessment *a)
{
	unsigned int z, run = 0;

	for (z = 0; z < nsz; z++) {
		bool b = st[z].mean < lf;

		a->below += b;
		run = b ? run + 1 : 0;
		a->longest = run > a->longest ? run : a->longest;
	}
	a->p_sign = gd_binom_tail(nsz, a->below, 0.5);
	a->p_run = gd_longest_run_tail(nsz, a->longest, 0.5);
	return nsz >= 2 && a->below >= 2 &&
	       (a->p_sign <= GD_INFER_ALPHA / 2 ||
		a->p_run <= GD_INFER_ALPHA / 2);
}

/*
 * Two or more repeats, per size: its mean against the floor, half-width
 * t * max(pooled sd, own sd) / sqrt(n) at 1 - 0.05/S (Bonferroni over the
 * S sizes), so that a slowdown at a few sizes is not averaged away and a
 * noisy size does not pass for one.
 */
static void per_size(const struct size_stat *st, const double *size_bytes,
		     unsigned int nsz, double lf, struct gd_fleet_assessment *a)
{
	double ss = 0, t, pooled;
	unsigned int z, df = 0;

	for (z = 0; z < nsz; z++)
		if (st[z].n >= 2) {
			ss += st[z].sd * st[z].sd * (st[z].n - 1);
			df += st[z].n - 1;
		}
	if (!df)
		return;
	pooled = sqrt(ss / df);
	a->spread_cv_pct = 100.0 * sqrt(exp(pooled * pooled) - 1);
	a->each_conf = 1 - (1 - GD_INFER_CONFIDENCE) / nsz;
	t = gd_t_quantile(a->each_conf, df);
	for (z = 0; z < nsz; z++) {
		double sd = st[z].sd > pooled ? st[z].sd : pooled;

		if (st[z].n < 2 ||
		    st[z].mean + t * sd / sqrt((double)st[z].n) >= lf)
			continue;
		if (!a->nslow++ || exp(st[z].mean) < a->worst_ratio) {
			a->worst_ratio = exp(st[z].mean);
			a->worst_size = size_bytes[z];
		}
	}
}

/* The geometric-mean ratio's interval: over the repeats (each repeat's
 * mean over the sizes it has) when two or more have figures, else over
 * the sizes. */
static int interval(const double *d, unsigned int reps, unsigned int sizes,
		    const struct size_stat *st, unsigned int nsz,
		    struct gd_fleet_assessment *a)
{
	double *m = malloc(((reps > nsz ? reps : nsz) + 1) * sizeof(*m));
	unsigned int r, z, n = 0;

	if (!m)
		return -ENOMEM;
	for (r = 0; r < reps; r++) {
		double sum = 0;
		unsigned int k = 0;

		for (z = 0; z < sizes; z++)
			if (!isnan(d[r * sizes + z])) {
				sum += d[r * sizes + z];
				k++;
			}
		if (k)
			m[n++] = sum / k;
	}
	a->repeats = n;
	a->by_repeats = n >= 2;
	if (!a->by_repeats)
		for (z = 0, n = 0; z < nsz; z++)
			m[n++] = st[z].mean;
	gd_log_ci(m, n, GD_INFER_CONFIDENCE, &a->ci);
	free(m);
	return 0;
}

/* Repeats that would bring the interval's half-width within the gap to
 * the floor. With one repeat the spread is across sizes, and a repeat's
 * mean over S sizes varies sqrt(S) times less than one size does. */
static unsigned int repeats_needed(const struct gd_fleet_assessment *a,
				   double floor)
{
	struct gd_log_ci per_repeat = a->ci;
	unsigned int n;

	if (!a->by_repeats && a->sizes > 1)
		per_repeat.sd_log /= sqrt((double)a->sizes);
	n = gd_repeats_needed(&per_repeat, floor, GD_FLEET_REPEATS_CAP);
	return n && n < 3 ? 3 : n;
}

static void decide(struct gd_fleet_assessment *a, bool consistent, double floor)
{
	bool slower;

	if (a->by_repeats) {
		slower = (a->ci.n >= 2 && a->ci.hi < floor) || a->nslow > 0;
	} else {
		a->spread_cv_pct =
			100.0 * sqrt(exp(a->ci.sd_log * a->ci.sd_log) - 1);
		slower = consistent;
	}
	if (slower)
		a->decision = "slower";
	else if (a->ci.n >= 2 && a->ci.lo >= floor)
		a->decision = "no_difference";
	else {
		a->decision = "inconclusive";
		a->repeats_needed = repeats_needed(a, floor);
	}
}

int gd_fleet_assess(const double *d, const double *size_bytes,
		    unsigned int reps, unsigned int sizes, double floor,
		    struct gd_fleet_assessment *a)
{
	struct size_stat st[GD_FLEET_SIZES_MAX];
	double sb[GD_FLEET_SIZES_MAX];
	unsigned int z, nsz = 0;
	bool consistent;
	int ret;

	memset(a, 0, sizeof(*a));
	a->decision = "inconclusive";
	a->ci.ratio = a->ci.lo = a->ci.hi = NAN;
	if (sizes > GD_FLEET_SIZES_MAX || !(floor > 0))
		return -EINVAL;
	for (z = 0; z < sizes; z++) {
		size_stats(d, reps, sizes, z, &st[nsz]);
		if (st[nsz].n)
			sb[nsz++] = size_bytes ? size_bytes[z] : z;
	}
	a->sizes = nsz;
	if (!nsz)
		return 0;
	consistent = shape_test(st, nsz, log(floor), a);
	ret = interval(d, reps, sizes, st, nsz, a);
	if (ret)
		return ret;
	if (a->by_repeats)
		per_size(st, sb, nsz, log(floor), a);
	decide(a, consistent, floor);
	return 0;
}

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
	const struct gd_fleet_assessment *a = &s->a;
	int n;

	if (a->by_repeats)
		n = snprintf(dst, len,
			     "%s: %s/HH %.2f, %.0f%% interval %.2f..%.2f over "
			     "%u repeats and %u sizes",
			     s->id, s->phase, a->ci.ratio,
			     GD_INFER_CONFIDENCE * 100, a->ci.lo, a->ci.hi,
			     a->repeats, a->sizes);
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
		 const char *phase, const struct gd_fleet_assessment *a)
{
	struct gd_fleet_ratio_counts *c = &fl->ratio;
	struct gd_fleet_slower *grown;

	c->assessed++;
	c->by_repeats += a->by_repeats;
	if (!strcmp(a->decision, "no_difference"))
		c->no_difference++;
	if (!strcmp(a->decision, "inconclusive")) {
		c->inconclusive++;
		if (a->repeats_needed > c->repeats_needed)
			c->repeats_needed = a->repeats_needed;
	}
	if (strcmp(a->decision, "slower"))
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
	struct gd_fleet_assessment a;
	int ret;

	if (!nc)
		return 0;
	d = malloc(n * nc * sizeof(*d));
	if (!d)
		return -ENOMEM;
	ratio_rows(fl, p->name, runs, n, d, cols, nc);
	ret = gd_fleet_assess(d, cols, (unsigned int)n, nc,
			      fl->opt.expect_ratio, &a);
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
