// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A run document as a JUnit test suite: each gate record a testcase (its
 * failure's message the verdict's evidence line), each phase a testcase
 * (one that did not run an error), and the run's identity as properties.
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/junit.h"
#include "report/metrics.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/output.h"

struct gd_junit_count {
	int tests, failures, errors;
};

/* The gate's line in the GD_GATE_FAIL or GD_GATE_UNDECIDED verdict's
 * evidence: it starts with the gate and names its phase and direction. */
static const char *gd_junit_evidence(struct json_object *doc,
				     struct json_object *g, const char *code)
{
	struct json_object *vs = gd_json_path(doc, "verdicts", NULL);
	const char *gate = gd_json_str(g, "gate") ?: "";
	const char *where = gd_json_str(g, "comparison")
				    ?: gd_json_str(g, "phase") ?: "";
	const char *dir = gd_json_str(g, "direction") ?: "";

	for (size_t i = 0; i < gd_json_len(vs); i++) {
		struct json_object *v = gd_json_idx(vs, i);
		struct json_object *ev = gd_json_path(v, "evidence", NULL);

		if (strcmp(gd_json_str(v, "code") ?: "", code))
			continue;
		for (size_t j = 0; j < gd_json_len(ev); j++) {
			const char *line =
				json_object_get_string(gd_json_idx(ev, j));

			if (line && !strncmp(line, gate, strlen(gate)) &&
			    strstr(line, where) && strstr(line, dir))
				return line;
		}
	}
	return NULL;
}

static void gd_junit_gate(FILE *f, struct json_object *doc,
			  struct json_object *g, const char *tool,
			  struct gd_junit_count *n)
{
	const char *state = gd_metrics_gate_state(g);
	bool undecided = !strcmp(state, "undecided");
	const char *ev, *policy = gd_json_str(g, "policy");
	char name[160], msg[512];
	double fig = 0, thr = 0;

	snprintf(name, sizeof(name), "%s %s %s", gd_json_str(g, "gate") ?: "?",
		 gd_json_str(g, "comparison") ?: gd_json_str(g, "phase") ?: "",
		 gd_json_str(g, "direction") ?: "");
	n->tests++;
	if (!strcmp(state, "passed")) {
		gd_junit_case(f, tool, name, NULL, NULL, NULL, NULL);
		return;
	}
	n->failures++;
	ev = gd_junit_evidence(
		doc, g, undecided ? GD_V_GATE_UNDECIDED : GD_V_GATE_FAIL);
	if (!ev) {
		bool has = gd_json_num(g, "figure", &fig);

		gd_json_num(g, "threshold", &thr);
		snprintf(msg, sizeof(msg),
			 "%s %s: figure %s%.4g, threshold %.4g", name,
			 undecided ? "undecided" : "failed", has ? "" : "none ",
			 has ? fig : 0.0, thr);
		ev = msg;
	}
	gd_junit_case(f, tool, name, "failure",
		      undecided ? "gate_undecided" : "gate_failed", ev, policy);
}

void gd_junit_gates(FILE *f, struct json_object *doc, const char *classname,
		    int *tests, int *failures)
{
	struct json_object *gates = gd_json_path(doc, "gates", NULL);
	struct gd_junit_count n = { 0 };

	for (size_t i = 0; i < gd_json_len(gates); i++)
		gd_junit_gate(f, doc, gd_json_idx(gates, i), classname, &n);
	*tests += n.tests;
	*failures += n.failures;
}

static void gd_junit_phase(FILE *f, struct json_object *p, const char *tool,
			   struct gd_junit_count *n)
{
	const char *st = gd_json_str(p, "status") ?: "?";
	const char *err =
		gd_json_str(gd_json_path(p, "error", NULL), "message");
	char name[96], msg[160];

	snprintf(name, sizeof(name), "phase %s %s",
		 gd_json_str(p, "name") ?: "?",
		 gd_json_str(p, "direction") ?: "");
	n->tests++;
	if (!strcmp(st, "ok")) {
		gd_junit_case(f, tool, name, NULL, NULL, NULL, NULL);
		return;
	}
	n->errors++;
	snprintf(msg, sizeof(msg), "%s did not run (status %s)", name, st);
	gd_junit_case(f, tool, name, "error",
		      !strcmp(st, "skipped") ? "phase_skipped" : "phase_failed",
		      err ?: msg, err ? msg : NULL);
}

static char *gd_junit_properties(struct json_object *doc, const char *doc_path)
{
	struct json_object *env = gd_json_path(doc, "envelope", NULL);
	char *buf = NULL, num[64], envp[4096];
	size_t len = 0;
	double v;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	gd_junit_property(f, "document", doc_path ?: "(not written)");
	snprintf(envp, sizeof(envp), "%s#/envelope",
		 doc_path && strcmp(doc_path, "-") ? doc_path : "document");
	gd_junit_property(f, "envelope", env ? envp : "(none)");
	gd_junit_property(f, "envelope_schema", gd_json_str(env, "schema"));
	gd_junit_property(f, "started_at", gd_json_str(doc, "started_at"));
	if (gd_json_num(gd_json_path(doc, "time_account", NULL), "wall_s",
			&v)) {
		snprintf(num, sizeof(num), "%.3f", v);
		gd_junit_property(f, "wall_s", num);
	}
	snprintf(num, sizeof(num), "%lld",
		 (long long)gd_json_int(doc, "exit_status", -1));
	gd_junit_property(f, "exit_status", num);
	gd_junit_property(f, "hostname", gd_json_str(doc, "hostname"));
	gd_junit_property(
		f, "device",
		gd_json_str(gd_json_path(doc, "header", NULL), "device"));
	gd_junit_property(f, "version", gd_json_str(doc, "version"));
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void gd_junit_run_suite(FILE *f, struct json_object *doc, const char *doc_path)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	const char *tool = gd_json_str(doc, "tool") ?: "gdperf";
	const char *err =
		gd_json_str(gd_json_path(doc, "error", NULL), "message");
	struct gd_junit_count n = { 0 };
	char *cases = NULL, *props, name[160];
	size_t len = 0;
	double wall = 0;
	FILE *c = open_memstream(&cases, &len);

	if (!c)
		return;
	gd_junit_gates(c, doc, tool, &n.tests, &n.failures);
	for (size_t i = 0; i < gd_json_len(phases); i++)
		gd_junit_phase(c, gd_json_idx(phases, i), tool, &n);
	if (!gd_json_len(phases)) {
		n.tests++;
		n.errors++;
		gd_junit_case(c, tool, "run", "error", "run_failed",
			      err ?: "the run measured no phase", NULL);
	}
	if (fclose(c)) {
		free(cases);
		return;
	}
	props = gd_junit_properties(doc, doc_path);
	gd_json_num(gd_json_path(doc, "time_account", NULL), "wall_s", &wall);
	snprintf(name, sizeof(name), "%s%s%s", tool,
		 gd_json_str(gd_json_path(doc, "header", NULL), "device") ? " "
									  : "",
		 gd_json_str(gd_json_path(doc, "header", NULL), "device")
			 ?: "");
	gd_junit_suite(f, name, gd_json_str(doc, "started_at"), wall, n.tests,
		       n.failures, n.errors, 0, props, cases);
	free(props);
	free(cases);
}

int gd_junit_run_write(const char *path, struct json_object *doc,
		       const char *doc_path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return gd_err(-ENOMEM, "--junit: out of memory building '%s'",
			      path);
	gd_junit_begin(f, "gdperf");
	gd_junit_run_suite(f, doc, doc_path);
	gd_junit_end(f);
	if (fclose(f)) {
		free(buf);
		return gd_err(-ENOMEM, "--junit: out of memory building '%s'",
			      path);
	}
	ret = gd_out_file_atomic("--junit", path, buf);
	free(buf);
	return ret;
}
