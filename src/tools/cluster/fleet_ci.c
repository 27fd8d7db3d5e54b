// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * gd_report's fleet document for CI systems and dashboards: one JUnit
 * testsuite per campaign (an acceptance gate, a series the ratio gate
 * judged or a campaign requirement per testcase, --junit) and its gauges
 * as OpenMetrics (--openmetrics) or Prometheus text (--prom-textfile),
 * through the report layer's writers.
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/junit.h"
#include "report/metrics.h"
#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_ci.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/output.h"

static const char *const gd_fleet_exec_states[] = { "pass", "failed", "outlier",
						    "untested" };
static const char *const gd_fleet_gate_states[] = { "passed", "failed",
						    "undecided" };

/* "passed", "failed" or "undecided": the gate's state, where the fleet
 * document records one, else its pass */
static const char *gd_fleet_ci_state(struct json_object *g)
{
	const char *st = gd_json_str(g, "state");

	if (st)
		return st;
	if (json_object_get_boolean(json_object_object_get(g, "undecided")))
		return "undecided";
	return json_object_get_boolean(json_object_object_get(g, "pass"))
		       ? "passed"
		       : "failed";
}

/* A failed or undecided gate's body: the series that decided it (the
 * ratio gate's slower ones, or the repeats that would settle it), then
 * the rule, as the fleet document states it. */
static char *gd_fleet_ci_body(struct json_object *g, bool undecided)
{
	struct json_object *slow = gd_json_path(g, "slower", NULL);
	struct json_object *und = gd_json_path(g, "undecided_series", NULL);
	long long need = (long long)gd_json_int(g, "repeats_needed", 0);
	char *buf = NULL;
	size_t len = 0;
	double floor = 0, r, lo, hi, from;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	gd_json_num(g, "floor", &floor);
	if (undecided && need > 0)
		fprintf(f,
			"undecided: about %lld repeats per series would settle the most uncertain\n",
			need);
	/* each series' own words where the document has them (issue 46:
	 * where its curves part; what would settle an undecided one) */
	for (size_t i = 0; undecided && i < gd_json_len(und); i++)
		if (gd_json_str(gd_json_idx(und, i), "evidence"))
			fprintf(f, "%s\n",
				gd_json_str(gd_json_idx(und, i), "evidence"));
	for (size_t i = 0; !undecided && i < gd_json_len(slow); i++) {
		struct json_object *a = gd_json_idx(slow, i);

		if (gd_json_str(a, "evidence")) {
			fprintf(f, "%s\n", gd_json_str(a, "evidence"));
			continue;
		}
		fprintf(f, "%s %s: ", gd_json_str(a, "execution") ?: "?",
			gd_json_str(a, "phase") ?: "?");
		if (gd_json_num(a, "ratio", &r))
			fprintf(f, "%.2f < %.2f", r, floor);
		if (gd_json_num(a, "low", &lo) && gd_json_num(a, "high", &hi))
			fprintf(f, " (95%% interval %.2f..%.2f)", lo, hi);
		if (gd_json_num(a, "slow_band_from_bytes", &from))
			fprintf(f, ", slower from %.0f B", from);
		fprintf(f, ", %lld size(s) slower on their own\n",
			(long long)gd_json_int(a, "sizes_slow_alone", 0));
	}
	if (gd_json_str(g, "method"))
		fprintf(f, "rule: %s\n", gd_json_str(g, "method"));
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void gd_fleet_ci_gate(FILE *f, struct json_object *doc,
			     struct json_object *g, struct gd_junit_count *n)
{
	const char *state = gd_fleet_ci_state(g), *kind;
	const char *pol = gd_json_str(g, "undecided_policy")
				  ?: gd_json_str(gd_json_path(doc, "options",
							      NULL),
						 "gate_undecided")
				  ?: "fail";
	bool undecided = !strcmp(state, "undecided");
	char name[96], *body;

	snprintf(name, sizeof(name), "gate %s", gd_json_str(g, "name") ?: "?");
	n->tests++;
	/* the ratio gate records its floor only when --expect-ratio is set */
	if (!strcmp(gd_json_str(g, "name") ?: "", "ratio") &&
	    !json_object_object_get(g, "floor")) {
		n->skipped++;
		gd_junit_case(f, "gd_report", name, "skipped", "gate_not_set",
			      gd_json_str(g, "detail"), NULL);
		return;
	}
	if (!strcmp(state, "passed")) {
		gd_junit_case(f, "gd_report", name, NULL, NULL, NULL, NULL);
		return;
	}
	body = gd_fleet_ci_body(g, undecided);
	/* --gate-undecided: fail a failure, undecided an error, pass a pass
	 * that says why in its output */
	if (undecided &&
	    (!strcmp(pol, "pass") ||
	     json_object_get_boolean(json_object_object_get(g, "pass")))) {
		char note[2048];

		snprintf(note, sizeof(note),
			 "passed by --gate-undecided=pass: %s\n%s",
			 gd_json_str(g, "detail") ?: "", body ?: "");
		gd_junit_case(f, "gd_report", name, NULL, NULL, NULL, note);
		free(body);
		return;
	}
	kind = undecided && !strcmp(pol, "undecided") ? "error" : "failure";
	if (!strcmp(kind, "error"))
		n->errors++;
	else
		n->failures++;
	gd_junit_case(f, "gd_report", name, kind,
		      undecided ? "gate_undecided" : "gate_failed",
		      gd_json_str(g, "detail"), body);
	free(body);
}

/* The ratio gate's record, or NULL. */
static struct json_object *gd_fleet_ci_ratio_gate(struct json_object *doc)
{
	struct json_object *gates = gd_json_path(
		gd_json_path(doc, "acceptance", NULL), "gates", NULL);

	for (size_t i = 0; i < gd_json_len(gates); i++)
		if (!strcmp(gd_json_str(gd_json_idx(gates, i), "name") ?: "",
			    "ratio"))
			return gd_json_idx(gates, i);
	return NULL;
}

/*
 * One testcase per series and device phase the ratio gate judged
 * (classname gd_report.ratio, named "EXECUTION PHASE"), so that a lab's
 * history follows each GPU path from campaign to campaign: "not below"
 * passed; in the campaign's list of slow series a failure whose message
 * says where its curves part; undecided as the gate is by
 * --gate-undecided, its message the repeats that would settle it.
 */
static void gd_fleet_ci_series(FILE *f, struct json_object *doc,
			       struct gd_junit_count *n)
{
	struct json_object *g = gd_fleet_ci_ratio_gate(doc);
	const char *pol = gd_json_str(g, "undecided_policy")
				  ?: gd_json_str(gd_json_path(doc, "options",
							      NULL),
						 "gate_undecided")
				  ?: "fail";

	for (size_t i = 0; g && i < gd_fleet_doc_len(doc, "ratio_series");
	     i++) {
		struct json_object *r =
			gd_fleet_doc_item(doc, "ratio_series", i);
		const char *d = gd_json_str(r, "decision") ?: "";
		const char *why = gd_json_str(r, "evidence");
		char name[96];

		snprintf(name, sizeof(name), "%s %s",
			 gd_json_str(r, "execution") ?: "?",
			 gd_json_str(r, "phase") ?: "?");
		n->tests++;
		if (!strcmp(d, "slower")) {
			n->failures++;
			gd_junit_case(f, "gd_report.ratio", name, "failure",
				      "series_slower", why, NULL);
		} else if (strcmp(d, "undecided") || !strcmp(pol, "pass")) {
			gd_junit_case(f, "gd_report.ratio", name, NULL, NULL,
				      NULL, why);
		} else if (!strcmp(pol, "undecided")) {
			n->errors++;
			gd_junit_case(f, "gd_report.ratio", name, "error",
				      "series_undecided", why, NULL);
		} else {
			n->failures++;
			gd_junit_case(f, "gd_report.ratio", name, "failure",
				      "series_undecided", why, NULL);
		}
		json_object_put(r);
	}
}

static void gd_fleet_ci_gates(FILE *f, struct json_object *doc,
			      struct gd_junit_count *n)
{
	struct json_object *gates = gd_json_path(
		gd_json_path(doc, "acceptance", NULL), "gates", NULL);

	for (size_t i = 0; i < gd_json_len(gates); i++)
		gd_fleet_ci_gate(f, doc, gd_json_idx(gates, i), n);
	gd_fleet_ci_series(f, doc, n);
}

/* A requirement still open is skipped, not failed: several (application,
 * isolation) are met by other checks than gdperf's. */
static void gd_fleet_ci_checklist(FILE *f, struct json_object *acc,
				  struct gd_junit_count *n)
{
	struct json_object *items = gd_json_path(acc, "checklist", NULL);

	for (size_t i = 0; i < gd_json_len(items); i++) {
		struct json_object *it = gd_json_idx(items, i);
		char name[96];

		snprintf(name, sizeof(name), "requirement %s",
			 gd_json_str(it, "item") ?: "?");
		n->tests++;
		if (!strcmp(gd_json_str(it, "status") ?: "", "satisfied")) {
			gd_junit_case(f, "gd_report", name, NULL, NULL, NULL,
				      NULL);
			continue;
		}
		n->skipped++;
		gd_junit_case(f, "gd_report", name, "skipped",
			      "requirement_open", gd_json_str(it, "evidence"),
			      NULL);
	}
}

int gd_fleet_write_junit(struct json_object *doc, const char *path,
			 const char *dir, const char *json_path)
{
	struct json_object *acc = gd_json_path(doc, "acceptance", NULL);
	struct gd_junit_count n = { 0 };
	char *cases = NULL, *props = NULL, *out = NULL, name[512], host[256];
	size_t clen = 0, plen = 0, olen = 0;
	FILE *c = open_memstream(&cases, &clen);
	FILE *p = open_memstream(&props, &plen);
	FILE *o = open_memstream(&out, &olen);
	int ret = -ENOMEM;

	if (!c || !p || !o)
		goto out_close;
	gd_fleet_ci_gates(c, doc, &n);
	gd_fleet_ci_checklist(c, acc, &n);
	gd_junit_property(p, "document", json_path ?: "(not written)");
	gd_junit_property(p, "results", dir);
	gd_junit_property(
		p, "pass",
		json_object_get_boolean(json_object_object_get(doc, "pass"))
			? "true"
			: "false");
	fflush(c);
	fflush(p);
	snprintf(name, sizeof(name), "gd_report %s", dir);
	gd_junit_begin(o, "gdperf");
	gd_junit_suite(
		o,
		&(struct gd_junit_suite_id){
			.name = name,
			.hostname = gd_junit_hostname(host, sizeof(host)),
			.time_s = gd_junit_since_start(NULL, 0) },
		n.tests, n.failures, n.errors, n.skipped, props, cases);
	gd_junit_end(o);
	fflush(o);
	ret = 0;
out_close:
	if (c)
		fclose(c);
	if (p)
		fclose(p);
	if (o)
		fclose(o);
	if (ret || !out)
		ret = gd_err(-ENOMEM, "--junit: out of memory building '%s'",
			     path);
	else
		ret = gd_out_file_atomic("--junit", path, out);
	free(cases);
	free(props);
	free(out);
	return ret;
}

static void gd_fleet_ci_gauges(struct gd_metrics *m, struct json_object *doc)
{
	struct json_object *acc = gd_json_path(doc, "acceptance", NULL);
	struct json_object *l = gd_json_path(acc, "gates", NULL);
	int k[4] = { 0 };

	gd_metrics_family(
		m, "gdperf_fleet_pass",
		"1 when every acceptance gate passes (gd_report exit status 0)");
	gd_metrics_put(
		m, json_object_get_boolean(json_object_object_get(doc, "pass")),
		NULL);
	gd_metrics_family(m, "gdperf_fleet_gate_state",
			  "each acceptance gate: 1 for its state");
	for (size_t i = 0; i < gd_json_len(l); i++) {
		struct json_object *g = gd_json_idx(l, i);
		const char *now = gd_fleet_ci_state(g);

		for (size_t s = 0; s < 3; s++)
			gd_metrics_put(m, !strcmp(now, gd_fleet_gate_states[s]),
				       "gate", gd_json_str(g, "name"), "state",
				       gd_fleet_gate_states[s], NULL);
	}
	l = gd_json_path(acc, "checklist", NULL);
	/* "pair coverage": "pair_coverage", a word like the other labels */
	gd_metrics_family(m, "gdperf_fleet_requirement_state",
			  "each campaign requirement: 1 for its state");
	for (size_t i = 0; i < gd_json_len(l); i++) {
		struct json_object *it = gd_json_idx(l, i);
		bool done =
			!strcmp(gd_json_str(it, "status") ?: "", "satisfied");
		char w[96];

		gd_metrics_word(gd_json_str(it, "item"), w, sizeof(w));
		gd_metrics_put(m, done, "requirement", w, "state", "satisfied",
			       NULL);
		gd_metrics_put(m, !done, "requirement", w, "state", "open",
			       NULL);
	}
	gd_metrics_family(m, "gdperf_fleet_executions",
			  "planned or found executions per status");
	for (size_t i = 0; i < gd_fleet_doc_len(doc, "executions"); i++) {
		struct json_object *r = gd_fleet_doc_item(doc, "executions", i);

		for (size_t s = 0; s < 4; s++)
			k[s] += !strcmp(gd_json_str(r, "status") ?: "",
					gd_fleet_exec_states[s]);
		json_object_put(r);
	}
	for (size_t s = 0; s < 4; s++)
		gd_metrics_put(m, k[s], "status", gd_fleet_exec_states[s],
			       NULL);
	gd_metrics_family(m, "gdperf_fleet_failure_domains",
			  "failure domains gd_report found");
	gd_metrics_put(m,
		       (double)gd_json_len(gd_json_path(doc, "domains", NULL)),
		       NULL);
	gd_metrics_family(m, "gdperf_fleet_documents",
			  "run documents read and files skipped");
	gd_metrics_put(m,
		       (double)gd_json_int(gd_json_path(doc, "inputs", NULL),
					   "documents", 0),
		       "kind", "read", NULL);
	gd_metrics_put(m,
		       (double)gd_json_int(gd_json_path(doc, "inputs", NULL),
					   "skipped", 0),
		       "kind", "skipped", NULL);
}

int gd_fleet_write_metrics(struct json_object *doc, const char *path,
			   enum gd_metrics_format format)
{
	struct gd_metrics m;
	int ret = gd_metrics_open(&m, format, "gd_report", path);

	if (ret)
		return ret;
	gd_fleet_ci_gauges(&m, doc);
	return gd_metrics_finish(&m,
				 format == GD_METRICS_PROM ? "--prom-textfile"
							   : "--openmetrics",
				 path);
}
