/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for src/report.c: the JSON document read back with json-c, the
 * atomic write, perftest's text columns and the --output=X single numbers;
 * then what the verdicts and gates make of a finished document: counters
 * merged across sizes and named with their phases and sizes, and the exit
 * status of an undecided gate.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "report/compare.h"
#include "report/report.h"
#include "transport/counters.h"
#include "util/output.h"

#define BW_COLUMNS_MiB                                                         \
	" #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
#define BW_COLUMNS_Gb                                                          \
	" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
#define LAT_COLUMNS                                                            \
	" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n"
#define RULE                                                                   \
	"---------------------------------------------------------------------------------------\n"

/* Each value starts in the column of its name. */
#define BW_ROW1                                                                \
	" 65536      1000           125.00              62.50                 0.001000\n"
#define BW_ROW2                                                                \
	" 4096       1048576        8192.00             8192.00               2.097152\n"
#define LAT_ROW                                                                \
	" 2      1000           1.00           10.00        5.00               5.50           2.87            10.00                  10.00\n"

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static char tmpdir[64];

static int setup_dir(void **state)
{
	strcpy(tmpdir, "/tmp/gd_report_test.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char path[PATH_MAX];
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	return rmdir(tmpdir);
}

static void cap_open(struct capture *c)
{
	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static void cap_close(struct capture *c)
{
	fclose(c->f);
}

/* "phases.1.error.message": object keys and array indexes. */
static struct json_object *jpath(struct json_object *o, const char *path)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok;
	     tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array)) {
			o = json_object_array_get_idx(o, (size_t)atoi(tok));
		} else if (!json_object_object_get_ex(o, tok, &o)) {
			print_error("missing JSON key %s (in %s)\n", tok, path);
			fail();
		}
		if (!o)
			return NULL;
	}
	return o;
}

static void assert_jstr(struct json_object *root, const char *path,
			const char *want)
{
	struct json_object *o = jpath(root, path);

	assert_true(json_object_is_type(o, json_type_string));
	assert_string_equal(json_object_get_string(o), want);
}

static void assert_jint(struct json_object *root, const char *path,
			int64_t want)
{
	struct json_object *o = jpath(root, path);

	assert_true(json_object_is_type(o, json_type_int));
	assert_int_equal(json_object_get_int64(o), want);
}

static void assert_jdbl(struct json_object *root, const char *path, double want)
{
	struct json_object *o = jpath(root, path);
	double got;

	assert_true(json_object_is_type(o, json_type_double) ||
		    json_object_is_type(o, json_type_int));
	got = json_object_get_double(o);
	if (fabs(got - want) > 1e-9 * (fabs(want) + 1.0)) {
		print_error("%s = %.15g, expected %.15g\n", path, got, want);
		fail();
	}
}

static struct gd_report *new_bw_report(struct capture *c, const char *json,
				       bool gbits, enum gd_output_only only)
{
	static char *argv[] = { "gd_write_bw", "-s", "65536", NULL };
	struct gd_report_cfg cfg = {
		.tool = "gd_write_bw",
		.version = "0.1.0",
		.measure = GD_MEASURE_BW,
		.report_gbits = gbits,
		.only = only,
		.json_path = json,
		.text = c ? c->f : NULL,
	};
	struct gd_report *rep = gd_report_new(&cfg, 3, argv);

	assert_non_null(rep);
	return rep;
}

/* Two phases: HH ok with one row, HD failed after one row. */
static void fill_two_phases(struct gd_report *rep)
{
	struct json_object *mem = json_object_new_object();
	struct gd_bw_summary bw;
	int ph;

	json_object_object_add(mem, "kind", json_object_new_string("cuda"));
	gd_report_header_str(rep, "device", "Device", "rxe0");
	gd_report_header_int(rep, "port", "Port", 1);
	gd_report_header_done(rep);

	ph = gd_report_phase_begin(rep, "HH", "HH", "forward", NULL);
	assert_int_equal(ph, 0);
	/* 62.5 MiB/s average; best batch 100 msgs in 50 ms = 125 MiB/s */
	assert_int_equal(gd_bw_summarize(65536, 1000, 1000000000ull,
					 50000000ull, 100, &bw),
			 0);
	gd_report_bw_row(rep, ph, &bw);

	ph = gd_report_phase_begin(rep, "HD", "HD", "forward", mem);
	assert_int_equal(ph, 1);
	/* 4 KiB x 2^20 in 0.5 s = 8192 MiB/s, 2.097152 Mpps */
	assert_int_equal(
		gd_bw_summarize(4096, 1048576, 500000000ull, 0, 0, &bw), 0);
	gd_report_bw_row(rep, ph, &bw);
	gd_report_phase_fail(rep, ph, -EFAULT,
			     "GPU buffer registration failed on rxe0", NULL);
}

static void check_document(struct json_object *doc)
{
	assert_jstr(doc, "schema", "gdperf.run/4");
	assert_jstr(doc, "tool", "gd_write_bw");
	assert_jstr(doc, "version", "0.1.0");
	assert_int_equal(json_object_array_length(jpath(doc, "command_line")),
			 3);
	assert_jstr(doc, "command_line.0", "gd_write_bw");
	assert_jstr(doc, "command_line.1", "-s");
	assert_jstr(doc, "command_line.2", "65536");
	assert_int_equal(
		strlen(json_object_get_string(jpath(doc, "started_at"))), 20);
	assert_int_equal(json_object_get_string(jpath(doc, "started_at"))[10],
			 'T');
	assert_int_equal(json_object_get_string(jpath(doc, "started_at"))[19],
			 'Z');
	assert_true(
		json_object_is_type(jpath(doc, "hostname"), json_type_string));
	assert_jstr(doc, "header.device", "rxe0");
	assert_jint(doc, "header.port", 1);
	assert_jstr(doc, "units.size", "bytes");
	assert_jstr(doc, "units.bw", "MiB/s");
	assert_jstr(doc, "units.msg_rate", "Mpps");
	assert_jstr(doc, "units.lat", "usec");

	assert_int_equal(json_object_array_length(jpath(doc, "phases")), 2);
	assert_jstr(doc, "phases.0.name", "HH");
	assert_jstr(doc, "phases.0.placement", "HH");
	assert_jstr(doc, "phases.0.direction", "forward");
	assert_jstr(doc, "phases.0.status", "ok");
	assert_null(jpath(doc, "phases.0.error"));
	assert_jint(doc, "phases.0.results.0.size_bytes", 65536);
	assert_jint(doc, "phases.0.results.0.iterations", 1000);
	assert_jdbl(doc, "phases.0.results.0.bw_peak_MiBps", 125.0);
	assert_jdbl(doc, "phases.0.results.0.bw_peak_Gbps", 1.048576);
	assert_jdbl(doc, "phases.0.results.0.bw_avg_MiBps", 62.5);
	assert_jdbl(doc, "phases.0.results.0.bw_avg_Gbps", 0.524288);
	assert_jdbl(doc, "phases.0.results.0.msg_rate_Mpps", 0.001);

	assert_jstr(doc, "phases.1.name", "HD");
	assert_jstr(doc, "phases.1.status", "failed");
	assert_jstr(doc, "phases.1.memory.kind", "cuda");
	assert_jint(doc, "phases.1.error.code", -EFAULT);
	assert_jstr(doc, "phases.1.error.errno_name", "EFAULT");
	assert_jstr(doc, "phases.1.error.message",
		    "GPU buffer registration failed on rxe0");
	assert_jint(doc, "phases.1.results.0.size_bytes", 4096);
	assert_jint(doc, "phases.1.results.0.iterations", 1048576);
	assert_jdbl(doc, "phases.1.results.0.bw_avg_MiBps", 8192.0);
	assert_jdbl(doc, "phases.1.results.0.bw_avg_Gbps", 68.719476736);
	assert_jdbl(doc, "phases.1.results.0.msg_rate_Mpps", 2.097152);

	assert_jint(doc, "error.code", -EFAULT);
	assert_jstr(doc, "error.errno_name", "EFAULT");
	assert_jstr(doc, "error.message", "phase HD failed");
	assert_jint(doc, "exit_status", 1);
}

static void test_json_file(void **state)
{
	struct json_object *doc;
	struct gd_report *rep;
	struct dirent *e;
	char path[128];
	int entries = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/run.json", tmpdir);
	rep = new_bw_report(NULL, path, false, GD_OUTPUT_ALL);
	fill_two_phases(rep);
	gd_report_set_error(rep, -EFAULT, "phase HD failed");
	assert_int_equal(gd_report_finish(rep, 1), 0);
	gd_report_free(rep);

	doc = json_object_from_file(path);
	assert_non_null(doc);
	check_document(doc);
	json_object_put(doc);

	/* rename() consumed the temporary: run.json is the only entry */
	d = opendir(tmpdir);
	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		assert_string_equal(e->d_name, "run.json");
		entries++;
	}
	closedir(d);
	assert_int_equal(entries, 1);
}

static void test_text_table(void **state)
{
	const char *hdr_cols, *r;
	struct gd_report *rep;
	struct capture c;

	cap_open(&c);
	rep = new_bw_report(&c, NULL, false, GD_OUTPUT_ALL);
	fill_two_phases(rep);
	assert_int_equal(gd_report_finish(rep, 1), 0);
	gd_report_free(rep);
	cap_close(&c);

	assert_string_equal(
		c.buf, RULE
		" Device         : rxe0\n"
		" Port           : 1\n" RULE
		" Phase HH (forward)\n" BW_COLUMNS_MiB BW_ROW1 RULE
		" Phase HD (forward)\n" BW_COLUMNS_MiB BW_ROW2
		" Phase HD failed (EFAULT): GPU buffer registration failed on rxe0\n" RULE);
	r = strstr(c.buf, BW_ROW1);
	assert_non_null(strstr(r, "65536      1000"));
	/* values start exactly under their column names */
	hdr_cols = strstr(c.buf, BW_COLUMNS_MiB);
	assert_int_equal(strstr(hdr_cols, "BW peak") - hdr_cols,
			 strstr(r, "125.00") - r);
	assert_int_equal(strstr(hdr_cols, "BW average") - hdr_cols,
			 strstr(r, "62.50") - r);
	assert_int_equal(strstr(hdr_cols, "MsgRate") - hdr_cols,
			 strstr(r, "0.001000") - r);
	free(c.buf);
}

static void test_gbits(void **state)
{
	struct gd_report *rep;
	struct gd_bw_summary bw;
	struct capture c;
	int ph;

	cap_open(&c);
	rep = new_bw_report(&c, NULL, true, GD_OUTPUT_ALL);
	ph = gd_report_phase_begin(rep, "", "HH", "forward", NULL);
	assert_int_equal(gd_bw_summarize(65536, 1000, 1000000000ull,
					 50000000ull, 100, &bw),
			 0);
	gd_report_bw_row(rep, ph, &bw);
	/* no JSON path: finish only closes the table */
	assert_int_equal(gd_report_finish(rep, 0), 0);
	cap_close(&c);

	/* empty phase name: no " Phase" line, table starts with columns */
	assert_string_equal(
		c.buf, BW_COLUMNS_Gb
		" 65536      1000           1.05               0.52                 0.001000\n" RULE);
	assert_jstr(gd_report_root(rep), "units.bw", "Gb/s");
	assert_jdbl(gd_report_root(rep), "phases.0.results.0.bw_avg_MiBps",
		    62.5);
	assert_jdbl(gd_report_root(rep), "phases.0.results.0.bw_avg_Gbps",
		    0.524288);
	assert_null(jpath(gd_report_root(rep), "error"));
	assert_jint(gd_report_root(rep), "exit_status", 0);
	gd_report_free(rep);
	free(c.buf);
}

static void test_output_only(void **state)
{
	static const struct {
		enum gd_output_only only;
		const char *want;
	} cases[] = {
		{ GD_OUTPUT_BANDWIDTH, "62.50\n8192.00\n" },
		{ GD_OUTPUT_MESSAGE_RATE, "0.001000\n2.097152\n" },
	};
	struct gd_report *rep;
	struct capture c;
	size_t i;

	for (i = 0; i < 2; i++) {
		cap_open(&c);
		rep = new_bw_report(&c, NULL, false, cases[i].only);
		fill_two_phases(rep);
		assert_int_equal(gd_report_finish(rep, 0), 0);
		gd_report_free(rep);
		cap_close(&c);
		assert_string_equal(c.buf, cases[i].want);
		free(c.buf);
	}
}

/* --bidirectional and --cpu_util: the CPU line before its row, the
 * directions after it, with the figures the document holds. */
static void test_bidir_cpu_lines(void **state)
{
	struct gd_bw_summary a, b;
	struct json_object *root;
	struct gd_report *rep;
	const char *cpu, *row, *bidir;
	struct capture c;
	int ph;

	assert_int_equal(gd_bw_summarize(65536, 1000, 1000000000ull,
					 50000000ull, 100, &a),
			 0);
	b = a;
	b.avg_MiBps = 37.5;
	cap_open(&c);
	rep = new_bw_report(&c, NULL, false, GD_OUTPUT_ALL);
	ph = gd_report_phase_begin(rep, "HH:bidir", "HH", "bidir", NULL);
	gd_report_cpu_util(rep, 65536, 12.34);
	assert_non_null(gd_report_bidir_row(rep, ph, &a, &b));
	assert_non_null(gd_report_bidir_row(rep, ph, &a, NULL));
	assert_int_equal(gd_report_finish(rep, 0), 0);
	cap_close(&c);

	cpu = strstr(c.buf, " CPU utilisation during 65536 B: 12.3%\n");
	row = strstr(c.buf, " 65536      2000 ");
	bidir = strstr(
		c.buf,
		" bidirectional 65536 B: client->server 62.50 + server->client 37.50 = sum 100.00 MiB/s\n");
	assert_non_null(cpu);
	assert_non_null(row);
	assert_non_null(bidir);
	assert_true(cpu < row && row < bidir);
	/* the server's half missing: 0 in the line, null in the document */
	assert_non_null(strstr(
		bidir + 1,
		" bidirectional 65536 B: client->server 62.50 + server->client 0.00 = sum 62.50 MiB/s\n"));
	root = gd_report_root(rep);
	assert_jdbl(root, "phases.0.results.0.bw_avg_MiBps", 100.0);
	assert_jint(root, "phases.0.results.0.iterations", 2000);
	assert_true(json_object_get_boolean(
		jpath(root, "phases.0.results.0.sum_of_directions")));
	assert_jdbl(
		root,
		"phases.0.results.0.directions.server_to_client.bw_avg_MiBps",
		37.5);
	assert_null(
		jpath(root, "phases.0.results.1.directions.server_to_client"));
	gd_report_free(rep);
	free(c.buf);

	/* --output=bandwidth prints the sums alone */
	cap_open(&c);
	rep = new_bw_report(&c, NULL, false, GD_OUTPUT_BANDWIDTH);
	ph = gd_report_phase_begin(rep, "HH:bidir", "HH", "bidir", NULL);
	gd_report_cpu_util(rep, 65536, 12.34);
	gd_report_bidir_row(rep, ph, &a, &b);
	assert_int_equal(gd_report_finish(rep, 0), 0);
	gd_report_free(rep);
	cap_close(&c);
	assert_string_equal(c.buf, "100.00\n");
	free(c.buf);
}

static struct gd_report *lat_report(struct capture *c, enum gd_output_only only)
{
	/* 1..10 us round trips: summary worked by hand in stats_test.c */
	uint64_t s[10] = { 1000, 2000, 3000, 4000, 5000,
			   6000, 7000, 8000, 9000, 10000 };
	static char *argv[] = { "gd_write_lat", NULL };
	struct gd_report_cfg cfg = {
		.tool = "gd_write_lat",
		.version = "0.1.0",
		.measure = GD_MEASURE_LAT,
		.only = only,
		.text = c->f,
	};
	struct gd_lat_summary lat;
	struct gd_report *rep = gd_report_new(&cfg, 1, argv);
	int ph;

	assert_non_null(rep);
	assert_int_equal(gd_lat_summarize(s, 10, 1, &lat), 0);
	ph = gd_report_phase_begin(rep, "DD", "DD", "forward", NULL);
	gd_report_lat_row(rep, ph, &lat, 2, 1000);
	return rep;
}

static void test_latency(void **state)
{
	const char *row = LAT_ROW;
	struct json_object *root;
	struct gd_report *rep;
	struct capture c;

	cap_open(&c);
	rep = lat_report(&c, GD_OUTPUT_ALL);
	assert_int_equal(gd_report_finish(rep, 0), 0);
	cap_close(&c);
	assert_string_equal(c.buf,
			    " Phase DD (forward)\n" LAT_COLUMNS LAT_ROW RULE);
	assert_int_equal(strstr(LAT_COLUMNS, "t_typical") - LAT_COLUMNS,
			 strstr(row, "5.00") - row);
	assert_int_equal(strstr(LAT_COLUMNS, "99.9%") - LAT_COLUMNS,
			 strrchr(row, ' ') + 1 - row);
	root = gd_report_root(rep);
	assert_jint(root, "phases.0.results.0.size_bytes", 2);
	assert_jint(root, "phases.0.results.0.iterations", 1000);
	assert_jdbl(root, "phases.0.results.0.lat_min_us", 1.0);
	assert_jdbl(root, "phases.0.results.0.lat_max_us", 10.0);
	assert_jdbl(root, "phases.0.results.0.lat_typical_us", 5.0);
	assert_jdbl(root, "phases.0.results.0.lat_avg_us", 5.5);
	assert_jdbl(root, "phases.0.results.0.lat_stdev_us",
		    2.8722813232690143);
	assert_jdbl(root, "phases.0.results.0.lat_p99_us", 10.0);
	assert_jdbl(root, "phases.0.results.0.lat_p999_us", 10.0);
	gd_report_free(rep);
	free(c.buf);

	cap_open(&c);
	rep = lat_report(&c, GD_OUTPUT_LATENCY);
	assert_int_equal(gd_report_finish(rep, 0), 0);
	cap_close(&c);
	assert_string_equal(c.buf, "5.00\n");
	gd_report_free(rep);
	free(c.buf);
}

static void test_missing_dir(void **state)
{
	struct gd_report *rep;
	char path[128];

	snprintf(path, sizeof(path), "%s/no-such-dir/run.json", tmpdir);
	gd_err_clear();
	rep = new_bw_report(NULL, path, false, GD_OUTPUT_ALL);
	assert_int_equal(gd_report_finish(rep, 0), -ENOENT);
	assert_int_equal(gd_err_code(), -ENOENT);
	assert_non_null(strstr(gd_err_msg(), path));
	assert_non_null(strstr(gd_err_msg(), "directory exists"));
	gd_report_free(rep);
	gd_err_clear();
}

static void test_error_from_gd_err(void **state)
{
	struct gd_report *rep;

	gd_err_clear();
	rep = new_bw_report(NULL, NULL, false, GD_OUTPUT_ALL);
	gd_err(-ETIMEDOUT, "peer 10.0.0.2 did not answer");
	assert_int_equal(gd_report_finish(rep, 1), 0);
	assert_jint(gd_report_root(rep), "error.code", -ETIMEDOUT);
	assert_jstr(gd_report_root(rep), "error.errno_name", "ETIMEDOUT");
	assert_jstr(gd_report_root(rep), "error.message",
		    "peer 10.0.0.2 did not answer");
	gd_report_free(rep);
	gd_err_clear();
}

/* What gd_report_notice()/gd_report_error() write to stderr while @fn
 * runs, read back from a temporary file. */
static void capture_stderr(void (*fn)(struct gd_report *),
			   struct gd_report *rep, char *out, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(tmp);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(tmp), STDERR_FILENO) >= 0);
	fn(rep);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, len - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
}

static void say_lines(struct gd_report *rep)
{
	gd_report_notice("%s: note: peer %s runs gdperf %s, this side %s",
			 "gd_write_bw", "10.0.0.2:18515", "0.0.9", "0.1.0");
	gd_report_error(rep, "gd_write_bw (server)", -EIO, "QP went to ERR");
	gd_report_error(NULL, "gd_write_bw", -ENOENT, "no such file");
}

/* The lines beside the table: one each on stderr, never on the table's
 * stream, the error also in the document. */
static void test_notice_and_error_lines(void **state)
{
	struct gd_report *rep;
	struct capture c;
	char err[1024];

	cap_open(&c);
	rep = new_bw_report(&c, NULL, false, GD_OUTPUT_ALL);
	capture_stderr(say_lines, rep, err, sizeof(err));
	fflush(c.f);
	assert_int_equal(c.len, 0);
	assert_string_equal(
		err,
		"gd_write_bw: note: peer 10.0.0.2:18515 runs gdperf 0.0.9, this side 0.1.0\n"
		"gd_write_bw (server): error: QP went to ERR\n"
		"gd_write_bw: error: no such file\n");
	assert_jint(gd_report_root(rep), "error.code", -EIO);
	assert_jstr(gd_report_root(rep), "error.message", "QP went to ERR");
	gd_report_free(rep);
	cap_close(&c);
	free(c.buf);
}

static void test_errno_names(void **state)
{
	assert_string_equal(gd_errno_name(ENOMEM), "ENOMEM");
	assert_string_equal(gd_errno_name(-ENOMEM), "ENOMEM");
	assert_string_equal(gd_errno_name(-EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(gd_errno_name(-ETIMEDOUT), "ETIMEDOUT");
	assert_string_equal(gd_errno_name(-ECONNREFUSED), "ECONNREFUSED");
	assert_string_equal(gd_errno_name(-EPROTONOSUPPORT), "EPROTONOSUPPORT");
	assert_string_equal(gd_errno_name(-ENOSPC), "ENOSPC");
	assert_string_equal(gd_errno_name(-EAGAIN), "EAGAIN");
	assert_string_equal(gd_errno_name(-E2BIG), "E2BIG");
	assert_string_equal(gd_errno_name(-12345), "UNKNOWN");
	assert_string_equal(gd_errno_name(0), "UNKNOWN");
}

/* The server's waiting line: on the table's stream, whole and flushed,
 * never in the document; nothing without text. */
static void test_status_line(void **state)
{
	struct gd_report *rep;
	struct capture c;

	cap_open(&c);
	rep = new_bw_report(&c, NULL, false, GD_OUTPUT_ALL);
	gd_report_status(rep, " Waiting for client on port %d (%s)...", 18515,
			 "gd_write_bw");
	/* flushed by the call itself: the length is there before any close */
	assert_int_equal(c.len, strlen(" Waiting for client on port 18515 "
				       "(gd_write_bw)...\n"));
	assert_null(strstr(json_object_to_json_string(gd_report_root(rep)),
			   "Waiting"));
	gd_report_free(rep);
	cap_close(&c);
	assert_string_equal(
		c.buf, " Waiting for client on port 18515 (gd_write_bw)...\n");
	free(c.buf);
	rep = new_bw_report(NULL, NULL, false, GD_OUTPUT_ALL);
	gd_report_status(rep, "nothing to print to");
	gd_report_status(NULL, "nor here");
	gd_report_free(rep);
}

/* --persist numbers each client's documents before the extension, in the
 * file's name only, padded so that they sort; stdout stays stdout. */
static void test_numbered_paths(void **state)
{
	char buf[64], tiny[8];

	(void)state;
	assert_string_equal(gd_out_numbered("run.json", 1, buf, sizeof(buf)),
			    "run-0001.json");
	assert_string_equal(
		gd_out_numbered("out.d/run.json", 12, buf, sizeof(buf)),
		"out.d/run-0012.json");
	assert_string_equal(gd_out_numbered("out.d/run", 3, buf, sizeof(buf)),
			    "out.d/run-0003");
	assert_string_equal(gd_out_numbered(".hidden", 2, buf, sizeof(buf)),
			    ".hidden-0002");
	assert_string_equal(gd_out_numbered("m.prom", 10000, buf, sizeof(buf)),
			    "m-10000.prom");
	assert_string_equal(gd_out_numbered("-", 5, buf, sizeof(buf)), "-");
	/* too long for the buffer: the path as given, never a cut name */
	assert_string_equal(
		gd_out_numbered("abcdef.json", 1, tiny, sizeof(tiny)),
		"abcdef.json");
}

/* The --loopback server half's lines go through a pipe to the client
 * half, which knows the lines it printed itself. */
static void test_notices_to_fd(void **state)
{
	char buf[256] = "", err[256];
	int fds[2];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	gd_report_notices_to(fds[1]);
	gd_report_notice("gd_write_bw (server): error: %s", "no RDMA device");
	gd_report_notices_to(-1);
	n = read(fds[0], buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf,
			    "gd_write_bw (server): error: no RDMA device\n");
	/* a line that went through the pipe was not printed here */
	assert_false(gd_report_notice_covers("no RDMA device"));
	close(fds[0]);
	close(fds[1]);
	capture_stderr(say_lines, NULL, err, sizeof(err));
	assert_true(gd_report_notice_covers("QP went to ERR"));
	assert_true(gd_report_notice_covers("runs gdperf 0.0.9"));
	assert_false(gd_report_notice_covers("something never said"));
}

/* Child: a one-row report whose file cannot be written (a 2 KiB file size
 * limit stands for a full disk; stdout is a pipe, which it does not
 * limit). */
static int rescue_child(const char *json)
{
	struct rlimit rl = { .rlim_cur = 2048, .rlim_max = 2048 };
	struct gd_bw_summary bw = { 0 };
	struct gd_report *rep;
	char pad[512], key[8];
	int ph, ret;

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &rl))
		return 11;
	rep = new_bw_report(NULL, json, false, GD_OUTPUT_ALL);
	ph = gd_report_phase_begin(rep, "HH", "HH", "forward", NULL);
	gd_bw_summarize(65536, 1000, 1000000000ULL, 0, 0, &bw);
	gd_report_bw_row(rep, ph, &bw);
	memset(pad, 'x', sizeof(pad) - 1);
	pad[sizeof(pad) - 1] = '\0';
	for (int i = 0; i < 8; i++) {
		snprintf(key, sizeof(key), "pad%d", i);
		gd_report_set_section(rep, key, json_object_new_string(pad));
	}
	ret = gd_report_finish(rep, 0);
	fprintf(stderr, "%s\n", gd_err_msg());
	gd_report_free(rep);
	fflush(stdout);
	return ret == -EFBIG ? 0 : 12;
}

/* All of @fd until EOF, NUL-terminated, into @buf. */
static void read_all(int fd, char *buf, size_t len)
{
	size_t have = 0;
	ssize_t n;

	while (have < len - 1 && (n = read(fd, buf + have, len - 1 - have)) > 0)
		have += (size_t)n;
	buf[have] = '\0';
	close(fd);
}

/* A document that cannot be written is not lost: the error names the file
 * and the cause, no partial file stays, the document goes to stdout with
 * exit status 1 and the write error in it. */
static void test_unwritable_file_rescued(void **state)
{
	static char out[65536];
	char json[PATH_MAX], msg[2048];
	struct json_object *doc;
	int status, err_pipe[2], out_pipe[2];
	pid_t pid;

	snprintf(json, sizeof(json), "%s/full.json", tmpdir);
	assert_int_equal(pipe(err_pipe), 0);
	assert_int_equal(pipe(out_pipe), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(err_pipe[1], STDERR_FILENO);
		dup2(out_pipe[1], STDOUT_FILENO);
		_exit(rescue_child(json));
	}
	close(err_pipe[1]);
	close(out_pipe[1]);
	read_all(out_pipe[0], out, sizeof(out));
	read_all(err_pipe[0], msg, sizeof(msg));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status))
		print_error("child status %d: %s\n", WEXITSTATUS(status), msg);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(msg, json));
	assert_non_null(strstr(msg, "File too large"));
	assert_non_null(strstr(msg, "went to standard output instead"));
	assert_int_equal(access(json, F_OK), -1);
	doc = json_tokener_parse(out);
	assert_non_null(doc);
	assert_jint(doc, "exit_status", 1);
	assert_jstr(doc, "error.errno_name", "EFBIG");
	assert_jint(doc, "phases.0.results.0.size_bytes", 65536);
	json_object_put(doc);
}

/* JSON with single quotes, for readable fixtures. */
static struct json_object *jparse(const char *text)
{
	char buf[8192];
	struct json_object *o;
	size_t i;

	for (i = 0; text[i] && i + 1 < sizeof(buf); i++)
		buf[i] = text[i] == '\'' ? '"' : text[i];
	buf[i] = '\0';
	o = json_tokener_parse(buf);
	assert_non_null(o);
	return o;
}

/* One step's counter window: @dup duplicate_request, @cre
 * completer_retry_err, @sym symbol_error, @pkts packets sent. */
static struct json_object *step_delta(int dup, int cre, int sym, int pkts)
{
	char buf[1024];

	snprintf(
		buf, sizeof(buf),
		"{'counters': [{'name': 'completer_retry_err', 'delta': %d, 'class': 'retry'},"
		" {'name': 'duplicate_request', 'delta': %d, 'class': 'retry'},"
		" {'name': 'symbol_error', 'delta': %d, 'class': 'error'}],"
		" 'errors_moved': [%s], 'retries_moved': [%s%s%s],"
		" 'congestion_moved': [], 'tx_packets': %d, 'notes': []}",
		cre, dup, sym, sym ? "'symbol_error'" : "",
		cre ? "'completer_retry_err'" : "", cre && dup ? ", " : "",
		dup ? "'duplicate_request'" : "", pkts);
	return jparse(buf);
}

static bool list_has(struct json_object *list, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(list); i++)
		if (!strcmp(json_object_get_string(
				    json_object_array_get_idx(list, i)),
			    name))
			return true;
	return false;
}

/* The phase's sum of its steps: a counter that moved only at the second
 * size is in the phase's moved list (it used to keep the first size's),
 * a name moved at both sizes is listed once, and the deltas add up. */
static void test_counters_merged_across_sizes(void **state)
{
	struct json_object *acc = NULL, *a = step_delta(0, 0, 1, 10),
			   *b = step_delta(2381, 75, 1, 20);

	(void)state;
	gd_counters_merge(&acc, a);
	gd_counters_merge(&acc, b);
	assert_int_equal(json_object_array_length(jpath(acc, "retries_moved")),
			 2);
	assert_true(list_has(jpath(acc, "retries_moved"), "duplicate_request"));
	assert_true(
		list_has(jpath(acc, "retries_moved"), "completer_retry_err"));
	assert_int_equal(json_object_array_length(jpath(acc, "errors_moved")),
			 1);
	assert_jint(acc, "counters.0.delta", 75);
	assert_jint(acc, "counters.1.delta", 2381);
	assert_jint(acc, "counters.2.delta", 2);
	assert_jint(acc, "tx_packets", 30);
	/* the first window is copied, not shared */
	assert_int_equal(json_object_array_length(jpath(a, "retries_moved")),
			 0);
	json_object_put(acc);
	json_object_put(a);
	json_object_put(b);
}

/* A bandwidth phase of @pl at @n sizes from 1 MiB up, 1 GiB sent, whose
 * steps from size index @from on moved @dup and @cre retries (split
 * over them), merged as the engine merges them. */
static struct json_object *retry_phase(const char *pl, int n, int from, int dup,
				       int cre)
{
	struct json_object *ph, *res = json_object_new_array(),
				*steps = json_object_new_array(), *acc = NULL,
				*counters = json_object_new_object();
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "{'name': '%s', 'placement': '%s', 'direction': 'forward',"
		 " 'status': 'ok', 'app_bytes': 1073741824}",
		 pl, pl);
	ph = jparse(buf);
	for (int z = 0; z < n; z++) {
		uint64_t size = 1048576ULL << z;
		bool moved = z >= from;
		int k = n - from;
		struct json_object *st = json_object_new_object(), *d;

		snprintf(buf, sizeof(buf),
			 "{'size_bytes': %llu, 'iterations': 100,"
			 " 'bw_avg_MiBps': 1000.0}",
			 (unsigned long long)size);
		json_object_array_add(res, jparse(buf));
		/* the last moving step takes the remainder */
		d = step_delta(moved ? dup / k + (z == n - 1 ? dup % k : 0) : 0,
			       moved ? cre / k + (z == n - 1 ? cre % k : 0) : 0,
			       0, 100);
		json_object_object_add(st, "size_bytes",
				       json_object_new_int64((int64_t)size));
		json_object_object_add(st, "status",
				       json_object_new_string("ok"));
		json_object_object_add(st, "counters_local", d);
		gd_counters_merge(&acc, d);
		json_object_array_add(steps, st);
	}
	json_object_object_add(ph, "results", res);
	json_object_object_add(ph, "steps", steps);
	json_object_object_add(counters, "local", acc);
	json_object_object_add(counters, "remote", NULL);
	json_object_object_add(ph, "counters", counters);
	return ph;
}

struct judged {
	struct json_object *doc, *cmp, *verd;
	bool gate_failed;
};

static void judge_phases(struct judged *j, struct json_object *hh,
			 struct json_object *dd, const struct gd_gate_cfg *g)
{
	struct json_object *phases = json_object_new_array();

	j->doc = jparse("{'test': {'measure': 'bw'}}");
	json_object_array_add(phases, hh);
	json_object_array_add(phases, dd);
	json_object_object_add(j->doc, "phases", phases);
	assert_int_equal(
		gd_compare_run(j->doc, g, &j->cmp, &j->verd, &j->gate_failed),
		0);
}

static void judged_free(struct judged *j)
{
	json_object_put(j->doc);
	json_object_put(j->cmp);
	json_object_put(j->verd);
}

static struct json_object *verdict_of(struct judged *j, const char *code)
{
	for (size_t i = 0; i < json_object_array_length(j->verd); i++) {
		struct json_object *v = json_object_array_get_idx(j->verd, i);

		if (!strcmp(json_object_get_string(
				    json_object_object_get(v, "code")),
			    code))
			return v;
	}
	return NULL;
}

/* Retries in HH and in DD at several sizes: one warning naming the
 * phases, the sizes and the counts, that they moved alike per byte sent,
 * and no exit status of its own. */
static void test_retries_named_alike(void **state)
{
	struct judged j;
	struct json_object *v;

	(void)state;
	judge_phases(&j, retry_phase("HH", 4, 0, 2381, 75),
		     retry_phase("DD", 4, 1, 2000, 60), NULL);
	v = verdict_of(&j, "GD_RETRANSMISSIONS");
	assert_non_null(v);
	assert_jstr(v, "severity", "warning");
	assert_jstr(
		v, "evidence.0",
		"HH forward local: completer_retry_err +75, duplicate_request +2,381 at 1 MiB..8 MiB (4 of 4 sizes)");
	assert_jstr(
		v, "evidence.1",
		"DD forward local: completer_retry_err +60, duplicate_request +2,000 at 2 MiB..8 MiB (3 of 4 sizes)");
	assert_non_null(strstr(json_object_get_string(jpath(v, "evidence.2")),
			       "alike in HH and DD forward"));
	assert_jstr(v, "moved.1.phase", "DD");
	assert_jint(v, "moved.1.counts.duplicate_request", 2000);
	assert_int_equal(
		json_object_array_length(jpath(v, "moved.1.sizes_bytes")), 3);
	assert_jint(v, "moved.1.sizes_bytes.0", 2097152);
	assert_jstr(v, "pairs.0.finding", "alike");
	assert_jdbl(v, "pairs.0.hh_per_GiB", 2456);
	assert_true(!json_object_get_boolean(jpath(v, "against_device_path")));
	assert_non_null(strstr(json_object_get_string(jpath(v, "summary")),
			       "not the device path"));
	assert_false(j.gate_failed);
	assert_int_equal(gd_compare_gate_status(j.doc, j.gate_failed), 0);
	judged_free(&j);
}

/* Retries only in the device phase: evidence against the device path,
 * with the check that would confirm it. */
static void test_retries_device_only(void **state)
{
	struct judged j;
	struct json_object *v;

	(void)state;
	judge_phases(&j, retry_phase("HH", 4, 4, 0, 0),
		     retry_phase("DD", 4, 2, 500, 20), NULL);
	v = verdict_of(&j, "GD_RETRANSMISSIONS");
	assert_non_null(v);
	assert_jstr(
		v, "evidence.0",
		"DD forward local: completer_retry_err +20, duplicate_request +500 at 4 MiB..8 MiB (2 of 4 sizes)");
	assert_jstr(v, "pairs.0.finding", "device_only");
	assert_true(json_object_get_boolean(jpath(v, "against_device_path")));
	assert_non_null(strstr(json_object_get_string(jpath(v, "summary")),
			       "evidence against the device path"));
	assert_non_null(strstr(json_object_get_string(jpath(v, "next_check")),
			       "--phases=HH,DD"));
	judged_free(&j);
}

/* A two-phase document of one size measured once, DD at @dd MiB/s. */
static void judge_one_size(struct judged *j, double dd,
			   const struct gd_gate_cfg *g)
{
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "{'name': 'DD', 'placement': 'DD', 'direction': 'forward',"
		 " 'status': 'ok', 'results': [{'size_bytes': 1048576,"
		 " 'iterations': 20, 'bw_avg_MiBps': %g}]}",
		 dd);
	judge_phases(
		j,
		jparse("{'name': 'HH', 'placement': 'HH', 'direction': 'forward',"
		       " 'status': 'ok', 'results': [{'size_bytes': 1048576,"
		       " 'iterations': 20, 'bw_avg_MiBps': 1000}]}"),
		jparse(buf), g);
}

/* One size, one round: the ratio gate can neither clear 0.9 nor fall
 * below it. Undecided fails by default with status 4 and its own
 * verdict; --gate-undecided=pass lets it pass (status 0); a gate with no
 * size at or above --gate-from is undecided too, never silently green. */
static void test_gate_undecided_status(void **state)
{
	struct gd_gate_cfg g = { .expect_ratio = 0.9 };
	struct judged j;
	struct json_object *v;

	(void)state;
	judge_one_size(&j, 950, &g);
	assert_false(j.gate_failed);
	assert_int_equal(gd_compare_gate_status(j.doc, j.gate_failed),
			 GD_GATE_STATUS_UNDECIDED);
	assert_int_equal(GD_GATE_STATUS_UNDECIDED, 4);
	assert_jstr(j.doc, "gates.0.gate", "expect_ratio");
	assert_true(json_object_get_boolean(jpath(j.doc, "gates.0.undecided")));
	assert_false(json_object_get_boolean(jpath(j.doc, "gates.0.passed")));
	assert_jstr(j.doc, "gates.0.undecided_policy", "fail");
	v = verdict_of(&j, "GD_GATE_UNDECIDED");
	assert_non_null(v);
	assert_jstr(v, "severity", "error");
	assert_non_null(strstr(json_object_get_string(jpath(v, "summary")),
			       "exit status 4"));
	assert_non_null(strstr(json_object_get_string(jpath(v, "evidence.0")),
			       "expect_ratio DD/HH forward undecided"));
	assert_null(verdict_of(&j, "GD_OK"));
	judged_free(&j);

	g.undecided_pass = true;
	judge_one_size(&j, 950, &g);
	assert_int_equal(gd_compare_gate_status(j.doc, j.gate_failed), 0);
	assert_true(json_object_get_boolean(jpath(j.doc, "gates.0.undecided")));
	assert_true(json_object_get_boolean(jpath(j.doc, "gates.0.passed")));
	assert_jstr(j.doc, "gates.0.undecided_policy", "pass");
	assert_null(verdict_of(&j, "GD_GATE_UNDECIDED"));
	judged_free(&j);

	g = (struct gd_gate_cfg){ .expect_ratio = 0.9,
				  .gate_from_bytes = 2097152,
				  .judge_from_bytes = 2097152 };
	judge_one_size(&j, 950, &g);
	assert_jstr(j.doc, "gates.0.decision", "not_assessed");
	assert_int_equal(gd_compare_gate_status(j.doc, j.gate_failed),
			 GD_GATE_STATUS_UNDECIDED);
	judged_free(&j);

	/* a failed gate comes before an undecided one */
	assert_int_equal(gd_compare_gate_status(NULL, true),
			 GD_GATE_STATUS_FAILED);
}

/* Both names of the decision that clears the floor. */
static void test_decision_clears(void **state)
{
	(void)state;
	assert_true(gd_decision_clears("not_below"));
	assert_true(gd_decision_clears("no_difference"));
	assert_false(gd_decision_clears("inconclusive"));
	assert_false(gd_decision_clears("slower"));
	assert_false(gd_decision_clears(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_file),
		cmocka_unit_test(test_text_table),
		cmocka_unit_test(test_gbits),
		cmocka_unit_test(test_output_only),
		cmocka_unit_test(test_bidir_cpu_lines),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_missing_dir),
		cmocka_unit_test(test_error_from_gd_err),
		cmocka_unit_test(test_notice_and_error_lines),
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_status_line),
		cmocka_unit_test(test_numbered_paths),
		cmocka_unit_test(test_notices_to_fd),
		cmocka_unit_test(test_unwritable_file_rescued),
		cmocka_unit_test(test_counters_merged_across_sizes),
		cmocka_unit_test(test_retries_named_alike),
		cmocka_unit_test(test_retries_device_only),
		cmocka_unit_test(test_gate_undecided_status),
		cmocka_unit_test(test_decision_clears),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir) ? 1 : 0;
}
