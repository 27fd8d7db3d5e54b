/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The slower / not below / inconclusive decision (assess.h) of one
 * assessment: a matrix of log speed ratios, rounds by sizes. Columns
 * without any figure take no part; the others are called "sizes" below.
 * The run-level correction and the words' helpers are in assess_run.c.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/assess.h"
#include "util/assess_priv.h"

struct gd_assess_ctx {
	const double *d;
	unsigned int rounds, cols, nsz;
	double lf; /* log of the floor */
	double *m; /* scratch: rounds + sizes */
};

static double gd_at(const struct gd_assess_ctx *c,
		    const struct gd_assessment *a, unsigned int r,
		    unsigned int z)
{
	return c->d[r * c->cols + a->col[z]];
}

static void gd_size_stats(const double *d, unsigned int rounds,
			  unsigned int cols, unsigned int z,
			  struct gd_assess_size *st)
{
	double sum = 0, sq = 0;

	memset(st, 0, sizeof(*st));
	st->p_slower = st->holm_p = st->p_not_below = 1;
	st->lo = NAN;
	st->need = 3; /* one round: a size's own interval needs three */
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

/* Lag-1 autocorrelation of @n figures in time order; NAN below 3. */
static double gd_lag1(const double *m, unsigned int n)
{
	double mean = 0, num = 0, den = 0;

	if (n < 3)
		return NAN;
	for (unsigned int i = 0; i < n; i++)
		mean += m[i] / n;
	for (unsigned int i = 0; i < n; i++) {
		den += (m[i] - mean) * (m[i] - mean);
		if (i + 1 < n)
			num += (m[i] - mean) * (m[i + 1] - mean);
	}
	return den > 0 ? num / den : NAN;
}

/* Band @b's replicates into c->m: each round's mean over the band's sizes
 * (rounds in time order), or with fewer than two such rounds its sizes'
 * means. Their number. */
static unsigned int gd_band_reps(const struct gd_assess_ctx *c,
				 const struct gd_assessment *a, unsigned int b,
				 bool *by_rounds)
{
	unsigned int n = 0;

	for (unsigned int r = 0; r < c->rounds; r++) {
		double sum = 0;
		unsigned int k = 0;

		for (unsigned int z = 0; z < c->nsz; z++)
			if (a->st[z].band == b && !isnan(gd_at(c, a, r, z))) {
				sum += gd_at(c, a, r, z);
				k++;
			}
		if (k)
			c->m[n++] = sum / k;
	}
	*by_rounds = n >= 2;
	if (*by_rounds)
		return n;
	n = 0;
	for (unsigned int z = 0; z < c->nsz; z++)
		if (a->st[z].band == b)
			c->m[n++] = a->st[z].mean;
	return n;
}

/*
 * The variance of a mean over the band's sizes in one round, as its sizes'
 * spreads over rounds and their correlation within a round say (@rounds:
 * with the correlation model's factors for neighbouring rounds too).
 */
static double gd_band_model_var(const struct gd_assessment *a, unsigned int b,
				bool rounds)
{
	double v = 0, sq = 0, m = 0;

	for (unsigned int z = 0; z < a->sizes; z++)
		if (a->st[z].band == b && a->st[z].n >= 2) {
			v += a->st[z].sd * a->st[z].sd;
			sq += a->st[z].sd;
			m++;
		}
	return m ? gd_assess_corr_var(&a->corr, v, sq, m, rounds) : NAN;
}

/*
 * The spread of a band's round figures, moderated: a few rounds give it
 * with very few degrees of freedom, so it is shrunk towards what the
 * band's sizes say a round's mean over them varies by (their spreads and
 * their correlation within a round), with GD_ASSESS_PRIOR_DF prior degrees
 * of freedom, never floored at it; @ci's df grows by the prior's.
 */
static double gd_band_sd(const struct gd_assessment *a, unsigned int b,
			 struct gd_log_ci *ci)
{
	double target = gd_band_model_var(a, b, false), v;
	unsigned int d0 = GD_ASSESS_PRIOR_DF;

	if (!a->band[b].by_rounds || !(target >= 0))
		return ci->sd_log;
	v = (d0 * target + ci->df * ci->sd_log * ci->sd_log) / (d0 + ci->df);
	ci->df += d0;
	return sqrt(v);
}

/*
 * A band's interval and one-sided p-values against the floor. Rounds are
 * blocks of time: when neighbouring ones are correlated the t-interval is
 * too narrow, so it is widened by the correlation model's factor for the
 * band's sizes (assess_corr.h), never refused.
 */
static void gd_band_read(struct gd_assess_ctx *c, struct gd_assessment *a,
			 unsigned int b)
{
	struct gd_assess_band *bd = &a->band[b];
	unsigned int n = gd_band_reps(c, a, b, &bd->by_rounds);

	bd->rho = bd->by_rounds ? gd_lag1(c->m, n) : NAN;
	gd_log_ci(c->m, n, GD_INFER_CONFIDENCE, &bd->ci_plain);
}

static void gd_band(struct gd_assessment *a, unsigned int b, double lf)
{
	struct gd_assess_band *bd = &a->band[b];
	unsigned int n = bd->ci_plain.n;
	double t, half, plain, widened;

	bd->widen = 1;
	bd->decided = false;
	bd->ci = bd->ci_plain;
	if (bd->ci.n < 2 || !(bd->ci.sd_log >= 0))
		return;
	plain = gd_band_model_var(a, b, false);
	widened = gd_band_model_var(a, b, true);
	if (bd->by_rounds && plain > 0 && widened > plain)
		bd->widen = widened / plain;
	/* correlated rounds also tell less about the spread: its degrees of
	 * freedom shrink by the same factor (at least one) */
	if (bd->widen > 1)
		bd->ci.df = (unsigned int)fmax(1, floor(bd->ci.df / bd->widen));
	bd->decided = true;
	bd->se_log =
		sqrt(bd->widen) * gd_band_sd(a, b, &bd->ci) / sqrt((double)n);
	half = gd_t_quantile(GD_INFER_CONFIDENCE, bd->ci.df) * bd->se_log;
	bd->ci.lo = exp(bd->ci.mean_log - half);
	bd->ci.hi = exp(bd->ci.mean_log + half);
	if (bd->se_log > 0) {
		t = (bd->ci.mean_log - lf) / bd->se_log;
		bd->p_slower = gd_t_cdf(t, bd->ci.df);
		bd->p_not_below = gd_t_cdf(-t, bd->ci.df);
	} else {
		bd->p_slower = bd->ci.mean_log < lf ? 0 : 1;
		bd->p_not_below = bd->ci.mean_log >= lf ? 0 : 1;
	}
}

/* A size's variance factor for correlated rounds: its own noise's and its
 * share of the drift a round's sizes share (assess_corr.h). */
static double gd_size_widen(const struct gd_assessment *a)
{
	return gd_assess_corr_var(&a->corr, 1, 1, 1, true);
}

/*
 * Per size, over its rounds: the spread shrunk towards the pooled spread
 * of its band (a moderated t with GD_ASSESS_PRIOR_DF prior degrees of
 * freedom), so that one size's lucky small spread does not flag it and a
 * noisy size keeps most of its own spread instead of the pool's.
 */
static void gd_sizes_slower(struct gd_assessment *a, double lf)
{
	double ss[GD_ASSESS_BANDS] = { 0 };
	unsigned int df[GD_ASSESS_BANDS] = { 0 };

	a->tests = 0;
	for (unsigned int z = 0; z < a->sizes; z++)
		if (a->st[z].n >= 2) {
			ss[a->st[z].band] +=
				a->st[z].sd * a->st[z].sd * (a->st[z].n - 1);
			df[a->st[z].band] += a->st[z].n - 1;
		}
	for (unsigned int z = 0; z < a->sizes; z++) {
		struct gd_assess_size *s = &a->st[z];
		unsigned int b = s->band, own = s->n - 1, d0;
		double pool, v, t;

		if (s->n < 2)
			continue;
		d0 = df[b] - own < GD_ASSESS_PRIOR_DF ? df[b] - own
						      : GD_ASSESS_PRIOR_DF;
		pool = df[b] > own
			       ? (ss[b] - s->sd * s->sd * own) / (df[b] - own)
			       : 0;
		v = (d0 * pool + own * s->sd * s->sd) / (d0 + own);
		s->df = d0 + own;
		s->sd_mod = sqrt(v * gd_size_widen(a));
		a->tests++;
		if (!(s->sd_mod > 0)) {
			s->p_slower = s->mean < lf ? 0 : 1;
			continue;
		}
		t = (s->mean - lf) / (s->sd_mod / sqrt((double)s->n));
		s->p_slower = gd_t_cdf(t, s->df);
	}
}

/* Median of the @n figures at @v (n <= 5), sorted in place. */
static double gd_median5(double *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Each size's noise level for pooling: the median of the log variances of
 * it and its two neighbours either side (sizes with rounds, in size
 * order). Noise changes with size in steps, so neighbours say more about
 * a size's noise than its own two degrees of freedom, and the median
 * keeps one lucky or unlucky size from choosing its own pool.
 */
static void gd_noise_levels(const struct gd_assessment *a, const int *idx,
			    unsigned int k, double *w)
{
	for (unsigned int i = 0; i < k; i++) {
		double v[2 * GD_ASSESS_POOL_REACH + 1];
		unsigned int n = 0;

		for (unsigned int j = i > GD_ASSESS_POOL_REACH
					      ? i - GD_ASSESS_POOL_REACH
					      : 0;
		     j < k && j <= i + GD_ASSESS_POOL_REACH; j++) {
			double sd = a->st[idx[j]].sd;

			v[n++] = log(sd * sd > 1e-300 ? sd * sd : 1e-300);
		}
		w[i] = gd_median5(v, n);
	}
}

/*
 * A size's spread, moderated only towards sizes of like noise: its pool is
 * the other sizes whose noise level (gd_noise_levels) is within a factor
 * GD_ASSESS_POOL_FACTOR of its own, and it joins the pool only when its own
 * variance agrees with the pool's (an F test at GD_ASSESS_POOL_LOW and
 * GD_ASSESS_POOL_HIGH). A precise slow size among noisy ones keeps its
 * own spread, and a noisy size beside precise ones cannot borrow their
 * precision; many equally noisy sizes pool, so that three rounds (two
 * degrees of freedom each) can still show every size not below the floor.
 * Sizes whose rounds move together (a drift a round's sizes share) tell
 * less than their number: the pool's df counts them as
 * gd_assess_corr_pool_df() says (the segments read it too).
 */
static void gd_size_spread(const struct gd_assessment *a, const int *idx,
			   const double *w, unsigned int k, unsigned int i,
			   struct gd_assess_size *s)
{
	double ss = 0, own = s->sd * s->sd, f;
	unsigned int d0 = 0, df = s->n - 1, m = 1;

	for (unsigned int j = 0; j < k; j++)
		if (j != i && fabs(w[j] - w[i]) <= log(GD_ASSESS_POOL_FACTOR)) {
			const struct gd_assess_size *o = &a->st[idx[j]];

			ss += o->sd * o->sd * (o->n - 1);
			d0 += o->n - 1;
			m++;
		}
	s->df_nb = df;
	s->sd_nb = s->sd;
	if (!d0)
		return;
	if (ss > 0) {
		f = gd_f_cdf(own / (ss / d0), df, d0);
		if (f < GD_ASSESS_POOL_LOW || f > 1 - GD_ASSESS_POOL_HIGH)
			return;
	} else if (own > 0) {
		return;
	}
	s->sd_nb = sqrt((ss + own * df) / (df + d0));
	s->df_nb = gd_assess_corr_pool_df(df + d0, m, a->corr.within, df);
}

/* Rounds with which size @s's 95% interval would leave the floor on one
 * side, at its moderated spread widened by @widen (the pool's degrees of
 * freedom kept, its own growing): n = (t * sd / gap)^2, its t taken at the
 * last guess, a few times over; at most GD_ASSESS_REPEATS_CAP. */
static unsigned int gd_size_need(const struct gd_assess_size *s, double lf,
				 double conf, double widen)
{
	double gap = fabs(s->mean - lf), n = s->n + 1;
	double sd = s->sd_nb * sqrt(widen);
	unsigned int pool = s->df_nb - (s->n - 1);

	if (!(sd > 0))
		return s->n + 1;
	for (int i = 0; i < 3 && n < GD_ASSESS_REPEATS_CAP; i++) {
		double q = gd_t_quantile(conf, pool + (unsigned int)n - 1);

		n = ceil(q * q * sd * sd / (gap * gap));
		if (n <= s->n)
			n = s->n + 1;
	}
	return n < GD_ASSESS_REPEATS_CAP ? (unsigned int)n
					 : GD_ASSESS_REPEATS_CAP;
}

/*
 * Per size, for "not below": the spread moderated towards like sizes
 * (gd_size_spread) and widened for correlated rounds as "slower" is where
 * the correlation model is read, never by less than a size's own
 * correlation could need as far as the rounds read it (from
 * GD_ASSESS_CORR_MIN_ROUNDS and at an adaptive look: the weighed prior of
 * gd_assess_corr_post), and below them in a fixed design by the prior
 * GD_ASSESS_CORR_PRIOR_RHO for the drift a round's sizes share
 * (assess_corr.h); the lower end of the 95% two-sided interval, which must
 * clear the floor, and its one-sided p-value.
 */
static void gd_sizes_not_below(struct gd_assessment *a, double lf)
{
	int idx[GD_ASSESS_MAX_SIZES];
	double w[GD_ASSESS_MAX_SIZES], q = 0, post = 1;
	double conf = 1 - 2 * a->alpha_not_below;
	bool model = a->corr.sums.rounds >= GD_ASSESS_CORR_MIN_ROUNDS;
	unsigned int k = 0, qdf = 0, post_n = 0;

	for (unsigned int z = 0; z < a->sizes; z++)
		if (a->st[z].n >= 2)
			idx[k++] = (int)z;
	gd_noise_levels(a, idx, k, w);
	for (unsigned int i = 0; i < k; i++) {
		struct gd_assess_size *s = &a->st[idx[i]];
		double se, t;
		double widen = 1, least = 1;
		double prior = gd_assess_corr_prior(s->n);

		if (model && s->n >= GD_ASSESS_CORR_MIN_ROUNDS)
			widen = gd_size_widen(a);
		if (s->n >= GD_ASSESS_CORR_MIN_ROUNDS || a->looks > 1) {
			/* sizes of one run of rounds share the weighing */
			if (s->n != post_n) {
				post_n = s->n;
				post = gd_assess_corr_post(&a->corr, s->n);
			}
			least = post;
		} else { /* the drift a round's sizes share, read from them
			  * (GD_ASSESS_CORR_PRIOR_RHO says why three times) */
			least = fmin(prior,
				     1 + 3 * a->corr.within * (prior - 1));
		}
		widen = widen > least ? widen : least;
		gd_size_spread(a, idx, w, k, i, s);
		se = s->sd_nb * sqrt(widen / s->n);
		s->need = 3;
		/* pooled sizes share their df: one quantile per run of them */
		if (s->df_nb != qdf) {
			qdf = s->df_nb;
			q = gd_t_quantile(conf, qdf);
		}
		s->lo = exp(s->mean - q * se);
		if (!(se > 0)) {
			s->p_not_below = s->mean > lf ? 0 : 1;
			s->need = s->n + 1;
			continue;
		}
		t = (s->mean - lf) / se;
		s->p_not_below = gd_t_cdf(-t, s->df_nb);
		if (s->p_not_below > a->alpha_not_below)
			s->need = gd_size_need(s, lf, conf, widen);
	}
}

/* The geometric mean over all judged sizes and its interval, over rounds
 * (each round's mean) or, with one round, over sizes: the headline. */
static void gd_overall(struct gd_assess_ctx *c, struct gd_assessment *a)
{
	unsigned int n = 0;

	for (unsigned int r = 0; r < c->rounds; r++) {
		double sum = 0;
		unsigned int k = 0;

		for (unsigned int z = 0; z < c->nsz; z++)
			if (!isnan(gd_at(c, a, r, z))) {
				sum += gd_at(c, a, r, z);
				k++;
			}
		if (k)
			c->m[n++] = sum / k;
	}
	a->rounds = n;
	a->by_rounds = n >= 2;
	if (!a->by_rounds)
		for (unsigned int z = n = 0; z < c->nsz; z++)
			c->m[n++] = a->st[z].mean;
	gd_log_ci(c->m, n, GD_INFER_CONFIDENCE, &a->ci);
	if (a->ci.n >= 2)
		a->resolution_pct = 100.0 * (a->ci.hi / a->ci.ratio - 1);
}

/* CV of one ratio: the sizes' own spread over rounds, pooled, or with
 * one round the spread across sizes. */
static void gd_cv(const struct gd_assess_ctx *c, struct gd_assessment *a)
{
	double ss = 0, sd;
	unsigned int df = 0;

	for (unsigned int z = 0; z < c->nsz; z++)
		if (a->st[z].n >= 2) {
			ss += a->st[z].sd * a->st[z].sd * (a->st[z].n - 1);
			df += a->st[z].n - 1;
		}
	sd = df ? sqrt(ss / df) : a->ci.sd_log;
	a->ratio_cv_pct = 100.0 * sqrt(exp(sd * sd) - 1);
}

static int gd_assess_setup(struct gd_assess_ctx *c, struct gd_assessment *a,
			   const double *size_bytes, double floor)
{
	for (unsigned int z = 0; z < c->cols; z++) {
		struct gd_assess_size *s = &a->st[c->nsz];

		gd_size_stats(c->d, c->rounds, c->cols, z, s);
		if (!s->n)
			continue;
		a->col[c->nsz] = z;
		a->size_bytes[c->nsz] = size_bytes ? size_bytes[z] : z;
		s->band = size_bytes ? gd_assess_band_of(size_bytes[z]) : 2;
		c->nsz++;
	}
	a->sizes = c->nsz;
	a->floor = floor;
	if (c->nsz) {
		a->lo_bytes = a->size_bytes[0];
		a->hi_bytes = a->size_bytes[c->nsz - 1];
	}
	c->m = malloc((c->rounds + c->nsz + 1) * sizeof(*c->m));
	return c->m ? 0 : -ENOMEM;
}

static void gd_assess_init(struct gd_assessment *a)
{
	memset(a, 0, sizeof(*a));
	a->decision_name = "inconclusive";
	a->worst = a->slow_band = -1;
	a->ci.ratio = a->ci.lo = a->ci.hi = NAN;
	a->rho = NAN;
	a->p_slower = a->p_slower_run = a->p_not_below = 1;
	a->family = 1;
	gd_assess_segment_init(&a->seg);
	a->corr.f_own = a->corr.f_shared = 1;
	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++) {
		a->band[b].ci.ratio = a->band[b].ci.lo = NAN;
		a->band[b].ci.hi = a->band[b].rho = NAN;
		a->band[b].ci_plain = a->band[b].ci;
		a->band[b].widen = 1;
		a->band[b].p_slower = a->band[b].p_not_below = 1;
		a->band[b].holm_p = 1;
	}
}

int gd_assess(const double *d, const double *size_bytes, unsigned int rounds,
	      unsigned int sizes, double floor, struct gd_assessment *a,
	      struct gd_assess_size *per)
{
	return gd_assess_seq(d, size_bytes, rounds, sizes, floor, 1, a, per);
}

int gd_assess_seq(const double *d, const double *size_bytes,
		  unsigned int rounds, unsigned int sizes, double floor,
		  unsigned int looks, struct gd_assessment *a,
		  struct gd_assess_size *per)
{
	struct gd_assess_ctx c = { .d = d, .rounds = rounds, .cols = sizes };
	int ret;

	gd_assess_init(a);
	if (sizes > GD_ASSESS_MAX_SIZES || !(floor > 0) || !looks)
		return -EINVAL;
	a->looks = looks;
	a->alpha_not_below = (1 - GD_INFER_CONFIDENCE) / 2 / looks;
	a->alpha_slower = GD_ASSESS_ALPHA / looks;
	c.lf = log(floor);
	ret = gd_assess_setup(&c, a, size_bytes, floor);
	if (!ret && c.nsz) {
		gd_overall(&c, a);
		gd_assess_corr(d, rounds, sizes, a, &a->corr);
		for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++) {
			for (unsigned int z = 0; z < c.nsz; z++) {
				if (a->st[z].band != b)
					continue;
				if (!a->band[b].sizes++)
					a->band[b].lo_bytes = a->size_bytes[z];
				a->band[b].hi_bytes = a->size_bytes[z];
			}
			if (a->band[b].sizes)
				gd_band_read(&c, a, b);
		}
		gd_cv(&c, a);
		gd_assess_retest(a);
	}
	free(c.m);
	for (unsigned int z = 0; per && z < sizes; z++)
		memset(&per[z], 0, sizeof(per[z]));
	for (unsigned int z = 0; per && z < a->sizes; z++)
		per[a->col[z]] = a->st[z];
	return ret;
}

void gd_assess_retest(struct gd_assessment *a)
{
	double lf = log(a->floor);

	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++)
		if (a->band[b].sizes)
			gd_band(a, b, lf);
	if (a->by_rounds) {
		gd_sizes_not_below(a, lf);
		gd_sizes_slower(a, lf);
		gd_assess_segments(lf, a);
	}
	gd_assess_combine(a);
}
