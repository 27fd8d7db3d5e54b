/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's Markdown: verdict, failure domains, coverage per round, rail
 * and association curves, executions that stand out, the locality round
 * when there is one, the checklist. Read from the gdperf.fleet/1 document
 * alone, so it says exactly what the JSON says.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
#include "util/error.h"
#include "util/output.h"

#define MD_RUNS_MAX 60

/* What every curve table shares: phases, sizes and the D/HH ratio column. */
struct md_grid {
	struct json_object *phases, *sizes;
	size_t n_phases, n_sizes;
	const char *unit, *value_key;
	int ratio; /* index of the first D phase, -1 none */
};

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v ? json_object_get_string(v) : "";
}

static size_t jlen(struct json_object *arr)
{
	return json_object_is_type(arr, json_type_array)
		       ? json_object_array_length(arr)
		       : 0;
}

static struct json_object *jidx(struct json_object *arr, size_t i)
{
	return i < jlen(arr) ? json_object_array_get_idx(arr, i) : NULL;
}

/* JSON null stands for "no value" (NAN where it was computed). */
static double jnum(struct json_object *v)
{
	return v ? json_object_get_double(v) : NAN;
}

static size_t jcount(struct json_object *o, const char *key)
{
	return (size_t)json_object_get_int64(jget(o, key));
}

static void grid_read(struct json_object *doc, struct md_grid *g)
{
	struct json_object *cg = jget(doc, "curve_grid");
	size_t k;

	g->phases = jget(cg, "phases");
	g->sizes = jget(cg, "sizes_bytes");
	g->n_phases = jlen(g->phases);
	g->n_sizes = jlen(g->sizes);
	g->unit = jstr(doc, "unit");
	g->value_key =
		strcmp(g->unit, "us") ? "bw_avg_MiBps" : "lat_typical_us";
	/* The GPU/host ratio pairs the first D phase with HH (bandwidth:
	 * higher is better, so DD/HH < 1 means the GPU path is slower). */
	g->ratio = -1;
	for (k = 0; k < g->n_phases && g->ratio < 0; k++)
		if (strchr(json_object_get_string(jidx(g->phases, k)), 'D'))
			g->ratio = (int)k;
}

static const char *grid_phase(const struct md_grid *g, size_t k)
{
	return json_object_get_string(jidx(g->phases, k));
}

/* Value of @phase at size index @i in a "curves" object; NAN when absent,
 * as the median of no values was. */
static double curve_at(const struct md_grid *g, struct json_object *curves,
		       const char *phase, size_t i)
{
	return jnum(jget(jidx(jget(curves, phase), i), g->value_key));
}

static void md_num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " - |");
	else
		fprintf(f, " %.1f |", v);
}

/* The phase columns of one curve row at size index @i, then the ratio. */
static void md_curve_cells(FILE *f, const struct md_grid *g,
			   struct json_object *curves, size_t i)
{
	size_t k;

	for (k = 0; k < g->n_phases; k++)
		md_num(f, curve_at(g, curves, grid_phase(g, k), i));
	if (g->ratio >= 0)
		fprintf(f, " %.2f |",
			curve_at(g, curves, grid_phase(g, (size_t)g->ratio),
				 i) /
				curve_at(g, curves, "HH", i));
	fprintf(f, "\n");
}

static void md_curve_header(FILE *f, const struct md_grid *g)
{
	size_t k;

	for (k = 0; k < g->n_phases; k++)
		fprintf(f, " %s |", grid_phase(g, k));
	fprintf(f, "%s\n|---|", g->ratio >= 0 ? " ratio |" : "");
	for (k = 0; k < g->n_phases + (g->ratio >= 0); k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
}

/* A gate's result: pass, FAIL, or UNDECIDED (with what
 * --gate-undecided made of it when it passes). */
static const char *md_gate_result(struct json_object *g)
{
	const char *st = jstr(g, "state");
	bool pass = json_object_get_boolean(jget(g, "pass"));

	if (st && !strcmp(st, "undecided"))
		return pass ? "undecided (passed by --gate-undecided=pass)"
			    : "UNDECIDED";
	return pass ? "pass" : "FAIL";
}

static void md_gates(FILE *f, struct json_object *doc)
{
	struct json_object *gates = jget(jget(doc, "acceptance"), "gates");
	int status = json_object_get_int(jget(doc, "exit_status"));
	size_t i;

	fprintf(f,
		"## Verdict: %s\n\n| gate | result | detail |\n|---|---|---|\n",
		json_object_get_boolean(jget(doc, "pass")) ? "PASS (exit 0)"
		: status == 4 ? "UNDECIDED (exit 4)"
			      : "FAIL (exit 3)");
	for (i = 0; i < jlen(gates); i++) {
		struct json_object *g = jidx(gates, i);

		fprintf(f, "| %s | %s | %s |\n", jstr(g, "name"),
			md_gate_result(g), jstr(g, "detail"));
	}
	fprintf(f, "\nHow the gates read repeats:\n\n");
	for (i = 0; i < jlen(gates); i++)
		if (jget(jidx(gates, i), "method"))
			fprintf(f, "- %s: %s\n", jstr(jidx(gates, i), "name"),
				jstr(jidx(gates, i), "method"));
}

static void md_domains(FILE *f, struct json_object *doc)
{
	struct json_object *doms = jget(doc, "domains");
	size_t i;

	fprintf(f, "\n## Failure domains (smallest proven unit)\n\n");
	if (!jlen(doms)) {
		fprintf(f, "None proven.\n");
		return;
	}
	fprintf(f, "| unit | name | evidence | action |\n|---|---|---|---|\n");
	for (i = 0; i < jlen(doms); i++) {
		struct json_object *d = jidx(doms, i);

		fprintf(f, "| %s | %s | %s | %s |\n", jstr(d, "unit"),
			jstr(d, "name"), jstr(d, "evidence"),
			jstr(d, "action"));
	}
}

/* "associations" holds every server's GPUs in order, server by server. */
static void md_coverage(FILE *f, struct json_object *doc)
{
	static const char *const round_names[] = { "", "coverage", "diversity",
						   "concurrency" };
	struct json_object *in = jget(doc, "inputs");
	struct json_object *servers = jget(in, "servers");
	size_t gps = jcount(in, "gpus_per_server"), h, g;
	char key[16];
	int round;

	fprintf(f,
		"\n## Coverage matrix\n\nEvery intended association per "
		"round: pass, fail (failed or outlier), partial (some planned "
		"executions have no document) or untested.\n");
	for (round = 1; round <= GD_FLEET_ROUNDS; round++) {
		snprintf(key, sizeof(key), "round%d", round);
		fprintf(f, "\n### Round %d (%s)\n\n| server |", round,
			round_names[round]);
		for (g = 0; g < gps; g++)
			fprintf(f, " gpu%zu |", g);
		fprintf(f, "\n|---|");
		for (g = 0; g < gps; g++)
			fprintf(f, "---|");
		fprintf(f, "\n");
		for (h = 0; h < jlen(servers); h++) {
			fprintf(f, "| %s |",
				json_object_get_string(jidx(servers, h)));
			for (g = 0; g < gps; g++) {
				struct json_object *a = gd_fleet_doc_item(
					doc, "associations", h * gps + g);
				struct json_object *c = jget(a, key);

				fprintf(f, " %s |",
					c ? json_object_get_string(c)
					  : "not planned");
				json_object_put(a);
			}
			fprintf(f, "\n");
		}
	}
}

static void md_rails(FILE *f, struct json_object *doc, const struct md_grid *g)
{
	struct json_object *rails = jget(doc, "rails");
	size_t r, i;

	fprintf(f, "\n## Rails: median curves (%s), rounds 1-2\n", g->unit);
	for (r = 0; r < jlen(rails) && g->n_phases; r++) {
		struct json_object *rail = jidx(rails, r);

		fprintf(f, "\n### Rail %zu%s\n\n| bytes |", r,
			json_object_get_boolean(jget(rail, "outlier"))
				? " (outlier against other rails)"
				: "");
		md_curve_header(f, g);
		for (i = 0; i < g->n_sizes; i++) {
			fprintf(f, "| %.0f |", jnum(jidx(g->sizes, i)));
			md_curve_cells(f, g, jget(rail, "curves"), i);
		}
	}
}

/* At the largest size of the grid: the last point of every curve. */
static void md_assocs(FILE *f, struct json_object *doc, const struct md_grid *g)
{
	size_t n = gd_fleet_doc_len(doc, "associations");
	double ref = g->n_sizes ? jnum(jidx(g->sizes, g->n_sizes - 1)) : 0;
	size_t i;

	fprintf(f,
		"\n## Associations at %.0f bytes (%s, median over rounds "
		"1-2)\n\n| association |",
		ref, g->unit);
	md_curve_header(f, g);
	for (i = 0; i < n; i++) {
		struct json_object *a =
			gd_fleet_doc_item(doc, "associations", i);

		fprintf(f, "| %s:gpu%d |", jstr(a, "server"),
			json_object_get_int(jget(a, "gpu")));
		/* no sizes: index SIZE_MAX finds no point, every cell "-" */
		md_curve_cells(f, g, jget(a, "curves"), g->n_sizes - 1);
		json_object_put(a);
	}
}

static void md_runs(FILE *f, struct json_object *doc)
{
	size_t i, n = 0, runs = gd_fleet_doc_len(doc, "executions");

	fprintf(f, "\n## Executions that failed or stand out\n\n");
	for (i = 0; i < runs; i++) {
		struct json_object *r = gd_fleet_doc_item(doc, "executions", i);
		const char *st = jstr(r, "status");

		if ((!strcmp(st, "failed") || !strcmp(st, "outlier")) &&
		    n++ < MD_RUNS_MAX)
			fprintf(f, "- %s: %s\n", jstr(r, "id"),
				jstr(r, "reason"));
		json_object_put(r);
	}
	if (n > MD_RUNS_MAX)
		fprintf(f, "- ... %zu more (see the JSON report)\n",
			n - MD_RUNS_MAX);
	if (!n)
		fprintf(f, "None.\n");
}

/* A device cell: "3 (PXB)", or "-" when none was chosen. */
static void md_device(FILE *f, struct json_object *choice)
{
	struct json_object *dev = jget(choice, "device");
	const char *cls = jstr(choice, "path_class");

	if (dev)
		fprintf(f, " %d (%s) |", json_object_get_int(dev),
			cls[0] ? cls : "?");
	else
		fprintf(f, " %s |", cls[0] ? cls : "-");
}

static void md_locality_row(FILE *f, struct json_object *r)
{
	const char *dec = jstr(r, "decision");

	fprintf(f, "| %s | %s | %s |", jstr(r, "server"), jstr(r, "partner"),
		jget(r, "nic") ? jstr(r, "nic") : "-");
	md_device(f, jget(r, "near"));
	md_device(f, jget(r, "far"));
	if (jget(r, "ratio"))
		fprintf(f, " %.2f |", jnum(jget(r, "ratio")));
	else
		fprintf(f, " - |");
	if (jget(r, "low") && jget(r, "high"))
		fprintf(f, " %.2f..%.2f |", jnum(jget(r, "low")),
			jnum(jget(r, "high")));
	else
		fprintf(f, " - |");
	fprintf(f, " %s | %s |\n", dec[0] ? dec : "-", jstr(r, "status"));
}

/* Latency series: p50 and p99 against HH, informational. */
static void md_tails(FILE *f, struct json_object *doc)
{
	struct json_object *t = jget(doc, "latency_tails");

	if (!jlen(t))
		return;
	fprintf(f, "\n## Latency tails (device/HH; informational)\n\n");
	for (size_t i = 0; i < jlen(t); i++)
		fprintf(f, "- %s\n", jstr(jidx(t, i), "text"));
}

/* Round 4 on its own: one row per execution, then what stands out. */
static void md_locality(FILE *f, struct json_object *doc)
{
	struct json_object *loc = jget(doc, "locality");
	struct json_object *rows = jget(loc, "executions");
	size_t i, k, n = 0;

	if (!loc)
		return;
	fprintf(f,
		"\n## Locality (round 4): far against near device\n\n"
		"%zu executions, %zu of them planned, %zu with a document. "
		"Not coverage and not a gate: each row is the server that ran "
		"the client, its near (D1) and far (D2) device for the NIC it "
		"used, and the run's %s assessment.\n\n| server | partner | "
		"NIC | near (D1) | far (D2) | %s | interval | decision | "
		"status |\n|---|---|---|---|---|---|---|---|---|\n",
		jlen(rows), jcount(loc, "planned"), jcount(loc, "tested"),
		jstr(loc, "comparison"), jstr(loc, "comparison"));
	for (i = 0; i < jlen(rows); i++)
		md_locality_row(f, jidx(rows, i));
	fprintf(f, "\nFindings:\n\n");
	for (i = 0; i < jlen(rows); i++) {
		struct json_object *r = jidx(rows, i),
				   *fs = jget(r, "findings");
		const char *why = jstr(r, "reason");

		if (why[0]) {
			fprintf(f, "- %s (%s): %s: %s\n", jstr(r, "server"),
				jstr(r, "execution"), jstr(r, "status"), why);
			n++;
		}
		for (k = 0; k < jlen(fs); k++, n++)
			fprintf(f, "- %s (%s): %s\n", jstr(r, "server"),
				jstr(r, "execution"),
				json_object_get_string(jidx(fs, k)));
	}
	if (!n)
		fprintf(f, "None: every near device is PIX or PXB to its NIC "
			   "and every far one is slower or the same.\n");
}

static void md_checklist(FILE *f, struct json_object *doc)
{
	struct json_object *items = jget(jget(doc, "acceptance"), "checklist");
	size_t i;

	fprintf(f,
		"\n## Acceptance checklist\n\nSatisfied only by result "
		"documents and gd_doctor envelopes, never by the plan's "
		"worksheet.\n\n| item | status | evidence |\n|---|---|---|\n");
	for (i = 0; i < jlen(items); i++) {
		struct json_object *it = jidx(items, i);

		fprintf(f, "| %s | %s | %s |\n", jstr(it, "item"),
			jstr(it, "status"), jstr(it, "evidence"));
	}
}

/* Each skipped file with its reason: a truncated run document is named,
 * not only counted. */
static void md_skips(FILE *f, struct json_object *in)
{
	struct json_object *skips = jget(in, "skipped_files");
	size_t i, n = jlen(skips);

	if (!n)
		return;
	fprintf(f, "Skipped files:\n\n");
	for (i = 0; i < n; i++)
		fprintf(f, "- `%s`: %s\n", jstr(jidx(skips, i), "file"),
			jstr(jidx(skips, i), "reason"));
	if (jcount(in, "skipped") > n)
		fprintf(f, "- and %zu more\n", jcount(in, "skipped") - n);
	fputs("\n", f);
}

int gd_fleet_write_markdown(struct json_object *doc, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	struct json_object *in = jget(doc, "inputs");
	struct md_grid g;

	if (!f)
		return gd_err(-errno, "--markdown: cannot write '%s': %s", path,
			      strerror(errno));
	grid_read(doc, &g);
	fprintf(f,
		"# gd_report: cluster acceptance\n\n%zu documents read, %zu "
		"skipped (not readable, or not a run or gd_doctor document: "
		"each named below), %zu without an "
		"exec label; %zu executions known, plan %s.\n\n",
		jcount(in, "documents"), jcount(in, "skipped"),
		jcount(in, "unlabelled"), gd_fleet_doc_len(doc, "executions"),
		json_object_get_boolean(jget(in, "plan")) ? "given"
							  : "not given");
	md_skips(f, in);
	md_gates(f, doc);
	md_domains(f, doc);
	md_coverage(f, doc);
	md_rails(f, doc, &g);
	md_assocs(f, doc, &g);
	md_runs(f, doc);
	md_locality(f, doc);
	md_tails(f, doc);
	md_checklist(f, doc);
	return gd_out_close(f, "--markdown", path);
}
