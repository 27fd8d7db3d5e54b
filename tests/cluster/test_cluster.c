/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for the cluster tools: robust statistics against hand-computed
 * values, the circle-method round robin (every pair exactly once, no server
 * twice in a step, one bye per step when odd), the worksheet arithmetic,
 * the locality round's executions and launch lines, and gd_report's
 * repeats statistics on seeded synthetic repeats (measured error rates
 * printed), plus its hash and pool.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "mem/mem.h"
#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_json.h"
#include "tools/cluster/plan.h"
#include "synth_util.h"

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

/* Round 4 (locality): the round-1 pairs, both directions, once, on GPU
 * 0's NIC, with near against far device of the device backend. */
static void test_locality_round(void **state)
{
	const struct gd_mem_ops *dev = gd_mem_device_backend(NULL);
	struct gd_plan plan = { 0 };
	char cmd[GD_PLAN_CMD_MAX], want[128];
	size_t i, n4 = 0;

	(void)state;
	if (!dev)
		skip();
	gd_plan_cfg_defaults(&plan.cfg);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "servers", "6"), 0);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "gpus-per-server", "4"), 0);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "rails", "2"), 0);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "nic-gbps", "400"), 0);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "locality-round", "on"),
			 -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "locality-round", "yes"),
			 0);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "gpu-mem", "none"), 0);
	assert_int_equal(gd_plan_cfg_check(&plan.cfg), -EINVAL);
	assert_int_equal(gd_plan_cfg_set(&plan.cfg, "gpu-mem", dev->name), 0);
	assert_int_equal(gd_plan_cfg_check(&plan.cfg), 0);
	assert_int_equal(gd_plan_hosts_default(&plan), 0);
	assert_int_equal(gd_plan_build(&plan), 0);
	assert_string_equal(gd_plan_round_name(GD_ROUND_LOCALITY), "locality");
	snprintf(want, sizeof(want),
		 " --mem=%s:near,%s:far --phases=HH,D1D1,D2D2 ", dev->name,
		 dev->name);
	for (i = 0; i < plan.n_execs; i++) {
		const struct gd_plan_exec *e = &plan.execs[i];

		gd_plan_run_cmd(&plan, e, GD_SIDE_CLIENT, cmd);
		if (e->round != GD_ROUND_LOCALITY) {
			assert_null(strstr(cmd, ":near"));
			continue;
		}
		n4++;
		assert_int_equal(e->gpu, 0);
		assert_int_equal(e->repeat, 1);
		assert_int_equal(e->id[0], 'l');
		assert_non_null(strstr(cmd, want));
		assert_non_null(strstr(cmd, " --label round=locality "));
		assert_non_null(strstr(cmd, " -d mlx5_0 "));
	}
	/* 3 round-1 pairs x 2 directions */
	assert_int_equal(n4, 6);
	gd_plan_free(&plan);
}

/* @plan's plan.json as gd_plan streams it equals what json-c prints for
 * the whole tree (gd_plan_to_json), byte for byte. */
static void assert_json_streamed(const struct gd_plan *plan)
{
	char path[] = "/tmp/gd_plan_json_XXXXXX";
	struct json_object *tree = gd_plan_to_json(plan);
	const char *want = json_object_to_json_string_ext(
		tree, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n = strlen(want);
	char *got = malloc(n + 2);
	int fd = mkstemp(path);
	FILE *f;

	assert_non_null(got);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(gd_plan_write_json(plan, path), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(got, 1, n + 2, f), n);
	fclose(f);
	unlink(path);
	got[n] = '\0';
	assert_string_equal(got, want);
	free(got);
	json_object_put(tree);
}

static void plan_small(struct gd_plan *plan, const char *servers,
		       const char *gpus, const char *rails)
{
	memset(plan, 0, sizeof(*plan));
	gd_plan_cfg_defaults(&plan->cfg);
	assert_int_equal(gd_plan_cfg_set(&plan->cfg, "servers", servers), 0);
	assert_int_equal(gd_plan_cfg_set(&plan->cfg, "gpus-per-server", gpus),
			 0);
	assert_int_equal(gd_plan_cfg_set(&plan->cfg, "rails", rails), 0);
	assert_int_equal(gd_plan_cfg_set(&plan->cfg, "nic-gbps", "400"), 0);
	assert_int_equal(gd_plan_cfg_check(&plan->cfg), 0);
	assert_int_equal(gd_plan_hosts_default(plan), 0);
	assert_int_equal(gd_plan_build(plan), 0);
}

/* The streamed plan.json (a 100,000-GPU tree does not fit in 1 GiB) is
 * json-c's document: even and odd clusters, and names that need escaping
 * (gd_plan's own parser never lets them in; the printer must still agree). */
static void test_plan_json_stream(void **state)
{
	static const char *const shapes[][3] = { { "2", "1", "1" },
						 { "5", "4", "2" },
						 { "32", "8", "8" } };
	struct gd_plan plan;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		plan_small(&plan, shapes[i][0], shapes[i][1], shapes[i][2]);
		assert_json_streamed(&plan);
		gd_plan_free(&plan);
	}
	plan_small(&plan, "3", "2", "1");
	strcpy(plan.hosts[0].name, "a\"b\\c/d\n\t\x01\x1f\b\f\r");
	strcpy(plan.hosts[1].assoc[1].nic, "n\"ic");
	assert_json_streamed(&plan);
	gd_plan_free(&plan);
}

#define TRIALS 1000

struct rates {
	int slower, no_difference, inconclusive;
};

/* @trials series of @reps repeats, each a DD and an HH figure per size
 * with independent noise @cv, the true DD/HH @ratio; R = 0.8 as the run
 * tool's tests use. */
static void assess_case(double ratio, double cv, unsigned int reps,
			unsigned int sizes, uint64_t seed, struct rates *out)
{
	double d[64 * GD_FLEET_SIZES_MAX], sb[GD_FLEET_SIZES_MAX];
	struct gd_assessment a;
	unsigned int r, z;
	int t;

	rng_state = seed;
	memset(out, 0, sizeof(*out));
	for (z = 0; z < sizes; z++)
		sb[z] = 65536.0 * (1u << z);
	for (t = 0; t < TRIALS; t++) {
		for (r = 0; r < reps; r++)
			for (z = 0; z < sizes; z++) {
				double hh = noisy(40000, cv);
				double dd = noisy(40000 * ratio, cv);

				d[r * sizes + z] = log(dd / hh);
			}
		assert_int_equal(gd_assess(d, sb, reps, sizes, 0.8, &a, NULL),
				 0);
		out->slower += !strcmp(a.decision_name, "slower");
		out->no_difference += a.decision == GD_DECISION_NOT_BELOW;
		out->inconclusive += !strcmp(a.decision_name, "inconclusive");
	}
	printf("# true DD/HH %.2f, CV %2.0f%%, %u repeat(s) x %u size(s), "
	       "R 0.80: slower %.1f%%, not below %.1f%%, inconclusive "
	       "%.1f%% of %d trials\n",
	       ratio, cv * 100, reps, sizes, 100.0 * out->slower / TRIALS,
	       100.0 * out->no_difference / TRIALS,
	       100.0 * out->inconclusive / TRIALS, TRIALS);
}

/* A/A: no false "slower" in at least 99% of trials. */
static void test_assess_null(void **state)
{
	static const struct {
		double cv;
		unsigned int reps, sizes;
	} cases[] = { { 0.10, 3, 23 }, { 0.30, 3, 23 }, { 0.10, 1, 23 },
		      { 0.30, 1, 23 }, { 0.10, 3, 3 },	{ 0.30, 3, 3 },
		      { 0.10, 1, 3 },  { 0.10, 2, 4 } };
	struct rates r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assess_case(1.0, cases[i].cv, cases[i].reps, cases[i].sizes,
			    0x5eed0000 + i, &r);
		assert_true(r.slower <= TRIALS / 100);
	}
}

/* A real 0.6 with 10% noise and three repeats: found in >= 95%. */
static void test_assess_detect(void **state)
{
	struct rates r;

	(void)state;
	assess_case(0.6, 0.10, 3, 23, 0xd37ec7, &r);
	assert_true(r.slower >= TRIALS * 95 / 100);
	assess_case(0.6, 0.10, 1, 23, 0xd37ec8, &r);
	assert_true(r.slower >= TRIALS * 95 / 100);
	/* gd_report's own corpus judges three sizes: printed, not gated */
	assess_case(0.6, 0.10, 3, 3, 0xd37ec9, &r);
	assert_true(r.slower >= TRIALS / 2);
}

/* One repeat at one size never decides "slower", however low; the
 * decision needs a consistent run of sizes or repeats. */
static void test_assess_one_size(void **state)
{
	double d[3] = { log(0.3), log(0.31), log(0.29) }, sb[3] = { 1, 2, 3 };
	double gap[2] = { log(0.3), NAN };
	struct gd_assessment a;

	(void)state;
	assert_int_equal(gd_assess(d, sb, 1, 1, 0.8, &a, NULL), 0);
	assert_string_equal(a.decision_name, "inconclusive");
	assert_int_equal(gd_assess(gap, sb, 1, 2, 0.8, &a, NULL), 0);
	assert_string_equal(a.decision_name, "inconclusive");
	assert_int_equal(a.sizes, 1);
	/* three repeats at one size: the t-interval over them decides */
	assert_int_equal(gd_assess(d, sb, 3, 1, 0.8, &a, NULL), 0);
	assert_string_equal(a.decision_name, "slower");
	assert_true(a.by_rounds);
	assert_int_equal(a.rounds, 3);
	assert_true(a.ci.hi < 0.8);
	/* no figure at all */
	gap[0] = NAN;
	assert_int_equal(gd_assess(gap, sb, 1, 2, 0.8, &a, NULL), 0);
	assert_string_equal(a.decision_name, "inconclusive");
	assert_int_equal(a.sizes, 0);
	assert_int_equal(gd_assess(d, sb, 1, 1, 0, &a, NULL), -EINVAL);
}

static bool same_int(const void *ctx, uint32_t idx, const void *key)
{
	return ((const int *)ctx)[idx] == *(const int *)key;
}

/* The hash finds every key among colliding and growing ones; the pool
 * hands out aligned, zeroed, distinct blocks. */
static void test_hash_pool(void **state)
{
	struct gd_fleet_hash h = { 0 };
	struct gd_fleet_pool p = { 0 };
	static int keys[20000];
	int i, miss = -1;

	(void)state;
	for (i = 0; i < 20000; i++) {
		keys[i] = i * 7919;
		/* a poor hash on purpose: many keys share one */
		assert_int_equal(
			gd_fleet_hash_add(&h, (uint32_t)(i % 97), (uint32_t)i),
			0);
	}
	for (i = 0; i < 20000; i++)
		assert_int_equal(gd_fleet_hash_find(&h, (uint32_t)(i % 97),
						    same_int, keys, &keys[i]),
				 i);
	assert_int_equal(gd_fleet_hash_find(&h, 5, same_int, keys, &miss), -1);
	gd_fleet_hash_free(&h);
	for (i = 0; i < 5000; i++) {
		char *b = gd_fleet_pool_alloc(&p, (size_t)(i % 300) + 1);

		assert_non_null(b);
		assert_int_equal((uintptr_t)b % sizeof(double), 0);
		assert_int_equal(b[0], 0);
		memset(b, 0xff, (size_t)(i % 300) + 1);
	}
	assert_non_null(gd_fleet_pool_alloc(&p, 3u << 20));
	assert_string_equal(gd_fleet_pool_str(&p, "node01"), "node01");
	gd_fleet_pool_free(&p);
}

/* The pruning reader: the members kept are what json-c builds for them
 * (serialised alike), the others are gone, and whatever is not plain JSON
 * is refused so that json-c reads it as before. */
static void test_json_prune(void **state)
{
	static const struct gd_fleet_keep row[] = { { "v", NULL },
						    { NULL, NULL } };
	static const struct gd_fleet_keep keep[] = {
		{ "a", NULL }, { "rows", row }, { "s", NULL }, { NULL, NULL }
	};
	static const char *const same[][2] = {
		{ "{\"a\": -0, \"b\": [1, {\"x\": 2}], \"s\": \"t\\\"\\n\"}",
		  "{\"a\":0,\"s\":\"t\\\"\\n\"}" },
		{ " {\"a\": 1, \"a\": {\"k\": [true, null, 2.5e3]}} junk",
		  "{\"a\":{\"k\":[true,null,2.5e3]}}" },
		{ "{\"rows\": [{\"v\": 1.5, \"w\": 2}, 3, [{\"v\": -1}]]}",
		  "{\"rows\":[{\"v\":1.5},3,[{\"v\":-1}]]}" },
	};
	static const char *const refused[] = {
		"{\"a\": 1,}",
		"{/* c */ \"a\": 1}",
		"{'a': 1}",
		"{\"a\": \"\\u0065\"}",
		"{\"a\": NaN}",
		"{\"a\": 01}",
		"{\"a\": 1e999}",
		"{\"a\": \"\t\"}",
		"[1]",
		"{\"a\": 1234567890123456789}",
		"{\"a\": 1",
		"   ",
	};
	struct json_object *o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		assert_int_equal(gd_fleet_json_read(same[i][0],
						    strlen(same[i][0]), keep,
						    &o),
				 0);
		assert_string_equal(json_object_to_json_string_ext(
					    o, JSON_C_TO_STRING_PLAIN),
				    same[i][1]);
		json_object_put(o);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_int_equal(gd_fleet_json_read(refused[i],
						    strlen(refused[i]), keep,
						    &o),
				 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_mad),
		cmocka_unit_test(test_json_prune),
		cmocka_unit_test(test_cv),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_circle),
		cmocka_unit_test(test_worksheet),
		cmocka_unit_test(test_cfg_errors),
		cmocka_unit_test(test_locality_round),
		cmocka_unit_test(test_plan_json_stream),
		cmocka_unit_test(test_assess_null),
		cmocka_unit_test(test_assess_detect),
		cmocka_unit_test(test_assess_one_size),
		cmocka_unit_test(test_hash_pool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
