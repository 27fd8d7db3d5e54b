/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for src/util/infer.c against published tables and brute
 * force: Student's t quantiles (two-sided 95% and 99%), binomial tails,
 * the longest-run tail by enumerating every sequence of small length, the
 * spread of a handful of figures and the log-ratio interval.
 */
#include <config.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "util/infer.h"

/* Two-sided critical values of Student's t (any statistics table). */
static void test_t_quantiles(void **state)
{
	static const struct {
		unsigned int df;
		double q95, q99;
	} table[] = {
		{ 1, 12.706, 63.657 }, { 2, 4.303, 9.925 },
		{ 3, 3.182, 5.841 },   { 4, 2.776, 4.604 },
		{ 9, 2.262, 3.250 },   { 29, 2.045, 2.756 },
		{ 120, 1.980, 2.617 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		assert_true(fabs(gd_t_quantile(0.95, table[i].df) -
				 table[i].q95) < 0.002);
		assert_true(fabs(gd_t_quantile(0.99, table[i].df) -
				 table[i].q99) < 0.002);
	}
	assert_true(fabs(gd_t_cdf(0, 5) - 0.5) < 1e-12);
	assert_true(fabs(gd_t_cdf(2.571, 5) - 0.975) < 1e-4);
	assert_true(fabs(gd_t_cdf(-2.571, 5) - 0.025) < 1e-4);
	assert_true(isnan(gd_t_quantile(1.0, 3)));
	/* the finite series (df <= 200) against the incomplete beta, which
	 * gd_f_cdf reads: T^2 is F(1, df), so P(|T| < t) = F's cdf at t^2 */
	for (unsigned int df = 1; df <= 201; df++)
		for (double t = 0.01; t < 60; t *= 1.37) {
			double b = 0.5 + 0.5 * gd_f_cdf(t * t, 1, df);

			assert_true(fabs(gd_t_cdf(t, df) - b) < 1e-12);
			assert_true(fabs(gd_t_cdf(-t, df) - (1 - b)) < 1e-12);
		}
	assert_true(gd_t_cdf(INFINITY, 7) == 1 && gd_t_cdf(-INFINITY, 7) == 0);
	/* a far tail keeps its relative precision: p-values are ordered */
	assert_true(gd_t_cdf(-200, 10) > 0 &&
		    gd_t_cdf(-300, 10) < gd_t_cdf(-200, 10));
}

static void test_binomial_tail(void **state)
{
	(void)state;
	assert_true(fabs(gd_binom_tail(10, 0, 0.5) - 1) < 1e-12);
	assert_true(fabs(gd_binom_tail(10, 10, 0.5) - 1.0 / 1024) < 1e-12);
	/* P(X >= 8), n = 10: (45 + 10 + 1) / 1024 */
	assert_true(fabs(gd_binom_tail(10, 8, 0.5) - 56.0 / 1024) < 1e-12);
	assert_true(fabs(gd_binom_tail(4, 2, 0.3) -
			 (6 * 0.09 * 0.49 + 4 * 0.027 * 0.7 + 0.0081)) < 1e-12);
	assert_true(gd_binom_tail(5, 6, 0.5) == 0);
}

/* P(longest run of ones >= len) over every 0/1 sequence of n bits. */
static double brute_run_tail(unsigned int n, unsigned int len, double p)
{
	double total = 0;

	for (uint32_t bits = 0; bits < (1u << n); bits++) {
		unsigned int run = 0, longest = 0, ones = 0;

		for (unsigned int i = 0; i < n; i++) {
			bool one = bits >> i & 1;

			ones += one;
			run = one ? run + 1 : 0;
			longest = run > longest ? run : longest;
		}
		if (longest >= len)
			total += pow(p, ones) * pow(1 - p, n - ones);
	}
	return total;
}

static void test_longest_run_tail(void **state)
{
	(void)state;
	for (unsigned int n = 1; n <= 14; n++)
		for (unsigned int len = 0; len <= n + 1; len++) {
			assert_true(fabs(gd_longest_run_tail(n, len, 0.5) -
					 brute_run_tail(n, len, 0.5)) < 1e-12);
			assert_true(fabs(gd_longest_run_tail(n, len, 0.3) -
					 brute_run_tail(n, len, 0.3)) < 1e-12);
		}
}

static void test_spread(void **state)
{
	const double v[] = { 10, 14, 12, 11, 13 };
	const double ties[] = { 5, 5, 5, 1 };
	struct gd_spread sp;

	(void)state;
	assert_int_equal(gd_spread_of(v, 5, &sp), 0);
	assert_true(sp.median == 12 && sp.min == 10 && sp.max == 14);
	assert_true(fabs(sp.mean - 12) < 1e-12);
	/* sample stdev sqrt(2.5) over the mean 12 */
	assert_true(fabs(sp.cv_pct - 100 * sqrt(2.5) / 12) < 1e-9);
	assert_int_equal(gd_median_index(v, 5), 2);
	assert_int_equal(gd_median_index(ties, 4), 0); /* lower median 5 */
	assert_int_equal(gd_spread_of(v, 0, &sp), -22);
	assert_int_equal(gd_spread_of(v, 1, &sp), 0);
	assert_true(sp.cv_pct == 0);
}

static void test_log_interval(void **state)
{
	const double logs[] = { log(0.9), log(1.0), log(1.1) };
	struct gd_log_ci ci;
	double sd, half;

	(void)state;
	assert_int_equal(gd_log_ci(logs, 3, 0.95, &ci), 0);
	sd = sqrt(((log(0.9) - ci.mean_log) * (log(0.9) - ci.mean_log) +
		   ci.mean_log * ci.mean_log +
		   (log(1.1) - ci.mean_log) * (log(1.1) - ci.mean_log)) /
		  2);
	half = 4.303 * sd / sqrt(3);
	assert_int_equal(ci.df, 2);
	assert_true(fabs(ci.sd_log - sd) < 1e-12);
	assert_true(fabs(ci.lo - exp(ci.mean_log - half)) < 1e-3);
	assert_true(fabs(ci.hi - exp(ci.mean_log + half)) < 1e-3);
	assert_true(ci.lo < ci.ratio && ci.ratio < ci.hi);
	assert_int_equal(gd_log_ci(logs, 1, 0.95, &ci), 0);
	assert_true(isnan(ci.lo) && isnan(ci.hi) && ci.df == 0);
}

/* The rounds it asks for do bring the half-width under the gap. */
static void test_repeats_needed(void **state)
{
	struct gd_log_ci ci = {
		.n = 3, .df = 2, .mean_log = log(0.9), .sd_log = 0.1
	};
	unsigned int n = gd_repeats_needed(&ci, 0.8, 100);
	double gap = log(0.9) - log(0.8);

	(void)state;
	assert_true(n >= 2 && n < 100);
	assert_true(gd_t_quantile(GD_INFER_CONFIDENCE, n - 1) * 0.1 /
			    sqrt((double)n) <
		    gap);
	assert_true(gd_t_quantile(GD_INFER_CONFIDENCE, n - 2) * 0.1 /
			    sqrt((double)n - 1) >=
		    gap);
	ci.sd_log = 0;
	assert_int_equal(gd_repeats_needed(&ci, 0.8, 100), 0);
	ci.sd_log = 10;
	assert_int_equal(gd_repeats_needed(&ci, 0.8, 100), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_binomial_tail),
		cmocka_unit_test(test_longest_run_tail),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_log_interval),
		cmocka_unit_test(test_repeats_needed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
