/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's pass limits -w (average bandwidth) and -y (message rate) as
 * gates of the run, judged from the document alone.
 */
#ifndef GD_PERFTEST_LIMITS_H
#define GD_PERFTEST_LIMITS_H

struct json_object;

/*
 * Reads doc.options "limit_bw" and "limit_msgrate" (0: off) and
 * "report_gbits" (-w's unit), and doc.phases[].results[]. Per phase and
 * limit, perftest's rule: the limit passes when one size's figure reaches
 * it (a bidirectional row is the sum of both directions). Appends to
 * @records one {"gate": "limit_bw"|"limit_msgrate", "phase", "direction",
 * "threshold", "unit", "policy", "figure", "best_size_bytes", "passed"}
 * each, and to @gate_evidence one string per failed limit.
 */
void gd_perftest_limits(struct json_object *doc, struct json_object *records,
			struct json_object *gate_evidence);
extern const char gd_gate_policy_perftest[];

#endif
