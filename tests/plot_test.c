/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --plot: the script written when gnuplot is absent (PATH emptied for the
 * test), its data and curves, path quoting, and a real SVG when gnuplot is
 * installed.
 */
#include <config.h>

#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "compare_util.h"
#include "report/plot.h"

static char tmpdir[] = "/tmp/gd-plot-XXXXXX";

static const char *const bw_doc =
	"{'tool': 'gd_write_bw', 'test': {'measure': 'bw'}, 'units': {'bw': 'MiB/s'}, 'phases': ["
	"{'placement': 'HH', 'direction': 'forward', 'status': 'ok', 'results': ["
	" {'size_bytes': 4096, 'bw_avg_MiBps': 1000}, {'size_bytes': 65536, 'bw_avg_MiBps': 2000}]},"
	"{'placement': 'DD', 'direction': 'forward', 'status': 'ok', 'results': ["
	" {'size_bytes': 4096, 'bw_avg_MiBps': 900}, {'size_bytes': 65536, 'bw_avg_MiBps': 1000.5}]},"
	"{'placement': 'HD', 'direction': 'forward', 'status': 'failed', 'results': []}]}";

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_script_without_gnuplot(void **state)
{
	char svg[PATH_MAX], gp[PATH_MAX], note[3 * PATH_MAX],
		want[3 * PATH_MAX];
	struct json_object *doc = doc_from(bw_doc);
	char *old = strdup(getenv("PATH") ?: "");
	char *script;

	snprintf(svg, sizeof(svg), "%s/run.svg", tmpdir);
	snprintf(gp, sizeof(gp), "%s/run.gp", tmpdir);
	assert_int_equal(setenv("PATH", "/nonexistent-gd-plot", 1), 0);
	assert_int_equal(gd_plot_write(doc, svg, note, sizeof(note)),
			 GD_PLOT_NO_GNUPLOT);
	assert_int_equal(setenv("PATH", old, 1), 0);
	snprintf(want, sizeof(want),
		 "gnuplot not installed: wrote script %s; run gnuplot %s", gp,
		 gp);
	assert_string_equal(note, want);
	assert_int_equal(access(svg, F_OK), -1);
	script = slurp(gp);
	assert_non_null(script);
	assert_non_null(strstr(script, "set terminal svg"));
	snprintf(want, sizeof(want), "set output '%s'\n", svg);
	assert_non_null(strstr(script, want));
	assert_non_null(strstr(script, "set logscale x 2\n"));
	assert_non_null(strstr(script, "set ylabel 'BW average [MiB/sec]'\n"));
	assert_non_null(strstr(
		script, "$d0 << EOD\n4096 1000.0000\n65536 2000.0000\nEOD\n"));
	assert_non_null(strstr(
		script, "$d1 << EOD\n4096 900.0000\n65536 1000.5000\nEOD\n"));
	assert_non_null(strstr(
		script,
		"plot $d0 using 1:2 with linespoints lw 2 lc 1 title 'HH forward'"));
	assert_non_null(strstr(
		script,
		"$d1 using 1:2 with linespoints lw 2 lc 2 title 'DD forward'\n"));
	/* a failed phase has no curve */
	assert_null(strstr(script, "$d2"));
	assert_null(strstr(script, "HD forward"));
	free(script);
	free(old);
	json_object_put(doc);
}

static void test_latency_script(void **state)
{
	struct json_object *doc = doc_from(
		"{'test': {'measure': 'lat'}, 'phases': [{'placement': 'HH', 'status': 'ok',"
		" 'results': [{'size_bytes': 8, 'lat_typical_us': 2.5, 'lat_p99_us': 4}]}]}");
	char svg[PATH_MAX], gp[PATH_MAX];
	char *old = strdup(getenv("PATH") ?: "");
	char *script;

	snprintf(svg, sizeof(svg), "%s/lat",
		 tmpdir); /* no .svg: .gp appended */
	snprintf(gp, sizeof(gp), "%s/lat.gp", tmpdir);
	setenv("PATH", "", 1);
	assert_int_equal(gd_plot_write(doc, svg, NULL, 0), GD_PLOT_NO_GNUPLOT);
	setenv("PATH", old, 1);
	script = slurp(gp);
	assert_non_null(script);
	assert_non_null(strstr(script, "set logscale y 10\n"));
	assert_non_null(strstr(script, "$d0 << EOD\n8 2.5000 4.0000\nEOD\n"));
	assert_non_null(strstr(
		script,
		"$d0 using 1:3 with lines dt 2 lc 1 title 'HH forward p99'"));
	free(script);
	free(old);
	json_object_put(doc);
}

static bool have_gnuplot(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* A quote in the path must survive gnuplot's string syntax. */
static void test_svg_with_gnuplot(void **state)
{
	struct json_object *doc = doc_from(bw_doc);
	char svg[PATH_MAX], note[PATH_MAX];
	char *text;

	if (!have_gnuplot()) {
		json_object_put(doc);
		skip();
	}
	snprintf(svg, sizeof(svg), "%s/it's.svg", tmpdir);
	assert_int_equal(gd_plot_write(doc, svg, note, sizeof(note)), 0);
	assert_string_equal(note, "");
	text = slurp(svg);
	assert_non_null(text);
	assert_non_null(strstr(text, "<svg"));
	assert_non_null(strstr(text, "DD forward"));
	free(text);
	json_object_put(doc);
}

/* --repeat: spread as error bars on the curves, and a second panel with
 * the DD/HH ratio, its 95% interval per size and the expected ratio. */
static const char *const rep_doc =
	"{'tool': 'gd_write_bw', 'test': {'measure': 'bw'}, 'units': {'bw': 'MiB/s'}, 'phases': ["
	"{'placement': 'HH', 'direction': 'forward', 'status': 'ok', 'results': ["
	" {'size_bytes': 65536, 'bw_avg_MiBps': 2000, 'spread': {'min': 1900, 'max': 2100}}]},"
	"{'placement': 'DD', 'direction': 'forward', 'status': 'ok', 'results': ["
	" {'size_bytes': 65536, 'bw_avg_MiBps': 1000, 'spread': {'min': 950, 'max': 1050}}]}],"
	"'comparison': [{'direction': 'forward', 'size_bytes': 65536, 'ratios': {'DD/HH': 0.5},"
	" 'ratio_intervals': {'DD/HH': {'rounds': 3, 'geomean': 0.5, 'low': 0.45, 'high': 0.55}}}],"
	"'statistics': {'assessments': [{'floor': 0.8}]}}";

static void test_ratio_panel(void **state)
{
	struct json_object *doc = doc_from(rep_doc);
	char svg[PATH_MAX], script[PATH_MAX + 8];
	char *text;

	(void)state;
	snprintf(svg, sizeof(svg), "%s/rep.svg", tmpdir);
	snprintf(script, sizeof(script), "%s/rep.gp", tmpdir);
	if (have_gnuplot()) {
		assert_int_equal(gd_plot_write(doc, svg, NULL, 0), 0);
		text = slurp(svg);
		assert_non_null(text);
		assert_non_null(strstr(text, "DD/HH forward"));
		assert_non_null(strstr(text, "expected ratio 0.80"));
		free(text);
	} else {
		assert_int_equal(gd_plot_write(doc, svg, NULL, 0),
				 GD_PLOT_NO_GNUPLOT);
	}
	text = slurp(script);
	assert_non_null(text);
	assert_non_null(strstr(text, "set multiplot layout 2,1\n"));
	assert_non_null(strstr(text, "65536 2000.0000 1900.0000 2100.0000\n"));
	assert_non_null(strstr(text, "using 1:2:3:4 with yerrorbars"));
	assert_non_null(
		strstr(text, "$r0 << EOD\n65536 0.5000 0.4500 0.5500\nEOD\n"));
	assert_non_null(strstr(text, "(bars: 95% interval over rounds)"));
	assert_non_null(strstr(text, "0.800 with lines"));
	free(text);
	json_object_put(doc);
}

static void test_nothing_to_plot(void **state)
{
	struct json_object *doc = doc_from(
		"{'phases': [{'placement': 'DD', 'status': 'failed', 'results': []}]}");
	char svg[PATH_MAX];

	snprintf(svg, sizeof(svg), "%s/empty.svg", tmpdir);
	assert_true(gd_plot_write(doc, svg, NULL, 0) < 0);
	json_object_put(doc);
}

static int setup(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_without_gnuplot),
		cmocka_unit_test(test_latency_script),
		cmocka_unit_test(test_svg_with_gnuplot),
		cmocka_unit_test(test_nothing_to_plot),
		cmocka_unit_test(test_ratio_panel),
	};

	return cmocka_run_group_tests(tests, setup, teardown) ? 1 : 0;
}
