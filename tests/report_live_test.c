/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The run's text while it runs: live rows (with and without the phase
 * column, the document unchanged by them), --brief's length for a -a
 * --reverse sweep of four phases, and the progress line (mode, time left,
 * its format, and its erasure before any other line).
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
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/infer.h"
#include "report/compare.h"
#include "report/progress.h"
#include "report/report.h"

#define BW_COLUMNS                                                             \
	" #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
#define BW_ROW1                                                                \
	" 65536      1000           125.00              62.50                 0.001000\n"

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static struct gd_report *new_report(struct capture *c, bool live, bool brief,
				    enum gd_measure measure,
				    unsigned int repeats)
{
	static char *argv[] = { "gd_write_bw", "-a", NULL };
	struct gd_report_cfg cfg = {
		.tool = "gd_write_bw",
		.version = "0.1.0",
		.measure = measure,
		.text = c->f,
		.repeats = repeats,
		.live = live,
		.brief = brief,
	};
	struct gd_report *rep;

	c->buf = NULL;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	cfg.text = c->f;
	rep = gd_report_new(&cfg, 2, argv);
	assert_non_null(rep);
	return rep;
}

static struct gd_bw_summary bw_of(uint64_t size, double avg)
{
	return (struct gd_bw_summary){ .size_bytes = size,
				       .iters = 1000,
				       .peak_MiBps = 2 * avg,
				       .avg_MiBps = avg,
				       .msg_rate_Mpps = avg / 62500 };
}

/* The end of the run: the document's rows, in size order per phase. */
static void doc_rows(struct gd_report *rep, const char *const *names,
		     unsigned int np)
{
	for (unsigned int p = 0; p < np; p++) {
		struct gd_bw_summary b = bw_of(65536, 62.5 * (p + 1));
		int idx = gd_report_phase_begin(rep, names[p], names[p],
						"forward", NULL);

		gd_report_bw_row(rep, idx, &b);
	}
}

static char *phases_json(struct gd_report *rep)
{
	struct json_object *ph =
		json_object_object_get(gd_report_root(rep), "phases");

	return strdup(json_object_to_json_string(ph));
}

/* Two phases: each row as it comes, under one header with a phase
 * column; the end-of-run calls print no row again, and the document is
 * what a run without live rows builds. */
static void test_live_two_phases(void **state)
{
	static const char *const names[] = { "HH", "DD" };
	struct capture c, c0;
	struct gd_report *rep = new_report(&c, true, false, GD_MEASURE_BW, 1);
	struct gd_report *old = new_report(&c0, false, false, GD_MEASURE_BW, 1);
	char *live_doc, *old_doc;

	for (unsigned int p = 0; p < 2; p++) {
		struct gd_live_row r = { .phase = names[p],
					 .direction = "forward",
					 .phase_column = true,
					 .is_bw = true,
					 .bw = bw_of(65536, 62.5 * (p + 1)),
					 .cpu_util_pct = -1 };

		gd_report_live_row(rep, &r);
		/* flushed at once: a pipe must see the row now */
		assert_non_null(strstr(c.buf, p ? " DD " : " HH "));
	}
	doc_rows(rep, names, 2);
	doc_rows(old, names, 2);
	live_doc = phases_json(rep);
	old_doc = phases_json(old);
	assert_string_equal(live_doc, old_doc);
	gd_report_free(rep);
	gd_report_free(old);
	fclose(c.f);
	fclose(c0.f);
	assert_string_equal(
		c.buf,
		" phase      #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
		" HH         65536      1000           125.00              62.50                 0.001000\n"
		" DD         65536      1000           250.00              125.00                0.002000\n");
	assert_null(strstr(c.buf, "Phase"));
	free(live_doc);
	free(old_doc);
	free(c.buf);
	free(c0.buf);
}

/* One phase: perftest's own table, as the run without live rows prints
 * it, so scripts that read perftest's output read this one. */
static void test_live_one_phase(void **state)
{
	static const char *const names[] = { "HH" };
	struct gd_live_row r = { .phase = "HH",
				 .direction = "forward",
				 .is_bw = true,
				 .bw = bw_of(65536, 62.5),
				 .cpu_util_pct = -1 };
	struct capture c, c0;
	struct gd_report *rep = new_report(&c, true, false, GD_MEASURE_BW, 1);
	struct gd_report *old = new_report(&c0, false, false, GD_MEASURE_BW, 1);

	gd_report_live_row(rep, &r);
	doc_rows(rep, names, 1);
	doc_rows(old, names, 1);
	gd_report_free(rep);
	gd_report_free(old);
	fclose(c.f);
	fclose(c0.f);
	assert_string_equal(c.buf, " Phase HH (forward)\n" BW_COLUMNS BW_ROW1);
	assert_string_equal(c.buf, c0.buf);
	free(c.buf);
	free(c0.buf);
}

/* Latency with rounds: the live row carries the spread columns, the CPU
 * line comes before it. */
static void test_live_latency_spread(void **state)
{
	struct gd_spread sp = {
		.n = 3, .median = 5, .min = 4, .max = 7, .cv_pct = 30
	};
	struct gd_live_row r = {
		.phase = "DD:rev",
		.phase_column = true,
		.lat = { .min_us = 1,
			 .max_us = 10,
			 .typical_us = 5,
			 .avg_us = 5.5,
			 .stdev_us = 2.87,
			 .p99_us = 10,
			 .p999_us = 10 },
		.size_bytes = 2,
		.iters = 1000,
		.spread = &sp,
		.cpu_util_pct = 12.5,
	};
	struct capture c;
	struct gd_report *rep = new_report(&c, true, false, GD_MEASURE_LAT, 3);

	gd_report_live_row(rep, &r);
	gd_report_free(rep);
	fclose(c.f);
	assert_non_null(strstr(c.buf, " phase      #bytes #iterations"));
	assert_non_null(strstr(c.buf, "CV[%]    t_typical min..max[usec]\n"));
	assert_non_null(strstr(c.buf, " CPU utilisation during 2 B: 12.5%\n"
				      " DD:rev     2      1000 "));
	assert_non_null(strstr(c.buf, " 30.0 !   4.00..7.00\n"));
	free(c.buf);
}

/* -b: the row is the sum, the line after it each direction. */
static void test_live_bidir(void **state)
{
	struct gd_live_row r = { .phase = "HH:bidir",
				 .direction = "bidir",
				 .is_bw = true,
				 .bw = bw_of(65536, 300),
				 .bidir = true,
				 .c2s_MiBps = 160,
				 .s2c_MiBps = 140,
				 .cpu_util_pct = -1 };
	struct capture c;
	struct gd_report *rep = new_report(&c, true, false, GD_MEASURE_BW, 1);

	gd_report_live_row(rep, &r);
	gd_report_free(rep);
	fclose(c.f);
	assert_non_null(strstr(
		c.buf,
		" Phase HH:bidir (bidir)\n" BW_COLUMNS
		" 65536      1000           600.00              300.00                0.004800\n"
		" bidirectional 65536 B: client->server 160.00 + server->client 140.00 = sum 300.00 MiB/s\n"));
	free(c.buf);
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A counter list of one side: traffic that moved, an error that did
 * (in DD only), one that did not. */
static struct json_object *counters_of(unsigned int p)
{
	char text[512];

	snprintf(
		text, sizeof(text),
		"{\"local\": {\"counters\": ["
		"{\"name\": \"port_xmit_data\", \"delta\": %u, \"unit\": \"bytes\", \"class\": \"traffic\"},"
		"{\"name\": \"port_rcv_data\", \"delta\": %u, \"unit\": \"bytes\", \"class\": \"traffic\"},"
		"{\"name\": \"symbol_error\", \"delta\": %u, \"unit\": \"count\", \"class\": \"error\"},"
		"{\"name\": \"link_downed\", \"delta\": 0, \"unit\": \"count\", \"class\": \"error\"}]}}",
		1000 * (p + 1), 900 * (p + 1), p == 1 ? 2 : 0);
	return json_tokener_parse(text);
}

/* gd_write_bw --loopback -a --reverse --mem=hugepage as the report sees
 * it: the engine's header fields, 23 sizes of 4 phases, counters, the
 * comparison. */
static void run_sweep(struct gd_report *rep)
{
	static const char *const names[] = { "HH", "DD", "HH:rev", "DD:rev" };
	struct json_object *cmp = NULL, *verd = NULL;
	bool failed = false;

	gd_report_header_str(rep, "test", "Test", "gd_write_bw");
	gd_report_header_str(rep, "role", "Role", "loopback client");
	gd_report_header_str(rep, "device", "Device", "rxe0");
	gd_report_header_int(rep, "port", "Port", 1);
	gd_report_header_str(rep, "link_layer", "Link type", "Ethernet");
	gd_report_header_int(rep, "active_mtu_bytes", "Active MTU", 1024);
	gd_report_header_str(rep, "gid", "GID index",
			     "1 (RoCE v2, ::ffff:10.0.2.15)");
	gd_report_header_str(rep, "qp_type", "Connection", "RC");
	gd_report_header_str(rep, "memory", "Device memory", "hugepage");
	gd_report_header_str(rep, "route", "Route", "plain");
	gd_report_header_str(rep, "phases", "Phases", "HH,DD,HH:rev,DD:rev");
	gd_report_header_str(rep, "peer", "Peer", "127.0.0.1");
	gd_report_header_str(rep, "clock", "Clock", "clock_gettime");
	gd_report_header_done(rep);
	for (unsigned int p = 0; p < 4; p++) {
		int idx = gd_report_phase_begin(
			rep, names[p], p % 2 ? "DD" : "HH",
			p < 2 ? "forward" : "reverse", NULL);

		for (unsigned int z = 1; z <= 23; z++) {
			struct gd_bw_summary b = bw_of(
				1ULL << z, (100.0 + z) * (p % 2 ? 0.9 : 1));

			gd_report_bw_row(rep, idx, &b);
		}
		gd_report_phase_set(rep, idx, "counters", counters_of(p % 2));
	}
	assert_int_equal(
		gd_compare_run(gd_report_root(rep), NULL, &cmp, &verd, &failed),
		0);
	gd_report_comparison(rep, cmp, verd);
	gd_report_section_text(rep, "time_account", json_object_new_object(),
			       " Time: 12.0 s, of which steps 11.0 s");
}

static void test_brief_fits(void **state)
{
	struct capture c, full;
	struct gd_report *rep = new_report(&c, true, true, GD_MEASURE_BW, 1);
	struct gd_report *all =
		new_report(&full, true, false, GD_MEASURE_BW, 1);
	char *brief_doc, *full_doc;

	run_sweep(rep);
	run_sweep(all);
	brief_doc = phases_json(rep);
	full_doc = phases_json(all);
	assert_string_equal(brief_doc, full_doc);
	assert_int_equal(gd_report_finish(rep, 0), 0);
	assert_int_equal(gd_report_finish(all, 0), 0);
	gd_report_free(rep);
	gd_report_free(all);
	fclose(c.f);
	fclose(full.f);
	print_message("brief: %u lines, full: %u lines\n", count_lines(c.buf),
		      count_lines(full.buf));
	assert_true(count_lines(c.buf) <= 40);
	assert_true(count_lines(full.buf) > 80);
	assert_non_null(strstr(
		c.buf,
		" gd_write_bw on rxe0 port 1 (Ethernet), peer 127.0.0.1, phases HH,DD,HH:rev,DD:rev\n"
		" Device memory hugepage; Route plain\n"));
	assert_non_null(
		strstr(c.buf, " Side by side (average bandwidth: MiB/s)\n"));
	/* one line per size, both directions on it */
	assert_non_null(strstr(c.buf, " 8388608    123.00 "));
	assert_non_null(strstr(c.buf, "DD/HH rev"));
	assert_non_null(
		strstr(c.buf, " symbol_error                     4 count !\n"));
	assert_non_null(strstr(
		c.buf,
		"\n port_xmit_data 6000 bytes, port_rcv_data 5400 bytes\n"));
	assert_null(strstr(c.buf, "link_downed"));
	assert_non_null(strstr(c.buf, " Verdict"));
	/* no per-size tables, no time line, no GID line */
	assert_null(strstr(c.buf, "BW peak"));
	assert_null(strstr(c.buf, " Time: "));
	assert_null(strstr(c.buf, "GID"));
	free(brief_doc);
	free(full_doc);
	free(c.buf);
	free(full.buf);
}

static void test_progress_mode(void **state)
{
	enum gd_progress_mode m = GD_PROGRESS_NONE;

	assert_int_equal(gd_progress_mode_parse(NULL, &m), 0);
	assert_int_equal(m, GD_PROGRESS_AUTO);
	assert_int_equal(gd_progress_mode_parse("none", &m), 0);
	assert_int_equal(m, GD_PROGRESS_NONE);
	assert_int_equal(gd_progress_mode_parse("line", &m), 0);
	assert_int_equal(m, GD_PROGRESS_LINE);
	assert_int_equal(gd_progress_mode_parse("auto", &m), 0);
	assert_int_equal(m, GD_PROGRESS_AUTO);
	assert_int_equal(gd_progress_mode_parse("Line", &m), -EINVAL);
	assert_int_equal(gd_progress_mode_parse("", &m), -EINVAL);
	assert_true(gd_progress_enabled(GD_PROGRESS_AUTO, true));
	assert_false(gd_progress_enabled(GD_PROGRESS_AUTO, false));
	assert_false(gd_progress_enabled(GD_PROGRESS_NONE, true));
	assert_true(gd_progress_enabled(GD_PROGRESS_LINE, false));
}

static void test_progress_eta_format(void **state)
{
	struct gd_progress p = { .tool = "gd_write_bw",
				 .phase = "DD:rev",
				 .size_bytes = 65536,
				 .round = 2,
				 .rounds = 3,
				 .done = 10,
				 .total = 92,
				 .elapsed_s = 20 };
	char buf[160];

	/* 2 s per step, 82 steps left */
	assert_true(gd_progress_eta_s(&p) == 164.0);
	assert_string_equal(
		gd_progress_format(buf, sizeof(buf), &p),
		"gd_write_bw: DD:rev 65536 B, round 2/3, step 11/92, 2:44 left");
	/* no step done yet: -D's length per step */
	p.done = 0;
	p.elapsed_s = 0;
	p.step_s = 60;
	assert_true(gd_progress_eta_s(&p) == 92 * 60.0);
	assert_string_equal(
		gd_progress_format(buf, sizeof(buf), &p),
		"gd_write_bw: DD:rev 65536 B, round 2/3, step 1/92, 1:32:00 left");
	p.step_s = 0;
	assert_true(gd_progress_eta_s(&p) == -1);
	assert_non_null(strstr(gd_progress_format(buf, sizeof(buf), &p),
			       ", time left unknown"));
	/* --precision: the most rounds, the most time */
	p.done = 46;
	p.elapsed_s = 46;
	p.rounds_at_most = true;
	assert_string_equal(
		gd_progress_format(buf, sizeof(buf), &p),
		"gd_write_bw: DD:rev 65536 B, round 2/<=3, step 47/92, 0:46 left at most");
	/* the last step: nothing left */
	p.done = 92;
	assert_true(gd_progress_eta_s(&p) == 0);
}

/* The line on stderr is erased before a notice, a status line, a live
 * row, a section's line (-W, -H) and at the end; shown only when the
 * report was told to. */
static void test_progress_erased(void **state)
{
	char path[] = "/tmp/gd_progress_test.XXXXXX", text[1024] = "";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	struct gd_progress p = { .tool = "t",
				 .phase = "HH",
				 .size_bytes = 2,
				 .round = 1,
				 .rounds = 1,
				 .total = 4 };
	struct gd_live_row r = { .phase = "HH",
				 .is_bw = true,
				 .bw = bw_of(2, 1),
				 .cpu_util_pct = -1 };
	struct capture c, q;
	struct gd_report *quiet = new_report(&q, true, false, GD_MEASURE_BW, 1);
	struct gd_report *rep = new_report(&c, true, false, GD_MEASURE_BW, 1);
	struct gd_report_cfg cfg = { .tool = "t",
				     .measure = GD_MEASURE_BW,
				     .text = c.f,
				     .live = true,
				     .progress = true };
	ssize_t n;

	/* the same text stream, with the progress line on */
	gd_report_free(rep);
	rep = gd_report_new(&cfg, 0, NULL);

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	/* wider than 79 columns: cut, so that it never wraps */
	p.tool = "gd_write_bw_with_a_name_long_enough_to_pass_79_columns";
	gd_progress_show(&p);
	gd_progress_clear();
	p.tool = "t";
	gd_report_progress(quiet, &p); /* cfg.progress off: nothing */
	gd_report_progress(rep, &p);
	gd_report_notice("t: a notice");
	gd_report_progress(rep, &p);
	gd_report_status(rep, "a status line");
	gd_report_progress(rep, &p);
	gd_report_live_row(rep, &r);
	gd_report_progress(rep, &p);
	gd_report_section_text(rep, NULL, NULL, " a -W line");
	gd_report_progress(rep, &p);
	gd_report_progress_end(rep);
	gd_report_progress_end(rep); /* nothing shows: no second erase */
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	unlink(path);
	assert_true(n > 0);
#define LINE "\r\033[Kt: HH 2 B, round 1/1, step 1/4, time left unknown"
#define ERASE "\r\033[K"
	/* shown, erased before each other line, once at the end */
	assert_string_equal(
		text,
		"\r\033[Kgd_write_bw_with_a_name_long_enough_to_pass_79_"
		"columns: HH 2 B, round 1/1, step" ERASE LINE ERASE
		"t: a notice\n" LINE ERASE LINE ERASE LINE ERASE LINE ERASE);
#undef LINE
#undef ERASE
	fflush(c.f);
	assert_non_null(strstr(c.buf, "a status line\n"));
	assert_non_null(strstr(c.buf, " a -W line\n"));
	gd_report_free(rep);
	gd_report_free(quiet);
	fclose(c.f);
	fclose(q.f);
	free(c.buf);
	free(q.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_two_phases),
		cmocka_unit_test(test_live_one_phase),
		cmocka_unit_test(test_live_latency_spread),
		cmocka_unit_test(test_live_bidir),
		cmocka_unit_test(test_brief_fits),
		cmocka_unit_test(test_progress_mode),
		cmocka_unit_test(test_progress_eta_format),
		cmocka_unit_test(test_progress_erased),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
