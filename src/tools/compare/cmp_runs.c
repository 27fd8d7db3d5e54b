/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Two runs' comparison in its own words: the run's judgement of the
 * paired document (baseline in the HH slot, candidate in DD) read back as
 * a regression, no regression or undecided, with the overall ratio over
 * the judged sizes, the gates counted as gates, and the text report.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/doc_read.h"
#include "tools/compare/compare_tool.h"
#include "util/assess.h"
#include "util/infer.h"
#include "util/json_get.h"

/* The paired document's assessment of the candidate against the baseline
 * (DD/HH in the chosen direction: there is one). */
static struct json_object *gd_runs_assessment(struct json_object *doc)
{
	struct json_object *as = gd_json_path(doc, "statistics", "assessments");

	for (size_t i = 0; i < gd_json_len(as); i++) {
		struct json_object *a = gd_json_idx(as, i);

		if (!strcmp(gd_json_str(a, "comparison") ?: "", "DD/HH"))
			return a;
	}
	return NULL;
}

static const char gd_runs_nothing[] =
	"nothing was judged: no size both runs hold is at or above "
	"--gate-from; lower --gate-from";

static const char *gd_runs_bytes(double b, char *buf, size_t len)
{
	return gd_assess_bytes_str(b, buf, len);
}

/* The gate records of the paired document: failed, undecided, passed. */
struct gd_runs_gates {
	unsigned int failed, undecided, passed;
};

static struct gd_runs_gates gd_runs_gate_count(struct json_object *doc)
{
	struct json_object *gs = gd_json_path(doc, "gates", NULL);
	struct gd_runs_gates c = { 0 };

	for (size_t i = 0; i < gd_json_len(gs); i++) {
		struct json_object *g = gd_json_idx(gs, i), *u;
		struct json_object *p = json_object_object_get(g, "passed");

		if (json_object_object_get_ex(g, "undecided", &u) &&
		    json_object_get_boolean(u))
			c.undecided++;
		else if (p && json_object_get_boolean(p))
			c.passed++;
		else
			c.failed++;
	}
	return c;
}

/* "1 gate failed", "2 gates failed", "1 gate undecided". */
static void gd_runs_gate_words(struct gd_sbuf *sb, unsigned int n,
			       const char *what)
{
	gd_sb_add(sb, "%u gate%s %s", n, n == 1 ? "" : "s", what);
}

static const char *gd_runs_ratio_name(bool lat)
{
	return lat ? "baseline/candidate latency" : "candidate/baseline";
}

/* "candidate/baseline 0.79, 95% interval 0.79..0.79 over the judged
 * sizes 4 KiB..8 MiB (12 sizes, 3 rounds)". */
static void gd_runs_overall_text(struct gd_sbuf *sb, struct json_object *a,
				 bool lat)
{
	struct json_object *ci = gd_json_path(a, "interval", NULL);
	struct json_object *j = gd_json_path(a, "judged", NULL);
	double r = NAN, lo, hi, from = 0, to = 0, sizes = 0, rounds = 0;
	char f[32], t[32];

	gd_json_num(a, "ratio", &r);
	gd_json_num(j, "from_bytes", &from);
	gd_json_num(j, "to_bytes", &to);
	gd_json_num(a, "sizes", &sizes);
	gd_json_num(a, "rounds", &rounds);
	gd_sb_add(sb, "%s %.2f", gd_runs_ratio_name(lat), r);
	if (gd_json_num(ci, "low", &lo) && gd_json_num(ci, "high", &hi))
		gd_sb_add(sb, ", %.0f%% interval %.2f..%.2f over the %s",
			  GD_INFER_CONFIDENCE * 100, lo, hi,
			  gd_json_str(ci, "replicates") ?: "rounds");
	else
		gd_sb_add(sb, ", no interval");
	gd_sb_add(sb, ", from the judged sizes only: %s",
		  gd_runs_bytes(from, f, sizeof(f)));
	if (to > from)
		gd_sb_add(sb, "..%s", gd_runs_bytes(to, t, sizeof(t)));
	gd_sb_add(sb, " (%.0f size%s, %.0f round%s)", sizes,
		  sizes == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s");
}

/* Where the candidate falls below: the segment furthest below the floor,
 * and the sizes below it on their own. */
static void gd_runs_slow_text(struct json_object *ev, struct json_object *a)
{
	struct json_object *seg = gd_json_path(a, "segment", NULL), *f;
	struct json_object *slow = gd_json_path(a, "per_size", "slow_sizes");
	struct gd_sbuf sb = { .len = 0 };
	double floor = 0, from, to, r, lo, hi, n, worst = INFINITY, at = 0;
	double top = 0;
	char x[32], y[32];

	gd_json_num(a, "floor", &floor);
	gd_json_num(gd_json_path(a, "judged", NULL), "to_bytes", &top);
	if (json_object_object_get_ex(seg, "found", &f) &&
	    json_object_get_boolean(f) &&
	    gd_json_num(seg, "from_bytes", &from) &&
	    gd_json_num(seg, "to_bytes", &to) &&
	    gd_json_num(seg, "ratio", &r) && gd_json_num(seg, "sizes", &n)) {
		gd_sb_add(&sb, "slower: below %.2f from %s", floor,
			  gd_runs_bytes(from, x, sizeof(x)));
		if (to >= top)
			gd_sb_add(&sb, " up");
		else if (to > from)
			gd_sb_add(&sb, " to %s",
				  gd_runs_bytes(to, y, sizeof(y)));
		gd_sb_add(&sb, ": %.2f", r);
		if (gd_json_num(seg, "low", &lo) &&
		    gd_json_num(seg, "high", &hi))
			gd_sb_add(&sb, " (%.2f..%.2f)", lo, hi);
		gd_sb_add(&sb, ", %.0f size%s", n, n == 1 ? "" : "s");
		json_object_array_add(ev, json_object_new_string(sb.buf));
		sb.len = 0;
	}
	for (size_t i = 0; i < gd_json_len(slow); i++) {
		struct json_object *s = gd_json_idx(slow, i);

		if (gd_json_num(s, "ratio", &r) && r < worst &&
		    gd_json_num(s, "size_bytes", &at))
			worst = r;
	}
	if (gd_json_len(slow)) {
		gd_sb_add(&sb,
			  "%zu size(s) below %.2f on their own (each by its "
			  "own interval), the slowest %.2f at %s",
			  gd_json_len(slow), floor, worst,
			  gd_runs_bytes(at, x, sizeof(x)));
		json_object_array_add(ev, json_object_new_string(sb.buf));
	}
}

/* Not below: the weakest judged size and its own lower bound. */
static void gd_runs_clear_text(struct json_object *ev, struct json_object *a)
{
	struct json_object *sz = gd_json_path(a, "per_size", "sizes");
	struct json_object *weak = NULL;
	double lo, wlo = INFINITY, r = 0, at = 0, floor = 0;
	double conf = GD_INFER_CONFIDENCE, nb;
	struct gd_sbuf sb = { .len = 0 };
	char x[32];

	for (size_t i = 0; i < gd_json_len(sz); i++) {
		struct json_object *s = gd_json_idx(sz, i);

		if (gd_json_num(s, "low", &lo) && lo < wlo) {
			wlo = lo;
			weak = s;
		}
	}
	if (!weak)
		return;
	gd_json_num(weak, "ratio", &r);
	gd_json_num(weak, "size_bytes", &at);
	gd_json_num(a, "floor", &floor);
	/* the level each size's bound used, as the run's words say it (an
	 * adaptive run's is stricter than its interval's) */
	gd_json_num(gd_json_path(a, "interval", NULL), "confidence", &conf);
	if (gd_json_num(a, "alpha_not_below", &nb) && nb > 0 && nb < 0.5)
		conf = 1 - 2 * nb;
	gd_sb_add(&sb,
		  "every judged size's own %.3g%% lower bound clears %.2f; the "
		  "weakest %s: %.2f, lower bound %.2f",
		  conf * 100, floor, gd_runs_bytes(at, x, sizeof(x)), r, wlo);
	json_object_array_add(ev, json_object_new_string(sb.buf));
}

/* Undecided: why, the sizes not settled and the rounds that would. */
/* Is per-size entry @s undecided? Its size and the rounds it needs. */
static bool gd_runs_size_undecided(struct json_object *s, double *b,
				   double *need)
{
	struct json_object *u;

	return json_object_object_get_ex(s, "undecided", &u) &&
	       json_object_get_boolean(u) && gd_json_num(s, "size_bytes", b) &&
	       gd_json_num(s, "rounds_needed", need);
}

static void gd_runs_need(struct gd_sbuf *sb, double need)
{
	gd_sb_add(sb, "about %.0f%s rounds", need,
		  need >= GD_ASSESS_REPEATS_CAP ? " or more" : "");
}

/* Undecided: why, the sizes not settled (neighbours together, each run
 * with the rounds its slowest-to-settle size needs) and the rounds that
 * would settle the comparison. */
static void gd_runs_undecided_text(struct json_object *ev,
				   struct json_object *a)
{
	struct json_object *sz = gd_json_path(a, "per_size", "sizes");
	struct gd_sbuf sb = { .len = 0 };
	double need = 0, r, b, first, last, most;
	const char *sep = ": ";
	char x[32], y[32];

	if (gd_json_num(a, "sizes", &b) && b < 1) {
		json_object_array_add(ev,
				      json_object_new_string(gd_runs_nothing));
		return;
	}
	gd_sb_add(&sb, "%s", gd_json_str(a, "reason") ?: "not enough evidence");
	for (size_t i = 0; i < gd_json_len(sz); i++) {
		if (!gd_runs_size_undecided(gd_json_idx(sz, i), &first, &most))
			continue;
		last = first;
		while (i + 1 < gd_json_len(sz) &&
		       gd_runs_size_undecided(gd_json_idx(sz, i + 1), &b, &r)) {
			last = b;
			most = r > most ? r : most;
			i++;
		}
		gd_sb_add(&sb, "%s%s", sep, gd_runs_bytes(first, x, sizeof(x)));
		if (last > first)
			gd_sb_add(&sb, "..%s",
				  gd_runs_bytes(last, y, sizeof(y)));
		gd_sb_add(&sb, " (");
		gd_runs_need(&sb, most);
		gd_sb_add(&sb, ")");
		sep = ", ";
	}
	json_object_array_add(ev, json_object_new_string(sb.buf));
	if (gd_json_num(a, "repeats_needed", &need) && need > 0) {
		sb.len = 0;
		gd_runs_need(&sb, need);
		gd_sb_add(&sb, " in each run (--repeat=%.0f) would settle it",
			  need);
		json_object_array_add(ev, json_object_new_string(sb.buf));
	}
}

/* One evidence line per gate: what it held and how it ended. */
static void gd_runs_gate_text(struct json_object *ev, struct json_object *doc,
			      bool lat)
{
	struct json_object *gs = gd_json_path(doc, "gates", NULL);

	for (size_t i = 0; i < gd_json_len(gs); i++) {
		struct json_object *g = gd_json_idx(gs, i), *p, *u;
		struct gd_sbuf sb = { .len = 0 };
		double th = 0;
		bool und = json_object_object_get_ex(g, "undecided", &u) &&
			   json_object_get_boolean(u);

		p = json_object_object_get(g, "passed");
		gd_json_num(g, "threshold", &th);
		gd_sb_add(&sb, "gate %s %s: %s at least %.2f: %s",
			  gd_json_str(g, "gate") ?: "?",
			  gd_json_str(g, "direction") ?: "",
			  gd_runs_ratio_name(lat), th,
			  und ? (p && json_object_get_boolean(p)
					 ? "undecided, passed by "
					   "--gate-undecided=pass"
					 : "undecided")
			  : p && json_object_get_boolean(p) ? "passed"
							    : "failed");
		json_object_array_add(ev, json_object_new_string(sb.buf));
	}
}

/* The next check, by code: what changed between the two runs. */
static void gd_runs_next(struct gd_sbuf *sb, const char *code,
			 const struct gd_cmp_input *base,
			 const struct gd_cmp_input *cand, struct json_object *a)
{
	double need = 0;

	if (!strcmp(code, GD_CMP_REGRESSION)) {
		gd_sb_add(
			sb,
			"Find what changed between the runs: gd_doctor --diff "
			"%s %s (the envelopes both documents embed: route "
			"records, GPU-to-NIC path, PCIe links); each run's "
			"counter deltas (the documents' phases[].counters; any "
			"that moved are listed above); the "
			"driver and firmware versions "
			"(fw_ver) in both headers; then run the candidate "
			"again and compare.",
			base->path, cand->path);
		return;
	}
	if (!strcmp(code, GD_CMP_UNDECIDED) && !a) {
		gd_sb_add(sb,
			  "Lower --gate-from to sizes both runs hold, or run "
			  "them again with the same -s/-a sizes.");
		return;
	}
	if (!strcmp(code, GD_CMP_UNDECIDED)) {
		gd_json_num(a, "repeats_needed", &need);
		gd_sb_add(
			sb,
			"Run both again with more rounds (--repeat=%.0f or "
			"more) on a quiet pair of hosts, or judge fewer sizes "
			"(--gate-from); gd_doctor --diff %s %s shows whether "
			"the two runs' envelopes differ.",
			need > 0 ? need : 5, base->path, cand->path);
		return;
	}
	gd_sb_add(sb, "None needed; a tighter floor is --expect-ratio=R.");
}

/* The verdict's code, severity and summary from the exit status. */
static const char *gd_runs_summary(struct gd_sbuf *sb, int status, bool lat,
				   const struct gd_runs_gates *gc,
				   struct json_object *doc,
				   struct json_object *a, const char **sev)
{
	double floor = 0;
	const char *fig =
		lat ? "speed (baseline/candidate latency)" : "bandwidth";
	const char *code;

	if (!gd_json_num(a, "floor", &floor))
		gd_json_num(gd_json_idx(gd_json_path(doc, "gates", NULL), 0),
			    "threshold", &floor);
	if (status == GD_CMPX_SLOWER) {
		code = GD_CMP_REGRESSION;
		*sev = "error";
		if (lat)
			gd_sb_add(sb,
				  "the candidate's latency is higher: "
				  "baseline/candidate latency below %.2f; ",
				  floor);
		else
			gd_sb_add(sb,
				  "the candidate's bandwidth is below %.2f x "
				  "the baseline's; ",
				  floor);
		gd_runs_gate_words(sb, gc->failed, "failed");
	} else if (gc->undecided || !a) {
		code = GD_CMP_UNDECIDED;
		*sev = "warning";
		gd_sb_add(sb,
			  "the two runs cannot tell whether the candidate's %s "
			  "is below %.2f x the baseline's; ",
			  fig, floor);
		gd_runs_gate_words(sb, gc->undecided, "undecided");
		if (status == GD_CMPX_OK)
			gd_sb_add(sb, ", passed by --gate-undecided=pass");
	} else {
		code = GD_CMP_NO_REGRESSION;
		*sev = "info";
		gd_sb_add(sb,
			  "the candidate's %s is not below %.2f x the "
			  "baseline's at any judged size; ",
			  fig, floor);
		gd_runs_gate_words(sb, gc->passed, "passed");
	}
	return code;
}

struct json_object *gd_cmp_runs_verdict(struct json_object *doc, int status,
					const struct gd_cmp_input *base,
					const struct gd_cmp_input *cand)
{
	struct json_object *a = gd_runs_assessment(doc);
	struct json_object *v = json_object_new_object();
	struct json_object *ev = json_object_new_array();
	struct gd_runs_gates gc = gd_runs_gate_count(doc);
	struct gd_sbuf sb = { .len = 0 };
	bool lat = gd_doc_is_lat(doc);
	const char *sev = "info", *code;

	code = gd_runs_summary(&sb, status, lat, &gc, doc, a, &sev);
	json_object_object_add(v, "code", json_object_new_string(code));
	json_object_object_add(v, "severity", json_object_new_string(sev));
	json_object_object_add(v, "summary", json_object_new_string(sb.buf));
	if (a) {
		sb.len = 0;
		gd_runs_overall_text(&sb, a, lat);
		json_object_array_add(ev, json_object_new_string(sb.buf));
	}
	if (!a)
		json_object_array_add(ev,
				      json_object_new_string(gd_runs_nothing));
	else if (!strcmp(code, GD_CMP_REGRESSION))
		gd_runs_slow_text(ev, a);
	else if (a && !strcmp(code, GD_CMP_UNDECIDED))
		gd_runs_undecided_text(ev, a);
	else if (a)
		gd_runs_clear_text(ev, a);
	gd_runs_gate_text(ev, doc, lat);
	json_object_object_add(v, "evidence", ev);
	sb.len = 0;
	gd_runs_next(&sb, code, base, cand, a);
	json_object_object_add(v, "next_check", json_object_new_string(sb.buf));
	return v;
}

struct json_object *gd_cmp_runs_overall(struct json_object *doc)
{
	struct json_object *a = gd_runs_assessment(doc), *o, *v;
	static const char *const keys[][2] = {
		{ "ratio", NULL },
		{ "low", "interval" },
		{ "high", "interval" },
		{ "confidence", "interval" },
		{ "replicates", "interval" },
		{ "from_bytes", "judged" },
		{ "to_bytes", "judged" },
		{ "sizes", NULL },
		{ "rounds", NULL },
		{ "decision", NULL },
	};

	if (!a)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(
		o, "figure",
		json_object_new_string(gd_runs_ratio_name(gd_doc_is_lat(doc))));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct json_object *from =
			keys[i][1] ? gd_json_path(a, keys[i][1], NULL) : a;

		if (json_object_object_get_ex(from, keys[i][0], &v))
			json_object_object_add(o, keys[i][0],
					       json_object_get(v));
		else
			json_object_object_add(o, keys[i][0], NULL);
	}
	return o;
}
