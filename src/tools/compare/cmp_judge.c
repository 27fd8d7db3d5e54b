/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One comparison judged by the run's own code (gd_compare_run: rows,
 * assessments, gates, verdicts), printed with the run's side-by-side
 * text, and mapped to an exit status: slower, undecided or not below.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/doc_read.h"
#include "tools/compare/compare_tool.h"
#include "util/assess.h"
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

/* One document judged again: the run's words, the judged sizes named as
 * the JSON's gate_from_bytes and the assessments' judged range. */
static void gd_cmp_legend(FILE *out, const struct gd_cmp_opts *o,
			  const struct gd_cmp_input *in,
			  struct json_object *doc)
{
	struct json_object *j = gd_json_path(
		gd_json_idx(gd_json_path(doc, "statistics", "assessments"), 0),
		"judged", NULL);
	double from, to;
	char f[32], t[32];

	fprintf(out,
		" gd_compare: %s judged again: its device phases against its "
		"HH, floor %.2f, ",
		in->path, o->expect_ratio);
	if (gd_json_num(j, "from_bytes", &from) &&
	    gd_json_num(j, "to_bytes", &to))
		fprintf(out, "judged sizes %s..%s",
			gd_assess_bytes_str(from, f, sizeof(f)),
			gd_assess_bytes_str(to, t, sizeof(t)));
	else
		fprintf(out, "no size judged");
	fprintf(out, " (gate_from_bytes %llu)\n",
		(unsigned long long)o->judge_from);
}

static struct json_object *
gd_cmp_record(const struct gd_cmp_input *base, const struct gd_cmp_input *cand,
	      struct json_object *doc, struct json_object *cmp,
	      struct json_object *verd, int status, const char *why)
{
	struct json_object *rec = json_object_new_object(), *v;
	bool runs = base != cand;

	json_object_object_add(
		rec, "mode",
		json_object_new_string(runs ? "candidate_vs_baseline"
					    : "device_vs_hh"));
	json_object_object_add(rec, "baseline", gd_cmp_identity(base));
	json_object_object_add(rec, "candidate", gd_cmp_identity(cand));
	json_object_object_add(rec, "comparison", cmp);
	if (json_object_object_get_ex(doc, "statistics", &v))
		json_object_object_add(rec, "statistics", json_object_get(v));
	if (json_object_object_get_ex(doc, "gates", &v))
		json_object_object_add(rec, "gates", json_object_get(v));
	if (runs) {
		/* two runs: their own verdict, in place of the run's words
		 * about device and host memory */
		v = gd_cmp_runs_verdict(doc, status, base, cand);
		json_object_put(verd);
		verd = json_object_new_array();
		json_object_object_add(
			rec, "code",
			json_object_get(json_object_object_get(v, "code")));
		why = gd_json_str(v, "summary");
		json_object_array_add(verd, v);
		json_object_object_add(rec, "overall",
				       gd_cmp_runs_overall(doc));
	}
	json_object_object_add(rec, "verdicts", verd);
	json_object_object_add(rec, "outcome", json_object_new_string(why));
	json_object_object_add(rec, "exit_status", json_object_new_int(status));
	return rec;
}

/* Two runs: the assessments and gates compare the candidate with the
 * baseline, which the paired document calls DD and HH; the record (and
 * the JUnit and metrics written from it) names them so. After the text,
 * which reads the paired document's labels. */
static void gd_cmp_runs_relabel(struct json_object *rec)
{
	struct json_object *lists[] = {
		gd_json_path(rec, "statistics", "assessments"),
		gd_json_path(rec, "gates", NULL),
	};

	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++)
		for (size_t i = 0; i < gd_json_len(lists[l]); i++) {
			struct json_object *o = gd_json_idx(lists[l], i);

			if (!strcmp(gd_json_str(o, "comparison") ?: "",
				    "DD/HH"))
				json_object_object_add(
					o, "comparison",
					json_object_new_string(
						GD_CMP_RUNS_LABEL));
		}
}

/* The text, fitted to GD_COMPARE_TEXT_WIDTH columns. */
static void gd_cmp_text(FILE *out, const struct gd_cmp_opts *o,
			const struct gd_cmp_input *base,
			const struct gd_cmp_input *cand,
			struct json_object *doc, struct json_object *rec)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	double st = 0;

	if (!f)
		f = out;
	fputc('\n', f);
	if (base != cand) {
		gd_cmp_runs_print(f, o, base, cand, doc, rec);
	} else {
		gd_cmp_legend(f, o, base, doc);
		gd_compare_print(f, doc, gd_json_path(rec, "comparison", NULL),
				 gd_json_path(rec, "verdicts", NULL));
		gd_json_num(rec, "exit_status", &st);
		fprintf(f, " gd_compare: %s: %s (exit status %.0f)\n",
			base->path, gd_json_str(rec, "outcome") ?: "", st);
	}
	if (f == out)
		return;
	fclose(f);
	gd_compare_fit(out, text, GD_COMPARE_TEXT_WIDTH);
	free(text);
}

struct json_object *gd_cmp_judge(const struct gd_cmp_opts *o,
				 const struct gd_cmp_input *base,
				 const struct gd_cmp_input *cand,
				 struct json_object *doc, FILE *out,
				 int *status)
{
	/* the gates look at the judged sizes, so that the two agree and the
	 * document's gate_from_bytes names them */
	struct gd_gate_cfg g = { .expect_ratio = o->expect_ratio,
				 .gate_from_bytes = o->judge_from,
				 .judge_from_bytes = o->judge_from,
				 .undecided_pass = o->undecided_pass };
	struct json_object *cmp = NULL, *verd = NULL, *rec;
	struct gd_cmp_tally t = { 0 };
	bool gate_failed = false;
	const char *why = "";

	if (gd_compare_run(doc, &g, &cmp, &verd, &gate_failed)) {
		*status = GD_CMPX_FAIL;
		return NULL;
	}
	gd_cmp_count(doc, &t);
	*status = gd_cmp_status(&t, doc, gate_failed, &why);
	rec = gd_cmp_record(base, cand, doc, cmp, verd, *status, why);
	if (out)
		gd_cmp_text(out, o, base, cand, doc, rec);
	if (base != cand)
		gd_cmp_runs_relabel(rec);
	return rec;
}
