/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One call per field feeds both the text table (stdout) and the JSON
 * document (one per invocation, written atomically at the end).
 *
 * JSON document, schema "gdperf.run/4" (keys carry their unit; /2 added
 * --repeat's samples and spread, "statistics" and "gates"; a /1 reader
 * that ignores unknown keys reads /2; /3 writes every key of "options" in
 * snake_case, /2 used the option names: "ib-dev" is now "ib_dev"; /4 does
 * the same in "test": "no-interleave" is now "no_interleave"):
 * {
 *   "schema": "gdperf.run/4", "tool": "gd_write_bw", "version": "0.1.0",
 *   "command_line": ["gd_write_bw", "-a", ...], "started_at": ISO-8601 UTC,
 *   "hostname": "...", "role": "client"|"server"|"loopback",
 *   "labels": {"k": "v", ...},          from --label K=V (gd_plan uses them)
 *   "test": {"verb": "write", "measure": "bw"|"lat", "connection": "RC",
 *            "qps": 1, "size_bytes": 65536, "all": false,
 *            "min_size_bytes": 2, "max_size_bytes": 8388608,
 *            "iterations": 5000, "duration_s": 0, "warmup_iterations": 100,
 *            "tx_depth": 128, "rx_depth": 512, "cq_mod": 100,
 *            "post_list": 1, "inline_bytes": 0, "phases": "HH,DD", ...},
 *   "header": {"device": "rxe0", "port": 1, "link_layer": "Ethernet",
 *              "active_mtu_bytes": 1024, "gid_index": 1, ...},
 *   "endpoints": {"local": {...}, "remote": {...}},
 *   "units": {"size": "bytes", "bw": "MiB/s" (or "Gb/s"), "msg_rate": "Mpps",
 *             "lat": "usec"},
 *   "phases": [ {"name": "HH", "placement": "HH", "direction": "forward",
 *                "status": "ok"|"failed"|"skipped", "error": {..}|null,
 *                "memory": {"local": {...}, "remote": {...}},
 *                "results": [ {"size_bytes": N, "iterations": N,
 *                              "bw_peak_MiBps": x, "bw_avg_MiBps": x,
 *                              "bw_avg_Gbps": x, "msg_rate_Mpps": x} |
 *                             {"size_bytes": N, "iterations": N,
 *                              "lat_min_us": x, "lat_max_us": x,
 *                              "lat_typical_us": x, "lat_avg_us": x,
 *                              "lat_stdev_us": x, "lat_p99_us": x,
 *                              "lat_p999_us": x} ],
 *                with --repeat=N > 1 each row is the median repeat's
 *                (lower median for even N) plus "repeats": N,
 *                "median_repeat": k, "spread": {"n", "median", "min",
 *                "max", "mean", "cv_pct", "high"} of its primary figure,
 *                and "samples": [one row per repeat, "repeat": 1..N],
 *                "counters": {"local": {...}, "remote": {...}} } ],
 *   "comparison": [...], "verdicts": [...],
 *   "statistics": {"repeats", "method", "assumptions", "confidence",
 *                  "alpha", "dispersion", "assessments": [...]},
 *   "gates": [{"gate", "threshold", "policy", "figure", "interval", ...}],
 *   "latency_samples": [...] (-H, -U, -C: report/perftest_modes.h),
 *   (compare.h and compare_priv.h describe these three)
 *   "envelope": {...} (gd_doctor's), "error": null | {"code": -errno,
 *   "errno_name": "ENOMEM", "message": "..."}, "exit_status": 0,
 *   "interrupted": {"signal": "SIGTERM", "during": "phase DD size 65536
 *                   round 2", "received_by": "client"|"server"}
 *                  only when SIGINT or SIGTERM ended the run early (on
 *                  either end; the steps not run say "not run: interrupted")
 * }
 */
#ifndef GD_REPORT_H
#define GD_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "util/stats.h"

struct json_object;

enum gd_output_only {
	GD_OUTPUT_ALL = 0,	/* full table */
	GD_OUTPUT_BANDWIDTH,	/* --output=bandwidth: average BW only */
	GD_OUTPUT_MESSAGE_RATE, /* --output=message_rate */
	GD_OUTPUT_LATENCY,	/* --output=latency: typical latency only */
};

struct gd_report_cfg {
	const char *tool; /* "gd_write_bw" */
	const char *version;
	enum gd_measure measure;
	bool report_gbits; /* BW columns in Gb/s instead of MiB/s */
	enum gd_output_only only;
	const char *json_path; /* NULL: no JSON; "-": stdout (text to stderr) */
	FILE *text;	       /* normally stdout; NULL = no text */
	unsigned int repeats;  /* --repeat; > 1 adds the spread columns */
	bool repeats_vary;     /* --precision: rounds differ by size */
	/* The rows' text comes from gd_report_live_row as each size is
	 * complete; the row calls below then only build the document. */
	bool live;
	/* --brief: a short header, the side-by-side table, the counters that
	 * moved and the verdicts; no rows, no other sections' lines. */
	bool brief;
	bool progress; /* gd_report_progress shows its line on stderr */
	/* --openmetrics=FILE: the document's gauges (report/metrics.h);
	 * per size too with --openmetrics-sizes */
	const char *metrics_path;
	bool metrics_sizes;
	/* --junit=FILE: the gates as a JUnit test suite (report/junit.h) */
	const char *junit_path;
};

struct gd_report;

struct gd_report *gd_report_new(const struct gd_report_cfg *cfg, int argc,
				char **argv);
void gd_report_free(struct gd_report *rep);

/* Header block: text "  Key : value" lines and json "header".key.
 * gd_report_header_str/int also set the JSON value with the right type. */
void gd_report_header_str(struct gd_report *rep, const char *key,
			  const char *label, const char *value);
void gd_report_header_int(struct gd_report *rep, const char *key,
			  const char *label, long long value);
/* Print the header block (call once after the header fields are set). */
void gd_report_header_done(struct gd_report *rep);

/* Top-level JSON sections owned by other modules ("test", "endpoints",
 * "labels", "envelope", "comparison", "verdicts"); takes ownership. */
void gd_report_set_section(struct gd_report *rep, const char *key,
			   struct json_object *val);
struct json_object *gd_report_root(struct gd_report *rep);
/* A section and the one line of text that says what it holds (printed
 * where the tables go, when text is on). */
void gd_report_section_text(struct gd_report *rep, const char *key,
			    struct json_object *val, const char *text);

/* Phases: begin returns an index; rows go to the current phase. Text prints
 * the column header when a phase begins (perftest's exact column names). */
int gd_report_phase_begin(struct gd_report *rep, const char *name,
			  const char *placement, const char *direction,
			  struct json_object *memory);
/* Both return the JSON row just added (owned by the document, NULL when
 * @phase does not exist) so callers can add keys to that same row. */
struct json_object *gd_report_bw_row(struct gd_report *rep, int phase,
				     const struct gd_bw_summary *bw);
struct json_object *gd_report_lat_row(struct gd_report *rep, int phase,
				      const struct gd_lat_summary *lat,
				      uint64_t size_bytes, uint64_t iters);
void gd_report_phase_set(struct gd_report *rep, int phase, const char *key,
			 struct json_object *val);
/* A bidirectional size: the row is the labelled sum of both directions and
 * keeps each one under "directions"; the table gets a line with each
 * direction and the sum after the row. @s2c is NULL when the server's half
 * never arrived (its direction is null, the sum is the client's alone). */
struct json_object *gd_report_bidir_row(struct gd_report *rep, int phase,
					const struct gd_bw_summary *c2s,
					const struct gd_bw_summary *s2c);
/* --repeat: the next row is the median repeat of @sp (its primary figure:
 * average bandwidth, or typical latency); its text line gains the spread
 * columns (CV, marked "!" above GD_SPREAD_HIGH_PCT, and min..max). */
struct gd_spread;
void gd_report_next_spread(struct gd_report *rep, const struct gd_spread *sp);
/* --cpu_util: the table's line for one size, printed before that size's row
 * (the row itself carries "cpu_util_pct"). Only the full table has it. */
void gd_report_cpu_util(struct gd_report *rep, uint64_t size_bytes, double pct);
/* The paired run's comparison and verdicts: into the document, and their
 * tables printed wherever the run's table goes. Takes ownership of both. */
void gd_report_comparison(struct gd_report *rep, struct json_object *cmp,
			  struct json_object *verd);
/*
 * Live output (cfg.live). One (phase, size) is complete: its row, in the
 * layout of that phase's table, printed and flushed at once. The first
 * row brings the column header; with @phase_column, the phase's name
 * leads each row (a sweep of several phases), else the table is
 * perftest's own under a " Phase NAME (direction)" line. The document
 * gets its rows at the end from the row calls above, in size order.
 */
struct gd_live_row {
	const char *phase, *direction;
	bool phase_column;
	bool is_bw;
	struct gd_bw_summary bw;     /* bidirectional: the sum of both */
	bool bidir;		     /* then a line with each direction: */
	double c2s_MiBps, s2c_MiBps; /* (a missing server half reads 0) */
	struct gd_lat_summary lat;   /* with size_bytes and iters: */
	uint64_t size_bytes, iters;
	const struct gd_spread *spread; /* rounds' spread, or NULL */
	double cpu_util_pct;		/* --cpu_util, < 0 when not */
};
void gd_report_live_row(struct gd_report *rep, const struct gd_live_row *row);
/* The sweep's progress line (report/progress.h) when cfg.progress; and its
 * end, which erases it. Every other line a report prints erases it too. */
struct gd_progress;
void gd_report_progress(struct gd_report *rep, const struct gd_progress *p);
void gd_report_progress_end(struct gd_report *rep);
/* @stage (may be NULL) says where it failed: register, config, oob, ... */
void gd_report_phase_fail(struct gd_report *rep, int phase, int err,
			  const char *msg, const char *stage);

/* Record the run's error (code is -errno) and the final exit status. */
void gd_report_set_error(struct gd_report *rep, int err, const char *msg);
/*
 * The lines a run prints beside its table: notes, and failures that the
 * table cannot carry. Each is @fmt plus a newline on stderr, never on the
 * table's stream, so stdout stays the table (or the JSON document with
 * --out_json_file=-). The caller names itself in @fmt ("gd_write_bw: ...");
 * no report needs to exist yet.
 */
void gd_report_notice(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/*
 * From now on notices (gd_report_error's lines too) go to @fd instead of
 * stderr; -1 goes back to stderr. The --loopback server half hands its lines
 * to the client half this way, which prints those it has not printed itself
 * (gd_report_notice_covers), so that one failure is printed once.
 */
void gd_report_notices_to(int fd);
/* Did one of the last lines this process printed as a notice contain
 * @text? */
bool gd_report_notice_covers(const char *text);
/*
 * A line of the run's text that is neither a table row nor a notice (the
 * server's "Waiting for client" line, as perftest prints it): written and
 * flushed where the table goes (stdout; stderr with --out_json_file=-),
 * never into the document; nothing when the text is off.
 */
void gd_report_status(struct gd_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same line outside any run's report (--persist's waiting line between
 * clients): stdout, or stderr when @json_to_stdout (--out_json_file=-). */
void gd_report_status_line(bool json_to_stdout, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The run's error, printed once as "@who: error: @msg" (gd_report_notice)
 * and, when @rep is not NULL, recorded in its document
 * (gd_report_set_error). @who is the program, " (server)" added on a
 * server.
 */
void gd_report_error(struct gd_report *rep, const char *who, int err,
		     const char *msg);
/*
 * Write the JSON document atomically (tmp + rename) if configured. When the
 * file cannot be written (a full disk: ENOSPC), the message names the file
 * and the cause, and the document goes to stdout instead, after the table,
 * its exit_status 1 where it was 0 and the write error under "error" (or
 * "output_error" when the run already had one); returns that -errno.
 */
int gd_report_finish(struct gd_report *rep, int exit_status);

#endif
