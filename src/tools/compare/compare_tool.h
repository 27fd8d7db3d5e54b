/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_compare: saved run documents judged again with the run's own
 * comparison, assessment, gate and verdict code (report/compare.h). What
 * its files share: the options, the loaded inputs, and the exit statuses.
 */
#ifndef GD_COMPARE_TOOL_H
#define GD_COMPARE_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/metrics.h"
#include "util/exit.h"

struct json_object;

/* Exit statuses: the one table of util/exit.h, in gd_compare's words. */
enum {
	GD_CMPX_OK = GD_EXIT_OK,
	GD_CMPX_FAIL = GD_EXIT_FAIL, /* a comparison or an output failed */
	/* bad command line, or a document unreadable or refused */
	GD_CMPX_USAGE = GD_EXIT_USAGE,
	GD_CMPX_SLOWER = GD_EXIT_GATE_FAILED,
	GD_CMPX_UNDECIDED = GD_EXIT_GATE_UNDECIDED,
};

struct gd_cmp_opts {
	double expect_ratio; /* 0: the baseline's own, else 0.8 */
	uint64_t gate_from;  /* with have_gate_from; else the baseline's */
	bool have_gate_from;
	/* the sizes the assessments judge, from this size up: --gate-from
	 * when given, else what the baseline run judged (all sizes, 0, unless
	 * that run was given --gate-from), as the run itself does */
	uint64_t judge_from;
	const char *phase;	  /* placement compared across documents */
	const char *direction;	  /* "forward", "reverse" or "bidir" */
	const char *json_path;	  /* gdperf.compare/1 document; "-" stdout */
	const char *plot_path;	  /* --plot: SVG (and its gnuplot script) */
	const char *junit_path;	  /* --junit: JUnit XML */
	const char *metrics_path; /* --openmetrics: OpenMetrics gauges */
	const char *prom_path;	  /* --prom-textfile: Prometheus text */
	bool undecided_pass;	  /* --gate-undecided=pass */
	bool quiet;
};

/* One input document, as read. */
struct gd_cmp_input {
	const char *path;
	struct json_object *doc;
};

/* cmp_load.c: read and check one gdperf.run/4, /3 or /2 document (-EINVAL/-EIO
 * recorded with the file, the reason and the next check). */
int gd_cmp_load(const char *path, struct json_object **doc);
/* The run's identity for the gdperf.compare/1 document. */
struct json_object *gd_cmp_identity(const struct gd_cmp_input *in);

/* cmp_pair.c: a run-shaped document whose HH phase is the baseline's
 * chosen phase and whose DD phase is the candidate's, at their common
 * sizes, or (one document) a copy of it without its judgement. */
int gd_cmp_pair_doc(const struct gd_cmp_opts *o,
		    const struct gd_cmp_input *base,
		    const struct gd_cmp_input *cand, struct json_object **out);
int gd_cmp_self_doc(const struct gd_cmp_input *in, struct json_object **out);

/* cmp_judge.c: judge @doc with the run's code, print it unless quiet, and
 * return its record for the gdperf.compare/1 document; *status is the
 * exit status this comparison asks for. */
struct json_object *gd_cmp_judge(const struct gd_cmp_opts *o,
				 const struct gd_cmp_input *base,
				 const struct gd_cmp_input *cand,
				 struct json_object *doc, FILE *out,
				 int *status);

/* Two runs' verdict codes (gd_compare(1)): the candidate is below the
 * floor (exit status 3), it is not below it at any judged size (0), or
 * the two runs cannot tell (4; 0 with --gate-undecided=pass). */
#define GD_CMP_REGRESSION "GD_REGRESSION"
#define GD_CMP_NO_REGRESSION "GD_NO_REGRESSION"
#define GD_CMP_UNDECIDED "GD_UNDECIDED"
/* the comparison's name in a two-run record (the paired document's DD/HH) */
#define GD_CMP_RUNS_LABEL "candidate/baseline"

/* cmp_runs.c: two runs' verdict ({"code", "severity", "summary",
 * "evidence", "next_check"}) from the judged paired document @doc and the
 * exit status it asks for; the overall ratio over the judged sizes with
 * its interval ({"figure", "ratio", "low", "high", "confidence",
 * "replicates", "from_bytes", "to_bytes", "sizes", "rounds",
 * "decision"}), NULL when nothing was assessed. */
struct json_object *gd_cmp_runs_verdict(struct json_object *doc, int status,
					const struct gd_cmp_input *base,
					const struct gd_cmp_input *cand);
struct json_object *gd_cmp_runs_overall(struct json_object *doc);
/* cmp_runs_text.c: the two runs' text from @doc and its record @rec
 * (comparison, overall, verdicts, outcome, exit_status), unfitted. */
void gd_cmp_runs_print(FILE *out, const struct gd_cmp_opts *o,
		       const struct gd_cmp_input *base,
		       const struct gd_cmp_input *cand, struct json_object *doc,
		       struct json_object *rec);

/* cmp_junit.c: the gdperf.compare/1 document @res as JUnit XML at @path:
 * a testsuite per comparison, a testcase per gate, the refused inputs as
 * errors; @json_path names --json's document. 0 or -errno. */
int gd_cmp_write_junit(const char *path, struct json_object *res,
		       const char *json_path);

/* cmp_metrics.c: @res's gauges at @path in @format (report/metrics.h), a
 * set per comparison labelled by its baseline and candidate files.
 * 0 or -errno. */
int gd_cmp_write_metrics(const char *path, enum gd_metrics_format format,
			 struct json_object *res);

#endif
