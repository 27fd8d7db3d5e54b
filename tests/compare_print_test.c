/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_compare's reports from synthetic documents: the port cross-check
 * (application bytes against the port counters), the side-by-side text
 * report and --brief's table.
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "compare_util.h"

static void test_port_check(void **state)
{
	struct json_object *doc, *ph, *pc;

	/* mlx5-like: app 64 MiB, port 68157440 bytes and 16640 packets, MTU
	 * 4096 */
	doc = doc_from(BW_DOC(
		"{'placement': 'HH', 'status': 'ok', 'app_bytes': 67108864,"
		" 'counters': {'local': {'tx_bytes': 68157440, 'tx_packets': 16640},"
		" 'remote': {'tx_bytes': 1048576, 'tx_packets': 1024}}}"));
	ph = json_object_array_get_idx(json_object_object_get(doc, "phases"),
				       0);
	pc = gd_compare_port_check(doc, ph);
	assert_string_equal(vstr(pc, "sender"), "local");
	assert_int_equal((int64_t)num_at(pc, "port_bytes", NULL), 68157440);
	assert_true(num_at(pc, "bytes_ratio", NULL) == 1.015625);
	assert_int_equal((int64_t)num_at(pc, "expected_packets", NULL), 16384);
	assert_true(num_at(pc, "packets_ratio", NULL) == 1.015625);
	json_object_put(pc);
	/* reverse: the server sends */
	json_object_object_add(ph, "direction",
			       json_object_new_string("reverse"));
	pc = gd_compare_port_check(doc, ph);
	assert_string_equal(vstr(pc, "sender"), "remote");
	assert_true(num_at(pc, "bytes_ratio", NULL) == 1048576.0 / 67108864.0);
	json_object_put(pc);
	json_object_put(doc);

	/* rxe-like: no byte counters, no app_bytes; 2000 x 64 KiB at MTU 1024
	 */
	doc = doc_from(
		"{'test': {'verb': 'read'}, 'header': {'active_mtu_bytes': 1024},"
		" 'phases': [{'placement': 'HH', 'status': 'ok', 'results': [{'size_bytes': 65536,"
		" 'iterations': 2000, 'bw_avg_MiBps': 80}], 'counters': {'local':"
		" {'tx_bytes': null, 'tx_packets': 10}, 'remote': {'tx_bytes': null, 'tx_packets': 131500}}}]}");
	ph = json_object_array_get_idx(json_object_object_get(doc, "phases"),
				       0);
	pc = gd_compare_port_check(doc, ph);
	assert_string_equal(vstr(pc, "sender"),
			    "remote"); /* read: data flows to the initiator */
	assert_int_equal((int64_t)num_at(pc, "app_bytes", NULL), 131072000);
	assert_null(json_object_object_get(pc, "port_bytes"));
	assert_null(json_object_object_get(pc, "bytes_ratio"));
	assert_int_equal((int64_t)num_at(pc, "expected_packets", NULL), 128000);
	assert_true(num_at(pc, "packets_ratio", NULL) == 131500.0 / 128000.0);
	json_object_put(pc);
	json_object_put(doc);
}

typedef void gd_compare_printer(FILE *out, struct json_object *doc,
				struct json_object *comparison,
				struct json_object *verdicts);

/* What @print (the full report or --brief) writes for @r, as a string. */
static char *print_with(gd_compare_printer *print, struct run *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	print(f, r->doc, r->cmp, r->verdicts);
	fclose(f);
	return text;
}

static void test_print(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8,
				       .min_bw_MiBps = 1500,
				       .gate_from_bytes = 65536,
				       .judge_from_bytes = 65536 };
	struct run r;
	char *text;

	run_doc(&r,
		BW_DOC(PH_OK(
			"HH", "forward",
			BW_RES("1000", "2000",
			       "4000")) ","
					"{'placement': 'DD', 'status': 'ok', " BW_RES(
						"900", "1000",
						"3000") ","
							" 'memory': {'local': {'kind': 'cuda', 'device': '0000:17:00.0', 'route': 'dmabuf'},"
							" 'remote': {'kind': 'host', 'route': 'plain'}},"
							" 'counters': {'local': {'counters': [{'name': 'symbol_error', 'delta': 2,"
							" 'unit': 'count', 'class': 'error'}, {'name': 'link_downed', 'delta': 0,"
							" 'unit': 'count', 'class': 'error'}], 'errors_moved': ['symbol_error']}}}"),
		&g);
	text = print_with(gd_compare_print, &r);
	assert_non_null(strstr(text, " Direction: forward\n"));
	assert_non_null(strstr(
		text,
		" #bytes     HH BW average[MiB/sec]   DD BW average[MiB/sec]   DD/HH   \n"));
	assert_non_null(strstr(
		text,
		" 65536      2000.00                  1000.00                  0.50    \n"));
	assert_non_null(strstr(
		text,
		" symbol_error                     count    -              -              2!"));
	assert_non_null(strstr(text, "(1 more counters did not move)"));
	assert_non_null(strstr(
		text,
		"  DD       ok      local cuda 0000:17:00.0 (dmabuf); remote host (plain)\n"));
	assert_non_null(strstr(
		text,
		"[error] GD_GATE_FAIL: 1 gate check(s) failed (exit status 3)"));
	assert_non_null(strstr(text, "[info] GD_INCONCLUSIVE: "));
	free(text);
	run_free(&r);

	/* Gb/s: 1000 MiB/s = 8.388608 Gb/s */
	run_doc(&r,
		"{'units': {'bw': 'Gb/s'}, 'phases': [" PH_OK(
			"HH", "forward", BW_RES("1000", "2000", "4000")) "]}",
		NULL);
	text = print_with(gd_compare_print, &r);
	assert_non_null(strstr(text, "HH BW average[Gb/sec]"));
	assert_non_null(strstr(text, " 4096       8.39 "));
	assert_non_null(strstr(
		text,
		"[info] GD_OK_HOST_ONLY: host-memory path only: says nothing about GPU memory"));
	free(text);
	run_free(&r);

	run_doc(&r, lat_doc, NULL);
	text = print_with(gd_compare_print, &r);
	assert_non_null(strstr(text, "HH t_typical[usec]"));
	assert_non_null(strstr(text, "DD-HH p99[usec]"));
	assert_non_null(strstr(
		text,
		" 8          2.00                3.00                1.00             3.00                5.50                2.50             1.50"));
	free(text);
	run_free(&r);
}

/* The DD/HH cells of the 64 KiB row: the size's own interval, then the
 * lower bound its assessment judged it by (statistics.assessments). */
static const char *judged_low_cell(struct run *r, char *buf, size_t len)
{
	struct json_object *a = json_object_array_get_idx(
		json_object_object_get(
			json_object_object_get(r->doc, "statistics"),
			"assessments"),
		0);
	struct json_object *e = json_object_array_get_idx(
		json_object_object_get(json_object_object_get(a, "per_size"),
				       "sizes"),
		0);

	struct json_object *ci = json_object_object_get(
		json_object_object_get(json_object_array_get_idx(r->cmp, 0),
				       "ratio_intervals"),
		"DD/HH");
	char own[32];

	assert_non_null(e);
	assert_non_null(ci);
	assert_int_equal(
		json_object_get_int64(json_object_object_get(e, "size_bytes")),
		65536);
	snprintf(own, sizeof(own), "%.2f..%.2f",
		 json_object_get_double(json_object_object_get(ci, "low")),
		 json_object_get_double(json_object_object_get(ci, "high")));
	snprintf(buf, len, " %-14s %.2f ", own,
		 json_object_get_double(json_object_object_get(e, "low")));
	return buf;
}

/* --brief's table: latency's reference is the typical latency; rounds add
 * each ratio's interval to its cell. */
static void test_print_brief(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8 };
	char cell[64];
	struct run r;
	char *text;

	(void)state;
	run_doc(&r, lat_doc, NULL);
	text = print_with(gd_compare_print_brief, &r);
	assert_non_null(strstr(text, " Side by side (typical latency: usec)\n"
				     " #bytes     HH fwd[usec]     DD/HH fwd"));
	assert_non_null(strstr(text, "\n 8          2.00             "));
	assert_non_null(strstr(text, " Verdict"));
	assert_null(strstr(text, "      evidence: "));
	free(text);
	run_free(&r);
	run_doc(&r,
		BW_DOC(BW3("HH", "1000", "1010", "990") "," BW3("DD", "500",
								"505", "500")),
		&g);
	text = print_with(gd_compare_print_brief, &r);
	/* the bound the verdict judged, not the size's own interval */
	assert_non_null(strstr(
		text,
		" Side by side (average bandwidth: MiB/s; low: the lower bound the verdict judged)\n"));
	assert_non_null(
		strstr(text, " 65536      1010.00          0.50 low 0."));
	assert_non_null(strstr(text, "[error] GD_GATE_FAIL: "));
	free(text);
	/* the full table shows both, labelled, with the judged one from the
	 * assessment's per-size figures */
	text = print_with(gd_compare_print, &r);
	assert_non_null(strstr(text, " 95% CI         low "));
	assert_non_null(strstr(text, judged_low_cell(&r, cell, sizeof(cell))));
	assert_non_null(strstr(
		text, " low: the lower bound the verdict judged the size by"));
	free(text);
	run_free(&r);
}

#define LAT3(pl, a, b, c)                                                      \
	"{'placement': '" pl "', 'status': 'ok', 'results': ["                 \
	"{'size_bytes': 8, 'lat_typical_us': " b ", 'lat_p99_us': 9,"          \
	" 'samples': [{'lat_typical_us': " a "}, {'lat_typical_us': " b "},"   \
	" {'lat_typical_us': " c "}]}]}"

/* Latency: the table's ratio is X/HH of the latencies, the decision's
 * HH/X, so the judged bound is shown as the upper bound 1/low. */
static void test_print_lat_bound(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8 };
	struct json_object *a, *e;
	char want[64];
	struct run r;
	char *text;

	(void)state;
	run_doc(&r,
		"{'test': {'verb': 'write', 'measure': 'lat'}, 'phases': [" LAT3(
			"HH", "2.0", "2.02",
			"1.98") "," LAT3("DD", "4.0", "4.1", "3.9") "]}",
		&g);
	a = json_object_array_get_idx(
		json_object_object_get(
			json_object_object_get(r.doc, "statistics"),
			"assessments"),
		0);
	e = json_object_array_get_idx(
		json_object_object_get(json_object_object_get(a, "per_size"),
				       "sizes"),
		0);
	assert_non_null(e);
	text = print_with(gd_compare_print, &r);
	assert_non_null(strstr(text, " 95% CI         high"));
	snprintf(want, sizeof(want), " %-10.2f\n",
		 1 / json_object_get_double(json_object_object_get(e, "low")));
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(
		text, " high: the upper bound the verdict judged the size by"));
	free(text);
	text = print_with(gd_compare_print_brief, &r);
	assert_non_null(
		strstr(text, "; high: the upper bound the verdict judged)\n"));
	snprintf(want, sizeof(want), " high %.2f",
		 1 / json_object_get_double(json_object_object_get(e, "low")));
	assert_non_null(strstr(text, want));
	free(text);
	run_free(&r);
}

/* One phase @pl: 4 KiB in one round (not judged), 64 KiB in three. */
#define BW_ADAPTIVE(pl, a, b, c)                                               \
	"{'name': '" pl "', 'placement': '" pl "', 'direction': 'forward',"    \
	" 'status': 'ok', 'results': ["                                        \
	"{'size_bytes': 4096, 'bw_avg_MiBps': 100},"                           \
	"{'size_bytes': 65536, 'bw_avg_MiBps': " b ", 'samples': ["            \
	"{'bw_avg_MiBps': " a "}, {'bw_avg_MiBps': " b "},"                    \
	" {'bw_avg_MiBps': " c "}]}]}"

/* An adaptive run's first rows (sizes not judged) have one round and no
 * interval: the judged bound still has its column, and the legend names
 * no 95% CI column that is not there. */
static void test_print_bound_without_ci(void **state)
{
	const struct gd_gate_cfg g = { .expect_ratio = 0.8,
				       .gate_from_bytes = 65536,
				       .judge_from_bytes = 65536 };
	struct run r;
	char *text;

	(void)state;
	run_doc(&r,
		BW_DOC(BW_ADAPTIVE("HH", "1000", "1010", "990") "," BW_ADAPTIVE(
			"DD", "1000", "1005", "995")),
		&g);
	text = print_with(gd_compare_print, &r);
	assert_non_null(strstr(text, "   DD/HH    low "));
	assert_non_null(strstr(text, "\n 4096  "));
	assert_null(strstr(text, "95% CI"));
	assert_non_null(strstr(
		text,
		" low: the lower bound the verdict judged the size by (its spread pooled\n"
		" with sizes of like noise, widened for correlated rounds); - not judged;\n"
		" it bounds the mean of the rounds' paired ratios, the ratio column is\n"
		" of the medians shown: the two part where a phase's rounds spread\n"));
	free(text);
	run_free(&r);
}

/* gd_compare_fit(@text, 80) as a string. */
static char *fit(const char *text)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	gd_compare_fit(f, text, GD_COMPARE_TEXT_WIDTH);
	fclose(f);
	return out;
}

/* Every line of @text at most @width columns, none ending in a blank. */
static void assert_fits(const char *text, size_t width)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		if (n > width || (n && p[n - 1] == ' '))
			fail_msg("line of %zu columns: '%.*s'", n, (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* gd_compare's 80 columns: perftest's 87-column rule cut to 80, a table's
 * gutters squeezed (alignment kept), prose wrapped under its label with a
 * size's unit kept beside its number, a word wider than the line whole. */
static void test_fit(void **state)
{
	static const char rule87[] =
		"---------------------------------------------------------------------------------------";
	char long_ev[600], *out, *text;
	struct run r;
	size_t n = 0;

	(void)state;
	assert_int_equal(strlen(rule87), 87);
	out = fit(rule87);
	assert_int_equal(strlen(out), GD_COMPARE_TEXT_WIDTH + 1);
	assert_int_equal(strspn(out, "-"), GD_COMPARE_TEXT_WIDTH);
	free(out);

	out = fit(" #bytes     HH BW average[MiB/sec]   DD/HH    x  \n"
		  " 4096       121.73                   1.00     y  \n"
		  " 8388608    1095.72                  0.70       \n"
		  " not a row  stays      as     it is\n");
	assert_string_equal(out, " #bytes   HH BW average[MiB/sec]  DD/HH  x\n"
				 " 4096     121.73                  1.00   y\n"
				 " 8388608  1095.72                 0.70\n"
				 " not a row  stays      as     it is\n");
	free(out);

	/* the counters' table: a table too, its gutters cut, not wrapped */
	out = fit(
		" counter                          unit     HH local       HH remote      DD local       DD remote\n"
		" completer_retry_err              count    3              3              3              3\n"
		" (4 more counters did not move)\n");
	assert_string_equal(
		out,
		" counter              unit   HH local  HH remote  DD local  DD remote\n"
		" completer_retry_err  count  3         3          3         3\n"
		" (4 more counters did not move)\n");
	free(out);
	/* a table that two blanks a gutter leave too wide gets one */
	out = fit(
		" #bytes   aaaaaaaaaaaaaaaaaaaa   bbbbbbbbbbbbbbbbbbbb   cccccccccccccccccccc   ddddddd\n"
		" 1        1                      2                      3                      4\n");
	assert_string_equal(
		out,
		" #bytes aaaaaaaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbb cccccccccccccccccccc ddddddd\n"
		" 1      1                    2                    3                    4\n");
	free(out);
	/* wider still: parts that fit, each with the sizes; a heading's one
	 * blank ("DD-HH p99[usec]") stays inside its column */
	out = fit(
		" #bytes     HH t_typical[usec]   DD t_typical[usec]   DD-HH[usec]   HH t_99%[usec]   DD t_99%[usec]   DD-HH p99[usec]   DD/HH\n"
		" 2          15.01                16.51                1.50          56.54            62.19            5.65              1.10\n");
	assert_string_equal(
		out,
		" #bytes  HH t_typical[usec]  DD t_typical[usec]  DD-HH[usec]  HH t_99%[usec]\n"
		" 2       15.01               16.51               1.50         56.54\n"
		"\n"
		" #bytes  DD t_99%[usec]  DD-HH p99[usec]  DD/HH\n"
		" 2       62.19           5.65             1.10\n");
	assert_fits(out, GD_COMPARE_TEXT_WIDTH);
	free(out);

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(long_ev + n, sizeof(long_ev) - n,
				      "%s%d KiB", i ? ", " : "", 4 << i % 8);
	text = malloc(strlen(long_ev) + 64);
	assert_non_null(text);
	sprintf(text, "      evidence: %s\n", long_ev);
	out = fit(text);
	assert_fits(out, GD_COMPARE_TEXT_WIDTH);
	/* every continuation hangs under the text after "evidence: " */
	for (const char *p = strchr(out, '\n') + 1; *p;
	     p = strchr(p, '\n') + 1) {
		assert_int_equal(strspn(p, " "), 16);
		assert_true(p[16] >= '0' && p[16] <= '9');
	}
	/* no number left at a line's end without its unit */
	for (const char *p = strchr(out, '\n'); p; p = strchr(p + 1, '\n'))
		assert_false(p[-1] >= '0' && p[-1] <= '9');
	free(out);
	free(text);

	out = fit(
		"  [error] GD_X: one two three four five six seven eight nine "
		"ten eleven twelve thirteen fourteen\n"
		" /a/path/that/is/longer/than/the/eighty/columns/of/a/terminal/"
		"by/some/way/to/go.json\n");
	assert_non_null(strstr(out, " twelve\n          thirteen fourteen\n"));
	assert_non_null(
		strstr(out, "\n /a/path/that/is/longer/than/the/eighty/"));
	free(out);

	/* the single-document report, fitted: rules, table and evidence */
	run_doc(&r,
		BW_DOC(BW3("HH", "1000", "1010", "990") "," BW3("DD", "500",
								"505", "500")),
		&(const struct gd_gate_cfg){ .expect_ratio = 0.8 });
	text = print_with(gd_compare_print, &r);
	out = fit(text);
	assert_non_null(strstr(text, rule87));
	assert_null(strstr(out, rule87));
	assert_fits(out, GD_COMPARE_TEXT_WIDTH);
	assert_non_null(strstr(out, "      evidence: "));
	free(out);
	free(text);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_check),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_print_brief),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_print_lat_bound),
		cmocka_unit_test(test_print_bound_without_ci),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
