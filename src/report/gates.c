/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CI gates' policy: the expect-ratio gate follows the evidence of the
 * assessments (evidence.c), never one size's figure; the absolute gates
 * (--min-bw, --max-lat) judge each gated size's figure. One record per
 * gate and phase keeps the figure, its interval and the policy applied.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare_priv.h"
#include "util/assess.h"
#include "util/infer.h"

/* The ratio gate's rule in words, from the figures that decide it (the
 * floor, and the level and confidence the assessment recorded, else
 * util/assess.h's): every judged size must clear the floor on its own,
 * which is what gd_assess() applies. JSON "policy" and the JUnit body. */
void gd_gate_ratio_rule(char *buf, size_t len, struct json_object *a,
			double floor)
{
	double alpha = GD_ASSESS_ALPHA, conf = 1 - 2 * GD_ASSESS_ALPHA, nb;

	gd_json_num(a, "alpha", &alpha);
	gd_json_num(gd_json_path(a, "interval", NULL), "confidence", &conf);
	/* the level each size's bound used (an adaptive run's is stricter) */
	if (gd_json_num(a, "alpha_not_below", &nb) && nb > 0 && nb < 0.5)
		conf = 1 - 2 * nb;
	snprintf(
		buf, len,
		"passes when every judged size's own %.3g%% lower bound over its rounds clears %.2f (not below); fails when a size, a run of adjacent sizes or a band lies below %.2f at the run's Holm-adjusted %.1f%% level (slower); one size's figure alone never fails it (a size needs its rounds); anything else is undecided, which fails with exit status 4 (not enough evidence) unless --gate-undecided=pass",
		conf * 100, floor, floor, alpha * 100);
}

const char gd_gate_policy_abs[] =
	"each gated size's figure against the threshold, with --repeat the median of its repeats (a typical run, not the luckiest or the unluckiest); the record keeps the worst size and its repeats' range";

static void gd_gate_row_add(struct json_object *row, const char *text)
{
	json_object_array_add(json_object_object_get(row, "gate_failures"),
			      json_object_new_string(text));
}

/* Speed (bw X/HH, lat HH/X) of @label at this row, or -1. */
static double gd_gate_row_speed(struct json_object *row, const char *label,
				bool lat)
{
	double r;

	if (!gd_json_num(gd_json_path(row, "ratios", NULL), label, &r) ||
	    r <= 0)
		return -1;
	return lat ? 1 / r : r;
}

/* The expect-ratio gate is about device memory against host memory; D2
 * against D1 is evidence for the verdicts, not a gate. */
static bool gd_gate_against_hh(const char *label)
{
	const char *slash = strchr(label, '/');

	return slash && !strcmp(slash + 1, "HH");
}

void gd_gate_ratio(const struct gd_gate_cfg *g, bool lat,
		   struct json_object *rows, struct json_object *assess,
		   struct json_object *gate_evidence)
{
	if (g->expect_ratio <= 0)
		return;
	for (size_t i = 0; i < gd_json_len(assess); i++) {
		struct json_object *a = gd_json_idx(assess, i);
		const char *label = gd_json_str(a, "comparison");
		const char *dir = gd_json_str(a, "direction");
		const char *dec = gd_json_str(a, "decision");
		char buf[1200];

		if (!label || !dir || !dec || strcmp(dec, "slower") ||
		    !gd_gate_against_hh(label))
			continue;
		snprintf(buf, sizeof(buf), "expect_ratio %s %s: %s", label, dir,
			 gd_json_str(a, "evidence") ?: "");
		json_object_array_add(gate_evidence,
				      json_object_new_string(buf));
		for (size_t j = 0; j < gd_json_len(rows); j++) {
			struct json_object *row = gd_json_idx(rows, j);
			double size = 0, sp;

			gd_json_num(row, "size_bytes", &size);
			sp = gd_gate_row_speed(row, label, lat);
			if (strcmp(gd_json_str(row, "direction") ?: "", dir) ||
			    (uint64_t)size < g->gate_from_bytes || sp < 0 ||
			    sp >= g->expect_ratio)
				continue;
			snprintf(buf, sizeof(buf),
				 "expect_ratio %s %.2f < %.2f", label, sp,
				 g->expect_ratio);
			gd_gate_row_add(row, buf);
		}
	}
}

bool gd_decision_clears(const char *decision)
{
	return decision && (!strcmp(decision, "not_below") ||
			    !strcmp(decision, "no_difference"));
}

/* Neither cleared nor below: the evidence decides nothing. */
static bool gd_decision_undecided(const char *decision)
{
	return !decision ||
	       (strcmp(decision, "slower") && !gd_decision_clears(decision));
}

static void gd_gate_undecided_keys(const struct gd_gate_cfg *g,
				   struct json_object *r, bool undecided)
{
	json_object_object_add(r, "undecided",
			       json_object_new_boolean(undecided));
	json_object_object_add(
		r, "undecided_policy",
		json_object_new_string(g->undecided_pass ? "pass" : "fail"));
}

static struct json_object *gd_gate_ratio_record(const struct gd_gate_cfg *g,
						struct json_object *a)
{
	struct json_object *r = json_object_new_object(), *v;
	const char *dec = gd_json_str(a, "decision");
	bool undecided = gd_decision_undecided(dec);
	char policy[512];

	json_object_object_add(r, "gate",
			       json_object_new_string("expect_ratio"));
	json_object_object_add(
		r, "comparison",
		json_object_new_string(gd_json_str(a, "comparison") ?: ""));
	json_object_object_add(
		r, "direction",
		json_object_new_string(gd_json_str(a, "direction") ?: ""));
	json_object_object_add(r, "threshold",
			       json_object_new_double(g->expect_ratio));
	gd_gate_ratio_rule(policy, sizeof(policy), a, g->expect_ratio);
	json_object_object_add(r, "policy", json_object_new_string(policy));
	json_object_object_add(
		r, "figure",
		json_object_get(json_object_object_get(a, "ratio")));
	v = json_object_object_get(a, "interval");
	json_object_object_add(r, "interval", json_object_get(v));
	json_object_object_add(r, "method",
			       json_object_new_string(gd_evidence_method));
	json_object_object_add(r, "decision",
			       json_object_new_string(dec ?: "none"));
	gd_gate_undecided_keys(g, r, undecided);
	json_object_object_add(
		r, "passed",
		json_object_new_boolean(gd_decision_clears(dec) ||
					(undecided && g->undecided_pass)));
	return r;
}

static bool gd_gate_assessed(struct json_object *assess, const char *label,
			     const char *dir)
{
	for (size_t i = 0; i < gd_json_len(assess); i++) {
		struct json_object *a = gd_json_idx(assess, i);

		if (!strcmp(gd_json_str(a, "comparison") ?: "", label) &&
		    !strcmp(gd_json_str(a, "direction") ?: "", dir))
			return true;
	}
	return false;
}

/* A comparison against HH that no assessment judged (no gated size had
 * both figures): its gate has no evidence at all, so it is undecided,
 * never silently passed. */
static void gd_gate_unassessed(const struct gd_gate_cfg *g,
			       struct json_object *rows,
			       struct json_object *assess,
			       struct json_object *out)
{
	struct json_object *seen = json_object_new_object();

	for (size_t j = 0; j < gd_json_len(rows); j++) {
		struct json_object *row = gd_json_idx(rows, j);
		const char *dir = gd_json_str(row, "direction") ?: "";

		json_object_object_foreach(gd_json_path(row, "ratios", NULL),
					   label, val)
		{
			struct json_object *r;
			char key[96], policy[512];

			(void)val;
			snprintf(key, sizeof(key), "%s %s", label, dir);
			if (!gd_gate_against_hh(label) ||
			    json_object_object_get_ex(seen, key, NULL) ||
			    gd_gate_assessed(assess, label, dir))
				continue;
			json_object_object_add(seen, key, NULL);
			r = json_object_new_object();
			json_object_object_add(
				r, "gate",
				json_object_new_string("expect_ratio"));
			json_object_object_add(r, "comparison",
					       json_object_new_string(label));
			json_object_object_add(r, "direction",
					       json_object_new_string(dir));
			json_object_object_add(
				r, "threshold",
				json_object_new_double(g->expect_ratio));
			gd_gate_ratio_rule(policy, sizeof(policy), NULL,
					   g->expect_ratio);
			json_object_object_add(r, "policy",
					       json_object_new_string(policy));
			json_object_object_add(r, "figure", NULL);
			json_object_object_add(
				r, "decision",
				json_object_new_string("not_assessed"));
			json_object_object_add(
				r, "reason",
				json_object_new_string(
					"no gated size (at or above --gate-from) has both figures"));
			gd_gate_undecided_keys(g, r, true);
			json_object_object_add(
				r, "passed",
				json_object_new_boolean(g->undecided_pass));
			json_object_array_add(out, r);
		}
	}
	json_object_put(seen);
}

int gd_compare_gate_status(struct json_object *doc, bool gate_failed)
{
	struct json_object *gates = gd_json_path(doc, "gates", NULL);

	if (gate_failed)
		return GD_GATE_STATUS_FAILED;
	for (size_t i = 0; i < gd_json_len(gates); i++) {
		struct json_object *r = gd_json_idx(gates, i);
		struct json_object *u = json_object_object_get(r, "undecided");
		struct json_object *p = json_object_object_get(r, "passed");

		if (json_object_get_boolean(u) && !json_object_get_boolean(p))
			return GD_GATE_STATUS_UNDECIDED;
	}
	return 0;
}

struct gd_gate_worst {
	const char *key, *gate;
	const char
		*samples; /* the figure's per-repeat array, NULL: "samples" */
	double threshold;
	bool below; /* min-bw: failing is below */
};

/* Worst gated size of phase @pl in one direction, for one absolute gate. */
static struct json_object *gd_gate_abs_record(const struct gd_gate_cfg *g,
					      struct json_object *rows,
					      const char *pl, const char *dir,
					      const struct gd_gate_worst *w)
{
	struct json_object *r, *worst = NULL;
	double wx = 0, wsize = 0;
	struct gd_spread sp = { 0 };

	for (size_t j = 0; j < gd_json_len(rows); j++) {
		struct json_object *row = gd_json_idx(rows, j);
		struct json_object *fig = gd_json_path(
			gd_json_path(row, "phases", NULL), pl, NULL);
		double size = 0, x;

		gd_json_num(row, "size_bytes", &size);
		if (strcmp(gd_json_str(row, "direction") ?: "", dir) ||
		    (uint64_t)size < g->gate_from_bytes ||
		    !gd_json_num(fig, w->key, &x))
			continue;
		if (!worst || (w->below ? x < wx : x > wx)) {
			worst = fig;
			wx = x;
			wsize = size;
		}
	}
	if (!worst)
		return NULL;
	r = json_object_new_object();
	json_object_object_add(r, "gate", json_object_new_string(w->gate));
	json_object_object_add(r, "phase", json_object_new_string(pl));
	json_object_object_add(r, "direction", json_object_new_string(dir));
	json_object_object_add(r, "threshold",
			       json_object_new_double(w->threshold));
	json_object_object_add(r, "policy",
			       json_object_new_string(gd_gate_policy_abs));
	json_object_object_add(r, "figure", json_object_new_double(wx));
	json_object_object_add(r, "worst_size_bytes",
			       json_object_new_int64((int64_t)wsize));
	{
		struct json_object *s = gd_json_path(
			worst, w->samples ? w->samples : "samples", NULL);
		double v[64];
		size_t n = 0;

		for (size_t i = 0; s && i < gd_json_len(s) && n < 64; i++)
			if (gd_json_idx(s, i))
				v[n++] = json_object_get_double(
					gd_json_idx(s, i));
		if (n >= 2 && !gd_spread_of(v, n, &sp)) {
			struct json_object *iv = json_object_new_object();

			json_object_object_add(iv, "min",
					       json_object_new_double(sp.min));
			json_object_object_add(iv, "max",
					       json_object_new_double(sp.max));
			json_object_object_add(r, "range", iv);
		}
	}
	json_object_object_add(
		r, "passed",
		json_object_new_boolean(w->below ? wx >= w->threshold
						 : wx <= w->threshold));
	return r;
}

static void gd_gate_abs_records(const struct gd_gate_cfg *g, bool lat,
				struct json_object *rows,
				struct json_object *out)
{
	struct gd_gate_worst w;
	struct json_object *seen = json_object_new_object();

	if (!lat && g->min_bw_MiBps > 0)
		w = (struct gd_gate_worst){ "bw_avg_MiBps", "min_bw", NULL,
					    g->min_bw_MiBps, true };
	else if (lat && g->max_lat_us > 0)
		w = (struct gd_gate_worst){
			g->max_lat_is_p99 ? "lat_p99_us" : "lat_typical_us",
			g->max_lat_is_p99 ? "max_lat_p99" : "max_lat",
			g->max_lat_is_p99 ? "samples_p99" : NULL, g->max_lat_us,
			false
		};
	else
		w.key = NULL;
	for (size_t j = 0; w.key && j < gd_json_len(rows); j++) {
		struct json_object *row = gd_json_idx(rows, j);
		const char *dir = gd_json_str(row, "direction") ?: "";

		json_object_object_foreach(gd_json_path(row, "phases", NULL),
					   pl, fig)
		{
			char key[64];
			struct json_object *rec;

			(void)fig;
			snprintf(key, sizeof(key), "%s %s", pl, dir);
			if (json_object_object_get_ex(seen, key, NULL))
				continue;
			json_object_object_add(seen, key, NULL);
			rec = gd_gate_abs_record(g, rows, pl, dir, &w);
			if (rec)
				json_object_array_add(out, rec);
		}
	}
	json_object_put(seen);
}

struct json_object *gd_gate_records(const struct gd_gate_cfg *g, bool lat,
				    struct json_object *rows,
				    struct json_object *assess)
{
	struct json_object *out = json_object_new_array();

	for (size_t i = 0; g->expect_ratio > 0 && i < gd_json_len(assess); i++)
		if (gd_gate_against_hh(
			    gd_json_str(gd_json_idx(assess, i), "comparison")
				    ?: ""))
			json_object_array_add(
				out, gd_gate_ratio_record(
					     g, gd_json_idx(assess, i)));
	if (g->expect_ratio > 0)
		gd_gate_unassessed(g, rows, assess, out);
	gd_gate_abs_records(g, lat, rows, out);
	return out;
}
