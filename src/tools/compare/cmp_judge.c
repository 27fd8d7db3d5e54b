/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One comparison judged by the run's own code (gd_compare_run: rows,
 * assessments, gates, verdicts), printed with the run's side-by-side
 * text, and mapped to an exit status: slower, undecided or not below.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/doc_read.h"
#include "tools/compare/compare_tool.h"
#include "util/error.h"
#include "util/json_get.h"

/* The assessments' decisions by name: "not_below" is the newer word for
 * what "no_difference" says (non-inferiority), read either way. */
struct gd_cmp_tally {
	unsigned int slower, undecided, not_below;
};

static void gd_cmp_count(struct json_object *doc, struct gd_cmp_tally *t)
{
	struct json_object *as = gd_json_path(
		gd_json_path(doc, "statistics", NULL), "assessments", NULL);

	for (size_t i = 0; i < gd_json_len(as); i++) {
		const char *d = gd_json_str(gd_json_idx(as, i), "decision");

		if (!d)
			continue;
		if (!strcmp(d, "slower"))
			t->slower++;
		else if (!strcmp(d, "no_difference") || !strcmp(d, "not_below"))
			t->not_below++;
		else
			t->undecided++;
	}
}

/* The exit status comes from the run's own mapping
 * (gd_compare_gate_status: a failed gate, 3, before an undecided one, 4),
 * so that gd_compare and the run agree on the same document; the tally
 * only chooses the words. */
static int gd_cmp_status(const struct gd_cmp_tally *t, struct json_object *doc,
			 bool gate_failed, const char **why)
{
	int st = gd_compare_gate_status(doc, gate_failed);
	bool nothing = !t->slower && !t->undecided && !t->not_below;

	if (st == GD_GATE_STATUS_FAILED) {
		*why = t->slower ? "slower: the candidate is below the floor "
				   "(gate failed)"
				 : "a gate failed";
		return GD_CMPX_SLOWER;
	}
	if (st == GD_GATE_STATUS_UNDECIDED) {
		*why = nothing ? "not enough evidence: no size both hold is "
				 "at or above --gate-from, so nothing was "
				 "judged; lower --gate-from"
			       : "not enough evidence to decide the gate";
		return GD_CMPX_UNDECIDED;
	}
	if (nothing || t->undecided) {
		*why = nothing ? "nothing judged (no common size from "
				 "--gate-from up), passed by "
				 "--gate-undecided=pass"
			       : "not enough evidence, passed by "
				 "--gate-undecided=pass";
		return GD_CMPX_OK;
	}
	*why = "not below the floor";
	return GD_CMPX_OK;
}

static void gd_cmp_legend(FILE *out, const struct gd_cmp_opts *o,
			  const struct gd_cmp_input *base,
			  const struct gd_cmp_input *cand)
{
	if (base == cand) {
		fprintf(out,
			" gd_compare: %s judged again: its device phases "
			"against its HH, floor %.2f, sizes from %llu B\n",
			base->path, o->expect_ratio,
			(unsigned long long)o->judge_from);
		return;
	}
	fprintf(out,
		" gd_compare: phase %s %s of two runs, floor %.2f, sizes "
		"from %llu B\n"
		"   HH below = baseline  %s (%s, %s)\n"
		"   DD below = candidate %s (%s, %s)\n"
		"   so DD/HH is candidate/baseline and \"device (D) memory\" "
		"in the verdict means the candidate\n",
		o->phase, o->direction, o->expect_ratio,
		(unsigned long long)o->judge_from, base->path,
		gd_json_str(base->doc, "hostname") ?: "?",
		gd_json_str(base->doc, "started_at") ?: "?", cand->path,
		gd_json_str(cand->doc, "hostname") ?: "?",
		gd_json_str(cand->doc, "started_at") ?: "?");
}

static struct json_object *
gd_cmp_record(const struct gd_cmp_input *base, const struct gd_cmp_input *cand,
	      struct json_object *doc, struct json_object *cmp,
	      struct json_object *verd, int status, const char *why)
{
	struct json_object *rec = json_object_new_object(), *v;

	json_object_object_add(
		rec, "mode",
		json_object_new_string(base == cand ? "device_vs_hh"
						    : "candidate_vs_baseline"));
	json_object_object_add(rec, "baseline", gd_cmp_identity(base));
	json_object_object_add(rec, "candidate", gd_cmp_identity(cand));
	json_object_object_add(rec, "comparison", cmp);
	if (json_object_object_get_ex(doc, "statistics", &v))
		json_object_object_add(rec, "statistics", json_object_get(v));
	if (json_object_object_get_ex(doc, "gates", &v))
		json_object_object_add(rec, "gates", json_object_get(v));
	json_object_object_add(rec, "verdicts", verd);
	json_object_object_add(rec, "outcome", json_object_new_string(why));
	json_object_object_add(rec, "exit_status", json_object_new_int(status));
	return rec;
}

struct json_object *gd_cmp_judge(const struct gd_cmp_opts *o,
				 const struct gd_cmp_input *base,
				 const struct gd_cmp_input *cand,
				 struct json_object *doc, FILE *out,
				 int *status)
{
	struct gd_gate_cfg g = { .expect_ratio = o->expect_ratio,
				 .gate_from_bytes = o->gate_from,
				 .judge_from_bytes = o->judge_from,
				 .undecided_pass = o->undecided_pass };
	struct json_object *cmp = NULL, *verd = NULL;
	struct gd_cmp_tally t = { 0 };
	bool gate_failed = false;
	const char *why = "";

	if (gd_compare_run(doc, &g, &cmp, &verd, &gate_failed)) {
		*status = GD_CMPX_FAIL;
		return NULL;
	}
	gd_cmp_count(doc, &t);
	*status = gd_cmp_status(&t, doc, gate_failed, &why);
	if (out) {
		fputc('\n', out);
		gd_cmp_legend(out, o, base, cand);
		gd_compare_print(out, doc, cmp, verd);
		if (base == cand)
			fprintf(out, " gd_compare: %s: %s (exit status %d)\n",
				base->path, why, *status);
		else
			fprintf(out,
				" gd_compare: baseline %s, candidate %s: %s "
				"(exit status %d)\n",
				base->path, cand->path, why, *status);
	}
	return gd_cmp_record(base, cand, doc, cmp, verd, *status, why);
}
