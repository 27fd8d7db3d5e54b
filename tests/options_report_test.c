/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's report modes, from the option to what the run says: -w and -y
 * parsed, carried by the document's "options" and judged as gates (records
 * in "gates", exit status 3 through gate_failed); -H, -U and -C listings of
 * one step's samples; -W's line of named counter deltas; --gate-undecided
 * parsed, in the document's options, and in --help's exit statuses;
 * --progress's mode word and --brief.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "cli/options.h"
#include "report/compare.h"
#include "report/perftest_modes.h"
#include "report/report.h"
#include "opts_util.h"

/* A bandwidth result row: @avg MiB/s at @size bytes. */
static struct json_object *bw_row(uint64_t size, double avg)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "size_bytes",
			       json_object_new_int64((int64_t)size));
	json_object_object_add(r, "iterations", json_object_new_int64(1000));
	json_object_object_add(r, "bw_peak_MiBps", json_object_new_double(avg));
	json_object_object_add(r, "bw_avg_MiBps", json_object_new_double(avg));
	json_object_object_add(r, "bw_avg_Gbps",
			       json_object_new_double(gd_MiBps_to_Gbps(avg)));
	json_object_object_add(
		r, "msg_rate_Mpps",
		json_object_new_double(avg * 1048576.0 / (double)size / 1e6));
	return r;
}

/* A run document as the engine leaves it before judging: one forward HH
 * phase, 4 KiB at 500 MiB/s and 64 KiB at 1200 MiB/s, and the effective
 * options of @args parsed for gd_write_bw. */
static struct json_object *doc_with(const char *const *args)
{
	struct json_object *doc = json_object_new_object(), *ph, *res, *phases;
	struct gd_opts o;

	assert_int_equal(parse_list(&t_write_bw, &o, NULL, args), 0);
	json_object_object_add(doc, "options", gd_opts_effective(&o));
	gd_opts_free(&o);
	ph = json_object_new_object();
	json_object_object_add(ph, "name", json_object_new_string("HH"));
	json_object_object_add(ph, "placement", json_object_new_string("HH"));
	json_object_object_add(ph, "direction",
			       json_object_new_string("forward"));
	json_object_object_add(ph, "status", json_object_new_string("ok"));
	res = json_object_new_array();
	json_object_array_add(res, bw_row(4096, 500));
	json_object_array_add(res, bw_row(65536, 1200));
	json_object_object_add(ph, "results", res);
	phases = json_object_new_array();
	json_object_array_add(phases, ph);
	json_object_object_add(doc, "phases", phases);
	return doc;
}

/* Judge @args' document; the one record of @gate, its "passed". */
static bool judge(const char *const *args, const char *gate, bool *failed,
		  double *figure, struct json_object **verdicts_out)
{
	struct json_object *doc = doc_with(args), *cmp, *verd, *gates,
			   *rec = NULL;
	bool passed;

	assert_int_equal(gd_compare_run(doc, NULL, &cmp, &verd, failed), 0);
	gates = json_object_object_get(doc, "gates");
	for (size_t i = 0; i < json_object_array_length(gates); i++) {
		struct json_object *g = json_object_array_get_idx(gates, i);

		if (!strcmp(json_object_get_string(
				    json_object_object_get(g, "gate")),
			    gate)) {
			assert_null(rec);
			rec = g;
		}
	}
	assert_non_null(rec);
	assert_string_equal(
		json_object_get_string(json_object_object_get(rec, "phase")),
		"HH");
	assert_non_null(strstr(
		json_object_get_string(json_object_object_get(rec, "policy")),
		"at least one size"));
	passed = json_object_get_boolean(json_object_object_get(rec, "passed"));
	*figure = json_object_get_double(json_object_object_get(rec, "figure"));
	if (verdicts_out)
		*verdicts_out = json_object_get(verd);
	json_object_put(cmp);
	json_object_put(verd);
	json_object_put(doc);
	return passed;
}

static void test_limit_bw(void **state)
{
	struct json_object *verd = NULL;
	bool failed, gate_fail = false;
	double fig;

	(void)state;
	/* perftest's rule: one size reaching the limit passes the phase */
	assert_true(judge((const char *const[]){ "-w", "1000", NULL },
			  "limit_bw", &failed, &fig, NULL));
	assert_false(failed);
	assert_true(fig > 1199 && fig < 1201);
	assert_false(judge((const char *const[]){ "--limit_bw=2000", NULL },
			   "limit_bw", &failed, &fig, &verd));
	assert_true(failed); /* exit status 3 */
	for (size_t i = 0; i < json_object_array_length(verd); i++)
		gate_fail |= !strcmp(
			json_object_get_string(json_object_object_get(
				json_object_array_get_idx(verd, i), "code")),
			GD_V_GATE_FAIL);
	assert_true(gate_fail);
	json_object_put(verd);
	/* --report_gbits: -w is in Gb/s, as perftest's figure then is */
	assert_true(judge(
		(const char *const[]){ "-w", "10", "--report_gbits", NULL },
		"limit_bw", &failed, &fig, NULL));
	assert_true(fig > 10 && fig < 10.1);
	assert_false(judge(
		(const char *const[]){ "-w", "10.1", "--report_gbits", NULL },
		"limit_bw", &failed, &fig, NULL));
	assert_true(failed);
}

static void test_limit_msgrate(void **state)
{
	bool failed;
	double fig;

	(void)state;
	/* 4 KiB at 500 MiB/s: 0.128 Mpps, the best of the two sizes */
	assert_true(judge((const char *const[]){ "-y", "0.12", NULL },
			  "limit_msgrate", &failed, &fig, NULL));
	assert_true(fig > 0.127 && fig < 0.129);
	assert_false(judge((const char *const[]){ "--limit_msgrate=0.2", NULL },
			   "limit_msgrate", &failed, &fig, NULL));
	assert_true(failed);
	REJECT(&t_write_lat, -EINVAL, "-y/--limit_msgrate does not apply", "-y",
	       "1");
	REJECT(&t_write_bw, -ERANGE, "--limit_bw", "-w", "-1");
}

/* A report whose text goes to a string. */
struct captured {
	char *buf;
	size_t len;
	FILE *f;
	struct gd_report *rep;
};

static void capture(struct captured *c)
{
	struct gd_report_cfg cfg = { .tool = "gd_read_lat",
				     .version = "t",
				     .measure = GD_MEASURE_LAT };
	char *argv[] = { "gd_read_lat", NULL };

	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	cfg.text = c->f;
	c->rep = gd_report_new(&cfg, 1, argv);
	assert_non_null(c->rep);
}

static void test_lat_samples(void **state)
{
	/* three round trips of 5, 1 and 3 ticks, a tick is 1 usec */
	static const uint64_t ticks[] = { 5, 1, 3 };
	struct gd_lat_step st = { .phase = "HH",
				  .size_bytes = 2,
				  .ticks = ticks,
				  .n = 3,
				  .divisor = 2,
				  .ns_per_tick = 1000,
				  .tsc = true };
	struct gd_lat_modes m = { .histogram = true,
				  .unsorted = true,
				  .cycles = true };
	struct json_object *sec, *e, *v;
	struct captured c;

	(void)state;
	capture(&c);
	assert_int_equal(gd_report_lat_samples(c.rep, &st, &m), 0);
	fflush(c.f);
	/* perftest's order: unsorted, then sorted */
	assert_non_null(strstr(c.buf, "#, cycles\n1, 2.5\n2, 0.5\n3, 1.5\n"));
	assert_non_null(strstr(c.buf, "#, cycles\n1, 0.5\n2, 1.5\n3, 2.5\n"));
	assert_true(strstr(c.buf, "as measured") < strstr(c.buf, "sorted"));
	assert_non_null(strstr(c.buf, "t_min 0 t_max 2 t_typical 2 t_avg 1.5"));
	sec = json_object_object_get(gd_report_root(c.rep), "latency_samples");
	assert_int_equal(json_object_array_length(sec), 1);
	e = json_object_array_get_idx(sec, 0);
	assert_string_equal(
		json_object_get_string(json_object_object_get(e, "unit")),
		"cycles");
	v = json_object_object_get(e, "samples_sorted");
	assert_true(json_object_get_double(json_object_array_get_idx(v, 0)) ==
		    0.5);
	assert_true(json_object_get_double(json_object_object_get(
			    json_object_object_get(e, "cycles"), "max")) ==
		    2.5);
	/* usec without -C, and a second step appends */
	m = (struct gd_lat_modes){ .histogram = true };
	st.phase = "HH:rev";
	assert_int_equal(gd_report_lat_samples(c.rep, &st, &m), 0);
	fflush(c.f);
	assert_non_null(strstr(
		c.buf,
		"phase HH:rev, 2 bytes: 3, sorted, one-way (round trip / 2), in usec\n#, usec\n1, 0.5\n"));
	assert_int_equal(json_object_array_length(sec), 2);
	gd_report_free(c.rep);
	fclose(c.f);
	free(c.buf);
}

static void test_counters_named(void **state)
{
	struct json_object *local = json_tokener_parse(
		"{\"counters\": [{\"name\": \"rcvd_pkts\", \"group\": \"hw_counters\", \"delta\": 131500}]}");
	struct json_object *remote = json_tokener_parse(
		"{\"counters\": [{\"name\": \"rcvd_pkts\", \"group\": \"hw_counters\", \"delta\": 7}]}");
	struct captured c;

	(void)state;
	capture(&c);
	gd_report_counters_named(
		c.rep, "DD", 65536,
		"hw_counters/rcvd_pkts,counters/port_xmit_data", local, remote);
	fflush(c.f);
	assert_string_equal(
		c.buf,
		" Counters of phase DD, 65536 bytes: hw_counters/rcvd_pkts local +131500 remote +7; counters/port_xmit_data local absent remote absent\n");
	gd_report_free(c.rep);
	fclose(c.f);
	free(c.buf);
	json_object_put(local);
	json_object_put(remote);
	REJECT(&t_write_bw, -EINVAL, "is not counters/NAME or hw_counters/NAME",
	       "-W", "port_xmit_data");
	REJECT(&t_write_bw, -EINVAL, "'hw_counters/'", "-W",
	       "hw_counters/rcvd_pkts,hw_counters/");
}

/* --gate-undecided takes fail or pass, exactly; the document's options
 * carry it (null: the default, fail); --help says what status 4 is. */
static void test_gate_undecided(void **state)
{
	struct json_object *eff;
	struct gd_opts o;
	char *help = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--gate-undecided=pass",
			       "--expect-ratio=0.9"),
			 0);
	eff = gd_opts_effective(&o);
	assert_string_equal(json_object_get_string(json_object_object_get(
				    eff, "gate_undecided")),
			    "pass");
	json_object_put(eff);
	gd_opts_free(&o);
	assert_int_equal(PARSE0(&t_write_lat, &o), 0);
	assert_null(o.gate_undecided);
	eff = gd_opts_effective(&o);
	assert_true(json_object_object_get_ex(eff, "gate_undecided", NULL));
	json_object_put(eff);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "accepted values fail, pass",
	       "--gate-undecided=maybe");
	REJECT(&t_write_bw, -EINVAL, "'Pass'", "--gate-undecided", "Pass");
	f = open_memstream(&help, &len);
	assert_non_null(f);
	assert_int_equal(parse_list(&t_write_bw, &o, f,
				    (const char *const[]){ "--help", NULL }),
			 1);
	fclose(f);
	assert_non_null(strstr(help, "--gate-undecided"));
	assert_non_null(strstr(help, "4 a gate undecided"));
	free(help);
	gd_opts_free(&o);
}

/* --progress takes none, line or auto, exactly; --brief is a flag. Both
 * stay on this side (the server's text is its own). */
static void test_progress_brief(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--progress=line", "--brief"),
			 0);
	assert_string_equal(o.progress, "line");
	assert_true(o.brief);
	gd_opts_free(&o);
	assert_int_equal(PARSE0(&t_write_lat, &o), 0);
	assert_null(o.progress);
	assert_false(o.brief);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "accepted values none, line, auto",
	       "--progress=bar");
	REJECT(&t_write_bw, -EINVAL, "'Line'", "--progress", "Line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_bw),
		cmocka_unit_test(test_limit_msgrate),
		cmocka_unit_test(test_lat_samples),
		cmocka_unit_test(test_counters_named),
		cmocka_unit_test(test_gate_undecided),
		cmocka_unit_test(test_progress_brief),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
