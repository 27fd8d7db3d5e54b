/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Two runs' comparison as text: which run is which and the judged sizes,
 * a table of baseline, candidate and their ratio with its interval per
 * size, the counters that moved in each run, each run's memory and
 * route, and the verdict. gd_compare_fit() fits it to 80 columns.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/doc_read.h"
#include "tools/compare/compare_tool.h"
#include "util/assess.h"
#include "util/json_get.h"
#include "util/stats.h"

#define GD_RUNS_RULE                                                           \
	"--------------------------------------------------------------------" \
	"------------\n"

static const char *const gd_runs_who[2] = { "baseline", "candidate" };
static const char *const gd_runs_slot[2] = { "HH", "DD" };

static void gd_runs_head(FILE *out, const struct gd_cmp_opts *o,
			 const struct gd_cmp_input *in[2],
			 struct json_object *overall)
{
	double from = 0, to = 0, n = 0;
	char f[32], t[32];

	fprintf(out,
		" gd_compare: candidate against baseline, phase %s %s, "
		"floor %.2f\n",
		o->phase, o->direction, o->expect_ratio);
	for (int k = 0; k < 2; k++)
		fprintf(out, "   %-10s %s (%s, %s)\n", gd_runs_who[k],
			in[k]->path, gd_json_str(in[k]->doc, "hostname") ?: "?",
			gd_json_str(in[k]->doc, "started_at") ?: "?");
	if (!gd_json_num(overall, "from_bytes", &from) ||
	    !gd_json_num(overall, "to_bytes", &to) ||
	    !gd_json_num(overall, "sizes", &n)) {
		fprintf(out,
			"   %-10s no size both runs hold from %llu B up "
			"(gate_from_bytes %llu)\n",
			"judged", (unsigned long long)o->judge_from,
			(unsigned long long)o->judge_from);
		return;
	}
	fprintf(out, "   %-10s %.0f size%s, %s", "judged", n, n == 1 ? "" : "s",
		gd_assess_bytes_str(from, f, sizeof(f)));
	if (to > from)
		fprintf(out, "..%s", gd_assess_bytes_str(to, t, sizeof(t)));
	fprintf(out, " (gate_from_bytes %llu)\n",
		(unsigned long long)o->judge_from);
}

/* The per-size decision of the run's rule, or "not judged" / "-". */
static const char *gd_runs_size_word(struct json_object *a, double size,
				     uint64_t judge_from)
{
	struct json_object *sz = gd_json_path(a, "per_size", "sizes"), *b;
	double s, from = 0;

	for (size_t i = 0; i < gd_json_len(sz); i++) {
		struct json_object *e = gd_json_idx(sz, i);

		if (!gd_json_num(e, "size_bytes", &s) || s != size)
			continue;
		if (json_object_object_get_ex(e, "slow", &b) &&
		    json_object_get_boolean(b))
			return "below";
		if (json_object_object_get_ex(e, "undecided", &b) &&
		    json_object_get_boolean(b))
			return "undecided";
		return "clears";
	}
	if (size < (double)judge_from ||
	    (gd_json_num(gd_json_path(a, "judged", NULL), "from_bytes",
			 &from) &&
	     size < from))
		return "not judged";
	return "-";
}

/* One row's ratio (candidate/baseline, or baseline/candidate latency)
 * and its interval over the rounds, the ratio being the geometric mean
 * those rounds give, so that it lies inside its interval. */
static void gd_runs_ratio_cells(struct json_object *row, bool lat, char *r,
				char *ci, size_t len)
{
	struct json_object *ri = gd_json_path(row, "ratio_intervals", "DD/HH");
	double g, lo, hi;

	snprintf(ci, len, "-");
	if (gd_json_num(ri, "geomean", &g) && gd_json_num(ri, "low", &lo) &&
	    gd_json_num(ri, "high", &hi) && g > 0 && lo > 0 && hi > 0) {
		snprintf(r, len, "%.2f", lat ? 1 / g : g);
		snprintf(ci, len, "%.2f..%.2f", lat ? 1 / hi : lo,
			 lat ? 1 / lo : hi);
		return;
	}
	if (gd_json_num(gd_json_path(row, "ratios", NULL), "DD/HH", &g) &&
	    g > 0)
		snprintf(r, len, "%.2f", lat ? 1 / g : g);
	else
		snprintf(r, len, "-");
}

static void gd_runs_table(FILE *out, struct json_object *doc,
			  struct json_object *cmp, struct json_object *a,
			  uint64_t judge_from)
{
	const char *bw_unit =
		gd_json_str(gd_json_path(doc, "units", NULL), "bw");
	bool lat = gd_doc_is_lat(doc),
	     gbits = bw_unit && !strcmp(bw_unit, "Gb/s");
	const char *key = lat ? "lat_typical_us" : "bw_avg_MiBps";
	const char *unit = lat ? "usec" : gbits ? "Gb/s" : "MiB/s";
	double scale = gbits ? gd_MiBps_to_Gbps(1.0) : 1.0;
	char h[2][32];

	for (int k = 0; k < 2; k++)
		snprintf(h[k], sizeof(h[k]), "%s[%s]", gd_runs_who[k], unit);
	fprintf(out, GD_RUNS_RULE " %-10s %-16s %-17s %-10s %-13s %s\n",
		"#bytes", h[0], h[1], lat ? "base/cand" : "cand/base",
		"95% interval", "size");
	for (size_t i = 0; i < gd_json_len(cmp); i++) {
		struct json_object *row = gd_json_idx(cmp, i);
		double size = 0, x;
		char fig[2][32], r[32], ci[32];

		gd_json_num(row, "size_bytes", &size);
		for (int k = 0; k < 2; k++) {
			if (gd_json_num(gd_json_path(row, "phases",
						     gd_runs_slot[k]),
					key, &x))
				snprintf(fig[k], sizeof(fig[k]), "%.2f",
					 x * scale);
			else
				snprintf(fig[k], sizeof(fig[k]), "-");
		}
		gd_runs_ratio_cells(row, lat, r, ci, sizeof(r));
		fprintf(out, " %-10.0f %-16s %-17s %-10s %-13s %s\n", size,
			fig[0], fig[1], r, ci,
			gd_runs_size_word(a, size, judge_from));
	}
	fprintf(out,
		" %s per size: the geometric mean of the rounds' ratios and "
		"their 95%% t-interval; size: that size's decision by the "
		"run's rule (gdperf(7), STATISTICS)\n",
		lat ? "base/cand (latency)" : "cand/base");
}

/* A counter's delta over one run's phase, both ends; false: absent. */
static bool gd_runs_counter(struct json_object *ph, const char *name,
			    double *sum)
{
	static const char *const sides[] = { "local", "remote" };
	bool any = false;

	*sum = 0;
	for (int s = 0; s < 2; s++) {
		struct json_object *l =
			gd_json_path(gd_json_path(ph, "counters", sides[s]),
				     "counters", NULL);

		for (size_t i = 0; i < gd_json_len(l); i++) {
			struct json_object *c = gd_json_idx(l, i);
			double d;

			if (!strcmp(gd_json_str(c, "name") ?: "", name) &&
			    gd_json_num(c, "delta", &d)) {
				*sum += d;
				any = true;
			}
		}
	}
	return any;
}

/* The counters that moved in either run, each run's delta (both ends
 * summed) side by side. */
static void gd_runs_counters(FILE *out, struct json_object *phases)
{
	struct json_object *seen = json_object_new_object();
	bool head = false;

	for (size_t p = 0; p < gd_json_len(phases) && p < 2; p++)
		for (int s = 0; s < 2; s++) {
			struct json_object *l = gd_json_path(
				gd_json_path(gd_json_idx(phases, p), "counters",
					     s ? "remote" : "local"),
				"counters", NULL);

			for (size_t i = 0; i < gd_json_len(l); i++) {
				struct json_object *c = gd_json_idx(l, i);
				const char *name = gd_json_str(c, "name");
				double d;

				if (name && gd_json_num(c, "delta", &d) &&
				    d > 0)
					json_object_object_add(
						seen, name,
						json_object_new_string(
							gd_json_str(c, "unit")
								?: ""));
			}
		}
	json_object_object_foreach(seen, name, unit)
	{
		double v[2];
		char cell[2][32];

		if (!head)
			fprintf(out,
				GD_RUNS_RULE
				" Counters that moved (both ends, over the "
				"measured windows)\n %-32s %-8s %-14s %s\n",
				"counter", "unit", "baseline", "candidate");
		head = true;
		for (int k = 0; k < 2; k++) {
			if (gd_runs_counter(gd_json_idx(phases, (size_t)k),
					    name, &v[k]))
				snprintf(cell[k], sizeof(cell[k]), "%.0f",
					 v[k]);
			else
				snprintf(cell[k], sizeof(cell[k]), "-");
		}
		fprintf(out, " %-32s %-8s %-14s %s\n", name,
			json_object_get_string(unit), cell[0], cell[1]);
	}
	json_object_put(seen);
}

static void gd_runs_memory(FILE *out, struct json_object *phases)
{
	static const char *const sides[] = { "local", "remote" };

	fprintf(out, GD_RUNS_RULE " Memory and registration route:\n");
	for (size_t p = 0; p < gd_json_len(phases) && p < 2; p++) {
		struct json_object *ph = gd_json_idx(phases, p);

		const char *from = gd_json_str(ph, "compared_from") ?: "?";
		const char *own = strstr(from, "'s ");

		/* "baseline's HH forward": the phase, the run said before */
		fprintf(out, "   %-10s %s:", gd_runs_who[p],
			own ? own + 3 : from);
		for (int s = 0; s < 2; s++) {
			struct json_object *m =
				gd_json_path(ph, "memory", sides[s]);
			const char *dev = gd_json_str(m, "device");
			const char *route = gd_json_str(m, "route");

			fprintf(out, "%s %s %s%s%s%s%s%s", s ? ";" : "",
				sides[s], gd_json_str(m, "kind") ?: "unknown",
				dev ? " " : "", dev ?: "", route ? " (" : "",
				route ?: "", route ? ")" : "");
		}
		fputc('\n', out);
	}
}

static void gd_runs_verdict(FILE *out, struct json_object *v)
{
	struct json_object *ev = gd_json_path(v, "evidence", NULL);

	fprintf(out, GD_RUNS_RULE " Verdict:\n  [%s] %s: %s\n",
		gd_json_str(v, "severity") ?: "?",
		gd_json_str(v, "code") ?: "?", gd_json_str(v, "summary") ?: "");
	for (size_t k = 0; k < gd_json_len(ev); k++)
		fprintf(out, "      evidence: %s\n",
			json_object_get_string(gd_json_idx(ev, k)));
	fprintf(out, "      next: %s\n", gd_json_str(v, "next_check") ?: "");
}

void gd_cmp_runs_print(FILE *out, const struct gd_cmp_opts *o,
		       const struct gd_cmp_input *base,
		       const struct gd_cmp_input *cand, struct json_object *doc,
		       struct json_object *rec)
{
	const struct gd_cmp_input *in[2] = { base, cand };
	struct json_object *v =
		gd_json_idx(gd_json_path(rec, "verdicts", NULL), 0);
	struct json_object *a = NULL;
	struct json_object *as = gd_json_path(doc, "statistics", "assessments");
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	double st = 0;

	for (size_t i = 0; i < gd_json_len(as) && !a; i++)
		if (!strcmp(gd_json_str(gd_json_idx(as, i), "comparison") ?: "",
			    "DD/HH"))
			a = gd_json_idx(as, i);
	gd_runs_head(out, o, in, gd_json_path(rec, "overall", NULL));
	gd_runs_table(out, doc, gd_json_path(rec, "comparison", NULL), a,
		      o->judge_from);
	gd_runs_counters(out, phases);
	gd_runs_memory(out, phases);
	gd_runs_verdict(out, v);
	gd_json_num(rec, "exit_status", &st);
	fprintf(out, GD_RUNS_RULE " gd_compare: %s: %s (exit status %.0f)\n",
		gd_json_str(v, "code") ?: "?",
		gd_json_str(rec, "outcome") ?: "", st);
}
