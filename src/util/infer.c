/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Inference over repeated measurements (see infer.h): spread, Student's t
 * (a finite series, or the regularised incomplete beta function), exact
 * binomial and longest-run tails. Small n throughout (repeats, sizes of one
 * sweep).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/infer.h"

size_t gd_median_index(const double *v, size_t n)
{
	/* the element with (n-1)/2 others strictly below it, ties broken
	 * by position: O(n^2), n is a number of repeats */
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, tie_before = 0;

		for (size_t j = 0; j < n; j++) {
			below += v[j] < v[i];
			tie_before += j < i && v[j] == v[i];
		}
		if (below + tie_before == (n - 1) / 2)
			return i;
	}
	return 0;
}

int gd_spread_of(const double *v, size_t n, struct gd_spread *out)
{
	double sum = 0, sq = 0;

	memset(out, 0, sizeof(*out));
	if (!n)
		return -EINVAL;
	out->n = n;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		out->min = v[i] < out->min ? v[i] : out->min;
		out->max = v[i] > out->max ? v[i] : out->max;
	}
	out->mean = sum / (double)n;
	out->median = v[gd_median_index(v, n)];
	if (n < 2 || out->mean == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - out->mean) * (v[i] - out->mean);
	out->cv_pct = 100.0 * sqrt(sq / (double)(n - 1)) / fabs(out->mean);
	return 0;
}

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double gd_betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
static double gd_betai(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * gd_betacf(a, b, x) / a;
	return 1 - front * gd_betacf(b, a, 1 - x) / b;
}

/* Degrees of freedom up to which gd_t_cdf sums the closed form: its
 * (df - 1) / 2 terms cost less than the continued fraction's logarithms
 * and gammas up to a few hundred; beyond, the fraction converges fast. */
#define GD_T_CDF_SERIES_MAX 200
/* Below this tail the continued fraction answers (gd_t_cdf). */
#define GD_T_CDF_SERIES_TAIL 1e-6

/*
 * Student's t cdf at a whole number @nu of degrees of freedom by the finite
 * series of Abramowitz and Stegun 26.7.3 (odd) and 26.7.4 (even) in
 * theta = atan(t / sqrt(nu)): A = P(|T| < |t|), signed with t, and the cdf
 * (1 + A) / 2. No logarithm or gamma: the simulation tests call this
 * millions of times.
 */
static double gd_t_cdf_series(double t, unsigned int nu)
{
	double c2 = nu / (nu + t * t), s = t / sqrt(nu + t * t);
	double sum, term, a;

	if (nu % 2 == 0) {
		sum = term = 1;
		for (unsigned int k = 2; k < nu; k += 2) {
			term *= c2 * (k - 1) / k;
			sum += term;
		}
		a = s * sum;
	} else {
		sum = 0;
		term = sqrt(c2);
		if (nu > 1)
			sum = term;
		for (unsigned int k = 3; k < nu; k += 2) {
			term *= c2 * (k - 1) / k;
			sum += term;
		}
		a = 2 / M_PI * (atan2(t, sqrt(nu)) + s * sum);
	}
	return 0.5 + 0.5 * a;
}

double gd_t_cdf(double t, unsigned int df)
{
	double nu = df ? (double)df : 1, tail;

	if (isfinite(t) && df <= GD_T_CDF_SERIES_MAX) {
		double cdf = gd_t_cdf_series(t, df ? df : 1);

		/* the series reaches a small tail by cancellation (1 - A),
		 * exact to about 1e-16 absolute: a p-value far below that
		 * would read 0 or less, which orders nothing (Holm, BH) */
		if (cdf > GD_T_CDF_SERIES_TAIL &&
		    cdf < 1 - GD_T_CDF_SERIES_TAIL)
			return cdf;
	}
	tail = 0.5 * gd_betai(nu / 2, 0.5, nu / (nu + t * t));
	return t >= 0 ? 1 - tail : tail;
}

double gd_f_cdf(double f, unsigned int d1, unsigned int d2)
{
	double a = d1 ? d1 : 1, b = d2 ? d2 : 1;

	if (!(f > 0))
		return 0;
	return gd_betai(a / 2, b / 2, a * f / (a * f + b));
}

/* Student's t density. */
static double gd_t_pdf(double t, double nu)
{
	return exp(lgamma((nu + 1) / 2) - lgamma(nu / 2) -
		   0.5 * log(nu * M_PI) - (nu + 1) / 2 * log1p(t * t / nu));
}

/* Newton's steps on the cdf, kept inside a bisection bracket so that the
 * heavy tails of few degrees of freedom cannot throw it off: a handful of
 * cdf evaluations instead of sixty-four (the simulation test calls it
 * hundreds of thousands of times). */
static double gd_t_quantile_solve(double conf, unsigned int df)
{
	double nu = df ? (double)df : 1, target = (1 + conf) / 2;
	double lo = 0, hi = 1e7, t = 2;

	for (int i = 0; i < 200; i++) {
		double f = gd_t_cdf(t, df) - target, step;

		if (f < 0)
			lo = t;
		else
			hi = t;
		step = f / gd_t_pdf(t, nu);
		t -= step;
		if (!(t > lo && t < hi))
			t = hi < 1e6 ? (lo + hi) / 2 : 2 * lo + 1;
		if (fabs(step) < 1e-12 * (1 + fabs(t)) || hi - lo < 1e-12)
			break;
	}
	return t;
}

/* An assessment asks for the same few quantiles again and again (two
 * levels, the pooled degrees of freedom; an adaptive run at every look):
 * the answers are kept per thread, in a table wide enough that the two
 * levels over a few hundred df do not push each other out. */
#define GD_T_QUANTILE_SLOTS 1021 /* prime: df and level both spread */

double gd_t_quantile(double conf, unsigned int df)
{
	static _Thread_local struct {
		double conf, t;
		unsigned int df;
	} memo[GD_T_QUANTILE_SLOTS];
	unsigned int slot = (unsigned int)((df * 2654435761u) ^
					   (unsigned int)(conf * 1e6)) %
			    GD_T_QUANTILE_SLOTS;

	if (!(conf > 0 && conf < 1))
		return NAN;
	if (memo[slot].conf != conf || memo[slot].df != df) {
		memo[slot].t = gd_t_quantile_solve(conf, df);
		memo[slot].conf = conf;
		memo[slot].df = df;
	}
	return memo[slot].t;
}

double gd_binom_tail(unsigned int n, unsigned int k, double p)
{
	double sum = 0;

	if (k == 0)
		return 1;
	if (k > n)
		return 0;
	for (unsigned int i = k; i <= n; i++)
		sum += exp(lgamma(n + 1.0) - lgamma(i + 1.0) -
			   lgamma(n - i + 1.0) + i * log(p) +
			   (n - i) * log1p(-p));
	return sum > 1 ? 1 : sum;
}

double gd_longest_run_tail(unsigned int n, unsigned int len, double p)
{
	double *st, stay = 0;

	if (len == 0)
		return 1;
	if (len > n)
		return 0;
	/* st[j]: probability that no run reached @len so far and the
	 * current run of successes is j long */
	st = calloc(len, sizeof(*st));
	if (!st)
		return NAN;
	st[0] = 1;
	for (unsigned int i = 0; i < n; i++) {
		double reset = 0;

		for (unsigned int j = 0; j < len; j++)
			reset += st[j] * (1 - p);
		for (unsigned int j = len - 1; j > 0; j--)
			st[j] = st[j - 1] * p;
		st[0] = reset;
	}
	for (unsigned int j = 0; j < len; j++)
		stay += st[j];
	free(st);
	return 1 - stay < 0 ? 0 : 1 - stay;
}

int gd_log_ci(const double *logs, size_t n, double conf, struct gd_log_ci *out)
{
	double sum = 0, sq = 0, half;

	memset(out, 0, sizeof(*out));
	out->lo = out->hi = NAN;
	if (!n)
		return -EINVAL;
	out->n = n;
	for (size_t i = 0; i < n; i++)
		sum += logs[i];
	out->mean_log = sum / (double)n;
	out->ratio = exp(out->mean_log);
	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		sq += (logs[i] - out->mean_log) * (logs[i] - out->mean_log);
	out->df = (unsigned int)(n - 1);
	out->sd_log = sqrt(sq / (double)(n - 1));
	half = gd_t_quantile(conf, out->df) * out->sd_log / sqrt((double)n);
	out->lo = exp(out->mean_log - half);
	out->hi = exp(out->mean_log + half);
	return 0;
}

unsigned int gd_repeats_needed(const struct gd_log_ci *ci, double floor,
			       unsigned int cap)
{
	double gap = fabs(ci->mean_log - log(floor)), guess;
	unsigned int n;

	if (!(ci->sd_log > 0) || !(gap > 0) || !(floor > 0))
		return 0;
	/* start from the normal approximation, then let t's heavier tails
	 * for small n push it up */
	guess = ceil(pow(1.96 * ci->sd_log / gap, 2));
	n = guess < 2 ? 2 : guess > cap ? cap : (unsigned int)guess;
	while (n < cap && gd_t_quantile(GD_INFER_CONFIDENCE, n - 1) *
					  ci->sd_log / sqrt((double)n) >=
				  gap)
		n++;
	return n;
}
