/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verdicts' and gates' error rates, measured: seeded synthetic paired
 * sweeps (HH and DD, forward and reverse, 23 sizes) with multiplicative
 * log-normal noise of a given coefficient of variation go through
 * gd_compare_run, 1000 trials per case. Prints each measured rate.
 */
#include <config.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report/compare.h"
#include "util/infer.h"
#include "synth_util.h"

#define TRIALS 1000
#define SIZES 23 /* 2 B .. 8 MiB */

/* The curve a bandwidth sweep has: rising with size, then flat. */
static double true_bw(uint64_t size)
{
	return 12000.0 * (double)size / ((double)size + 8192.0);
}

static struct json_object *result_row(uint64_t size, double mean, double cv,
				      unsigned int reps)
{
	struct json_object *row = json_object_new_object(), *samples;
	double v[64];

	for (unsigned int r = 0; r < reps; r++)
		v[r] = noisy(mean, cv);
	json_object_object_add(row, "size_bytes",
			       json_object_new_int64((int64_t)size));
	json_object_object_add(row, "iterations", json_object_new_int(100));
	json_object_object_add(
		row, "bw_avg_MiBps",
		json_object_new_double(v[gd_median_index(v, reps)]));
	if (reps < 2)
		return row;
	samples = json_object_new_array();
	for (unsigned int r = 0; r < reps; r++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(s, "repeat", json_object_new_int(r + 1));
		json_object_object_add(s, "bw_avg_MiBps",
				       json_object_new_double(v[r]));
		json_object_array_add(samples, s);
	}
	json_object_object_add(row, "samples", samples);
	return row;
}

/* Sizes [slow_from, slow_to] (indices) get the phase's ratio; with
 * slow_to < 0 every size does. Others run at 1. */
static int slow_from, slow_to = -1;

static double ratio_at(unsigned int z, double ratio)
{
	if (slow_to < 0 || ((int)z >= slow_from && (int)z <= slow_to))
		return ratio;
	return 1;
}

static struct json_object *phase(const char *pl, const char *dir, double ratio,
				 double cv, unsigned int reps)
{
	struct json_object *ph = json_object_new_object();
	struct json_object *res = json_object_new_array();

	json_object_object_add(ph, "name", json_object_new_string(pl));
	json_object_object_add(ph, "placement", json_object_new_string(pl));
	json_object_object_add(ph, "direction", json_object_new_string(dir));
	json_object_object_add(ph, "status", json_object_new_string("ok"));
	for (unsigned int z = 0; z < SIZES; z++) {
		uint64_t size = 2ULL << z;

		json_object_array_add(
			res,
			result_row(size, true_bw(size) * ratio_at(z, ratio), cv,
				   reps));
	}
	json_object_object_add(ph, "results", res);
	return ph;
}

static struct json_object *sweep_doc(double ratio, double cv, unsigned int reps)
{
	struct json_object *doc = json_object_new_object(), *t, *phases;
	static const char *const dirs[] = { "forward", "reverse" };

	t = json_object_new_object();
	json_object_object_add(t, "verb", json_object_new_string("write"));
	json_object_object_add(t, "measure", json_object_new_string("bw"));
	json_object_object_add(t, "repeat", json_object_new_int((int)reps));
	json_object_object_add(doc, "test", t);
	phases = json_object_new_array();
	for (int d = 0; d < 2; d++) {
		json_object_array_add(phases,
				      phase("HH", dirs[d], 1, cv, reps));
		json_object_array_add(phases,
				      phase("DD", dirs[d], ratio, cv, reps));
	}
	json_object_object_add(doc, "phases", phases);
	return doc;
}

static bool has_code(struct json_object *verdicts, const char *code)
{
	for (size_t i = 0; i < json_object_array_length(verdicts); i++) {
		struct json_object *c = json_object_object_get(
			json_object_array_get_idx(verdicts, i), "code");

		if (!strcmp(json_object_get_string(c), code))
			return true;
	}
	return false;
}

struct rates {
	unsigned int slower, gate_fail, inconclusive, ok, silent;
	/* per assessment (one per direction): decisions "slower" */
	unsigned int assess, assess_slower;
};

static void count_assessments(struct json_object *doc, struct rates *out)
{
	struct json_object *a = json_object_object_get(
		json_object_object_get(doc, "statistics"), "assessments");

	for (size_t i = 0; i < json_object_array_length(a); i++) {
		const char *d = json_object_get_string(json_object_object_get(
			json_object_array_get_idx(a, i), "decision"));

		out->assess++;
		out->assess_slower += !strcmp(d, "slower");
	}
}

/* Gated sizes: all 23 by default, 64 KiB .. 8 MiB (8) as gdperf's
 * bandwidth tests gate by default. */
static uint64_t gate_from_bytes;

static void run_case(double ratio, double cv, unsigned int reps, uint64_t seed,
		     struct rates *out)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8,
				       .gate_from_bytes = gate_from_bytes };

	memset(out, 0, sizeof(*out));
	rng_state = seed;
	for (int t = 0; t < TRIALS; t++) {
		struct json_object *doc = sweep_doc(ratio, cv, reps);
		struct json_object *cmp = NULL, *verd = NULL;
		bool failed = false;

		assert_int_equal(gd_compare_run(doc, &g, &cmp, &verd, &failed),
				 0);
		out->slower += has_code(verd, "GD_GPU_SLOWER");
		out->gate_fail += failed;
		out->inconclusive += has_code(verd, "GD_INCONCLUSIVE");
		out->ok += has_code(verd, "GD_OK");
		out->silent += !has_code(verd, "GD_OK") &&
			       !has_code(verd, "GD_INCONCLUSIVE") &&
			       !has_code(verd, "GD_GPU_SLOWER");
		count_assessments(doc, out);
		json_object_put(cmp);
		json_object_put(verd);
		json_object_put(doc);
	}
	printf("# true ratio %.2f%s, CV %2.0f%%, %u sample(s) per size, %d sizes (gated from %llu B), both directions, --expect-ratio=0.8: "
	       "\"D slower\" %.1f%%, gate failed %.1f%%, inconclusive %.1f%%, GD_OK %.1f%% of %d trials\n",
	       ratio, slow_to < 0 ? "" : " at some sizes, 1 elsewhere",
	       cv * 100, reps, SIZES, (unsigned long long)gate_from_bytes,
	       100.0 * out->slower / TRIALS, 100.0 * out->gate_fail / TRIALS,
	       100.0 * out->inconclusive / TRIALS, 100.0 * out->ok / TRIALS,
	       TRIALS);
	printf("#   per direction: \"slower\" in %.1f%% of %u assessments\n",
	       100.0 * out->assess_slower / out->assess, out->assess);
}

/* A/A: at most 1% false "slower" verdicts and false gate failures. */
static void check_null(double cv, unsigned int reps, uint64_t seed)
{
	struct rates r;

	run_case(1.0, cv, reps, seed, &r);
	assert_true(r.slower <= TRIALS / 100);
	assert_true(r.gate_fail <= TRIALS / 100);
	/* every trial's verdicts still say something about D */
	assert_int_equal(r.silent, 0);
}

static void test_null_cv10_one_sample(void **state)
{
	(void)state;
	check_null(0.10, 1, 0x5eed0001);
}

static void test_null_cv30_one_sample(void **state)
{
	(void)state;
	check_null(0.30, 1, 0x5eed0002);
}

static void test_null_cv10_three_repeats(void **state)
{
	(void)state;
	check_null(0.10, 3, 0x5eed0003);
}

static void test_null_cv30_three_repeats(void **state)
{
	(void)state;
	check_null(0.30, 3, 0x5eed0004);
}

/* A real 0.6 ratio with 10% noise and three repeats: found in >= 95%. */
static void test_detect_06_cv10_three_repeats(void **state)
{
	struct rates r;

	(void)state;
	run_case(0.6, 0.10, 3, 0x5eed0005, &r);
	assert_true(r.slower >= TRIALS * 95 / 100);
	assert_true(r.gate_fail >= TRIALS * 95 / 100);
}

/* The same shift with one sample per size, for the record (sign and run
 * tests across sizes): detected as well. */
static void test_detect_06_cv10_one_sample(void **state)
{
	struct rates r;

	(void)state;
	run_case(0.6, 0.10, 1, 0x5eed0006, &r);
	assert_true(r.slower >= TRIALS * 95 / 100);
}

/* The default gating (64 KiB up: 8 sizes) leaves fewer replicates; the
 * false rates stay at most 1%. */
static void test_null_default_gating(void **state)
{
	(void)state;
	gate_from_bytes = 65536;
	check_null(0.30, 1, 0x5eed0007);
	check_null(0.30, 3, 0x5eed0008);
	check_null(0.10, 3, 0x5eed0009);
	gate_from_bytes = 0;
}

/* On the floor itself (true ratio 0.8 = --expect-ratio): "slower" at most
 * at the nominal level: 5% with rounds (the interval's lower 2.5% and the
 * per-size family's 2.5%), 1% with one round (alpha of the size tests). */
static void test_on_the_floor(void **state)
{
	struct rates r;

	(void)state;
	gate_from_bytes = 0;
	run_case(0.8, 0.10, 3, 0x5eed000a, &r);
	assert_true(r.assess_slower <= r.assess * 6 / 100);
	run_case(0.8, 0.10, 1, 0x5eed000b, &r);
	assert_true(r.assess_slower <= r.assess * 15 / 1000);
	run_case(0.8, 0.30, 3, 0x5eed000c, &r);
	assert_true(r.assess_slower <= r.assess * 6 / 100);
	gate_from_bytes = 65536;
	run_case(0.8, 0.10, 3, 0x5eed000e, &r);
	assert_true(r.assess_slower <= r.assess * 6 / 100);
	gate_from_bytes = 0;
}

/* Half the bandwidth at 4 neighbouring sizes (256 KiB .. 2 MiB), full
 * elsewhere: the geometric mean over 23 sizes stays near 0.89, yet three
 * rounds find it in >= 95% of trials by the per-size intervals, and no
 * trial calls it "no difference". */
static void test_local_slowdown(void **state)
{
	struct rates r;

	(void)state;
	gate_from_bytes = 0;
	slow_from = 16;
	slow_to = 19;
	run_case(0.5, 0.10, 3, 0x5eed000d, &r);
	assert_true(r.slower >= TRIALS * 95 / 100);
	assert_true(r.gate_fail >= TRIALS * 95 / 100);
	assert_int_equal(r.ok, 0);
	slow_to = -1;
}

/* The policy and method texts are literals: they must name the levels the
 * code uses (GD_INFER_CONFIDENCE, GD_INFER_ALPHA split over two tests). */
static void test_policy_names_levels(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8 };
	struct json_object *doc, *cmp = NULL, *verd = NULL, *gate;
	char conf[16], alpha[32];
	const char *policy;
	bool failed;

	(void)state;
	rng_state = 0x5eed00ff;
	doc = sweep_doc(1.0, 0.1, 3);
	assert_int_equal(gd_compare_run(doc, &g, &cmp, &verd, &failed), 0);
	gate = json_object_array_get_idx(json_object_object_get(doc, "gates"),
					 0);
	policy = json_object_get_string(json_object_object_get(gate, "policy"));
	snprintf(conf, sizeof(conf), "%.0f%% interval",
		 GD_INFER_CONFIDENCE * 100);
	snprintf(alpha, sizeof(alpha), "alpha %.3g", GD_INFER_ALPHA / 2);
	assert_non_null(strstr(policy, conf));
	assert_non_null(strstr(policy, alpha));
	json_object_put(cmp);
	json_object_put(verd);
	json_object_put(doc);
}

/* Each test starts from the defaults, also after one that failed midway. */
static int reset_case(void **state)
{
	(void)state;
	gate_from_bytes = 0;
	slow_to = -1;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_null_cv10_one_sample, reset_case),
		cmocka_unit_test_setup(test_null_cv30_one_sample, reset_case),
		cmocka_unit_test_setup(test_null_cv10_three_repeats,
				       reset_case),
		cmocka_unit_test_setup(test_null_cv30_three_repeats,
				       reset_case),
		cmocka_unit_test_setup(test_detect_06_cv10_three_repeats,
				       reset_case),
		cmocka_unit_test_setup(test_detect_06_cv10_one_sample,
				       reset_case),
		cmocka_unit_test_setup(test_null_default_gating, reset_case),
		cmocka_unit_test_setup(test_on_the_floor, reset_case),
		cmocka_unit_test_setup(test_local_slowdown, reset_case),
		cmocka_unit_test_setup(test_policy_names_levels, reset_case),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
