/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Latency tails: the order-statistic ranks (engine/lat_tail.c) against the
 * binomial, the coverage of a p99's interval and of the device/HH p50 and
 * p99 ratio intervals (report/tails.c) on seeded synthetic samples, by
 * rounds and within one round, and the document's keys.
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

#include "engine/lat_tail.h"
#include "report/compare.h"
#include "report/tails.h"
#include "tools/cluster/fleet_tails.h"
#include "util/infer.h"
#include "util/stats.h"
#include "synth_util.h"

#define TRIALS 200
#define SAMPLES 2000 /* per step: gdperf's latency tests default to 1000+ */
#define SIZES 4
#define TRUE_RATIO 1.2
#define SIGMA 0.25 /* log-scale spread of one latency sample */

/* P(B <= k) for B ~ Binomial(n, q), from infer.c's upper tail. */
static double cdf(unsigned int n, unsigned int k, double q)
{
	return 1.0 - gd_binom_tail(n, k + 1, q);
}

static void check_ranks(unsigned int n, double q)
{
	size_t lo, hi;

	gd_lat_tail_ranks(n, q, 0.95, &lo, &hi);
	assert_true(lo >= 1 && hi > lo && hi <= n);
	/* each side misses at most 2.5%, and one rank closer would not */
	assert_true(cdf(n, (unsigned int)lo - 1, q) <= 0.025 + 1e-9);
	assert_true(cdf(n, (unsigned int)lo, q) > 0.025);
	assert_true(1 - cdf(n, (unsigned int)hi - 1, q) <= 0.025 + 1e-9);
	assert_true(1 - cdf(n, (unsigned int)hi - 2, q) > 0.025);
}

static void test_ranks(void **state)
{
	size_t lo, hi;

	(void)state;
	check_ranks(1000, 0.99);
	check_ranks(1000, 0.5);
	check_ranks(50000, 0.99);
	check_ranks(368, 0.99);
	/* 0.99^367 > 2.5%: all 367 samples may lie below the p99 */
	gd_lat_tail_ranks(367, 0.99, 0.95, &lo, &hi);
	assert_true(lo > 0);
	assert_int_equal(hi, 0);
	gd_lat_tail_ranks(368, 0.99, 0.95, &lo, &hi);
	assert_int_equal(hi, 368);
	gd_lat_tail_ranks(5, 0.5, 0.95, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 0);
	gd_lat_tail_ranks(0, 0.5, 0.95, &lo, &hi);
	assert_int_equal(lo + hi, 0);
}

/* One step's summary and intervals from SAMPLES draws at @scale us. */
static void step(double scale_us, struct gd_lat_summary *lat)
{
	static uint64_t ns[SAMPLES];

	for (size_t i = 0; i < SAMPLES; i++)
		ns[i] = (uint64_t)(1000 * scale_us * exp(SIGMA * gauss()));
	memset(lat, 0, sizeof(*lat));
	assert_int_equal(gd_lat_summarize(ns, SAMPLES, 1, lat), 0);
	gd_lat_tail_ci(ns, SAMPLES, 1, lat);
	assert_true(lat->has_ci);
}

/* The population p99 of step(): the log-normal's 99% point. */
static double true_p99(double scale_us)
{
	return scale_us * exp(SIGMA * 2.3263478740408408);
}

static void test_p99_coverage(void **state)
{
	unsigned int hit = 0;
	struct gd_lat_summary lat;

	(void)state;
	rng_state = 0x7a115ULL;
	for (int t = 0; t < TRIALS; t++) {
		step(5.0, &lat);
		assert_true(lat.p99_ci_us[0] <= lat.p99_us &&
			    lat.p99_us <= lat.p99_ci_us[1]);
		assert_true(lat.typical_ci_us[0] <= lat.typical_us &&
			    lat.typical_us <= lat.typical_ci_us[1]);
		hit += lat.p99_ci_us[0] <= true_p99(5.0) &&
		       true_p99(5.0) <= lat.p99_ci_us[1];
	}
	printf("# p99 of %d samples: the 95%% interval held the true p99 in %.1f%% of %d trials\n",
	       SAMPLES, 100.0 * hit / TRIALS, TRIALS);
	assert_true(hit >= TRIALS * 9 / 10);
}

/* A result row as the engine writes it; with @rounds > 1, one sample per
 * round, each scaled by that round's own drift @drift (log-normal CV). */
static struct json_object *row(uint64_t size, double scale_us,
			       unsigned int rounds, double drift)
{
	struct gd_lat_summary lat;
	struct json_object *r, *samples;

	step(scale_us, &lat);
	r = gd_lat_summary_json(&lat);
	json_object_object_add(r, "size_bytes",
			       json_object_new_int64((int64_t)size));
	if (rounds < 2)
		return r;
	samples = json_object_new_array();
	for (unsigned int k = 0; k < rounds; k++) {
		struct json_object *s;

		step(noisy(scale_us, drift), &lat);
		s = gd_lat_summary_json(&lat);
		json_object_object_add(s, "repeat",
				       json_object_new_int((int)k + 1));
		json_object_array_add(samples, s);
	}
	json_object_object_add(r, "samples", samples);
	return r;
}

static struct json_object *phase(const char *pl, double ratio,
				 unsigned int rounds, double drift)
{
	struct json_object *ph = json_object_new_object();
	struct json_object *res = json_object_new_array();

	json_object_object_add(ph, "name", json_object_new_string(pl));
	json_object_object_add(ph, "placement", json_object_new_string(pl));
	json_object_object_add(ph, "direction",
			       json_object_new_string("forward"));
	json_object_object_add(ph, "status", json_object_new_string("ok"));
	for (unsigned int z = 0; z < SIZES; z++)
		json_object_array_add(
			res,
			row(2ULL << (4 * z), ratio * (2.0 + z), rounds, drift));
	json_object_object_add(ph, "results", res);
	return ph;
}

static struct json_object *lat_doc(double ratio, unsigned int rounds,
				   double drift)
{
	struct json_object *doc = json_object_new_object(), *t, *phases;

	t = json_object_new_object();
	json_object_object_add(t, "verb", json_object_new_string("write"));
	json_object_object_add(t, "measure", json_object_new_string("lat"));
	json_object_object_add(t, "repeat", json_object_new_int((int)rounds));
	json_object_object_add(doc, "test", t);
	phases = json_object_new_array();
	json_object_array_add(phases, phase("HH", 1, rounds, drift));
	json_object_array_add(phases, phase("DD", ratio, rounds, drift));
	json_object_object_add(doc, "phases", phases);
	return doc;
}

static struct json_object *entry(struct json_object *tails, int pct)
{
	for (size_t i = 0; i < json_object_array_length(tails); i++) {
		struct json_object *e = json_object_array_get_idx(tails, i);

		if (json_object_get_int(
			    json_object_object_get(e, "percentile")) == pct)
			return e;
	}
	fail_msg("no p%d entry", pct);
	return NULL;
}

static bool covers(struct json_object *e, double truth)
{
	struct json_object *ci = json_object_object_get(e, "interval");
	struct json_object *lo = json_object_object_get(ci, "low");
	struct json_object *hi = json_object_object_get(ci, "high");

	assert_non_null(lo);
	assert_non_null(hi);
	return json_object_get_double(lo) <= truth &&
	       truth <= json_object_get_double(hi);
}

/* The p50 and p99 ratio intervals over TRIALS synthetic documents. */
static void coverage(unsigned int rounds, double drift, const char *how,
		     uint64_t seed)
{
	unsigned int hit50 = 0, hit99 = 0;

	rng_state = seed;
	for (int t = 0; t < TRIALS; t++) {
		struct json_object *doc = lat_doc(TRUE_RATIO, rounds, drift);
		struct json_object *tails = gd_tails_build(doc);
		struct json_object *e50 = entry(tails, 50);
		struct json_object *e99 = entry(tails, 99);

		assert_int_equal(json_object_array_length(tails), 2);
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(e99, "replicates")),
			how);
		assert_int_equal(json_object_get_int(
					 json_object_object_get(e99, "rounds")),
				 rounds);
		hit50 += covers(e50, TRUE_RATIO);
		hit99 += covers(e99, TRUE_RATIO);
		json_object_put(tails);
		json_object_put(doc);
	}
	printf("# DD/HH latency %.2f at every size and percentile, %u round(s)%s: the 95%% interval held it for p50 in %.1f%%, for p99 in %.1f%% of %d trials\n",
	       TRUE_RATIO, rounds, drift > 0 ? " with 5% drift per round" : "",
	       100.0 * hit50 / TRIALS, 100.0 * hit99 / TRIALS, TRIALS);
	assert_true(hit50 >= TRIALS * 9 / 10);
	assert_true(hit99 >= TRIALS * 9 / 10);
}

static void test_within_round(void **state)
{
	(void)state;
	coverage(1, 0, "within_round", 0x5eed1ULL);
}

static void test_over_rounds(void **state)
{
	(void)state;
	coverage(3, 0.05, "rounds", 0x5eed3ULL);
}

/* Without the per-phase intervals (an older document, or too few
 * samples) one round gives a ratio and no interval, and says so. */
static void test_no_interval(void **state)
{
	struct json_object *doc, *tails, *e, *res;

	(void)state;
	rng_state = 11;
	doc = lat_doc(1.0, 1, 0);
	res = json_object_object_get(
		json_object_array_get_idx(json_object_object_get(doc, "phases"),
					  1),
		"results");
	json_object_object_del(json_object_array_get_idx(res, 2),
			       "lat_p99_us_ci95");
	tails = gd_tails_build(doc);
	e = entry(tails, 99);
	assert_string_equal(
		json_object_get_string(json_object_object_get(e, "replicates")),
		"none");
	assert_null(json_object_object_get(
		json_object_object_get(e, "interval"), "low"));
	assert_non_null(strstr(
		json_object_get_string(json_object_object_get(e, "text")),
		"no interval, 1 size(s) with too few samples"));
	/* the p50 still has its interval */
	assert_string_equal(json_object_get_string(json_object_object_get(
				    entry(tails, 50), "replicates")),
			    "within_round");
	json_object_put(tails);
	json_object_put(doc);
}

/* The run's comparison puts them under .statistics.tails; bandwidth
 * documents get none. */
static void test_document(void **state)
{
	struct json_object *doc, *cmp = NULL, *verd = NULL, *t, *e, *r, *ci;
	bool failed = false;
	const char *text;
	char *printed = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	rng_state = 42;
	doc = lat_doc(1.0, 3, 0.02);
	r = json_object_array_get_idx(
		json_object_object_get(
			json_object_array_get_idx(
				json_object_object_get(doc, "phases"), 0),
			"results"),
		0);
	ci = json_object_object_get(r, "lat_p99_us_ci95");
	assert_int_equal(json_object_array_length(ci), 2);
	assert_true(json_object_get_double(json_object_array_get_idx(ci, 0)) <=
		    json_object_get_double(
			    json_object_object_get(r, "lat_p99_us")));
	assert_non_null(json_object_object_get(r, "lat_typical_us_ci95"));
	assert_int_equal(gd_compare_run(doc, NULL, &cmp, &verd, &failed), 0);
	t = json_object_object_get(json_object_object_get(doc, "statistics"),
				   "tails");
	assert_int_equal(json_object_array_length(t), 2);
	e = entry(t, 99);
	assert_string_equal(
		json_object_get_string(json_object_object_get(e, "comparison")),
		"DD/HH");
	assert_string_equal(
		json_object_get_string(json_object_object_get(e, "direction")),
		"forward");
	assert_int_equal(
		json_object_get_int(json_object_object_get(e, "sizes")), SIZES);
	assert_int_equal(json_object_get_int64(
				 json_object_object_get(e, "size_min_bytes")),
			 2);
	assert_int_equal(json_object_get_int64(
				 json_object_object_get(e, "size_max_bytes")),
			 8192);
	assert_int_equal(
		json_object_array_length(json_object_object_get(e, "per_size")),
		SIZES);
	text = json_object_get_string(json_object_object_get(e, "text"));
	assert_non_null(strstr(text, "p99 ratio DD/HH forward "));
	assert_non_null(strstr(text, ", 95% interval "));
	assert_non_null(strstr(text, "(sizes 2 B..8 KiB, 4 size(s), over 3 "
				     "rounds)"));
	f = open_memstream(&printed, &len);
	assert_non_null(f);
	gd_tails_print(f, doc);
	fclose(f);
	assert_non_null(strstr(printed, "Latency tails"));
	assert_non_null(strstr(printed, text));
	free(printed);
	json_object_put(cmp);
	json_object_put(verd);
	json_object_put(doc);

	doc = json_object_new_object();
	t = json_object_new_object();
	json_object_object_add(t, "measure", json_object_new_string("bw"));
	json_object_object_add(doc, "test", t);
	assert_null(gd_tails_build(doc));
	json_object_put(doc);
}

/* The side channel carries the intervals; a malformed one is refused. */
static void test_wire(void **state)
{
	struct gd_lat_summary a, b;
	struct json_object *j;

	(void)state;
	rng_state = 7;
	step(3.0, &a);
	j = gd_lat_summary_json(&a);
	memset(&b, 0, sizeof(b));
	assert_int_equal(gd_lat_summary_from_json(j, &b), 0);
	assert_true(b.has_ci);
	assert_true(fabs(b.p99_ci_us[1] - a.p99_ci_us[1]) < 1e-9);
	assert_true(fabs(b.typical_ci_us[0] - a.typical_ci_us[0]) < 1e-9);
	json_object_object_add(j, "lat_p99_us_ci95",
			       json_object_new_string("x"));
	assert_int_equal(gd_lat_summary_from_json(j, &b), -EPROTO);
	json_object_object_del(j, "lat_p99_us_ci95");
	json_object_object_del(j, "lat_typical_us_ci95");
	assert_int_equal(gd_lat_summary_from_json(j, &b), 0);
	assert_false(b.has_ci);
	json_object_put(j);
}

/* gd_report: three repeat documents of one latency series, each a run of
 * one round, judged over the repeats by the same code. */
static void test_fleet_repeats(void **state)
{
	struct json_object *docs[3], *t, *e;
	const char *text;
	unsigned int hit = 0;

	(void)state;
	rng_state = 0xf1ee7ULL;
	for (int trial = 0; trial < TRIALS / 4; trial++) {
		for (int k = 0; k < 3; k++)
			docs[k] = lat_doc(TRUE_RATIO, 1, 0);
		t = gd_fleet_tails_docs(docs, 3, "r1-s0-g0");
		assert_int_equal(json_object_array_length(t), 2);
		e = entry(t, 99);
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(e, "replicates")),
			"repeats");
		assert_int_equal(json_object_get_int(
					 json_object_object_get(e, "rounds")),
				 3);
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(e, "series")),
			"r1-s0-g0");
		text = json_object_get_string(
			json_object_object_get(e, "text"));
		assert_non_null(
			strstr(text, "r1-s0-g0: p99 ratio DD/HH forward"));
		assert_non_null(strstr(text, "over 3 repeats)"));
		hit += covers(e, TRUE_RATIO);
		json_object_put(t);
		/* one repeat: within it, as the run itself says */
		t = gd_fleet_tails_docs(docs, 1, "r1-s0-g0");
		assert_string_equal(
			json_object_get_string(json_object_object_get(
				entry(t, 50), "replicates")),
			"within_round");
		json_object_put(t);
		for (int k = 0; k < 3; k++)
			json_object_put(docs[k]);
	}
	printf("# gd_report, 3 repeats of one round: the p99 interval held %.2f in %.1f%% of %d trials\n",
	       TRUE_RATIO, 100.0 * hit / (TRIALS / 4), TRIALS / 4);
	assert_true(hit >= (TRIALS / 4) * 9 / 10);
}

static void test_helpers(void **state)
{
	char buf[24];
	double lr, se;
	const double ci[2] = { 9, 11 }, open_ci[2] = { 9, 0 };
	const double d[] = { 0.1, 0.2, NAN, 0.1, 0.3, 0.2 };
	struct gd_log_ci all, per[2];

	(void)state;
	gd_tails_size(buf, sizeof(buf), 2);
	assert_string_equal(buf, "2 B");
	gd_tails_size(buf, sizeof(buf), 65536);
	assert_string_equal(buf, "64 KiB");
	gd_tails_size(buf, sizeof(buf), 8u << 20);
	assert_string_equal(buf, "8 MiB");
	gd_tails_size(buf, sizeof(buf), 1500);
	assert_string_equal(buf, "1500 B");
	assert_int_equal(gd_tails_within(12, ci, 10, ci, &lr, &se), 0);
	assert_true(fabs(lr - log(1.2)) < 1e-12);
	assert_true(fabs(se - sqrt(2) * log(11.0 / 9) /
				      (2 * 1.959963984540054)) < 1e-12);
	assert_int_equal(gd_tails_within(12, open_ci, 10, ci, &lr, &se),
			 -ERANGE);
	assert_true(isnan(se));
	/* three rounds of two sizes, the second round missing one size:
	 * only rounds 1 and 3 enter the overall interval */
	gd_tails_over_rounds(d, 3, 2, &all, per);
	assert_int_equal(all.n, 2);
	assert_true(fabs(all.mean_log - (0.15 + 0.25) / 2) < 1e-12);
	assert_int_equal(per[0].n, 2);
	assert_int_equal(per[1].n, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_p99_coverage),
		cmocka_unit_test(test_within_round),
		cmocka_unit_test(test_over_rounds),
		cmocka_unit_test(test_no_interval),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_wire),
		cmocka_unit_test(test_fleet_repeats),
		cmocka_unit_test(test_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
