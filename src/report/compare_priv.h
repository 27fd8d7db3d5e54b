/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the comparison, verdict and printing files share beyond the
 * document readers (doc_read.h): the verdicts' entry point.
 */
#ifndef GD_COMPARE_PRIV_H
#define GD_COMPARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/compare.h"
#include "report/doc_read.h"
#include "util/json_get.h"

struct json_object;

/* Verdicts from phases and the comparison rows; @gate_evidence holds one
 * string per failing gate (may be empty), @assess the assessments of
 * gd_evidence_assess(). Returns a new array. */
struct json_object *gd_verdicts_build(struct json_object *doc,
				      struct json_object *comparison,
				      const struct gd_gate_cfg *gates,
				      struct json_object *gate_evidence,
				      struct json_object *assess);

/*
 * evidence.c: one assessment per device phase and direction over the
 * comparison rows' sizes >= @gate_from, against @floor (bandwidth X/HH, or
 * latency speed HH/X), all of them corrected together (Holm):
 *  {"comparison": "DD/HH", "direction", "figure", "floor",
 *   "decision": "slower"|"not_below"|"inconclusive", "reason",
 *   "p_slower", "p_slower_run", "p_not_below", "family", "alpha",
 *   "autocorrelation", "sizes": S, "rounds": N,
 *   "judged": {"from_bytes", "to_bytes", "gate_from_bytes",
 *              "not_judged_sizes"},
 *   "ratio": geometric mean,
 *   "interval": {"replicates": "rounds"|"sizes", "n", "confidence",
 *                "low", "high"},
 *   "bands": [{"from_bytes", "to_bytes", "sizes", "replicates", "n",
 *              "decided", "ratio", "low", "high", "p_slower",
 *              "p_not_below", "holm_p", "autocorrelation",
 *              "detectable_ratio"}],
 *   "per_size": {"tests", "prior_df", "sizes": [...], "slow_sizes": [...]},
 *   "ratio_cv_pct", "resolution_pct", "detectable_ratio",
 *   "detectable_power", "repeats_needed",
 *   "evidence": "one line naming the decision, the figures, the range"}
 * A figure's per-round values are its "samples" array (one per repeat),
 * else its single figure.
 */
struct json_object *gd_evidence_assess(struct json_object *rows, bool lat,
				       uint64_t gate_from, double floor,
				       unsigned int looks);
extern const char gd_evidence_method[];
extern const char gd_evidence_assumptions[];

/*
 * gates.c: the expect-ratio gate fails a device phase and direction only
 * when its assessment says "slower" (one evidence string per failure into
 * @gate_evidence; the rows below the ratio get a gate_failures entry).
 * gd_gate_records: one record per gate and phase,
 *  {"gate", "comparison"|"phase", "direction", "threshold", "policy",
 *   "figure", "interval"|"range", "passed", ...}.
 */
void gd_gate_ratio(const struct gd_gate_cfg *g, bool lat,
		   struct json_object *rows, struct json_object *assess,
		   struct json_object *gate_evidence);
struct json_object *gd_gate_records(const struct gd_gate_cfg *g, bool lat,
				    struct json_object *rows,
				    struct json_object *assess);
/* The ratio gate's rule in words (@a: its assessment, for the level and
 * confidence it recorded; NULL: util/assess.h's) against @floor. */
void gd_gate_ratio_rule(char *buf, size_t len, struct json_object *a,
			double floor);

/*
 * verdict_counters.c: the counters of class list @key ("errors_moved",
 * "retries_moved", "congestion_moved") that moved in any phase:
 *  evidence: one line per phase and side ("HH forward local:
 *    completer_retry_err +75 at 1 MiB..8 MiB (4 of 23 sizes)"), then one
 *    per device phase against the HH of its direction; NULL: none moved;
 *  moved: [{"phase", "direction", "side", "counts": {name: delta},
 *           "sizes_bytes": [...]}];
 *  pairs: [{"direction", "device_phase", "hh_events", "device_events",
 *           "hh_per_GiB", "device_per_GiB", "finding": "alike"|
 *           "device_only"|"device_more"|"host_only"|"host_more"}] or NULL;
 *  against_device: some device phase moved more than its HH (a factor of
 *    2 per byte sent) or alone.
 */
struct gd_moved {
	struct json_object *evidence, *moved, *pairs;
	bool against_device;
};
void gd_moved_collect(struct json_object *phases, const char *key,
		      struct gd_moved *m);
void gd_moved_free(struct gd_moved *m);
/* The delta of counter @name in a counters delta object, -1: absent. */
int64_t gd_counter_delta(struct json_object *delta, const char *name);
extern const char gd_gate_policy_abs[];

#endif
