/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for src/stats.c: nearest-rank percentiles, mean and population
 * stdev, bandwidth and message-rate arithmetic, /proc/stat parsing. Every
 * expected value is computed by hand in the comment next to it.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "util/stats.h"

#define EPS 1e-9

/* cmocka 1.1's assert_float_equal works in float; these values need double. */
#define assert_dbl(a, b, eps)                                                  \
	gd_assert_dbl((a), (b), (eps), #a, __FILE__, __LINE__)

static void gd_assert_dbl(double a, double b, double eps, const char *expr,
			  const char *file, int line)
{
	if (fabs(a - b) <= eps)
		return;
	print_error("%s = %.15g, expected %.15g (+/- %g)\n", expr, a, b, eps);
	_fail(file, line);
}

static void test_lat_ten_samples(void **state)
{
	/* 1..10 us, shuffled so the sort is exercised. */
	uint64_t s[10] = { 7000, 3000, 10000, 1000, 5000,
			   9000, 2000, 8000,  4000, 6000 };
	struct gd_lat_summary l;
	size_t i;

	assert_int_equal(gd_lat_summarize(s, 10, 1, &l), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(s[i], (i + 1) * 1000);
	assert_int_equal(l.samples, 10);
	assert_dbl(l.min_us, 1.0, EPS);
	assert_dbl(l.max_us, 10.0, EPS);
	/* median rank ceil(0.5 * 10) = 5 -> index 4 -> 5000 ns */
	assert_dbl(l.typical_us, 5.0, EPS);
	assert_dbl(l.avg_us, 5.5, EPS);
	/* sum of squared deviations 82.5 us^2 / 10 = 8.25 -> sqrt 2.8722813 */
	assert_dbl(l.stdev_us, 2.8722813232690143, 1e-9);
	/* rank ceil(9.9) = 10 -> index 9 */
	assert_dbl(l.p99_us, 10.0, EPS);
	assert_dbl(l.p999_us, 10.0, EPS);
}

static void test_lat_divisor_halves(void **state)
{
	uint64_t s[10] = { 10000, 9000, 8000, 7000, 6000,
			   5000,  4000, 3000, 2000, 1000 };
	struct gd_lat_summary l;

	assert_int_equal(gd_lat_summarize(s, 10, 2, &l), 0);
	assert_dbl(l.min_us, 0.5, EPS);
	assert_dbl(l.max_us, 5.0, EPS);
	assert_dbl(l.typical_us, 2.5, EPS);
	assert_dbl(l.avg_us, 2.75, EPS);
	assert_dbl(l.stdev_us, 1.4361406616345072, 1e-9);
	assert_dbl(l.p99_us, 5.0, EPS);
	assert_dbl(l.p999_us, 5.0, EPS);
}

static void test_lat_thousand_outliers(void **state)
{
	uint64_t *s = calloc(1000, sizeof(*s));
	struct gd_lat_summary l;
	size_t i;

	assert_non_null(s);
	/* Two 50 us outliers first, then 998 samples of 1 us. */
	s[0] = 50000;
	s[1] = 50000;
	for (i = 2; i < 1000; i++)
		s[i] = 1000;
	assert_int_equal(gd_lat_summarize(s, 1000, 1, &l), 0);
	assert_dbl(l.min_us, 1.0, EPS);
	assert_dbl(l.max_us, 50.0, EPS);
	assert_dbl(l.typical_us, 1.0, EPS);
	/* (998 * 1000 + 2 * 50000) / 1000 = 1098 ns */
	assert_dbl(l.avg_us, 1.098, EPS);
	/* (998 * 98^2 + 2 * 48902^2) / 1000 = 4792396 ns^2 -> 2189.1542 ns */
	assert_dbl(l.stdev_us, 2.1891541745614904, 1e-9);
	/* p99: rank 990 -> index 989, a 1 us sample, not the maximum */
	assert_dbl(l.p99_us, 1.0, EPS);
	/* p99.9: rank 999 -> index 998, the first outlier == max */
	assert_dbl(l.p999_us, 50.0, EPS);
	free(s);
}

static void test_percentile_ranks(void **state)
{
	uint64_t s[1000];
	size_t i;

	for (i = 0; i < 1000; i++)
		s[i] = i + 1;
	assert_int_equal(gd_percentile_sorted(s, 100, 50.0), 50);
	assert_int_equal(gd_percentile_sorted(s, 100, 99.0), 99);
	assert_int_equal(gd_percentile_sorted(s, 100, 100.0), 100);
	assert_int_equal(gd_percentile_sorted(s, 100, 0.0), 1);
	/* 99.9 * 1000 / 100 = 999 exactly: no drift to rank 1000 */
	assert_int_equal(gd_percentile_sorted(s, 1000, 99.9), 999);
	assert_int_equal(gd_percentile_sorted(s, 1000, 99.0), 990);
	/* rank ceil(0.999 * 10) = 10 */
	assert_int_equal(gd_percentile_sorted(s, 10, 99.9), 10);
	assert_int_equal(gd_percentile_sorted(s, 1, 99.9), 1);
	assert_int_equal(gd_percentile_sorted(s, 0, 50.0), 0);
}

static void test_lat_empty(void **state)
{
	uint64_t s[1] = { 1 };
	struct gd_lat_summary l;

	gd_err_clear();
	assert_int_equal(gd_lat_summarize(s, 0, 1, &l), -EINVAL);
	assert_true(gd_err_is_set());
	assert_int_equal(gd_err_code(), -EINVAL);
	gd_err_clear();
}

static void test_bw_average(void **state)
{
	struct gd_bw_summary b;

	/* 65536 B * 1000 = 62.5 MiB in 1 s; 1000 messages in 1 s */
	assert_int_equal(gd_bw_summarize(65536, 1000, 1000000000ull, 0, 0, &b),
			 0);
	assert_int_equal(b.size_bytes, 65536);
	assert_int_equal(b.iters, 1000);
	assert_dbl(b.elapsed_s, 1.0, EPS);
	assert_dbl(b.avg_MiBps, 62.5, EPS);
	assert_dbl(b.msg_rate_Mpps, 0.001, EPS);
	assert_dbl(b.peak_MiBps, 62.5, EPS);
}

static void test_bw_peak(void **state)
{
	struct gd_bw_summary b;

	/* best batch: 100 x 64 KiB = 6.25 MiB in 50 ms = 125 MiB/s */
	assert_int_equal(gd_bw_summarize(65536, 1000, 1000000000ull,
					 50000000ull, 100, &b),
			 0);
	assert_dbl(b.peak_MiBps, 125.0, EPS);
	assert_dbl(b.avg_MiBps, 62.5, EPS);
	/* 10 x 64 KiB in 1 s = 0.625 MiB/s: below average, left visible */
	assert_int_equal(gd_bw_summarize(65536, 1000, 1000000000ull,
					 1000000000ull, 10, &b),
			 0);
	assert_dbl(b.peak_MiBps, 0.625, EPS);
	/* 4 KiB x 2^20 messages in 0.5 s = 8192 MiB/s, 2.097152 Mpps */
	assert_int_equal(gd_bw_summarize(4096, 1048576, 500000000ull, 0, 0, &b),
			 0);
	assert_dbl(b.avg_MiBps, 8192.0, EPS);
	assert_dbl(b.msg_rate_Mpps, 2.097152, EPS);
}

static void test_bw_empty_window(void **state)
{
	struct gd_bw_summary b;

	gd_err_clear();
	assert_int_equal(gd_bw_summarize(65536, 1000, 0, 0, 0, &b), -EINVAL);
	assert_true(gd_err_is_set());
	gd_err_clear();
}

static void test_gbps(void **state)
{
	/* 2^20 B * 8 bit / 10^9 */
	assert_dbl(gd_MiBps_to_Gbps(1.0), 0.008388608, 1e-15);
	assert_dbl(gd_MiBps_to_Gbps(62.5), 0.524288, 1e-12);
	assert_dbl(gd_MiBps_to_Gbps(0.0), 0.0, 0.0);
}

static void test_cpu_parse(void **state)
{
	struct gd_cpu_sample a, b;

	/* user nice system idle iowait irq softirq steal guest guest_nice */
	assert_int_equal(gd_cpu_parse_stat_line(
				 "cpu  100 20 30 400 50 6 7 8 90 10\n", &a),
			 0);
	/* total = 100+20+30+400+50+6+7+8 = 621 (guest already in user) */
	assert_int_equal(a.total_ticks, 621);
	/* busy = 621 - 400 idle - 50 iowait */
	assert_int_equal(a.busy_ticks, 171);
	assert_int_equal(gd_cpu_parse_stat_line(
				 "cpu  200 20 30 700 50 6 7 8 90 10\n", &b),
			 0);
	assert_int_equal(b.total_ticks, 1021);
	assert_int_equal(b.busy_ticks, 271);
	/* 100 busy of 400 elapsed ticks */
	assert_dbl(gd_cpu_util_pct(&a, &b), 25.0, EPS);
	assert_dbl(gd_cpu_util_pct(&a, &a), 0.0, EPS);
	assert_int_equal(gd_cpu_parse_stat_line("intr 1 2 3\n", &a), -EPROTO);
}

static void test_cpu_sample_proc(void **state)
{
	struct gd_cpu_sample s;

	assert_int_equal(gd_cpu_sample(&s), 0);
	assert_true(s.total_ticks > 0);
	assert_true(s.busy_ticks <= s.total_ticks);
}

static void test_clock(void **state)
{
	uint64_t a, b;
	double o1, o2;

	a = gd_now_ns();
	b = gd_now_ns();
	assert_true(b >= a);
	assert_true(a > 0);
	o1 = gd_clock_overhead_ns();
	o2 = gd_clock_overhead_ns();
	/* measured once per run, whatever the machine is doing: no bound on
	 * its size here (a busy CPU may stretch it), only that it was
	 * measured and is not measured again */
	assert_true(o1 > 0.0);
	assert_true(isfinite(o1));
	assert_dbl(o1, o2, 0.0);
}

/* Summaries travel as JSON (server results) with the report's keys. */
static void test_summary_json(void **state)
{
	struct gd_bw_summary bw = { .size_bytes = 65536,
				    .iters = 1000,
				    .elapsed_s = 1.0,
				    .peak_MiBps = 70.0,
				    .avg_MiBps = 62.5,
				    .msg_rate_Mpps = 0.001 };
	struct gd_lat_summary lat = { .samples = 10,
				      .min_us = 1,
				      .max_us = 10,
				      .typical_us = 5,
				      .avg_us = 5.5,
				      .stdev_us = 2.8722813,
				      .p99_us = 10,
				      .p999_us = 10 };
	struct gd_bw_summary bw2;
	struct gd_lat_summary lat2;
	struct json_object *j, *x;

	(void)state;
	j = gd_bw_summary_json(&bw);
	assert_true(json_object_object_get_ex(j, "bw_avg_Gbps", &x));
	assert_true(fabs(json_object_get_double(x) - 0.524288) < 1e-9);
	assert_int_equal(gd_bw_summary_from_json(j, &bw2), 0);
	assert_int_equal(bw2.size_bytes, 65536);
	assert_int_equal(bw2.iters, 1000);
	assert_true(bw2.avg_MiBps == 62.5 && bw2.peak_MiBps == 70.0);
	json_object_object_del(j, "msg_rate_Mpps");
	gd_err_clear();
	assert_int_equal(gd_bw_summary_from_json(j, &bw2), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "msg_rate_Mpps"));
	json_object_put(j);

	j = gd_lat_summary_json(&lat);
	assert_int_equal(gd_lat_summary_from_json(j, &lat2), 0);
	assert_int_equal(lat2.samples, 10);
	assert_true(lat2.typical_us == 5 && lat2.p999_us == 10 &&
		    lat2.stdev_us == 2.8722813);
	json_object_object_add(j, "samples", json_object_new_int64(0));
	gd_err_clear();
	assert_int_equal(gd_lat_summary_from_json(j, &lat2), -EPROTO);
	json_object_put(j);
	gd_err_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_ten_samples),
		cmocka_unit_test(test_lat_divisor_halves),
		cmocka_unit_test(test_lat_thousand_outliers),
		cmocka_unit_test(test_percentile_ranks),
		cmocka_unit_test(test_lat_empty),
		cmocka_unit_test(test_bw_average),
		cmocka_unit_test(test_bw_peak),
		cmocka_unit_test(test_bw_empty_window),
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_cpu_parse),
		cmocka_unit_test(test_cpu_sample_proc),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_summary_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
