/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's -w and -y: a bandwidth or message-rate floor that some size of
 * each phase must reach, in perftest's own terms (its figure is the average,
 * in the report's unit; a bidirectional figure is the sum of both ends).
 * Each limit and phase gets a gate record; a failure fails the run's gates
 * (exit status 3) like gdperf's own.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"
#include "report/perftest_limits.h"

const char gd_gate_policy_perftest[] =
	"perftest's rule: passes when at least one size of the phase reaches the limit with its average (a bidirectional row: both directions summed); gdperf's --min-bw instead holds every gated size to its floor";

struct gd_limit {
	const char *gate; /* "limit_bw" */
	const char *key;  /* the results[] figure */
	const char *unit; /* as the document's units say */
	double threshold;
};

static struct json_object *gd_limit_record(const struct gd_limit *l,
					   struct json_object *ph, double best,
					   double best_size, bool found)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "gate", json_object_new_string(l->gate));
	json_object_object_add(
		r, "phase",
		json_object_new_string(gd_json_str(ph, "name") ?: "?"));
	json_object_object_add(r, "direction",
			       json_object_new_string(gd_phase_direction(ph)));
	json_object_object_add(r, "threshold",
			       json_object_new_double(l->threshold));
	json_object_object_add(r, "unit", json_object_new_string(l->unit));
	json_object_object_add(r, "policy",
			       json_object_new_string(gd_gate_policy_perftest));
	json_object_object_add(r, "figure",
			       found ? json_object_new_double(best) : NULL);
	json_object_object_add(r, "best_size_bytes",
			       found ? json_object_new_int64((int64_t)best_size)
				     : NULL);
	json_object_object_add(
		r, "passed",
		json_object_new_boolean(found && best >= l->threshold));
	return r;
}

/* The limit over each phase: its best size against the threshold. */
static void gd_limit_phases(const struct gd_limit *l,
			    struct json_object *phases,
			    struct json_object *records,
			    struct json_object *gate_evidence)
{
	for (size_t p = 0; p < gd_json_len(phases); p++) {
		struct json_object *ph = gd_json_idx(phases, p);
		struct json_object *res = gd_json_path(ph, "results", NULL);
		double best = 0, best_size = 0, x, size;
		bool found = false;
		char line[256];

		for (size_t i = 0; i < gd_json_len(res); i++) {
			struct json_object *row = gd_json_idx(res, i);

			if (!gd_json_num(row, l->key, &x) ||
			    !gd_json_num(row, "size_bytes", &size))
				continue;
			if (!found || x > best) {
				best = x;
				best_size = size;
			}
			found = true;
		}
		json_object_array_add(
			records,
			gd_limit_record(l, ph, best, best_size, found));
		if (found && best >= l->threshold)
			continue;
		if (found)
			snprintf(line, sizeof(line),
				 "%s %s %s: best %.2f %s at %.0f B < %.2f %s",
				 l->gate, gd_json_str(ph, "name") ?: "?",
				 gd_phase_direction(ph), best, l->unit,
				 best_size, l->threshold, l->unit);
		else
			snprintf(line, sizeof(line),
				 "%s %s %s: no figure to compare with %.2f %s",
				 l->gate, gd_json_str(ph, "name") ?: "?",
				 gd_phase_direction(ph), l->threshold, l->unit);
		json_object_array_add(gate_evidence,
				      json_object_new_string(line));
	}
}

void gd_perftest_limits(struct json_object *doc, struct json_object *records,
			struct json_object *gate_evidence)
{
	struct json_object *opts = gd_json_path(doc, "options", NULL);
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	struct json_object *gbits = gd_json_path(opts, "report_gbits", NULL);
	bool gb = gbits && json_object_get_boolean(gbits);
	struct gd_limit bw = { "limit_bw", gb ? "bw_avg_Gbps" : "bw_avg_MiBps",
			       gb ? "Gb/s" : "MiB/s", 0 };
	struct gd_limit mr = { "limit_msgrate", "msg_rate_Mpps", "Mpps", 0 };

	if (!records || !gate_evidence)
		return;
	if (gd_json_num(opts, "limit_bw", &bw.threshold) && bw.threshold > 0)
		gd_limit_phases(&bw, phases, records, gate_evidence);
	if (gd_json_num(opts, "limit_msgrate", &mr.threshold) &&
	    mr.threshold > 0)
		gd_limit_phases(&mr, phases, records, gate_evidence);
}
