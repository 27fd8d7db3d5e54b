/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for the cluster tools: robust statistics against hand-computed
 * values, the circle-method round robin (every pair exactly once, no server
 * twice in a step, one bye per step when odd) and the worksheet arithmetic.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tools/cluster/fleet.h"
#include "tools/cluster/plan.h"

static void test_median_mad(void **state)
{
	const double odd[] = { 100, 1, 3, 2, 4 };
	const double even[] = { 4, 1, 3, 2 };

	(void)state;
	/* sorted 1 2 3 4 100: median 3; |x-3| = 2 1 0 1 97 -> median 1 */
	assert_float_equal(gd_fleet_median(odd, 5), 3.0, 1e-12);
	assert_float_equal(gd_fleet_mad(odd, 5), 1.0, 1e-12);
	/* 1 2 3 4: (2+3)/2 = 2.5; deviations 1.5 .5 .5 1.5 -> 1.0 */
	assert_float_equal(gd_fleet_median(even, 4), 2.5, 1e-12);
	assert_float_equal(gd_fleet_mad(even, 4), 1.0, 1e-12);
	assert_true(isnan(gd_fleet_median(odd, 0)));
}

static void test_cv(void **state)
{
	const double v[] = { 9, 10, 11 };
	const double same[] = { 5, 5, 5, 5 };

	(void)state;
	/* mean 10, sample variance (1+0+1)/2 = 1 -> stdev 1 -> CV 0.1 */
	assert_float_equal(gd_fleet_cv(v, 3), 0.1, 1e-12);
	assert_float_equal(gd_fleet_cv(same, 4), 0.0, 1e-12);
	assert_float_equal(gd_fleet_cv(v, 1), 0.0, 1e-12);
}

static void test_outlier(void **state)
{
	(void)state;
	/* median 100, MAD 2: 3.5 x 1.4826 x 2 = 10.38 and 10% = 10 */
	assert_true(gd_fleet_is_outlier(89, 100, 2, false, 3.5, 0.10));
	assert_false(gd_fleet_is_outlier(90, 100, 2, false, 3.5, 0.10));
	assert_false(gd_fleet_is_outlier(120, 100, 2, false, 3.5, 0.10));
	/* latency: higher is worse */
	assert_true(gd_fleet_is_outlier(120, 100, 2, true, 3.5, 0.10));
	/* MAD 0: only the relative floor applies */
	assert_true(gd_fleet_is_outlier(85, 100, 0, false, 3.5, 0.10));
	assert_false(gd_fleet_is_outlier(95, 100, 0, false, 3.5, 0.10));
}

static void check_round_robin(int n)
{
	int steps = gd_sched_circle_steps(n), s, i, bye;
	int pairs[64][2], met[128][128], byes[128];

	memset(met, 0, sizeof(met));
	memset(byes, 0, sizeof(byes));
	assert_int_equal(steps, n % 2 ? n : n - 1);
	for (s = 0; s < steps; s++) {
		int used[128] = { 0 };
		int np = gd_sched_circle(n, s, pairs, &bye);

		assert_int_equal(np, n / 2);
		for (i = 0; i < np; i++) {
			assert_true(pairs[i][0] < pairs[i][1]);
			assert_int_equal(used[pairs[i][0]]++, 0);
			assert_int_equal(used[pairs[i][1]]++, 0);
			met[pairs[i][0]][pairs[i][1]]++;
		}
		if (n % 2) {
			assert_true(bye >= 0 && bye < n);
			assert_int_equal(used[bye], 0);
			byes[bye]++;
		} else {
			assert_int_equal(bye, -1);
		}
	}
	for (i = 0; i < n; i++) {
		int j;

		for (j = i + 1; j < n; j++)
			assert_int_equal(met[i][j], 1);
		if (n % 2)
			assert_int_equal(byes[i], 1);
	}
}

static void test_circle(void **state)
{
	int n;

	(void)state;
	for (n = 2; n <= 33; n++)
		check_round_robin(n);
}

static void test_worksheet(void **state)
{
	struct gd_plan_cfg c;
	struct gd_worksheet ws;

	(void)state;
	gd_plan_cfg_defaults(&c);
	c.servers = 32;
	c.gpus_per_server = 8;
	c.rails = 8;
	c.nic_Gbps = 400;
	gd_plan_worksheet(&c, &ws);
	assert_int_equal(ws.gpus, 256);
	assert_int_equal(ws.pairs_per_step, 16);
	assert_int_equal(ws.executions, 768);
	assert_float_equal(ws.serial_hours, 6.4, 1e-9);
	assert_float_equal(ws.concurrent_minutes, 24, 1e-9);
	assert_float_equal(ws.port_GBps, 50, 1e-9);
	assert_float_equal(ws.server_GBps, 400, 1e-9);
	assert_float_equal(ws.endpoint_TBps, 12.8, 1e-9);
	/* odd: 7 servers, 3 pairs + the bye's pair, two steps */
	c.servers = 7;
	gd_plan_worksheet(&c, &ws);
	assert_int_equal(ws.pair_slots, 4);
	assert_int_equal(ws.executions, 4 * 8 * 2 * 3);
	assert_float_equal(ws.concurrent_minutes, 2 * 48 * 30 / 60.0, 1e-9);
}

static void test_cfg_errors(void **state)
{
	struct gd_plan_cfg c;

	(void)state;
	gd_plan_cfg_defaults(&c);
	assert_int_equal(gd_plan_cfg_set(&c, "rails", "0"), -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&c, "seconds", "-1"), -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&c, "servers", "12x"), -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&c, "tool-args", "-n 5; rm"), -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&c, "servers", "12"), 0);
	assert_int_equal(c.servers, 12);
	assert_int_equal(gd_plan_cfg_set(&c, "nic-gbps", "200"), 0);
	assert_int_equal(gd_plan_cfg_set(&c, "gpus-per-server", "8"), 0);
	assert_int_equal(gd_plan_cfg_set(&c, "rails", "3"), 0);
	assert_int_equal(gd_plan_cfg_check(&c), -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&c, "rails", "4"), 0);
	assert_int_equal(gd_plan_cfg_check(&c), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_mad),
		cmocka_unit_test(test_cv),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_circle),
		cmocka_unit_test(test_worksheet),
		cmocka_unit_test(test_cfg_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
