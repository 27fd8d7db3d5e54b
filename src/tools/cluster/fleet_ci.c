// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * gd_report's fleet document for CI systems and dashboards: one JUnit
 * testsuite per campaign (an acceptance gate or a campaign requirement per
 * testcase, --junit) and its gauges in node_exporter's textfile format
 * (--openmetrics), through the report layer's writers.
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

struct gd_fleet_count {
	int tests, failures, skipped;
};

static void gd_fleet_ci_gates(FILE *f, struct json_object *acc,
			      struct gd_fleet_count *n)
{
	struct json_object *gates = gd_json_path(acc, "gates", NULL);

	for (size_t i = 0; i < gd_json_len(gates); i++) {
		struct json_object *g = gd_json_idx(gates, i);
		struct json_object *p = json_object_object_get(g, "pass");
		char name[96];

		snprintf(name, sizeof(name), "gate %s",
			 gd_json_str(g, "name") ?: "?");
		n->tests++;
		if (p && json_object_get_boolean(p)) {
			gd_junit_case(f, "gd_report", name, NULL, NULL, NULL,
				      NULL);
			continue;
		}
		n->failures++;
		gd_junit_case(f, "gd_report", name, "failure", "gate_failed",
			      gd_json_str(g, "detail"),
			      gd_json_str(g, "method"));
	}
}

/* A requirement still open is skipped, not failed: several (application,
 * isolation) are met by other checks than gdperf's. */
static void gd_fleet_ci_checklist(FILE *f, struct json_object *acc,
				  struct gd_fleet_count *n)
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
	struct gd_fleet_count n = { 0 };
	char *cases = NULL, *props = NULL, *out = NULL, name[512];
	size_t clen = 0, plen = 0, olen = 0;
	FILE *c = open_memstream(&cases, &clen);
	FILE *p = open_memstream(&props, &plen);
	FILE *o = open_memstream(&out, &olen);
	int ret = -ENOMEM;

	if (!c || !p || !o)
		goto out_close;
	gd_fleet_ci_gates(c, acc, &n);
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
	gd_junit_suite(o, name, NULL, 0, n.tests, n.failures, 0, n.skipped,
		       props, cases);
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
		bool pass = json_object_get_boolean(
			json_object_object_get(g, "pass"));

		gd_metrics_put(m, pass, "gate", gd_json_str(g, "name"), "state",
			       "passed", NULL);
		gd_metrics_put(m, !pass, "gate", gd_json_str(g, "name"),
			       "state", "failed", NULL);
	}
	l = gd_json_path(acc, "checklist", NULL);
	gd_metrics_family(m, "gdperf_fleet_requirement_state",
			  "each campaign requirement: 1 for its state");
	for (size_t i = 0; i < gd_json_len(l); i++) {
		struct json_object *it = gd_json_idx(l, i);
		bool done =
			!strcmp(gd_json_str(it, "status") ?: "", "satisfied");

		gd_metrics_put(m, done, "requirement", gd_json_str(it, "item"),
			       "state", "satisfied", NULL);
		gd_metrics_put(m, !done, "requirement", gd_json_str(it, "item"),
			       "state", "open", NULL);
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

int gd_fleet_write_metrics(struct json_object *doc, const char *path)
{
	struct gd_metrics m;
	int ret = gd_metrics_open(&m, "gd_report");

	if (ret)
		return ret;
	gd_fleet_ci_gauges(&m, doc);
	return gd_metrics_finish(&m, "--openmetrics", path);
}
