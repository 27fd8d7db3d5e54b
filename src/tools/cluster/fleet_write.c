/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's outputs: the Markdown report and the same facts as one JSON
 * document (schema "gdperf.fleet/1"): gates, failure domains, coverage per
 * round, rail/server/association curves with their ratio, executions that
 * failed or stood out, and the acceptance checklist.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
#include "util/error.h"

struct grid {
	char phase[GD_FLEET_PHASES_MAX][8];
	int n_phases;
	const struct gd_fleet_phase *sizes; /* the size grid of one run */
	bool lat;
	double ref_size; /* largest size */
};

static void grid_init(const struct gd_fleet *fl, struct grid *g)
{
	size_t i;
	int p, k;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		for (p = 0; r->have_measure && p < r->n_phases; p++) {
			for (k = 0; k < g->n_phases; k++)
				if (!strcmp(g->phase[k], r->phases[p].name))
					break;
			if (k == g->n_phases && k < GD_FLEET_PHASES_MAX)
				strcpy(g->phase[g->n_phases++],
				       r->phases[p].name);
			if (!g->sizes || r->phases[p].n > g->sizes->n) {
				g->sizes = &r->phases[p];
				g->lat = r->lat;
			}
		}
	}
	if (g->sizes && g->sizes->n)
		g->ref_size = g->sizes->size_bytes[g->sizes->n - 1];
}

static const char *unit_of(const struct grid *g)
{
	return g->lat ? "us" : "MiB/s";
}

/* The GPU/host ratio pairs each D phase with HH (bandwidth: higher is
 * better, so DD/HH < 1 means the GPU path is slower). */
static int ratio_phase(const struct grid *g)
{
	int k;

	for (k = 0; k < g->n_phases; k++)
		if (strchr(g->phase[k], 'D'))
			return k;
	return -1;
}

static void md_num(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " - |");
	else
		fprintf(f, " %.1f |", v);
}

static void md_gates(const struct gd_fleet *fl, FILE *f)
{
	struct gd_fleet_gate gates[GD_FLEET_GATES];
	bool pass = gd_fleet_gates(fl, gates);
	int i;

	fprintf(f,
		"## Verdict: %s\n\n| gate | result | detail |\n|---|---|---|\n",
		pass ? "PASS (exit 0)" : "FAIL (exit 3)");
	for (i = 0; i < GD_FLEET_GATES; i++)
		fprintf(f, "| %s | %s | %s |\n", gates[i].name,
			gates[i].pass ? "pass" : "FAIL", gates[i].detail);
}

static void md_domains(const struct gd_fleet *fl, FILE *f)
{
	size_t i;

	fprintf(f, "\n## Failure domains (smallest proven unit)\n\n");
	if (!fl->n_domains) {
		fprintf(f, "None proven.\n");
		return;
	}
	fprintf(f, "| unit | name | evidence | action |\n|---|---|---|---|\n");
	for (i = 0; i < fl->n_domains; i++)
		fprintf(f, "| %s | %s | %s | %s |\n",
			gd_fleet_unit_name(fl->domains[i].unit),
			fl->domains[i].name, fl->domains[i].evidence,
			fl->domains[i].action);
}

static void md_coverage(const struct gd_fleet *fl, FILE *f)
{
	static const char *const round_names[] = { "", "coverage", "diversity",
						   "concurrency" };
	int round, g, planned, passed;
	size_t h;

	fprintf(f,
		"\n## Coverage matrix\n\nEvery intended association per "
		"round: pass, fail (failed or outlier), partial (some planned "
		"executions have no document) or untested.\n");
	for (round = 1; round <= GD_FLEET_ROUNDS; round++) {
		fprintf(f, "\n### Round %d (%s)\n\n| server |", round,
			round_names[round]);
		for (g = 0; g < fl->gpus_per_server; g++)
			fprintf(f, " gpu%d |", g);
		fprintf(f, "\n|---|");
		for (g = 0; g < fl->gpus_per_server; g++)
			fprintf(f, "---|");
		fprintf(f, "\n");
		for (h = 0; h < fl->n_hosts; h++) {
			fprintf(f, "| %s |", fl->hosts[h].name);
			for (g = 0; g < fl->gpus_per_server; g++) {
				enum gd_cov c =
					gd_fleet_coverage(fl, round, (int)h, g,
							  &planned, &passed);

				fprintf(f, " %s |",
					planned ? gd_fleet_cov_name(c)
						: "not planned");
			}
			fprintf(f, "\n");
		}
	}
}

static void md_rails(const struct gd_fleet *fl, const struct grid *gr, FILE *f)
{
	int rail, k, i, rp = ratio_phase(gr);

	fprintf(f, "\n## Rails: median curves (%s), rounds 1-2\n", unit_of(gr));
	for (rail = 0; rail < fl->rails && gr->sizes; rail++) {
		fprintf(f, "\n### Rail %d%s\n\n| bytes |", rail,
			fl->rail_slow[rail] ? " (outlier against other rails)"
					    : "");
		for (k = 0; k < gr->n_phases; k++)
			fprintf(f, " %s |", gr->phase[k]);
		fprintf(f, "%s\n|---|", rp >= 0 ? " ratio |" : "");
		for (k = 0; k <= gr->n_phases - (rp < 0); k++)
			fprintf(f, "---|");
		fprintf(f, "\n");
		for (i = 0; i < gr->sizes->n; i++) {
			double s = gr->sizes->size_bytes[i];

			fprintf(f, "| %.0f |", s);
			for (k = 0; k < gr->n_phases; k++)
				md_num(f, gd_fleet_rail_value(fl, rail,
							      gr->phase[k], s));
			if (rp >= 0)
				fprintf(f, " %.2f |",
					gd_fleet_rail_value(fl, rail,
							    gr->phase[rp], s) /
						gd_fleet_rail_value(fl, rail,
								    "HH", s));
			fprintf(f, "\n");
		}
	}
}

static void md_assocs(const struct gd_fleet *fl, const struct grid *gr, FILE *f)
{
	int g, k, rp = ratio_phase(gr);
	size_t h;

	fprintf(f,
		"\n## Associations at %.0f bytes (%s, median over rounds "
		"1-2)\n\n| association |",
		gr->ref_size, unit_of(gr));
	for (k = 0; k < gr->n_phases; k++)
		fprintf(f, " %s |", gr->phase[k]);
	fprintf(f, "%s\n|---|", rp >= 0 ? " ratio |" : "");
	for (k = 0; k <= gr->n_phases - (rp < 0); k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (h = 0; h < fl->n_hosts; h++) {
		for (g = 0; g < fl->gpus_per_server; g++) {
			fprintf(f, "| %s:gpu%d |", fl->hosts[h].name, g);
			for (k = 0; k < gr->n_phases; k++)
				md_num(f, gd_fleet_assoc_value(fl, (int)h, g,
							       gr->phase[k],
							       gr->ref_size));
			if (rp >= 0)
				fprintf(f, " %.2f |",
					gd_fleet_assoc_value(fl, (int)h, g,
							     gr->phase[rp],
							     gr->ref_size) /
						gd_fleet_assoc_value(
							fl, (int)h, g, "HH",
							gr->ref_size));
			fprintf(f, "\n");
		}
	}
}

static void md_runs(const struct gd_fleet *fl, FILE *f)
{
	size_t i, n = 0;

	fprintf(f, "\n## Executions that failed or stand out\n\n");
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (!gd_fleet_run_bad(r))
			continue;
		if (n++ < 60)
			fprintf(f, "- %s: %s\n", r->id,
				r->ok ? r->slow_why : r->error);
	}
	if (n > 60)
		fprintf(f, "- ... %zu more (see the JSON report)\n", n - 60);
	if (!n)
		fprintf(f, "None.\n");
}

static void md_checklist(const struct gd_fleet *fl, FILE *f)
{
	struct gd_fleet_item items[GD_FLEET_CHECK_ITEMS];
	int i;

	gd_fleet_checklist(fl, items);
	fprintf(f,
		"\n## Acceptance checklist\n\nSatisfied only by result "
		"documents and gd_doctor envelopes, never by the plan's "
		"worksheet.\n\n| item | status | evidence |\n|---|---|---|\n");
	for (i = 0; i < GD_FLEET_CHECK_ITEMS; i++)
		fprintf(f, "| %s | %s | %s |\n", items[i].name,
			items[i].satisfied ? "satisfied" : "open",
			items[i].evidence);
}

int gd_fleet_write_markdown(const struct gd_fleet *fl, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	struct grid gr;
	int err;

	if (!f)
		return gd_err(-errno, "--markdown: cannot write '%s': %s", path,
			      strerror(errno));
	grid_init(fl, &gr);
	fprintf(f,
		"# gd_report: cluster acceptance\n\n%zu documents read, %zu "
		"skipped (not gdperf.run/1), %zu without an exec label; %zu "
		"executions known, plan %s.\n\n",
		fl->n_docs, fl->n_skipped, fl->n_unlabelled, fl->n_runs,
		fl->have_plan ? "given" : "not given");
	md_gates(fl, f);
	md_domains(fl, f);
	md_coverage(fl, f);
	md_rails(fl, &gr, f);
	md_assocs(fl, &gr, f);
	md_runs(fl, f);
	md_checklist(fl, f);
	err = ferror(f);
	if (f != stdout)
		err |= fclose(f);
	return err ? gd_err(-EIO, "--markdown: error writing '%s'", path) : 0;
}

static struct json_object *jnum(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

static struct json_object *curves_json(const struct gd_fleet *fl,
				       const struct grid *gr, int rail,
				       int host, int gpu)
{
	struct json_object *o = json_object_new_object();
	int k, i;

	for (k = 0; k < gr->n_phases && gr->sizes; k++) {
		struct json_object *arr = json_object_new_array();

		for (i = 0; i < gr->sizes->n; i++) {
			struct json_object *pt = json_object_new_object();
			double s = gr->sizes->size_bytes[i];

			json_object_object_add(pt, "size_bytes", jnum(s));
			json_object_object_add(
				pt, gr->lat ? "lat_typical_us" : "bw_avg_MiBps",
				jnum(host >= 0 ? gd_fleet_assoc_value(
							 fl, host, gpu,
							 gr->phase[k], s)
					       : gd_fleet_rail_value(
							 fl, rail, gr->phase[k],
							 s)));
			json_object_array_add(arr, pt);
		}
		json_object_object_add(o, gr->phase[k], arr);
	}
	(void)rail;
	return o;
}

static struct json_object *json_gates(const struct gd_fleet *fl, bool *pass)
{
	struct gd_fleet_gate gates[GD_FLEET_GATES];
	struct gd_fleet_item items[GD_FLEET_CHECK_ITEMS];
	struct json_object *o = json_object_new_object();
	struct json_object *ga = json_object_new_array();
	struct json_object *ca = json_object_new_array();
	int i;

	*pass = gd_fleet_gates(fl, gates);
	for (i = 0; i < GD_FLEET_GATES; i++) {
		struct json_object *g = json_object_new_object();

		json_object_object_add(g, "name",
				       json_object_new_string(gates[i].name));
		json_object_object_add(g, "pass",
				       json_object_new_boolean(gates[i].pass));
		json_object_object_add(g, "detail",
				       json_object_new_string(gates[i].detail));
		json_object_array_add(ga, g);
	}
	gd_fleet_checklist(fl, items);
	for (i = 0; i < GD_FLEET_CHECK_ITEMS; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "item",
				       json_object_new_string(items[i].name));
		json_object_object_add(
			c, "status",
			json_object_new_string(items[i].satisfied ? "satisfied"
								  : "open"));
		json_object_object_add(
			c, "evidence",
			json_object_new_string(items[i].evidence));
		json_object_array_add(ca, c);
	}
	json_object_object_add(o, "gates", ga);
	json_object_object_add(o, "checklist", ca);
	return o;
}

static struct json_object *json_domains(const struct gd_fleet *fl)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < fl->n_domains; i++) {
		const struct gd_fleet_domain *d = &fl->domains[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(
			o, "unit",
			json_object_new_string(gd_fleet_unit_name(d->unit)));
		json_object_object_add(o, "name",
				       json_object_new_string(d->name));
		json_object_object_add(o, "evidence",
				       json_object_new_string(d->evidence));
		json_object_object_add(o, "action",
				       json_object_new_string(d->action));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *json_coverage(const struct gd_fleet *fl,
					 const struct grid *gr)
{
	struct json_object *arr = json_object_new_array();
	int round, g, planned, passed;
	size_t h;

	for (h = 0; h < fl->n_hosts; h++) {
		for (g = 0; g < fl->gpus_per_server; g++) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(
				o, "server",
				json_object_new_string(fl->hosts[h].name));
			json_object_object_add(o, "gpu",
					       json_object_new_int(g));
			for (round = 1; round <= GD_FLEET_ROUNDS; round++) {
				char key[16];
				enum gd_cov c =
					gd_fleet_coverage(fl, round, (int)h, g,
							  &planned, &passed);

				snprintf(key, sizeof(key), "round%d", round);
				json_object_object_add(
					o, key,
					planned ? json_object_new_string(
							  gd_fleet_cov_name(c))
						: NULL);
			}
			json_object_object_add(
				o, "curves",
				curves_json(fl, gr, -1, (int)h, g));
			json_object_array_add(arr, o);
		}
	}
	return arr;
}

static struct json_object *json_runs(const struct gd_fleet *fl)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];
		struct json_object *o = json_object_new_object();
		const char *st = !(r->have_measure || r->have_server)
					 ? "untested"
				 : !r->ok  ? "failed"
				 : r->slow ? "outlier"
					   : "pass";

		json_object_object_add(o, "id", json_object_new_string(r->id));
		json_object_object_add(o, "round",
				       json_object_new_int(r->round));
		json_object_object_add(o, "status", json_object_new_string(st));
		json_object_object_add(
			o, "reason",
			json_object_new_string(!r->ok	 ? r->error
					       : r->slow ? r->slow_why
							 : ""));
		json_object_object_add(
			o, "file",
			r->file[0] ? json_object_new_string(r->file) : NULL);
		json_object_array_add(arr, o);
	}
	return arr;
}

int gd_fleet_write_json(const struct gd_fleet *fl, const char *path)
{
	struct json_object *root = json_object_new_object(), *rails;
	struct grid gr;
	bool pass;
	int rail, ret;

	grid_init(fl, &gr);
	json_object_object_add(root, "schema",
			       json_object_new_string("gdperf.fleet/1"));
	json_object_object_add(root, "tool",
			       json_object_new_string("gd_report"));
	json_object_object_add(root, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(root, "unit",
			       json_object_new_string(unit_of(&gr)));
	json_object_object_add(root, "acceptance", json_gates(fl, &pass));
	json_object_object_add(root, "pass", json_object_new_boolean(pass));
	json_object_object_add(root, "domains", json_domains(fl));
	json_object_object_add(root, "associations", json_coverage(fl, &gr));
	rails = json_object_new_array();
	for (rail = 0; rail < fl->rails; rail++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "rail", json_object_new_int(rail));
		json_object_object_add(
			o, "outlier",
			json_object_new_boolean(fl->rail_slow[rail]));
		json_object_object_add(o, "curves",
				       curves_json(fl, &gr, rail, -1, 0));
		json_object_array_add(rails, o);
	}
	json_object_object_add(root, "rails", rails);
	json_object_object_add(root, "executions", json_runs(fl));
	ret = json_object_to_file_ext(path, root,
				      JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(root);
	return ret ? gd_err(-EIO, "--json: cannot write '%s': %s", path,
			    json_util_get_last_err())
		   : 0;
}
