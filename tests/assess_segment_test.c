/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The segment scan (util/assess_segment.c) and its words
 * (report/evidence_segment.c) on hand-made matrices: exact figures, as a
 * document compared with a scaled copy of itself gives, name the whole
 * scaled run wherever it starts; unscaled figures name nothing; a precise
 * slow run beside noisy sizes is named from its first size.
 */
#include <config.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report/evidence_segment.h"
#include "util/assess.h"

#define S8 8
#define R5 5

/* log(k * x / x) for figures x of a few magnitudes: exact up to rounding,
 * as a jq-scaled copy of a document gives. */
static void exact(double *d, unsigned int lo, unsigned int hi, double k)
{
	static const double x[R5] = { 3071.7, 2990.3, 3105.9, 3044.1, 2978.6 };

	for (unsigned int r = 0; r < R5; r++)
		for (unsigned int z = 0; z < S8; z++) {
			double f = z >= lo && z <= hi ? k : 1.0;

			d[r * S8 + z] =
				log(f * x[r] * (z + 1) / (x[r] * (z + 1)));
		}
}

static void assess(const double *d, struct gd_assessment *a)
{
	double sb[S8];

	for (int z = 0; z < S8; z++)
		sb[z] = (double)(65536ULL << z);
	assert_int_equal(gd_assess(d, sb, R5, S8, 0.8, a, NULL), 0);
	gd_assess_run(a, 1);
}

static void words(const struct gd_assessment *a, char *buf, size_t len)
{
	struct gd_sbuf sb = { .len = 0 };

	gd_ev_text_segment(a, &sb);
	snprintf(buf, len, "%s", sb.buf);
}

static void check_named(unsigned int lo, unsigned int hi, double k,
			const char *want)
{
	double d[R5 * S8];
	struct gd_assessment a;
	char ev[1024];

	exact(d, lo, hi, k);
	assess(d, &a);
	assert_int_equal(a.decision, GD_DECISION_SLOWER);
	assert_true(a.seg.found);
	assert_int_equal(a.seg.from, (int)lo);
	assert_int_equal(a.seg.to, (int)hi);
	assert_int_equal(a.seg.sizes, hi - lo + 1);
	assert_true(fabs(a.seg.ratio - k) < 1e-9);
	assert_int_equal(a.seg.tested, S8 * (S8 + 1) / 2);
	words(&a, ev, sizeof(ev));
	printf("# %s\n", ev);
	assert_non_null(strstr(ev, want));
}

/* The guest's check on exact figures: 1 MiB and up at 0.75. */
static void test_exact_from_up(void **state)
{
	(void)state;
	check_named(4, 7, 0.75,
		    "below 0.80 from 1 MiB up: 0.75 (0.75..0.75), 4 sizes");
}

/* Wherever the run starts and ends, with no band edge in it. */
static void test_exact_anywhere(void **state)
{
	(void)state;
	check_named(0, 2, 0.6, "below 0.80 up to 256 KiB: 0.60");
	check_named(2, 5, 0.7, "below 0.80 from 256 KiB to 2 MiB: 0.70");
	check_named(3, 3, 0.5, "below 0.80 at 512 KiB: 0.50");
	check_named(7, 7, 0.75, "below 0.80 from 8 MiB up: 0.75");
	check_named(0, 7, 0.75, "below 0.80 from 64 KiB up: 0.75");
}

/* Two dips apart, the curve back at 1.00 between them: both named, the
 * deeper first, and the JSON lists the other under "also"; one dip names
 * nothing else, and two dips side by side are one run. */
static void test_exact_two_dips(void **state)
{
	double d[R5 * S8];
	struct gd_assessment a;
	struct json_object *j, *also;
	char ev[1024];

	(void)state;
	exact(d, 5, 7, 0.6);
	for (unsigned int r = 0; r < R5; r++)
		d[r * S8 + 1] = d[r * S8 + 2] = log(0.7);
	assess(d, &a);
	words(&a, ev, sizeof(ev));
	printf("# %s\n", ev);
	assert_int_equal(a.decision, GD_DECISION_SLOWER);
	assert_int_equal(a.seg.from, 5);
	assert_int_equal(a.seg.to, 7);
	assert_true(a.nseg_also >= 1 && a.seg_also[0].found);
	assert_int_equal(a.seg_also[0].from, 1);
	assert_int_equal(a.seg_also[0].to, 2);
	assert_true(fabs(a.seg_also[0].ratio - 0.7) < 1e-9);
	for (unsigned int n = 1; n < a.nseg_also; n++)
		assert_false(a.seg_also[n].found);
	assert_non_null(strstr(ev, "below 0.80 from 2 MiB up: 0.60"));
	assert_non_null(strstr(
		ev,
		"also below 0.80 from 128 KiB to 256 KiB: 0.70 (0.70..0.70), "
		"2 sizes (adjusted p="));
	j = gd_ev_segment_json(&a);
	also = json_object_object_get(j, "also");
	assert_int_equal(json_object_array_length(also), 1);
	assert_int_equal(
		json_object_get_int64(json_object_object_get(
			json_object_array_get_idx(also, 0), "from_bytes")),
		131072);
	json_object_put(j);
	/* 512 KiB at 0.9 between them is not below: still two runs */
	for (unsigned int r = 0; r < R5; r++)
		d[r * S8 + 3] = d[r * S8 + 4] = log(0.9);
	assess(d, &a);
	assert_true(a.nseg_also >= 1 && a.seg_also[0].found);
	/* a dip right beside the other one: one run, nothing else named */
	exact(d, 4, 7, 0.6);
	for (unsigned int r = 0; r < R5; r++)
		d[r * S8 + 3] = log(0.7);
	assess(d, &a);
	words(&a, ev, sizeof(ev));
	assert_null(strstr(ev, "also"));
	assert_true(a.seg.found);
	for (unsigned int n = 0; n < a.nseg_also; n++)
		assert_false(a.seg_also[n].found);
	/* one dip: nothing else named */
	exact(d, 4, 7, 0.75);
	assess(d, &a);
	assert_true(a.seg.found);
	for (unsigned int n = 0; n < a.nseg_also; n++)
		assert_false(a.seg_also[n].found);
}

/* The unscaled copy: nothing below the floor, no words, and the JSON
 * object says so. */
static void test_exact_unscaled(void **state)
{
	double d[R5 * S8];
	struct gd_assessment a;
	struct json_object *j;
	char ev[1024];

	(void)state;
	exact(d, 0, 0, 1.0);
	assess(d, &a);
	assert_int_equal(a.decision, GD_DECISION_NOT_BELOW);
	assert_false(a.seg.found);
	words(&a, ev, sizeof(ev));
	assert_string_equal(ev, "");
	j = gd_ev_segment_json(&a);
	assert_non_null(j);
	assert_false(
		json_object_get_boolean(json_object_object_get(j, "found")));
	assert_true(json_object_get_double(
			    json_object_object_get(j, "p_adjusted")) > 0.5);
	json_object_put(j);
}

/* One round: no size has a spread, so nothing is scanned (JSON null). */
static void test_one_round(void **state)
{
	double d[S8], sb[S8];
	struct gd_assessment a;

	(void)state;
	for (int z = 0; z < S8; z++) {
		sb[z] = (double)(65536ULL << z);
		d[z] = log(z >= 4 ? 0.5 : 1.0);
	}
	assert_int_equal(gd_assess(d, sb, 1, S8, 0.8, &a, NULL), 0);
	gd_assess_run(&a, 1);
	assert_int_equal(a.seg.tested, 0);
	assert_false(a.seg.found);
	assert_null(gd_ev_segment_json(&a));
}

/* The trial: 2, 4 and 8 MiB precise near 0.75, the rest noisy at
 * 1.00, five rounds (figures as measured ratios). */
static void test_precise_run_named(void **state)
{
	static const double ratio[R5][S8] = {
		{ 1.21, 0.84, 1.10, 0.93, 1.05, 0.75, 0.77, 0.73 },
		{ 0.88, 1.17, 0.92, 1.15, 0.83, 0.76, 0.76, 0.74 },
		{ 1.05, 0.97, 1.24, 0.86, 1.19, 0.74, 0.77, 0.73 },
		{ 0.93, 1.09, 0.85, 1.02, 0.97, 0.77, 0.75, 0.75 },
		{ 1.12, 0.90, 1.03, 1.20, 0.91, 0.75, 0.78, 0.74 },
	};
	double d[R5 * S8];
	struct gd_assessment a;
	char ev[1024];

	(void)state;
	for (int r = 0; r < R5; r++)
		for (int z = 0; z < S8; z++)
			d[r * S8 + z] = log(ratio[r][z]);
	assess(d, &a);
	words(&a, ev, sizeof(ev));
	printf("# %s\n", ev);
	assert_int_equal(a.decision, GD_DECISION_SLOWER);
	assert_true(a.seg.found);
	assert_int_equal(a.seg.from, 5);
	assert_int_equal(a.seg.to, 7);
	assert_true(a.seg.lo < a.seg.ratio && a.seg.ratio < a.seg.hi);
	assert_true(a.seg.hi < 0.8);
	assert_non_null(strstr(ev, "below 0.80 from 2 MiB up: 0.75 ("));
	assert_non_null(strstr(ev, "), 3 sizes (adjusted p="));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_from_up),
		cmocka_unit_test(test_exact_anywhere),
		cmocka_unit_test(test_exact_two_dips),
		cmocka_unit_test(test_exact_unscaled),
		cmocka_unit_test(test_one_round),
		cmocka_unit_test(test_precise_run_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
