/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The slower / no difference / inconclusive decision (assess.h) on a matrix
 * of log speed ratios, rounds by sizes. Columns without any figure take no
 * part; the others are called "sizes" below.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/assess.h"

struct gd_assess_ctx {
	const double *d;
	unsigned int rounds, cols;
	unsigned int col[GD_ASSESS_MAX_SIZES]; /* size -> input column */
	struct gd_assess_size st[GD_ASSESS_MAX_SIZES];
	double size_bytes[GD_ASSESS_MAX_SIZES];
	unsigned int nsz;
	double lf; /* log of the floor */
};

static double gd_at(const struct gd_assess_ctx *c, unsigned int r,
		    unsigned int z)
{
	return c->d[r * c->cols + c->col[z]];
}

static void gd_size_stats(const double *d, unsigned int rounds,
			  unsigned int cols, unsigned int z,
			  struct gd_assess_size *st)
{
	double sum = 0, sq = 0;

	memset(st, 0, sizeof(*st));
	for (unsigned int r = 0; r < rounds; r++)
		if (!isnan(d[r * cols + z])) {
			sum += d[r * cols + z];
			st->n++;
		}
	if (!st->n)
		return;
	st->mean = sum / st->n;
	for (unsigned int r = 0; r < rounds; r++)
		if (!isnan(d[r * cols + z]))
			sq += (d[r * cols + z] - st->mean) *
			      (d[r * cols + z] - st->mean);
	st->sd = st->n > 1 ? sqrt(sq / (st->n - 1)) : 0;
}

/* One round: sign and longest-run tests of "below the floor" over sizes.
 * Under "the true ratio is at the floor or above" each size is below it
 * with probability 1/2 at most, independently of its neighbours; each
 * test gets half of GD_INFER_ALPHA. */
static void gd_shape(const struct gd_assess_ctx *c, struct gd_assessment *a)
{
	unsigned int run = 0;

	for (unsigned int z = 0; z < c->nsz; z++) {
		bool b = c->st[z].mean < c->lf;

		a->below += b;
		run = b ? run + 1 : 0;
		a->longest = run > a->longest ? run : a->longest;
	}
	a->p_sign = gd_binom_tail(c->nsz, a->below, 0.5);
	a->p_run = gd_longest_run_tail(c->nsz, a->longest, 0.5);
	a->consistent = c->nsz >= 2 && a->below >= 2 &&
			(a->p_sign <= GD_INFER_ALPHA / 2 ||
			 a->p_run <= GD_INFER_ALPHA / 2);
}

/* The geometric-mean ratio's interval: over the rounds (each round's mean
 * over the sizes it has) when two or more have figures, else over sizes. */
static int gd_interval(const struct gd_assess_ctx *c, struct gd_assessment *a)
{
	double *m = malloc(((c->rounds > c->nsz ? c->rounds : c->nsz) + 1) *
			   sizeof(*m));
	unsigned int n = 0;

	if (!m)
		return -ENOMEM;
	for (unsigned int r = 0; r < c->rounds; r++) {
		double sum = 0;
		unsigned int k = 0;

		for (unsigned int z = 0; z < c->nsz; z++)
			if (!isnan(gd_at(c, r, z))) {
				sum += gd_at(c, r, z);
				k++;
			}
		if (k)
			m[n++] = sum / k;
	}
	a->rounds = n;
	a->by_rounds = n >= 2;
	if (!a->by_rounds)
		for (unsigned int z = n = 0; z < c->nsz; z++)
			m[n++] = c->st[z].mean;
	gd_log_ci(m, n, GD_INFER_CONFIDENCE, &a->ci);
	free(m);
	if (a->ci.n < 2)
		return 0;
	a->resolution_pct = 100.0 * (a->ci.hi / a->ci.ratio - 1);
	a->detectable_ratio = exp(c->lf) * a->ci.ratio / a->ci.hi;
	return 0;
}

/*
 * Two or more rounds, per size: its mean against the floor, half-width
 * t * max(pooled sd, own sd) / sqrt(n) at 1 - 0.05/S (Bonferroni over the
 * S sizes), so that a slowdown at a few sizes is not averaged away and a
 * noisy size does not pass for one.
 */
static void gd_per_size(struct gd_assess_ctx *c, struct gd_assessment *a)
{
	double ss = 0, t;
	unsigned int df = 0;

	for (unsigned int z = 0; z < c->nsz; z++)
		if (c->st[z].n >= 2) {
			ss += c->st[z].sd * c->st[z].sd * (c->st[z].n - 1);
			df += c->st[z].n - 1;
		}
	if (!df)
		return;
	a->pooled_df = df;
	a->pooled_sd = sqrt(ss / df);
	a->each_conf = 1 - (1 - GD_INFER_CONFIDENCE) / c->nsz;
	t = gd_t_quantile(a->each_conf, df);
	for (unsigned int z = 0; z < c->nsz; z++) {
		struct gd_assess_size *s = &c->st[z];
		double sd = s->sd > a->pooled_sd ? s->sd : a->pooled_sd;

		if (s->n < 2)
			continue;
		s->half = t * sd / sqrt((double)s->n);
		s->slow = s->mean + s->half < c->lf;
		if (!s->slow)
			continue;
		if (!a->nslow++ || exp(s->mean) < a->worst_ratio) {
			a->worst_ratio = exp(s->mean);
			a->worst_size = c->size_bytes[z];
			a->worst = (int)c->col[z];
		}
	}
}

/* Rounds that would bring the interval's half-width within the gap to the
 * floor. With one round the spread is across sizes, and a round's mean
 * over S sizes varies sqrt(S) times less than one size does. */
static unsigned int gd_needed(const struct gd_assessment *a, double floor)
{
	struct gd_log_ci per_round = a->ci;
	unsigned int n;

	if (!a->by_rounds && a->sizes > 1)
		per_round.sd_log /= sqrt((double)a->sizes);
	n = gd_repeats_needed(&per_round, floor, GD_ASSESS_REPEATS_CAP);
	return n && n < 3 ? 3 : n;
}

static void gd_decide(struct gd_assessment *a, double floor)
{
	bool slower;

	if (a->by_rounds) {
		a->ratio_cv_pct =
			100.0 * sqrt(exp(a->pooled_sd * a->pooled_sd) - 1);
		slower = (a->ci.n >= 2 && a->ci.hi < floor) || a->nslow > 0;
	} else {
		a->ratio_cv_pct =
			100.0 * sqrt(exp(a->ci.sd_log * a->ci.sd_log) - 1);
		slower = a->consistent;
	}
	if (slower) {
		a->decision = GD_DECISION_SLOWER;
	} else if (a->ci.n >= 2 && a->ci.lo >= floor) {
		a->decision = GD_DECISION_NO_DIFFERENCE;
	} else {
		a->decision = GD_DECISION_INCONCLUSIVE;
		a->repeats_needed = gd_needed(a, floor);
	}
	a->decision_name = a->decision == GD_DECISION_SLOWER ? "slower"
			   : a->decision == GD_DECISION_NO_DIFFERENCE
				   ? "no_difference"
				   : "inconclusive";
}

int gd_assess(const double *d, const double *size_bytes, unsigned int rounds,
	      unsigned int sizes, double floor, struct gd_assessment *a,
	      struct gd_assess_size *per)
{
	struct gd_assess_ctx *c;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->decision_name = "inconclusive";
	a->worst = -1;
	a->ci.ratio = a->ci.lo = a->ci.hi = NAN;
	if (sizes > GD_ASSESS_MAX_SIZES || !(floor > 0))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*c = (struct gd_assess_ctx){
		.d = d, .rounds = rounds, .cols = sizes, .lf = log(floor)
	};
	for (unsigned int z = 0; z < sizes; z++) {
		gd_size_stats(d, rounds, sizes, z, &c->st[c->nsz]);
		if (!c->st[c->nsz].n)
			continue;
		c->col[c->nsz] = z;
		c->size_bytes[c->nsz++] = size_bytes ? size_bytes[z] : z;
	}
	a->sizes = c->nsz;
	if (c->nsz) {
		gd_shape(c, a);
		ret = gd_interval(c, a);
	}
	if (c->nsz && !ret) {
		if (a->by_rounds)
			gd_per_size(c, a);
		gd_decide(a, floor);
	}
	for (unsigned int z = 0; per && z < sizes; z++)
		memset(&per[z], 0, sizeof(per[z]));
	for (unsigned int z = 0; per && z < c->nsz; z++)
		per[c->col[z]] = c->st[z];
	free(c);
	return ret;
}
