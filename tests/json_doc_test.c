/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The JSON run document as the engine assembles it (report header, the
 * "test" section from the parsed options, one bandwidth phase) written to a
 * file and read back with json-c: schema, identity, units and result keys.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
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

#include "util/error.h"
#include "cli/options.h"
#include "opts_util.h"
#include "report/report.h"
#include "util/stats.h"

static struct json_object *get(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(obj, key, &v)) {
		print_error("JSON object lacks key '%s'\n", key);
		fail();
	}
	return v;
}

static void assert_str_key(struct json_object *obj, const char *key,
			   const char *want)
{
	struct json_object *v = get(obj, key);

	assert_true(json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), want);
}

static double positive_number(struct json_object *row, const char *key)
{
	struct json_object *v = get(row, key);
	double d;

	assert_true(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int));
	d = json_object_get_double(v);
	if (!(d > 0)) {
		print_error("%s is %g, expected > 0\n", key, d);
		fail();
	}
	return d;
}

/* 1000 messages of @size_bytes in 1 ms: hand-checkable rates. */
static void bw_row(struct gd_report *rep, int phase, uint64_t size_bytes)
{
	struct gd_bw_summary bw;

	assert_int_equal(gd_bw_summarize(size_bytes, 1000, 1000000, 0, 0, &bw),
			 0);
	gd_report_bw_row(rep, phase, &bw);
}

static void test_document_shape(void **state)
{
	char *argv[] = { "gd_write_bw", "-a", "--json=x", "server1", NULL };
	int argc = 4;
	char dir[] = "/tmp/gd_json_doc_test.XXXXXX", path[64];
	struct gd_report_cfg cfg = {
		.tool = "gd_write_bw",
		.version = PACKAGE_VERSION,
		.measure = GD_MEASURE_BW,
	};
	struct json_object *doc, *v, *res, *row;
	struct gd_report *rep;
	struct gd_opts o;
	int ph;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	cfg.json_path = path;
	gd_err_clear();
	{
		char *pargv[] = { "gd_write_bw", "-s", "4096", "server1",
				  NULL };

		assert_int_equal(
			gd_opts_parse(&t_write_bw, 4, pargv, &o, stdout), 0);
	}
	rep = gd_report_new(&cfg, argc, argv);
	assert_non_null(rep);
	gd_report_header_str(rep, "device", "Device", "rxe0");
	gd_report_header_int(rep, "port", "Port", 1);
	gd_report_header_done(rep);
	gd_report_set_section(rep, "test", gd_opts_describe(&t_write_bw, &o));
	ph = gd_report_phase_begin(rep, "HH", "HH", "forward", NULL);
	assert_int_equal(ph, 0);
	bw_row(rep, ph, 4096);
	bw_row(rep, ph, 65536);
	assert_int_equal(gd_report_finish(rep, 0), 0);
	gd_report_free(rep);
	gd_opts_free(&o);

	doc = json_object_from_file(path);
	assert_non_null(doc);
	assert_str_key(doc, "schema", "gdperf.run/4");
	assert_str_key(doc, "tool", "gd_write_bw");
	assert_str_key(doc, "version", PACKAGE_VERSION);
	v = get(doc, "command_line");
	assert_true(json_object_is_type(v, json_type_array));
	assert_int_equal(json_object_array_length(v), argc);
	for (int i = 0; i < argc; i++)
		assert_string_equal(
			json_object_get_string(json_object_array_get_idx(v, i)),
			argv[i]);
	assert_str_key(get(doc, "header"), "device", "rxe0");
	assert_int_equal(json_object_get_int(get(get(doc, "header"), "port")),
			 1);

	v = get(doc, "test");
	assert_str_key(v, "verb", "write");
	assert_str_key(v, "measure", "bw");
	assert_str_key(v, "connection", "RC");
	assert_int_equal(json_object_get_int64(get(v, "size_bytes")), 4096);
	assert_int_equal(json_object_get_int64(get(v, "iterations")), 5000);
	assert_int_equal(json_object_get_int64(get(v, "tx_depth")), 128);
	/* gdperf.run/4: every key of "test" in snake_case, whatever perftest
	 * spelled the option (noPeak, no-interleave) */
	assert_true(json_object_object_get_ex(v, "no_peak", NULL));
	assert_true(json_object_object_get_ex(v, "no_interleave", NULL));
	json_object_object_foreach(v, key, val)
	{
		(void)val;
		for (const char *c = key; *c; c++)
			if (!(islower((unsigned char)*c) ||
			      isdigit((unsigned char)*c) || *c == '_'))
				fail_msg("test key '%s' is not snake_case",
					 key);
	}

	v = get(doc, "units");
	assert_str_key(v, "size", "bytes");
	assert_str_key(v, "bw", "MiB/s");
	assert_str_key(v, "msg_rate", "Mpps");
	assert_str_key(v, "lat", "usec");

	v = json_object_array_get_idx(get(doc, "phases"), 0);
	assert_non_null(v);
	assert_str_key(v, "name", "HH");
	res = get(v, "results");
	assert_int_equal(json_object_array_length(res), 2);
	for (size_t i = 0; i < 2; i++) {
		/* 1000 msgs in 1 ms: 1 Mpps; MiB/s = size * 1e6 / 2^20 */
		uint64_t size = i ? 65536 : 4096;
		double want_MiBps = (double)size * 1e6 / 1048576.0, got;

		row = json_object_array_get_idx(res, i);
		assert_int_equal(json_object_get_int64(get(row, "size_bytes")),
				 size);
		got = positive_number(row, "bw_avg_MiBps");
		assert_true(got > want_MiBps * 0.999 &&
			    got < want_MiBps * 1.001);
		got = positive_number(row, "bw_avg_Gbps");
		/* Gb/s = bytes * 8 * 1e6 / 1e9 */
		assert_true(got > (double)size * 8e-3 * 0.999 &&
			    got < (double)size * 8e-3 * 1.001);
		got = positive_number(row, "msg_rate_Mpps");
		assert_true(got > 0.999 && got < 1.001);
	}
	v = get(doc, "error");
	assert_null(v);
	assert_int_equal(json_object_get_int(get(doc, "exit_status")), 0);
	json_object_put(doc);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
