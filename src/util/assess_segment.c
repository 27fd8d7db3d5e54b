/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The segment scan of assess_segment.h: every contiguous run of judged
 * sizes is tested against the floor, and the one furthest below it is
 * kept with its interval and its corrected p-value. Prefix sums make the
 * scan O(sizes^2).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/assess.h"
#include "util/assess_segment.h"
#include "util/infer.h"

/* Below this standard error (log units, a 0.0001% change) figures are
 * taken as exact: identical copies of one document compared. */
#define GD_SEG_SE_MIN 1e-6
/* Rounds over which the correlation of neighbouring rounds is read. */
#define GD_SEG_MAX_ROUNDS 64

void gd_assess_segment_init(struct gd_assess_segment *s)
{
	memset(s, 0, sizeof(*s));
	s->from = s->to = -1;
	s->ratio = s->lo = s->hi = NAN;
	s->p = s->p_adj = s->p_run = 1;
	s->widen = 1;
}

/* Correlation of two sizes' residuals over the rounds both have; NAN when
 * fewer than three or either is constant. */
static double gd_seg_corr(const double *d, unsigned int rounds,
			  unsigned int cols, const struct gd_assessment *a,
			  unsigned int x, unsigned int y)
{
	double sxy = 0, sxx = 0, syy = 0;
	unsigned int n = 0;

	for (unsigned int r = 0; r < rounds; r++) {
		double u = d[r * cols + a->col[x]], v = d[r * cols + a->col[y]];

		if (isnan(u) || isnan(v))
			continue;
		u -= a->st[x].mean;
		v -= a->st[y].mean;
		sxy += u * v;
		sxx += u * u;
		syy += v * v;
		n++;
	}
	return n >= 3 && sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* The correlation of sizes within a round, averaged over every pair (a
 * drift every size of a round shares shows here), at least 0. */
static double gd_seg_rho(const double *d, unsigned int rounds,
			 unsigned int cols, const struct gd_assessment *a,
			 const unsigned int *idx, unsigned int k)
{
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < k; i++)
		for (unsigned int j = i + 1; j < k; j++) {
			double c =
				gd_seg_corr(d, rounds, cols, a, idx[i], idx[j]);

			if (!isnan(c)) {
				sum += c;
				n++;
			}
		}
	return n && sum > 0 ? sum / n : 0;
}

/*
 * Under AR(1) noise with lag-1 correlation @rho over @n rounds (unit
 * variance): the expected lag-1 ratio of a size's residuals, sum of
 * e[r] e[r+1] over sum of e[r]^2 (its @g; -1/n at rho 0: the residuals of
 * few rounds read as anti-correlated), and the factor @f by which the
 * variance of a size's mean exceeds its expected s^2 / n.
 */
static void gd_seg_ar1(double rho, unsigned int n, double *g, double *f)
{
	double row[GD_SEG_MAX_ROUNDS], grand = 0, lag = 0, tr = 0;

	for (unsigned int i = 0; i < n; i++) {
		row[i] = 0;
		for (unsigned int j = 0; j < n; j++)
			row[i] += pow(rho, abs((int)i - (int)j)) / n;
		grand += row[i] / n;
	}
	for (unsigned int i = 0; i < n; i++) {
		tr += 1 - 2 * row[i] + grand;
		if (i + 1 < n)
			lag += rho - row[i] - row[i + 1] + grand;
	}
	*g = lag / tr;
	*f = grand / (tr / (n - 1) / n);
}

/*
 * Rounds are blocks of time, and neighbouring ones can share a state
 * (warming up, a neighbour's load): then a size's spread over its rounds
 * understates the spread of its mean, most for a segment's many sizes
 * pooled together. The lag-1 ratio of the residuals, averaged over the
 * sizes with every round (each weighted alike), is bias-corrected by
 * inverting its expectation under AR(1) (bisection), and the variances
 * are widened by that model's factor; never narrowed.
 */
static double gd_seg_widen(const double *d, unsigned int rounds,
			   unsigned int cols, const struct gd_assessment *a,
			   const unsigned int *idx, unsigned int k)
{
	double sum = 0, g, f, lo = 0, hi = 0.95;
	unsigned int m = 0;

	if (rounds < 3 || rounds > GD_SEG_MAX_ROUNDS)
		return 1;
	for (unsigned int i = 0; i < k; i++) {
		const struct gd_assess_size *s = &a->st[idx[i]];
		double num = 0, den = 0;

		if (s->n != rounds)
			continue;
		for (unsigned int r = 0; r < rounds; r++) {
			double e = d[r * cols + a->col[idx[i]]] - s->mean;

			den += e * e;
			if (r + 1 < rounds)
				num += e * (d[(r + 1) * cols + a->col[idx[i]]] -
					    s->mean);
		}
		if (den > 0) {
			sum += num / den;
			m++;
		}
	}
	gd_seg_ar1(0, rounds, &g, &f);
	if (!m || sum / m <= g)
		return 1;
	for (int it = 0; it < 40; it++) {
		double mid = (lo + hi) / 2;

		gd_seg_ar1(mid, rounds, &g, &f);
		if (g < sum / m)
			lo = mid;
		else
			hi = mid;
	}
	gd_seg_ar1(lo, rounds, &g, &f);
	return f > 1 ? f : 1;
}

struct gd_seg_sums {
	double mean[GD_ASSESS_MAX_SIZES + 1]; /* prefix sums */
	double v[GD_ASSESS_MAX_SIZES + 1];    /* variance of a size's mean */
	double sq[GD_ASSESS_MAX_SIZES + 1];   /* its square root */
	double v2df[GD_ASSESS_MAX_SIZES + 1]; /* v^2 / df (Satterthwaite) */
	unsigned int rounds, k, dfmax;
	double rho, widen, lf;
};

struct gd_seg_cand {
	unsigned int i, j, df;
	double mean, se, t, p;
};

/*
 * Segment [i, j] of the compacted sizes with rounds: its mean, and the
 * variance of it from its sizes' spreads and their correlation within a
 * round. Pooling lends a segment many degrees of freedom, each resting
 * on the sizes' noise being alike and their rounds independent, which
 * few rounds cannot check; so a segment keeps at most rounds - 1 sizes'
 * own (4 with three rounds, 16 with five), and its t keeps tails heavy
 * enough that the rate at the floor holds under a round-to-round
 * correlation that three rounds cannot show (tests/assess_sim_test:
 * AR(1) 0.3); more rounds show it, and gd_seg_widen acts on it.
 */
static void gd_seg_eval(const struct gd_seg_sums *s, unsigned int i,
			unsigned int j, struct gd_seg_cand *c)
{
	double m = j - i + 1, v = s->v[j + 1] - s->v[i];
	double sq = s->sq[j + 1] - s->sq[i], v2 = s->v2df[j + 1] - s->v2df[i];
	double var = (v + s->rho * (sq * sq - v)) / (m * m);
	double df = v2 > 0 ? v * v / v2 : s->dfmax;

	df = df > s->dfmax ? s->dfmax : df < 1 ? 1 : df;
	c->i = i;
	c->j = j;
	c->mean = (s->mean[j + 1] - s->mean[i]) / m;
	c->se = sqrt(var > 0 ? var : 0);
	if (c->se < GD_SEG_SE_MIN)
		c->se = GD_SEG_SE_MIN;
	c->df = (unsigned int)(df + 1e-9);
	c->t = (c->mean - s->lf) / c->se;
	c->p = gd_t_cdf(c->t, c->df);
}

/* Is @c further below the floor than @best? The smaller p-value (it
 * weighs a lucky small spread by its few degrees of freedom); with exact
 * figures (a document against a scaled copy of itself) or where both
 * vanish, the larger t, and where the t are nearly equal too, the longer
 * segment, so that a whole slow run is named. */
static bool gd_seg_better(const struct gd_seg_cand *c,
			  const struct gd_seg_cand *best)
{
	double tol = 1e-9 * fabs(best->t);

	bool exact = c->se <= GD_SEG_SE_MIN && best->se <= GD_SEG_SE_MIN;

	if (!isfinite(best->t))
		return true;
	if (!exact && (c->p > 1e-200 || best->p > 1e-200))
		return c->p < best->p;
	if (c->t < best->t - tol)
		return true;
	return c->t <= best->t + tol && c->j - c->i > best->j - best->i;
}

static void gd_seg_keep(struct gd_assessment *a, const unsigned int *idx,
			const struct gd_seg_cand *c)
{
	struct gd_assess_segment *s = &a->seg;
	double half = gd_t_quantile(GD_INFER_CONFIDENCE, c->df) * c->se;

	s->from = (int)idx[c->i];
	s->to = (int)idx[c->j];
	s->sizes = c->j - c->i + 1;
	s->lo_bytes = a->size_bytes[idx[c->i]];
	s->hi_bytes = a->size_bytes[idx[c->j]];
	s->ratio = exp(c->mean);
	s->lo = exp(c->mean - half);
	s->hi = exp(c->mean + half);
	s->t = c->t;
	s->df = c->df;
	s->p = c->p;
}

void gd_assess_segments(const double *d, unsigned int rounds, unsigned int cols,
			double lf, struct gd_assessment *a)
{
	struct gd_seg_sums s = { .rounds = rounds, .lf = lf };
	unsigned int idx[GD_ASSESS_MAX_SIZES];
	struct gd_seg_cand best = { .t = INFINITY }, c;

	gd_assess_segment_init(&a->seg);
	for (unsigned int z = 0; z < a->sizes; z++)
		if (a->st[z].n >= 2 && a->st[z].df_nb)
			idx[s.k++] = z;
	if (!s.k)
		return;
	a->seg.rho = s.rho = gd_seg_rho(d, rounds, cols, a, idx, s.k);
	a->seg.widen = s.widen = gd_seg_widen(d, rounds, cols, a, idx, s.k);
	for (unsigned int i = 0; i < s.k; i++) {
		const struct gd_assess_size *z = &a->st[idx[i]];
		double v = s.widen * z->sd_nb * z->sd_nb / z->n;

		s.mean[i + 1] = s.mean[i] + z->mean;
		s.v[i + 1] = s.v[i] + v;
		s.sq[i + 1] = s.sq[i] + sqrt(v);
		s.v2df[i + 1] = s.v2df[i] + v * v / z->df_nb;
		s.dfmax = z->df_nb > s.dfmax ? z->df_nb : s.dfmax;
		if (s.dfmax > (z->n - 1) * (z->n - 1))
			s.dfmax = (z->n - 1) * (z->n - 1);
	}
	for (unsigned int i = 0; i < s.k; i++)
		for (unsigned int j = i; j < s.k; j++) {
			gd_seg_eval(&s, i, j, &c);
			if (gd_seg_better(&c, &best))
				best = c;
		}
	a->seg.tested = s.k * (s.k + 1) / 2;
	gd_seg_keep(a, idx, &best);
}

void gd_assess_segment_flag(struct gd_assess_segment *s, double share,
			    double mult, double alpha)
{
	if (!s->tested)
		return;
	s->p_adj = share * s->tested * s->p;
	s->p_adj = s->p_adj > 1 ? 1 : s->p_adj;
	s->p_run = s->p_adj * mult > 1 ? 1 : s->p_adj * mult;
	s->found = s->p_run <= alpha;
}
