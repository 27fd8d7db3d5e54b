/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The gates as JUnit XML (--junit=FILE), the test report format GitLab,
 * Jenkins and most CI services show natively: one testsuite per run, one
 * testcase per gate per phase and direction and per phase, built from the
 * same JSON document the run writes.
 */
#ifndef GD_REPORT_JUNIT_H
#define GD_REPORT_JUNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

/* @s as XML attribute or text content: markup escaped, control
 * characters other than tab and newline dropped (XML 1.0 has none). */
void gd_junit_escape(FILE *f, const char *s);
/* One testcase: @kind NULL (passed; @detail, if any, as its system-out),
 * "failure", "error" or "skipped", with @type and @message (the evidence
 * line) and @detail as the element's text. */
void gd_junit_case(FILE *f, const char *classname, const char *name,
		   const char *kind, const char *type, const char *message,
		   const char *detail);
/* One <property name= value=/>; nothing when @value is NULL. */
void gd_junit_property(FILE *f, const char *name, const char *value);

/*
 * The run document @doc as one <testsuite>: its properties (the document
 * @doc_path, the envelope, the start and wall time, the exit status),
 * a testcase per gate record (failed: <failure type="gate_failed"> whose
 * message is the verdict's evidence line; undecided: type
 * "gate_undecided"), one per phase (a phase that did not run: <error>),
 * and one <error> for a run that failed before its phases.
 */
void gd_junit_run_suite(FILE *f, struct json_object *doc, const char *doc_path);
struct gd_junit_count {
	int tests, failures, errors, skipped;
};

/* The testcases of @doc's gates[] (a run document or gd_compare's
 * comparison record, whose verdicts hold the evidence lines and whose
 * assessments the sizes), counted into @n. A failed gate's body lists
 * each failing size with its ratio and bound, an undecided one the rounds
 * that would settle it, then the rule that decided. An undecided gate is a
 * failure (--gate-undecided=fail), an error (=undecided) or a pass with a
 * note (=pass). */
void gd_junit_gates(FILE *f, struct json_object *doc, const char *classname,
		    struct gd_junit_count *n);
/* <testsuites> around gd_junit_run_suite(), written atomically to
 * @path. 0 or -errno. */
int gd_junit_run_write(const char *path, struct json_object *doc,
		       const char *doc_path);
/* "<?xml ...?>\n<testsuites name=...>" and its end, for gd_report and
 * gd_compare's several suites. */
void gd_junit_begin(FILE *f, const char *name);
void gd_junit_end(FILE *f);
/* What a <testsuite> says of itself: the plugin shows name, timestamp
 * (the first 19 characters of an ISO 8601 UTC time: NULL or shorter, when
 * this program started), hostname (NULL: "(unknown)") and time. */
struct gd_junit_suite_id {
	const char *name, *timestamp, *hostname;
	double time_s;
};

/* A <testsuite> of the cases already in @cases (a finished string). */
void gd_junit_suite(FILE *f, const struct gd_junit_suite_id *id, int tests,
		    int failures, int errors, int skipped,
		    const char *properties, const char *cases);
/* Seconds since this program started; @ts (may be NULL) receives that
 * start as "YYYY-MM-DDTHH:MM:SSZ". */
double gd_junit_since_start(char *ts, size_t len);
/* This machine's name into @buf, "(unknown)" when it has none. */
const char *gd_junit_hostname(char *buf, size_t len);

#endif
