/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The paired run's judgement, computed only from the JSON document's
 * phases[]: per-size comparison of every phase against HH, the CI gates,
 * and verdicts that map what passed and failed to a reason code and the
 * next controlled check. Also the side-by-side text report.
 */
#ifndef GD_COMPARE_H
#define GD_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/exit.h"

struct json_object;

/*
 * Phase shape read from doc.phases[] (see report.h), plus these keys:
 *   "placement": "HH"|"DD"|"HD"|"DH"   (falls back to "name")
 *   "direction": "forward"|"reverse"|"bidir"  (missing: "forward")
 *   "status": "ok"|"failed"|"skipped"
 *   "error": {"code": -errno, "errno_name": "EFAULT", "message": "...",
 *             "stage": "register"|"config"|"oob"|"connect"|"transfer"|"verify"}
 *            "stage" is optional; without it a registration failure is
 *            recognised from the message (ibv_reg_mr, ibv_reg_dmabuf_mr,
 *            "regist") and a side-channel failure from the errno name.
 *   "app_bytes": N   payload bytes the application moved inside the
 *                    counted window (all sizes, both directions for
 *                    bidir); without it the sum of size_bytes x
 *                    iterations over results[] is used.
 *   "counters": {"local": delta, "remote": delta}  (counters.h shape)
 * doc.test.verb ("read" moves data towards the initiator) and
 * doc.header.active_mtu_bytes (packet estimate) are used when present.
 *
 * A bidir phase's results carry the sum of both directions in
 * bw_avg_MiBps; it is compared only with other bidir phases.
 */

/* Default floor for "GPU slower than host" when no --expect-ratio. */
#define GD_COMPARE_SLOW_RATIO 0.8

/*
 * How the verdicts' next checks name device memory: its backend's words
 * (the engine asks the memory backends, which this layer cannot). A NULL
 * member leaves generic words.
 */
struct gd_device_words {
	const char *example;	 /* a --mem value to suggest (backend's form) */
	const char *alias;	 /* perftest's option for it, without "--" */
	const char *route_check; /* what to check when registration fails */
	const char *visibility;	 /* how a process is given the device */
};

struct gd_gate_cfg {
	double expect_ratio;	   /* 0: off. bw: X/HH >= R; lat: HH/X >= R */
	uint64_t gate_from_bytes;  /* gates look at sizes >= this */
	uint64_t judge_from_bytes; /* the assessments judge sizes >= this */
	double min_bw_MiBps;	   /* 0: off; every phase, every gated size */
	double max_lat_us;	   /* 0: off */
	bool max_lat_is_p99;	   /* false: typical (median) latency */
	/* --gate-undecided=pass: an expect-ratio gate whose assessment can
	 * neither clear R nor fall below it passes; false: it fails with
	 * exit status 4 ("not enough evidence") */
	bool undecided_pass;
	struct gd_device_words device; /* for the verdicts' next checks */
};

/*
 * Build comparison[] and verdicts[] from @doc (not modified except that
 * each phase with counters gains "port_check": the app-vs-port bytes
 * cross-check, see gd_compare_port_check()).
 *
 * comparison[] row, one per direction and size:
 *  {"direction": "forward", "size_bytes": N,
 *   "measure": "bw"|"lat",
 *   "phases": {"HH": {"status": "ok", "bw_avg_MiBps": x} |
 *                    {"status": "ok", "lat_typical_us": x,
 *                     "lat_p99_us": y} | {"status": "failed"}, ...},
 *   "ratios": {"DD/HH": x/hh, ...}        (null when either is missing)
 *   "diff_typical_us": {"DD-HH": d}, "diff_p99_us": {"DD-HH": d}  (lat),
 *   "gate_failures": ["expect_ratio DD/HH 0.50 < 0.80", ...]}
 * verdicts[]: {"code", "severity": "info"|"warning"|"error", "summary",
 *              "evidence": ["..."], "next_check"}, errors first.
 * @gate_failed: true when a configured gate failed (exit status 3); an
 * undecided gate is not a failed one: gd_compare_gate_status() tells it.
 * Returns 0 or -EINVAL (recorded) when @doc has no phases[].
 */
int gd_compare_run(struct json_object *doc, const struct gd_gate_cfg *gates,
		   struct json_object **comparison,
		   struct json_object **verdicts, bool *gate_failed);

/* The gates' exit statuses: a gate failed, or a gate the run's evidence
 * could not decide failed by policy (--gate-undecided=fail). A failed
 * phase (1) comes before both, a failed gate before an undecided one. */
#define GD_GATE_STATUS_FAILED GD_EXIT_GATE_FAILED
#define GD_GATE_STATUS_UNDECIDED GD_EXIT_GATE_UNDECIDED

/* After gd_compare_run(@doc): GD_GATE_STATUS_FAILED when @gate_failed,
 * else GD_GATE_STATUS_UNDECIDED when a record of doc.gates is undecided
 * and did not pass, else 0. */
int gd_compare_gate_status(struct json_object *doc, bool gate_failed);

/* Does an assessment's decision clear the floor? "not_below", and its
 * older name "no_difference". */
bool gd_decision_clears(const char *decision);

/*
 * App-vs-port cross-check of one phase, as
 *  {"app_bytes": N, "sender": "local"|"remote"|"both",
 *   "port_bytes": N|null, "bytes_ratio": r|null,
 *   "expected_packets": N|null, "port_packets": N|null,
 *   "packets_ratio": r|null}
 * Bytes come from the sending side's tx_bytes (both sides' for bidir);
 * when only packet counters exist (rxe), expected packets are
 * ceil(app_bytes / MTU), a lower bound (every message rounds up). A ratio
 * well below 1 means traffic left through another port or rail.
 */
struct json_object *gd_compare_port_check(struct json_object *doc,
					  struct json_object *phase);

/* Side-by-side text report: figures and ratios per direction, counters,
 * cross-check, memory/route summary and verdicts. */
void gd_compare_print(FILE *out, struct json_object *doc,
		      struct json_object *comparison,
		      struct json_object *verdicts);
/* --brief: one line per size with the directions side by side (the
 * reference figure and the ratios), the counters that moved (one line
 * each) and the verdicts without their evidence. */
void gd_compare_print_brief(FILE *out, struct json_object *doc,
			    struct json_object *comparison,
			    struct json_object *verdicts);

/* gd_compare's text is fitted to this many columns (gd_compare_fit). */
#define GD_COMPARE_TEXT_WIDTH 80

/*
 * compare_fit.c: @text written to @out within @width columns (0:
 * GD_COMPARE_TEXT_WIDTH): rule lines cut to it, trailing blanks dropped,
 * a table (a " #bytes" heading and the rows under it) with its blank
 * gutters cut to two columns, and longer lines wrapped on blanks, going
 * on under the text after a short label ("evidence: ", "next: ") or eight
 * columns in. A word wider than @width (a long path) stays whole.
 */
void gd_compare_fit(FILE *out, const char *text, unsigned int width);

/* Verdict codes (stable strings, documented in the man page). */
#define GD_V_OK "GD_OK"
#define GD_V_OK_HOST_ONLY "GD_OK_HOST_ONLY"
#define GD_V_OOB_FAIL "GD_OOB_FAIL"
#define GD_V_BOTH_FAIL "GD_BOTH_FAIL"
#define GD_V_HOST_FAIL "GD_HOST_FAIL"
#define GD_V_GPU_REG_FAIL "GD_GPU_REG_FAIL"
#define GD_V_CONFIG "GD_PHASE_NOT_CONFIGURED"
#define GD_V_GPU_PATH_FAIL "GD_GPU_PATH_FAIL"
#define GD_V_ONE_DIR_FAIL "GD_ONE_DIRECTION_FAIL"
#define GD_V_GPU_SLOWER "GD_GPU_SLOWER"
#define GD_V_ERROR_COUNTERS "GD_ERROR_COUNTERS"
#define GD_V_CONGESTION "GD_CONGESTION"
#define GD_V_GATE_FAIL "GD_GATE_FAIL"
#define GD_V_GATE_UNDECIDED "GD_GATE_UNDECIDED"
#define GD_V_NO_EVIDENCE "GD_NO_EVIDENCE"
#define GD_V_INCONCLUSIVE "GD_INCONCLUSIVE"
#define GD_V_RETRANSMISSIONS "GD_RETRANSMISSIONS"

#endif
