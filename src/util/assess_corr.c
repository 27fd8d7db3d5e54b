/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The correlation model of assess_corr.h. Rounds are blocks of time, and
 * neighbouring ones can share a state (warming up, a neighbour's load, a
 * clock's drift), most often one that every size of a round sees alike.
 * A size's spread over its rounds then understates the spread of its
 * mean, and a mean over many sizes most, since the shared part does not
 * average out over them. Neither part can be read from one size's few
 * rounds, so each is pooled over the sizes, and in a run over its phases
 * and directions (gd_assess_corr_pool): the own part from the lag-1
 * ratio of each size's residuals, the shared part from the lag-1
 * covariance between different sizes (where a size's own noise has no
 * part), each bias-corrected by inverting its expectation under AR(1).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/assess.h"
#include "util/assess_corr.h"

/* Rounds over which correlation is read: a model's matrix is n x n. */
#define GD_CORR_MAX_ROUNDS 64
/* The largest lag-1 correlation the inversion returns. */
#define GD_CORR_RHO_MAX 0.95

/*
 * The largest lag-1 correlation read from @n rounds: 1 - 2.5 / n (0.5 from
 * five rounds, 0.75 from ten, 0.875 from twenty), at most
 * GD_CORR_RHO_MAX. The ratio read from a few rounds scatters by about
 * 1 / sqrt(n), so a large reading from them is mostly noise, and its factor
 * (4.6 at 0.95 from five rounds) would cost a clear slowdown its power at
 * random; tests/assess_sim_test.c and assess_segment_sim_test.c measure the
 * balance: the rate at the floor under round-shared AR(1) 0.5 and the
 * slow runs named.
 */
static double gd_rho_cap(unsigned int n)
{
	double cap = 1 - 2.5 / n;

	return cap < GD_CORR_RHO_MAX ? cap : GD_CORR_RHO_MAX;
}

/* Residual of size @z (compacted) in round @r. */
static double gd_res(const double *d, unsigned int cols,
		     const struct gd_assessment *a, unsigned int r,
		     unsigned int z)
{
	return d[r * cols + a->col[z]] - a->st[z].mean;
}

/* Correlation of two sizes' residuals over the rounds both have; NAN when
 * fewer than three or either is constant. */
static double gd_corr_pair(const double *d, unsigned int rounds,
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

/* The correlations of sizes within a round, summed over every pair of
 * sizes with three or more rounds, into @s. */
static void gd_corr_within(const double *d, unsigned int rounds,
			   unsigned int cols, const struct gd_assessment *a,
			   struct gd_assess_corr_sums *s)
{
	for (unsigned int i = 0; i < a->sizes; i++)
		for (unsigned int j = i + 1; j < a->sizes; j++) {
			double c = gd_corr_pair(d, rounds, cols, a, i, j);

			if (!isnan(c)) {
				s->within_sum += c;
				s->within_pairs++;
			}
		}
}

/*
 * Under AR(1) noise with lag-1 correlation @rho over @n rounds (unit
 * variance): the expected lag-1 ratio of a series' residuals, sum of
 * e[r] e[r+1] over sum of e[r]^2 (its @g; -1/n at rho 0: the residuals of
 * few rounds read as anti-correlated), and the factor @f by which the
 * variance of the series' mean exceeds its expected s^2 / n.
 */
static void gd_ar1(double rho, unsigned int n, double *g, double *f)
{
	double row[GD_CORR_MAX_ROUNDS], cum[GD_CORR_MAX_ROUNDS], pw = 1;
	double grand = 0, lag = 0, tr = 0;

	/* row i sums rho^|i - j| over j: the powers up to i and up to
	 * n - 1 - i, rho^0 counted once (prefix sums: O(n), not O(n^2), since
	 * the inversion below calls this forty times per model) */
	for (unsigned int k = 0; k < n; k++, pw *= rho)
		cum[k] = pw + (k ? cum[k - 1] : 0);
	for (unsigned int i = 0; i < n; i++) {
		row[i] = (cum[i] + cum[n - 1 - i] - 1) / n;
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

/* The AR(1) correlation whose expected lag-1 ratio over @n rounds is
 * @ratio (bisection), 0 when it reads no more than independence would;
 * its factor into @f. */
static double gd_ar1_invert(double ratio, unsigned int n, double *f)
{
	double lo = 0, hi = gd_rho_cap(n), g;

	gd_ar1(0, n, &g, f);
	*f = 1; /* independence: exactly, not as rounded */
	if (!(ratio > g))
		return 0;
	for (int it = 0; it < 40; it++) {
		double mid = (lo + hi) / 2;

		gd_ar1(mid, n, &g, f);
		if (g < ratio)
			lo = mid;
		else
			hi = mid;
	}
	gd_ar1(lo, n, &g, f);
	if (*f < 1)
		*f = 1;
	return lo;
}

/* Lag-1 sums over the sizes with every round into @s: each size's own
 * ratio, and the covariances between different sizes. */
static void gd_corr_lags(const double *d, unsigned int rounds,
			 unsigned int cols, const struct gd_assessment *a,
			 struct gd_assess_corr_sums *s)
{
	double c0 = 0, c1 = 0, sum[GD_CORR_MAX_ROUNDS] = { 0 };
	double d0 = 0, d1 = 0;

	for (unsigned int z = 0; z < a->sizes; z++) {
		double num = 0, den = 0;

		if (a->st[z].n != rounds)
			continue;
		for (unsigned int r = 0; r < rounds; r++) {
			double e = gd_res(d, cols, a, r, z);

			sum[r] += e;
			den += e * e;
			if (r + 1 < rounds)
				num += e * gd_res(d, cols, a, r + 1, z);
		}
		d0 += den;
		d1 += num;
		if (den > 0) {
			s->own_sum += num / den;
			s->own_sizes++;
		}
	}
	/* between sizes: the sums over every size less each size with
	 * itself, at lag 0 and lag 1 */
	for (unsigned int r = 0; r < rounds; r++) {
		c0 += sum[r] * sum[r];
		if (r + 1 < rounds)
			c1 += sum[r] * sum[r + 1];
	}
	s->own_num = d1;
	s->own_den = d0;
	if (s->own_sizes >= 2) {
		s->cross0 = c0 - d0;
		s->cross1 = c1 - d1;
	}
}

/*
 * The standard deviation of the lag-1 ratio of residuals pooled over @k
 * independent series of @n rounds, each centred on its mean: a ratio of
 * quadratic forms z'Bz / z'z in N = k (n - 1) independent normals, whose
 * variance is 2 (N tr B^2 - tr^2 B) / (N^2 (N + 2)); B is k copies of the
 * centred half-lag matrix A = M L M, tr A = -(n - 1) / n and
 * tr A^2 = (n - 1) / 2 - 2 (n - 1.5) / n + (n - 1)^2 / n^2.
 */
static double gd_lag_sd0(unsigned int n, unsigned int k)
{
	double t1 = -(n - 1.0) / n, big = (double)k * (n - 1);
	double t2 = (n - 1.0) / 2 - 2 * (n - 1.5) / n +
		    (n - 1.0) * (n - 1.0) / ((double)n * n);
	double v = 2 * (big * k * t2 - (double)k * k * t1 * t1) /
		   (big * big * (big + 2));

	return v > 0 ? sqrt(v) : 0;
}

/* The lag-1 correlation of grid point @i (gd_assess_corr_post). */
static double gd_grid_rho(unsigned int i)
{
	return GD_ASSESS_CORR_POST_MAX * i / (GD_ASSESS_CORR_GRID - 1);
}

/* gd_ar1 at grid point @i over @n rounds, kept per thread: every
 * assessment weighs the same eleven points. */
static void gd_ar1_grid(unsigned int i, unsigned int n, double *g, double *f)
{
	static _Thread_local struct {
		double g, f;
		int known;
	} memo[GD_ASSESS_CORR_GRID][GD_CORR_MAX_ROUNDS + 1];

	if (!memo[i][n].known) {
		gd_ar1(gd_grid_rho(i), n, &memo[i][n].g, &memo[i][n].f);
		memo[i][n].known = 1;
	}
	*g = memo[i][n].g;
	*f = memo[i][n].f;
}

/*
 * "Not below"'s weights of a size's own lag-1 correlation: the prior's
 * grid, each point weighed by the likelihood of the pooled lag-1 ratio
 * @num / @den of @k sizes over @n rounds, normal about the ratio AR(1)
 * with that correlation expects (gd_ar1) with its spread under
 * independence. Nothing read (all 0) without a ratio.
 */
static void gd_corr_post(double num, double den, unsigned int k, unsigned int n,
			 struct gd_assess_corr *c)
{
	double sd = gd_lag_sd0(n, k), ratio, w[GD_ASSESS_CORR_GRID], sum = 0;

	memset(c->post, 0, sizeof(c->post));
	c->rho_post = 0;
	if (n < 3 || n > GD_CORR_MAX_ROUNDS || !k || !(den > 0) || !(sd > 0))
		return;
	ratio = num / den;
	for (unsigned int i = 0; i < GD_ASSESS_CORR_GRID; i++) {
		double g, f, z;

		gd_ar1_grid(i, n, &g, &f);
		z = (ratio - g) / sd;
		w[i] = exp(-0.5 * z * z);
		sum += w[i];
	}
	if (!(sum > 0)) /* beyond every point: nothing read, the prior */
		return;
	for (unsigned int i = 0; i < GD_ASSESS_CORR_GRID; i++) {
		c->post[i] = w[i] / sum;
		c->rho_post += c->post[i] * gd_grid_rho(i);
	}
}

/* The model from @n sums (one assessment's, or a run's pooled). */
static void gd_corr_model(const struct gd_assess_corr_sums *s, unsigned int n,
			  struct gd_assess_corr *c)
{
	double within = 0, own = 0, c0 = 0, c1 = 0, on = 0, od = 0;
	unsigned int pairs = 0, m = 0, cross = 0, rounds = s[0].rounds;

	c->within = c->rho_own = c->rho_shared = 0;
	c->f_own = c->f_shared = 1;
	c->pooled = n;
	for (unsigned int i = 0; i < n; i++) {
		within += s[i].within_sum;
		pairs += s[i].within_pairs;
		own += s[i].own_sum;
		m += s[i].own_sizes;
		c0 += s[i].cross0;
		c1 += s[i].cross1;
		cross += s[i].own_sizes >= 2;
		on += s[i].own_num;
		od += s[i].own_den;
	}
	if (pairs && within > 0)
		c->within = within / pairs;
	gd_corr_post(on, od, m, rounds, c);
	if (rounds < GD_ASSESS_CORR_MIN_ROUNDS || rounds > GD_CORR_MAX_ROUNDS)
		return;
	if (m)
		c->rho_own = gd_ar1_invert(own / m, rounds, &c->f_own);
	if (cross && c0 > 0 && c->within > 0)
		c->rho_shared = gd_ar1_invert(c1 / c0, rounds, &c->f_shared);
}

void gd_assess_corr(const double *d, unsigned int rounds, unsigned int cols,
		    const struct gd_assessment *a, struct gd_assess_corr *c)
{
	memset(c, 0, sizeof(*c));
	c->sums.rounds = rounds;
	if (rounds >= 2)
		gd_corr_within(d, rounds, cols, a, &c->sums);
	if (rounds >= 3 && rounds <= GD_CORR_MAX_ROUNDS)
		gd_corr_lags(d, rounds, cols, a, &c->sums);
	gd_corr_model(&c->sums, 1, c);
}

void gd_assess_corr_pool(const struct gd_assessment *a, unsigned int n,
			 unsigned int i, struct gd_assess_corr *c)
{
	struct gd_assess_corr_sums s[GD_ASSESS_MAX_SIZES];
	unsigned int k = 0;

	*c = a[i].corr;
	for (unsigned int j = 0; j < n && k < GD_ASSESS_MAX_SIZES; j++)
		if (a[j].corr.sums.rounds == a[i].corr.sums.rounds)
			s[k++] = a[j].corr.sums;
	gd_corr_model(s, k, c);
}

bool gd_assess_corr_same(const struct gd_assess_corr *x,
			 const struct gd_assess_corr *y)
{
	return x->within == y->within && x->rho_own == y->rho_own &&
	       x->rho_shared == y->rho_shared && x->f_own == y->f_own &&
	       x->f_shared == y->f_shared;
}

double gd_assess_corr_var(const struct gd_assess_corr *c, double v, double sq,
			  double m, bool rounds)
{
	double fo = rounds ? c->f_own : 1, fs = rounds ? c->f_shared : 1;

	return ((1 - c->within) * fo * v + c->within * fs * sq * sq) / (m * m);
}

double gd_assess_corr_prior(unsigned int rounds)
{
	double g, f;

	if (rounds < 2 || rounds > GD_CORR_MAX_ROUNDS)
		return 1;
	gd_ar1(GD_ASSESS_CORR_PRIOR_RHO, rounds, &g, &f);
	return f > 1 ? f : 1;
}

double gd_assess_corr_post(const struct gd_assess_corr *c, unsigned int rounds)
{
	double sum = 0, g, f;

	if (rounds < 2 || rounds > GD_CORR_MAX_ROUNDS)
		return 1;
	for (unsigned int i = 0; i < GD_ASSESS_CORR_GRID; i++) {
		if (!(c->post[i] > 0))
			continue;
		f = 1; /* independence: exactly */
		if (i)
			gd_ar1_grid(i, rounds, &g, &f);
		sum += c->post[i] * (f > 1 ? f : 1);
	}
	return sum > 0 ? sum : gd_assess_corr_prior(rounds);
}

unsigned int gd_assess_corr_pool_df(unsigned int df, unsigned int sizes,
				    double within, unsigned int own)
{
	double eff;

	if (!(within > 0) || sizes < 2)
		return df;
	eff = floor(df / (1 + (sizes - 1) * within * within));
	return eff > own ? (unsigned int)eff : own;
}
