// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * A run document as gauges (--openmetrics): what a fleet dashboard watches
 * per node, per band and per verdict, never per size unless asked
 * (--openmetrics-sizes), so that a series' count does not grow with -a.
 */
#include <config.h>

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/compare.h"
#include "report/metrics.h"
#include "util/json_get.h"

/* Every code a verdict can carry: one series each, 1 for those present. */
static const char *const gd_metrics_codes[] = {
	GD_V_OK,	   GD_V_OK_HOST_ONLY,	 GD_V_OOB_FAIL,
	GD_V_BOTH_FAIL,	   GD_V_HOST_FAIL,	 GD_V_GPU_REG_FAIL,
	GD_V_CONFIG,	   GD_V_GPU_PATH_FAIL,	 GD_V_ONE_DIR_FAIL,
	GD_V_GPU_SLOWER,   GD_V_ERROR_COUNTERS,	 GD_V_CONGESTION,
	GD_V_GATE_FAIL,	   GD_V_GATE_UNDECIDED,	 GD_V_NO_EVIDENCE,
	GD_V_INCONCLUSIVE, GD_V_RETRANSMISSIONS,
};

static const char *const gd_metrics_gate_states[] = { "passed", "failed",
						      "undecided" };
static const char *const gd_metrics_phase_states[] = { "ok", "failed",
						       "skipped" };

#define GD_N(a) (sizeof(a) / sizeof((a)[0]))

static void gd_metrics_start(struct gd_metrics *m, struct json_object *doc)
{
	const char *at = gd_json_str(doc, "started_at");
	struct tm tm = { 0 };
	double v;

	gd_metrics_family(m, "gdperf_run_start_time_seconds",
			  "when the run started, seconds since the epoch");
	if (at &&
	    sscanf(at, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) == 6) {
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		gd_metrics_put(m, (double)timegm(&tm), NULL);
	}
	gd_metrics_family(m, "gdperf_run_exit_status", m->exit_help);
	if (gd_json_num(doc, "exit_status", &v))
		gd_metrics_put(m, v, NULL);
}

/* @name{comparison, direction, band} from each assessment's bands, and
 * band="all" from the assessment's own figure */
static void gd_metrics_ratios(struct gd_metrics *m, struct json_object *as,
			      const char *name, const char *help,
			      const char *key, const char *ikey)
{
	size_t i, j;
	double v;

	gd_metrics_family(m, name, help);
	for (i = 0; i < gd_json_len(as); i++) {
		struct json_object *a = gd_json_idx(as, i);
		struct json_object *bands = gd_json_path(a, "bands", NULL);
		const char *cmp = gd_json_str(a, "comparison");
		const char *dir = gd_json_str(a, "direction");

		if (ikey ? gd_json_num(gd_json_path(a, "interval", NULL), ikey,
				       &v)
			 : gd_json_num(a, key, &v))
			gd_metrics_put(m, v, "comparison", cmp, "direction",
				       dir, "band", "all", NULL);
		for (j = 0; j < gd_json_len(bands); j++) {
			struct json_object *b = gd_json_idx(bands, j);
			double from = 0, to = 0;

			gd_json_num(b, "from_bytes", &from);
			gd_json_num(b, "to_bytes", &to);
			if (gd_json_num(b, ikey ? ikey : key, &v))
				gd_metrics_put(m, v, "comparison", cmp,
					       "direction", dir, "band",
					       gd_metrics_band(from, to), NULL);
		}
	}
}

static void gd_metrics_decisions(struct gd_metrics *m, struct json_object *as)
{
	static const char *const decisions[] = { "not_below", "slower",
						 "inconclusive" };
	size_t i, d;

	gd_metrics_family(
		m, "gdperf_assessment_state",
		"each assessment's decision: 1 for the one it reached");
	for (i = 0; i < gd_json_len(as); i++) {
		struct json_object *a = gd_json_idx(as, i);
		const char *dec = gd_json_str(a, "decision");

		for (d = 0; d < GD_N(decisions); d++)
			gd_metrics_put(m, dec && !strcmp(dec, decisions[d]),
				       "comparison",
				       gd_json_str(a, "comparison"),
				       "direction", gd_json_str(a, "direction"),
				       "state", decisions[d], NULL);
	}
}

/* One family of per-phase, per-size gauges: each result's @key (in the
 * document's unit) times @scale (to the base unit the name says). */
static void gd_metrics_phase_sizes(struct gd_metrics *m,
				   struct json_object *phases, const char *key,
				   double scale, const char *name,
				   const char *help)
{
	char size[32];
	double v;

	gd_metrics_family(m, name, help);
	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *p = gd_json_idx(phases, i);
		struct json_object *res = gd_json_path(p, "results", NULL);

		for (size_t j = 0; j < gd_json_len(res); j++) {
			struct json_object *r = gd_json_idx(res, j);

			snprintf(size, sizeof(size), "%lld",
				 (long long)gd_json_int(r, "size_bytes", 0));
			if (gd_json_num(r, key, &v))
				gd_metrics_put(m, v * scale, "phase",
					       gd_json_str(p, "name"),
					       "direction",
					       gd_json_str(p, "direction"),
					       "size_bytes", size, NULL);
		}
	}
}

static void gd_metrics_sizes(struct gd_metrics *m, struct json_object *doc,
			     struct json_object *as)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	char size[32];
	size_t i, j;
	double v;

	gd_metrics_family(m, "gdperf_size_ratio",
			  "the device phase's figure over HH's, per size");
	for (i = 0; i < gd_json_len(as); i++) {
		struct json_object *a = gd_json_idx(as, i);
		struct json_object *s = gd_json_path(a, "per_size", "sizes");

		for (j = 0; j < gd_json_len(s); j++) {
			struct json_object *r = gd_json_idx(s, j);

			snprintf(size, sizeof(size), "%lld",
				 (long long)gd_json_int(r, "size_bytes", 0));
			if (gd_json_num(r, "ratio", &v))
				gd_metrics_put(m, v, "comparison",
					       gd_json_str(a, "comparison"),
					       "direction",
					       gd_json_str(a, "direction"),
					       "size_bytes", size, NULL);
		}
	}
	gd_metrics_phase_sizes(
		m, phases, "bw_avg_MiBps", 1048576.0,
		"gdperf_size_bandwidth_bytes_per_second",
		"average bandwidth per phase and size, bytes per second");
	gd_metrics_phase_sizes(
		m, phases, "lat_typical_us", 1e-6,
		"gdperf_size_latency_typical_seconds",
		"typical (median) latency per phase and size, seconds");
}

static void gd_metrics_verdicts(struct gd_metrics *m, struct json_object *doc)
{
	struct json_object *v = gd_json_path(doc, "verdicts", NULL);
	const char *const *codes = m->codes ? m->codes : gd_metrics_codes;
	size_t n = m->codes ? m->ncodes : GD_N(gd_metrics_codes);
	size_t c, i;
	bool on;

	gd_metrics_family(
		m, "gdperf_verdict_state",
		"the run's verdicts: one series per code, 1 for each code the run carries");
	for (c = 0; c < n; c++) {
		on = false;
		for (i = 0; i < gd_json_len(v); i++)
			on |= !strcmp(gd_json_str(gd_json_idx(v, i), "code")
					      ?: "",
				      codes[c]);
		gd_metrics_put(m, on, "code", codes[c], NULL);
	}
}

/* "passed", "undecided" or "failed", from the gate's record */
const char *gd_metrics_gate_state(struct json_object *g)
{
	struct json_object *p = json_object_object_get(g, "passed");
	struct json_object *u = json_object_object_get(g, "undecided");

	if (p && json_object_get_boolean(p))
		return "passed";
	if (u && json_object_get_boolean(u))
		return "undecided";
	return "failed";
}

static void gd_metrics_gates(struct gd_metrics *m, struct json_object *doc)
{
	struct json_object *gates = gd_json_path(doc, "gates", NULL);
	size_t i, s;

	gd_metrics_family(
		m, "gdperf_gate_state",
		"each gate per comparison (ratio gates) or phase (absolute gates) and direction: 1 for its state");
	for (i = 0; i < gd_json_len(gates); i++) {
		struct json_object *g = gd_json_idx(gates, i);
		const char *now = gd_metrics_gate_state(g);

		/* the comparison's label is "comparison", as on gdperf_ratio;
		 * an absolute gate judges one phase */
		for (s = 0; s < GD_N(gd_metrics_gate_states); s++)
			gd_metrics_put(
				m, !strcmp(now, gd_metrics_gate_states[s]),
				"gate", gd_json_str(g, "gate"), "comparison",
				gd_json_str(g, "comparison"), "phase",
				gd_json_str(g, "comparison")
					? NULL
					: gd_json_str(g, "phase"),
				"direction", gd_json_str(g, "direction"),
				"state", gd_metrics_gate_states[s], NULL);
	}
}

static void gd_metrics_phases(struct gd_metrics *m, struct json_object *doc)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	size_t i, s;

	gd_metrics_family(m, "gdperf_phase_state",
			  "each memory phase and direction: 1 for its state");
	for (i = 0; i < gd_json_len(phases); i++) {
		struct json_object *p = gd_json_idx(phases, i);
		const char *st = gd_json_str(p, "status") ?: "";

		for (s = 0; s < GD_N(gd_metrics_phase_states); s++)
			gd_metrics_put(
				m, !strcmp(st, gd_metrics_phase_states[s]),
				"phase", gd_json_str(p, "name"), "direction",
				gd_json_str(p, "direction"), "state",
				gd_metrics_phase_states[s], NULL);
	}
}

/* The counters that moved, one family per unit (the document's
 * "unit": count, packets or bytes). */
static const struct {
	const char *unit, *name, *help;
} gd_metrics_moved[] = {
	{ "count", "gdperf_phase_moved_events",
	  "retry, error, congestion and other non-traffic event counters that moved during a phase's measured windows, events" },
	{ "packets", "gdperf_phase_moved_packets",
	  "non-traffic packet counters that moved during a phase's measured windows, packets" },
	{ "bytes", "gdperf_phase_moved_bytes",
	  "non-traffic byte counters that moved during a phase's measured windows, bytes" },
};

static void gd_metrics_counter_side(struct gd_metrics *m, struct json_object *p,
				    const char *side, size_t u)
{
	struct json_object *cs = gd_json_path(gd_json_path(p, "counters", side),
					      "counters", NULL);
	size_t i;
	double d;

	for (i = 0; i < gd_json_len(cs); i++) {
		struct json_object *c = gd_json_idx(cs, i);

		/* the traffic itself is the measurement, not news */
		if (!gd_json_num(c, "delta", &d) || d == 0 ||
		    !strcmp(gd_json_str(c, "class") ?: "", "traffic") ||
		    strcmp(gd_json_str(c, "unit") ?: "count",
			   gd_metrics_moved[u].unit))
			continue;
		gd_metrics_put(m, d, "phase", gd_json_str(p, "name"),
			       "direction", gd_json_str(p, "direction"), "side",
			       side, "group", gd_json_str(c, "group"),
			       "counter", gd_json_str(c, "name"), "class",
			       gd_json_str(c, "class"), NULL);
	}
}

static void gd_metrics_counters(struct gd_metrics *m, struct json_object *doc)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);

	for (size_t u = 0; u < GD_N(gd_metrics_moved); u++) {
		gd_metrics_family(m, gd_metrics_moved[u].name,
				  gd_metrics_moved[u].help);
		for (size_t i = 0; i < gd_json_len(phases); i++) {
			gd_metrics_counter_side(m, gd_json_idx(phases, i),
						"local", u);
			gd_metrics_counter_side(m, gd_json_idx(phases, i),
						"remote", u);
		}
	}
}

static void gd_metrics_time(struct gd_metrics *m, struct json_object *doc)
{
	struct json_object *acct = gd_json_path(doc, "time_account", NULL);
	struct json_object *stages = gd_json_path(acct, "stages", NULL);
	char stage[64];
	double v;

	gd_metrics_family(m, "gdperf_run_wall_seconds",
			  "the run's wall time, seconds");
	if (gd_json_num(acct, "wall_s", &v))
		gd_metrics_put(m, v, NULL);
	gd_metrics_family(m, "gdperf_time_account_seconds",
			  "where the wall time went, seconds per stage");
	if (!stages || !json_object_is_type(stages, json_type_object))
		return;
	json_object_object_foreach(stages, key, val)
	{
		size_t n = strlen(key);

		if (!json_object_is_type(val, json_type_double) &&
		    !json_object_is_type(val, json_type_int))
			continue;
		snprintf(stage, sizeof(stage), "%.*s",
			 n > 2 && !strcmp(key + n - 2, "_s") ? (int)n - 2
							     : (int)n,
			 key);
		gd_metrics_put(m, json_object_get_double(val), "stage", stage,
			       NULL);
	}
}

void gd_metrics_run(struct gd_metrics *m, struct json_object *doc, bool sizes)
{
	struct json_object *as = gd_json_path(doc, "statistics", "assessments");

	gd_metrics_start(m, doc);
	gd_metrics_ratios(
		m, as, "gdperf_ratio",
		"the device phase's figure over HH's (bandwidth, or latency for latency tests) per comparison, direction and band",
		"ratio", NULL);
	gd_metrics_ratios(m, as, "gdperf_ratio_low",
			  "the lower end of the ratio's 95% interval", NULL,
			  "low");
	gd_metrics_ratios(m, as, "gdperf_ratio_high",
			  "the upper end of the ratio's 95% interval", NULL,
			  "high");
	gd_metrics_decisions(m, as);
	if (sizes)
		gd_metrics_sizes(m, doc, as);
	gd_metrics_verdicts(m, doc);
	gd_metrics_gates(m, doc);
	gd_metrics_phases(m, doc);
	gd_metrics_counters(m, doc);
	gd_metrics_time(m, doc);
}

int gd_metrics_run_write_as(const char *path, enum gd_metrics_format format,
			    struct json_object *doc, bool sizes)
{
	struct gd_metrics m;
	int ret = gd_metrics_open(&m, format, gd_json_str(doc, "tool"), path);

	if (ret)
		return ret;
	gd_metrics_base(
		&m, "device",
		gd_json_str(gd_json_path(doc, "header", NULL), "device"));
	gd_metrics_labels(&m, gd_json_path(doc, "labels", NULL));
	gd_metrics_run(&m, doc, sizes);
	return gd_metrics_finish(&m,
				 format == GD_METRICS_PROM ? "--prom-textfile"
							   : "--openmetrics",
				 path);
}

int gd_metrics_run_write(const char *path, struct json_object *doc, bool sizes)
{
	return gd_metrics_run_write_as(path, GD_METRICS_OPENMETRICS, doc,
				       sizes);
}
