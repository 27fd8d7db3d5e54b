/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The correlation model of assess_corr.h. Rounds are blocks of time, and
 * neighbouring ones can share a state (warming up, a neighbour's load, a
 * clock's drift), most often one that every size of a round sees alike.
 * A size's spread over its rounds then understates the spread of its
 * mean, and a mean over many sizes most, since the shared part does not
 * average out over them. Neither part can be read from one size's few
 * rounds, so each is pooled over the sizes: the own part from the lag-1
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

/* The correlation of sizes within a round, averaged over every pair of
 * sizes with two or more rounds, at least 0. */
static double gd_corr_within(const double *d, unsigned int rounds,
			     unsigned int cols, const struct gd_assessment *a)
{
	double sum = 0;
	unsigned int n = 0;

	for (unsigned int i = 0; i < a->sizes; i++)
		for (unsigned int j = i + 1; j < a->sizes; j++) {
			double c = gd_corr_pair(d, rounds, cols, a, i, j);

			if (!isnan(c)) {
				sum += c;
				n++;
			}
		}
	return n && sum > 0 ? sum / n : 0;
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
	double row[GD_CORR_MAX_ROUNDS], grand = 0, lag = 0, tr = 0;

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

/* The AR(1) correlation whose expected lag-1 ratio over @n rounds is
 * @ratio (bisection), 0 when it reads no more than independence would;
 * its factor into @f. */
static double gd_ar1_invert(double ratio, unsigned int n, double *f)
{
	double lo = 0, hi = gd_rho_cap(n), g;

	gd_ar1(0, n, &g, f);
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

/* Lag-1 ratios over the sizes with every round: each size's own (their
 * mean, each weighted alike), and the one between different sizes. */
static void gd_corr_lags(const double *d, unsigned int rounds,
			 unsigned int cols, const struct gd_assessment *a,
			 double *own, double *shared)
{
	double sum_own = 0, c0 = 0, c1 = 0, s[GD_CORR_MAX_ROUNDS] = { 0 };
	double d0 = 0, d1 = 0;
	unsigned int m = 0;

	*own = *shared = NAN;
	for (unsigned int z = 0; z < a->sizes; z++) {
		double num = 0, den = 0;

		if (a->st[z].n != rounds)
			continue;
		for (unsigned int r = 0; r < rounds; r++) {
			double e = gd_res(d, cols, a, r, z);

			s[r] += e;
			den += e * e;
			if (r + 1 < rounds)
				num += e * gd_res(d, cols, a, r + 1, z);
		}
		d0 += den;
		d1 += num;
		if (den > 0) {
			sum_own += num / den;
			m++;
		}
	}
	if (m)
		*own = sum_own / m;
	/* between sizes: the sums over every size less each size with
	 * itself, at lag 0 and lag 1 */
	for (unsigned int r = 0; r < rounds; r++) {
		c0 += s[r] * s[r];
		if (r + 1 < rounds)
			c1 += s[r] * s[r + 1];
	}
	c0 -= d0;
	c1 -= d1;
	if (m >= 2 && c0 > 0)
		*shared = c1 / c0;
}

void gd_assess_corr(const double *d, unsigned int rounds, unsigned int cols,
		    const struct gd_assessment *a, struct gd_assess_corr *c)
{
	double own, shared;

	memset(c, 0, sizeof(*c));
	c->f_own = c->f_shared = 1;
	if (rounds < 2)
		return;
	c->within = gd_corr_within(d, rounds, cols, a);
	if (rounds < GD_ASSESS_CORR_MIN_ROUNDS || rounds > GD_CORR_MAX_ROUNDS)
		return;
	gd_corr_lags(d, rounds, cols, a, &own, &shared);
	if (!isnan(own))
		c->rho_own = gd_ar1_invert(own, rounds, &c->f_own);
	if (!isnan(shared) && c->within > 0)
		c->rho_shared = gd_ar1_invert(shared, rounds, &c->f_shared);
}

double gd_assess_corr_var(const struct gd_assess_corr *c, double v, double sq,
			  double m, bool rounds)
{
	double fo = rounds ? c->f_own : 1, fs = rounds ? c->f_shared : 1;

	return ((1 - c->within) * fo * v + c->within * fs * sq * sq) / (m * m);
}
