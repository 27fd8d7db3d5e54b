/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verdicts' wiring, end to end: seeded synthetic paired sweeps (HH and
 * DD, forward and reverse, 23 sizes, three rounds) go through
 * gd_compare_run, and the run-level correction, the bands, the judged
 * range and the autocorrelation widening are checked on the assessments and
 * the verdicts' words. The error rates themselves are measured by
 * tests/assess_sim_test.c on the decision code directly.
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

#include <cmocka.h>
#include <json-c/json.h>

#include "report/compare.h"
#include "report/compare_priv.h"
#include "util/assess.h"
#include "util/infer.h"
#include "synth_util.h"

#define TRIALS 200
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
 * slow_to < 0 every size does. Others run at 1. quiet_from: sizes from
 * this index on have noise quiet_cv instead of the phase's. */
static int slow_from, slow_to = -1, quiet_from = SIZES;
static double quiet_cv;

static double ratio_at(unsigned int z, double ratio)
{
	if (slow_to < 0 || ((int)z >= slow_from && (int)z <= slow_to))
		return ratio;
	return 1;
}

static double cv_at(unsigned int z, double cv)
{
	return (int)z >= quiet_from ? quiet_cv : cv;
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
			result_row(size, true_bw(size) * ratio_at(z, ratio),
				   cv_at(z, cv), reps));
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
	unsigned int slower, gate_fail, inconclusive, ok;
};

/* Gated sizes: all 23 by default. */
static uint64_t gate_from_bytes;

static void run_case(double ratio, double cv, unsigned int reps, uint64_t seed,
		     struct rates *out)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8,
				       .gate_from_bytes = gate_from_bytes,
				       .judge_from_bytes = gate_from_bytes };

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
		json_object_put(cmp);
		json_object_put(verd);
		json_object_put(doc);
	}
	printf("# true ratio %.2f%s, CV %2.0f%%, %u round(s), both directions, --expect-ratio=0.8: "
	       "\"D slower\" %.1f%%, gate failed %.1f%%, inconclusive %.1f%%, GD_OK %.1f%% of %d trials\n",
	       ratio, slow_to < 0 ? "" : " at some sizes, 1 elsewhere",
	       cv * 100, reps, 100.0 * out->slower / TRIALS,
	       100.0 * out->gate_fail / TRIALS,
	       100.0 * out->inconclusive / TRIALS, 100.0 * out->ok / TRIALS,
	       TRIALS);
}

/* "the lowest L at SIZE (ratio R there)": the smallest lower bound of
 * the assessment's per-size figures, the one GD_OK's words must name. */
static const char *weakest_words(struct json_object *a, char *buf, size_t len)
{
	struct json_object *sz = json_object_object_get(
		json_object_object_get(a, "per_size"), "sizes");
	struct json_object *weak = NULL;
	double lo = INFINITY;
	char bytes[32];

	for (size_t i = 0; i < json_object_array_length(sz); i++) {
		struct json_object *e = json_object_array_get_idx(sz, i);
		struct json_object *l = json_object_object_get(e, "low");

		if (l && json_object_get_double(l) < lo) {
			lo = json_object_get_double(l);
			weak = e;
		}
	}
	assert_non_null(weak);
	snprintf(buf, len, "the lowest %.2f at %s (ratio %.2f there)", lo,
		 gd_assess_bytes_str(
			 (double)json_object_get_int64(
				 json_object_object_get(weak, "size_bytes")),
			 bytes, sizeof(bytes)),
		 json_object_get_double(json_object_object_get(weak, "ratio")));
	/* the rule itself: every judged size's bound clears the floor */
	assert_true(lo >= 0.8);
	return buf;
}

/* A/A with little noise and three rounds: the verdict says so (GD_OK)
 * nearly always, and never "slower"; the evidence names what it judged. */
static void test_aa_quiet(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8 };
	struct json_object *doc, *cmp = NULL, *verd = NULL, *a;
	struct rates r;
	bool failed;
	const char *ev;
	char want[96];

	(void)state;
	run_case(1.0, 0.03, 3, 0x5eed0001, &r);
	assert_int_equal(r.slower, 0);
	assert_int_equal(r.gate_fail, 0);
	assert_true(r.ok >= TRIALS * 95 / 100);
	rng_state = 0x5eed0002;
	doc = sweep_doc(1.0, 0.03, 3);
	assert_int_equal(gd_compare_run(doc, &g, &cmp, &verd, &failed), 0);
	a = json_object_array_get_idx(
		json_object_object_get(
			json_object_object_get(doc, "statistics"),
			"assessments"),
		0);
	assert_string_equal(
		json_object_get_string(json_object_object_get(a, "decision")),
		"not_below");
	assert_int_equal(
		json_object_array_length(json_object_object_get(a, "bands")),
		3);
	assert_int_equal(
		json_object_get_int(json_object_object_get(a, "family")), 2);
	ev = json_object_get_string(json_object_object_get(a, "evidence"));
	assert_non_null(strstr(
		ev,
		"DD/HH forward: not below 0.80: every judged size's own 95% lower bound clears it, the lowest "));
	assert_non_null(strstr(ev, weakest_words(a, want, sizeof(want))));
	assert_non_null(strstr(ev, " over sizes 2 B..8 MiB, 3 round(s)"));
	/* the bands' intervals are not the rule of "not below" */
	assert_null(strstr(ev, "; bands "));
	assert_null(strstr(ev, "band(s)"));
	/* no power statement: the detectable ratio did not hold as one
	 * (issue 35); the document keeps it as a figure */
	assert_null(strstr(ev, "would be flagged"));
	json_object_put(cmp);
	json_object_put(verd);
	json_object_put(doc);
}

/* The shape: 64 KiB and up precise (2%) and slow (0.70), the
 * smaller sizes noisy (30%) at 1.0. Pooled, the noise hid the slowdown;
 * judged by band it is found, and never passes as "not below". */
static void test_precise_band_not_hidden(void **state)
{
	struct rates r;

	(void)state;
	slow_from = 15;
	slow_to = SIZES - 1;
	quiet_from = 15;
	quiet_cv = 0.02;
	run_case(0.70, 0.30, 3, 0x5eed0003, &r);
	assert_true(r.slower >= TRIALS * 90 / 100);
	assert_true(r.gate_fail >= TRIALS * 90 / 100);
	assert_int_equal(r.ok, 0);
}

/* Half the bandwidth at 4 neighbouring sizes (256 KiB .. 2 MiB), full
 * elsewhere: whatever three rounds decide, never "not below". */
static void test_local_slowdown_never_ok(void **state)
{
	struct rates r;

	(void)state;
	slow_from = 17;
	slow_to = 20;
	run_case(0.5, 0.10, 3, 0x5eed0004, &r);
	assert_int_equal(r.ok, 0);
	slow_to = -1;
}

/* --gate-from narrows what is judged, and the words say what was not. */
static void test_judged_range(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8,
				       .gate_from_bytes = 65536,
				       .judge_from_bytes = 65536 };
	struct json_object *doc, *cmp = NULL, *verd = NULL, *a, *j;
	bool failed;

	(void)state;
	rng_state = 0x5eed0005;
	doc = sweep_doc(1.0, 0.03, 3);
	assert_int_equal(gd_compare_run(doc, &g, &cmp, &verd, &failed), 0);
	a = json_object_array_get_idx(
		json_object_object_get(
			json_object_object_get(doc, "statistics"),
			"assessments"),
		1);
	j = json_object_object_get(a, "judged");
	assert_int_equal(json_object_get_int(
				 json_object_object_get(j, "not_judged_sizes")),
			 15);
	assert_int_equal(
		json_object_get_int64(json_object_object_get(j, "from_bytes")),
		65536);
	assert_int_equal(
		json_object_get_int(json_object_object_get(a, "sizes")), 8);
	assert_non_null(strstr(
		json_object_get_string(json_object_object_get(a, "evidence")),
		"DD/HH reverse: not below 0.80: every judged size's own 95% lower bound clears it, the lowest "));
	assert_non_null(strstr(
		json_object_get_string(json_object_object_get(a, "evidence")),
		"; 15 size(s) below 64 KiB not judged (--gate-from)"));
	json_object_put(cmp);
	json_object_put(verd);
	json_object_put(doc);
}

/* Holm across a run's assessments: two with p = 0.02 each are "slower"
 * alone (level 0.025) and not together; 0.01 and 0.02 both are (step
 * down: 2 x 0.01, then 1 x 0.02). */
static void test_run_holm(void **state)
{
	double d[3] = { log(0.5), log(0.51), log(0.49) }, sb[1] = { 65536 };
	struct gd_assessment *a = calloc(2, sizeof(*a));

	(void)state;
	assert_non_null(a);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(gd_assess(d, sb, 3, 1, 0.8, &a[i], NULL), 0);
		assert_int_equal(a[i].decision, GD_DECISION_SLOWER);
		a[i].p_slower = 0.02;
		a[i].band[2].holm_p = 0.02;
		a[i].st[0].holm_p = 0.02;
	}
	gd_assess_run(a, 2);
	assert_int_equal(a[0].decision, GD_DECISION_INCONCLUSIVE);
	assert_int_equal(a[1].decision, GD_DECISION_INCONCLUSIVE);
	assert_true(a[0].p_slower_run == 0.04);
	a[0].p_slower = 0.01;
	gd_assess_run(a, 2);
	assert_int_equal(a[0].decision, GD_DECISION_SLOWER);
	assert_int_equal(a[1].decision, GD_DECISION_SLOWER);
	assert_int_equal(a[0].family, 2);
	free(a);
}

/* Ten rounds whose figures drift (neighbours alike) and the same figures
 * in an order that alternates: the drift's lag-1 correlation is read and
 * its intervals widened (a size's, the band's), never refused; the same
 * values in alternating order are widened less, and show "slower" with a
 * smaller p-value. */
static void test_autocorrelation(void **state)
{
	double drift[10], alt[10], sb[1] = { 65536 }, p_drift, f_drift;
	struct gd_assessment a;

	(void)state;
	for (int r = 0; r < 10; r++) {
		drift[r] = log(0.74) + 0.02 * (r < 5 ? r : 9 - r);
		/* 0,4,1,3,2,... of the drift's values: neighbours unlike */
		alt[r] = log(0.74) + 0.02 * (r % 2 ? 4 - r / 2 : r / 2);
	}
	assert_int_equal(gd_assess(drift, sb, 10, 1, 0.8, &a, NULL), 0);
	gd_assess_run(&a, 1);
	assert_true(!a.reason || !strstr(a.reason, "correlated"));
	assert_true(a.band[2].decided);
	assert_true(a.rho > 0.3);
	assert_true(a.corr.rho_own > 0.3);
	assert_true(a.corr.f_own > 1.5);
	assert_true(a.band[2].widen > 1.5);
	p_drift = a.p_slower;
	f_drift = a.corr.f_own;
	assert_int_equal(gd_assess(alt, sb, 10, 1, 0.8, &a, NULL), 0);
	gd_assess_run(&a, 1);
	assert_true(a.rho < 0);
	assert_true(a.corr.f_own < f_drift);
	assert_int_equal(a.decision, GD_DECISION_SLOWER);
	assert_true(a.p_slower < p_drift);
}

/* A run's assessments over as many rounds read one correlation model
 * from all of their sums: the drifting rounds and the alternating ones
 * above, pooled, widen between the two alone; an assessment over fewer
 * rounds keeps its own model. */
static void test_corr_pooled(void **state)
{
	double drift[10], alt[10], sb[1] = { 65536 }, f_drift, f_alt;
	struct gd_assessment *a = calloc(3, sizeof(*a));

	(void)state;
	assert_non_null(a);
	for (int r = 0; r < 10; r++) {
		drift[r] = log(0.9) + 0.02 * (r < 5 ? r : 9 - r);
		alt[r] = log(0.9) + 0.02 * (r % 2 ? 4 - r / 2 : r / 2);
	}
	assert_int_equal(gd_assess(drift, sb, 10, 1, 0.8, &a[0], NULL), 0);
	assert_int_equal(gd_assess(alt, sb, 10, 1, 0.8, &a[1], NULL), 0);
	assert_int_equal(gd_assess(drift, sb, 5, 1, 0.8, &a[2], NULL), 0);
	f_drift = a[0].corr.f_own;
	f_alt = a[1].corr.f_own;
	assert_true(f_drift > 1.5 && f_alt == 1);
	assert_int_equal(a[2].corr.pooled, 1);
	gd_assess_run(a, 3);
	assert_int_equal(a[0].corr.pooled, 2);
	assert_int_equal(a[1].corr.pooled, 2);
	assert_true(a[0].corr.f_own == a[1].corr.f_own);
	assert_true(a[0].corr.f_own > f_alt && a[0].corr.f_own < f_drift);
	/* the band widened by the pooled model, not its own */
	assert_true(a[0].band[2].widen < f_drift);
	assert_int_equal(a[2].corr.pooled, 1);
	/* twice gives the same: the pool is read from the sums */
	gd_assess_run(a, 3);
	assert_true(a[0].corr.f_own == a[1].corr.f_own &&
		    a[0].corr.pooled == 2);
	free(a);
}

/*
 * The trial: 2, 4 and 8 MiB at about 0.75 with 1-3% spread beside
 * 64 KiB..1 MiB at 1.00 with about 15%. The band's mean cleared the floor
 * and the run said "not below"; each slow size's own interval does not,
 * so it is undecided and named, with the rounds that would settle it.
 */
static void test_precise_slow_run(void **state)
{
	static const double ratio[3][8] = {
		{ 1.10, 0.85, 1.18, 0.97, 0.88, 0.73, 0.78, 0.72 },
		{ 0.90, 1.16, 0.95, 1.12, 1.20, 0.76, 0.76, 0.74 },
		{ 1.05, 0.98, 0.86, 0.91, 1.02, 0.77, 0.77, 0.75 },
	};
	double d[3 * 8], sb[8];
	struct gd_assessment a;

	(void)state;
	for (int z = 0; z < 8; z++) {
		sb[z] = (double)(65536ULL << z);
		for (int r = 0; r < 3; r++)
			d[r * 8 + z] = log(ratio[r][z]);
	}
	assert_int_equal(gd_assess(d, sb, 3, 8, 0.8, &a, NULL), 0);
	gd_assess_run(&a, 1);
	assert_int_not_equal(a.decision, GD_DECISION_NOT_BELOW);
	for (int z = 5; z < 8; z++) {
		assert_true(a.st[z].lo < 0.8);
		assert_true(a.st[z].undecided || a.st[z].slow);
		/* kept its own precision: pooled with the slow sizes only */
		assert_true(a.st[z].sd_nb < 0.05);
	}
	assert_true(a.nundecided >= 1);
}

/* "Not below" needs each size's own interval: rounds, whatever the sizes. */
static void test_rounds_needed(void **state)
{
	double one[1] = { 1048576 },
	       five[5] = { 65536, 131072, 262144, 524288, 1048576 };
	double all[SIZES], mixed[4] = { 4096, 65536, 131072, 262144 };

	(void)state;
	for (int z = 0; z < SIZES; z++)
		all[z] = (double)(2ULL << z);
	assert_int_equal(gd_assess_rounds_needed(one, 1), 3);
	assert_int_equal(gd_assess_rounds_needed(five, 5), 3);
	assert_int_equal(gd_assess_rounds_needed(all, SIZES), 3);
	assert_int_equal(gd_assess_rounds_needed(mixed, 4), 3);
	assert_int_equal(gd_assess_rounds_needed(NULL, 0), 0);
}

/* The method text is a literal: it must name the levels the code uses. */
static void test_method_names_levels(void **state)
{
	char alpha[32];

	(void)state;
	snprintf(alpha, sizeof(alpha), "%.1f%%", GD_ASSESS_ALPHA * 100);
	assert_non_null(strstr(gd_evidence_method, alpha));
	assert_non_null(strstr(gd_evidence_method, "95% lower bound"));
	assert_non_null(strstr(gd_evidence_assumptions, "lag-1"));
}

/* The gate's rule names the level each size's bound used: 95% in a fixed
 * design, an adaptive run's stricter one (its level split over its looks)
 * where the assessment records it. */
static void test_rule_names_size_level(void **state)
{
	struct json_object *a = json_object_new_object();
	char rule[1024];

	(void)state;
	gd_gate_ratio_rule(rule, sizeof(rule), a, 0.8);
	assert_non_null(
		strstr(rule, "every judged size's own 95% lower bound"));
	json_object_object_add(a, "alpha_not_below",
			       json_object_new_double(0.025 / 20));
	gd_gate_ratio_rule(rule, sizeof(rule), a, 0.8);
	assert_non_null(
		strstr(rule, "every judged size's own 99.8% lower bound"));
	json_object_put(a);
}

/* Each test starts from the defaults, also after one that failed midway. */
static int reset_case(void **state)
{
	(void)state;
	gate_from_bytes = 0;
	slow_to = -1;
	quiet_from = SIZES;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_aa_quiet, reset_case),
		cmocka_unit_test_setup(test_precise_band_not_hidden,
				       reset_case),
		cmocka_unit_test_setup(test_local_slowdown_never_ok,
				       reset_case),
		cmocka_unit_test_setup(test_judged_range, reset_case),
		cmocka_unit_test_setup(test_run_holm, reset_case),
		cmocka_unit_test_setup(test_autocorrelation, reset_case),
		cmocka_unit_test_setup(test_corr_pooled, reset_case),
		cmocka_unit_test_setup(test_rounds_needed, reset_case),
		cmocka_unit_test(test_precise_slow_run),
		cmocka_unit_test_setup(test_method_names_levels, reset_case),
		cmocka_unit_test(test_rule_names_size_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
