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
#include "report/compare_priv.h"
#include "report/junit.h"
#include "report/metrics.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/assess.h"
#include "util/output.h"

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

/* The assessment an expect-ratio gate record follows. */
static struct json_object *gd_junit_assessment(struct json_object *doc,
					       struct json_object *g)
{
	struct json_object *as = gd_json_path(doc, "statistics", "assessments");

	for (size_t i = 0; i < gd_json_len(as); i++) {
		struct json_object *a = gd_json_idx(as, i);

		if (!strcmp(gd_json_str(a, "comparison") ?: "",
			    gd_json_str(g, "comparison") ?: "-") &&
		    !strcmp(gd_json_str(a, "direction") ?: "",
			    gd_json_str(g, "direction") ?: "-"))
			return a;
	}
	return NULL;
}

/* The rule that decided, in words: the gate's own (gates.c), so that
 * the body and the document's "policy" cannot differ. */
static void gd_junit_ratio_rule(FILE *f, struct json_object *a, double floor)
{
	char rule[512];

	gd_gate_ratio_rule(rule, sizeof(rule), a, floor);
	fprintf(f, "rule: %s\n", rule);
}

/* A slower assessment's evidence: each size below the floor on its own
 * ("65536 B: 0.70 < 0.80 (95% bound 0.72)"), the run of sizes where the
 * curves part, and the bands below the floor. */
static void gd_junit_ratio_failed(FILE *f, struct json_object *a, double floor)
{
	struct json_object *sz = gd_json_path(a, "per_size", "sizes");
	struct json_object *seg = gd_json_path(a, "segment", NULL);
	struct json_object *bands = gd_json_path(a, "bands", NULL);
	double conf = 95, r, hi, from, to;
	unsigned int n = 0;

	if (gd_json_num(gd_json_path(a, "interval", NULL), "confidence", &r))
		conf = r * 100;
	for (size_t i = 0; i < gd_json_len(sz); i++) {
		struct json_object *s = gd_json_idx(sz, i);

		if (!json_object_get_boolean(json_object_object_get(s, "slow")))
			continue;
		gd_json_num(s, "ratio", &r);
		fprintf(f, "%lld B: %.2f < %.2f",
			(long long)gd_json_int(s, "size_bytes", 0), r, floor);
		if (gd_json_num(s, "high", &hi))
			fprintf(f, " (%.0f%% bound %.2f)", conf, hi);
		fputc('\n', f);
		n++;
	}
	/* the run of sizes where the curves part, unless its sizes are all
	 * listed above */
	if (json_object_get_boolean(json_object_object_get(seg, "found")) &&
	    gd_json_int(seg, "sizes", 0) > (int64_t)n &&
	    gd_json_num(seg, "ratio", &r) &&
	    gd_json_num(seg, "from_bytes", &from) &&
	    gd_json_num(seg, "to_bytes", &to)) {
		fprintf(f, "%.0f..%.0f B together (%lld sizes): %.2f < %.2f",
			from, to, (long long)gd_json_int(seg, "sizes", 0), r,
			floor);
		if (gd_json_num(seg, "high", &hi))
			fprintf(f, " (%.0f%% bound %.2f)", conf, hi);
		fputc('\n', f);
		n++;
	}
	for (size_t i = 0; !n && i < gd_json_len(bands); i++) {
		struct json_object *b = gd_json_idx(bands, i);

		if (!gd_json_num(b, "high", &hi) || hi >= floor ||
		    !gd_json_num(b, "ratio", &r))
			continue;
		gd_json_num(b, "from_bytes", &from);
		gd_json_num(b, "to_bytes", &to);
		fprintf(f,
			"band %.0f..%.0f B: %.2f < %.2f (%.0f%% bound %.2f)\n",
			from, to, r, floor, conf, hi);
	}
}

/* An undecided assessment: the rounds that would settle it, and each
 * size whose lower bound does not clear the floor yet. */
static void gd_junit_ratio_undecided(FILE *f, struct json_object *g,
				     struct json_object *a, double floor)
{
	struct json_object *sz = gd_json_path(a, "per_size", "sizes");
	long long need = (long long)gd_json_int(a, "repeats_needed", 0);
	double r, lo;

	if (!a) {
		fprintf(f,
			"undecided: %s; more rounds do not settle it, sizes at or above --gate-from with both figures do\n",
			gd_json_str(g, "reason") ?: "no assessment");
		return;
	}
	if (need > 0)
		fprintf(f,
			"undecided: about %lld%s rounds (--repeat=%lld) would settle it\n",
			need, need >= GD_ASSESS_REPEATS_CAP ? " or more" : "",
			need);
	else
		fprintf(f, "undecided: %s\n",
			gd_json_str(a, "reason") ?: "not enough evidence");
	for (size_t i = 0; i < gd_json_len(sz); i++) {
		struct json_object *s = gd_json_idx(sz, i);

		if (!json_object_get_boolean(
			    json_object_object_get(s, "undecided")))
			continue;
		gd_json_num(s, "ratio", &r);
		fprintf(f, "%lld B: %.2f",
			(long long)gd_json_int(s, "size_bytes", 0), r);
		if (gd_json_num(s, "low", &lo))
			fprintf(f, ", 95%% lower bound %.2f < %.2f", lo, floor);
		if ((long long)gd_json_int(s, "rounds_needed", 0) > 0)
			fprintf(f, ", about %lld rounds would settle it",
				(long long)gd_json_int(s, "rounds_needed", 0));
		fputc('\n', f);
	}
}

/* An absolute gate (--min-bw, --max-lat): each gated size past the
 * threshold, from the comparison rows' gate failures. */
static void gd_junit_abs_failed(FILE *f, struct json_object *doc,
				struct json_object *g)
{
	struct json_object *rows = gd_json_path(doc, "comparison", NULL);
	const char *gate = gd_json_str(g, "gate") ?: "";
	char prefix[64];
	size_t plen;

	snprintf(prefix, sizeof(prefix), "%.*s %s ",
		 !strncmp(gate, "max_lat", 7) ? 7 : (int)strlen(gate), gate,
		 gd_json_str(g, "phase") ?: "");
	plen = strlen(prefix);
	for (size_t i = 0; i < gd_json_len(rows); i++) {
		struct json_object *row = gd_json_idx(rows, i);
		struct json_object *gf =
			gd_json_path(row, "gate_failures", NULL);

		if (strcmp(gd_json_str(row, "direction") ?: "",
			   gd_json_str(g, "direction") ?: "-"))
			continue;
		for (size_t j = 0; j < gd_json_len(gf); j++) {
			const char *t =
				json_object_get_string(gd_json_idx(gf, j));

			if (t && !strncmp(t, prefix, plen))
				fprintf(f, "%lld B: %s\n",
					(long long)gd_json_int(row,
							       "size_bytes", 0),
					t + plen);
		}
	}
}

/* The failure's body: the evidence per size, then the rule. */
static char *gd_junit_gate_body(struct json_object *doc, struct json_object *g,
				bool undecided)
{
	struct json_object *a = NULL;
	char *buf = NULL;
	size_t len = 0;
	double floor = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	gd_json_num(g, "threshold", &floor);
	if (!strcmp(gd_json_str(g, "gate") ?: "", "expect_ratio")) {
		a = gd_junit_assessment(doc, g);
		if (undecided)
			gd_junit_ratio_undecided(f, g, a, floor);
		else if (a)
			gd_junit_ratio_failed(f, a, floor);
		gd_junit_ratio_rule(f, a, floor);
	} else {
		gd_junit_abs_failed(f, doc, g);
		fprintf(f,
			"rule: each gated size's figure against %.2f (with --repeat, the median of its repeats)\n",
			floor);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void gd_junit_gate(FILE *f, struct json_object *doc,
			  struct json_object *g, const char *tool,
			  struct gd_junit_count *n)
{
	const char *state = gd_metrics_gate_state(g);
	const char *pol = gd_json_str(g, "undecided_policy") ?: "fail";
	bool undecided =
		json_object_get_boolean(json_object_object_get(g, "undecided"));
	const char *ev, *kind;
	char name[160], msg[512], *body;
	double fig = 0, thr = 0;

	snprintf(name, sizeof(name), "%s %s %s", gd_json_str(g, "gate") ?: "?",
		 gd_json_str(g, "comparison") ?: gd_json_str(g, "phase") ?: "",
		 gd_json_str(g, "direction") ?: "");
	n->tests++;
	if (!strcmp(state, "passed") && !undecided) {
		gd_junit_case(f, tool, name, NULL, NULL, NULL, NULL);
		return;
	}
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
	body = gd_junit_gate_body(doc, g, undecided);
	/* --gate-undecided: fail (the run's exit 4) is a failure, undecided
	 * (exit 4 without failing the gate) an error, pass a pass that says
	 * why in its output */
	kind = !undecided		   ? "failure"
	       : !strcmp(pol, "pass")	   ? NULL
	       : !strcmp(pol, "undecided") ? "error"
					   : "failure";
	if (!kind) {
		char note[1024];

		snprintf(note, sizeof(note),
			 "passed by --gate-undecided=pass: %s\n%s", ev,
			 body ?: "");
		gd_junit_case(f, tool, name, NULL, NULL, NULL, note);
	} else {
		if (!strcmp(kind, "error"))
			n->errors++;
		else
			n->failures++;
		gd_junit_case(f, tool, name, kind,
			      undecided ? "gate_undecided" : "gate_failed", ev,
			      body);
	}
	free(body);
}

/* Gates the run was not given: skipped, so that a lab sees what was not
 * checked rather than a pass. */
static void gd_junit_unset_gates(FILE *f, struct json_object *doc,
				 const char *tool, struct gd_junit_count *n)
{
	struct json_object *opts = gd_json_path(doc, "options", NULL);
	struct json_object *rows = gd_json_path(doc, "comparison", NULL);
	const char *measure = gd_json_str(gd_json_idx(rows, 0), "measure");
	double v = 0;

	if (!opts)
		return;
	if (!gd_json_num(opts, "expect_ratio", &v) || v <= 0) {
		n->tests++;
		n->skipped++;
		gd_junit_case(f, tool, "expect_ratio", "skipped",
			      "gate_not_set",
			      "--expect-ratio not set: no ratio gate", NULL);
	}
	if (!measure)
		return;
	v = 0;
	if (!strcmp(measure, "bw") &&
	    (!gd_json_num(opts, "min_bw", &v) || v <= 0)) {
		n->tests++;
		n->skipped++;
		gd_junit_case(f, tool, "min_bw", "skipped", "gate_not_set",
			      "--min-bw not set: no bandwidth gate", NULL);
	} else if (!strcmp(measure, "lat") &&
		   (!gd_json_num(opts, "max_lat", &v) || v <= 0)) {
		n->tests++;
		n->skipped++;
		gd_junit_case(f, tool, "max_lat", "skipped", "gate_not_set",
			      "--max-lat not set: no latency gate", NULL);
	}
}

void gd_junit_gates(FILE *f, struct json_object *doc, const char *classname,
		    struct gd_junit_count *n)
{
	struct json_object *gates = gd_json_path(doc, "gates", NULL);

	for (size_t i = 0; i < gd_json_len(gates); i++)
		gd_junit_gate(f, doc, gd_json_idx(gates, i), classname, n);
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
	char *cases = NULL, *props, name[160], host[256];
	size_t len = 0;
	double wall = 0;
	FILE *c = open_memstream(&cases, &len);

	if (!c)
		return;
	gd_junit_gates(c, doc, tool, &n);
	gd_junit_unset_gates(c, doc, tool, &n);
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
	gd_junit_suite(
		f,
		&(struct gd_junit_suite_id){
			.name = name,
			.timestamp = gd_json_str(doc, "started_at"),
			.hostname = gd_json_str(doc, "hostname")
					    ?: gd_junit_hostname(host,
								 sizeof(host)),
			.time_s = wall },
		n.tests, n.failures, n.errors, n.skipped, props, cases);
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
