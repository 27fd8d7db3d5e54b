/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Gauges for a fleet's Prometheus: the node_exporter textfile format
 * (--openmetrics=FILE), built from the same JSON document the run or
 * gd_report writes, one family at a time, and replaced atomically.
 */
#ifndef GD_REPORT_METRICS_H
#define GD_REPORT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

struct gd_metrics {
	FILE *f; /* an open_memstream */
	char *buf;
	size_t len;
	const char *family; /* the family being written */
	const char *help;
	bool said;	/* its # HELP and # TYPE lines are out */
	char base[256]; /* labels every series carries: tool="...",... */
};

/* @tool: every series' tool label. 0 or -ENOMEM. */
int gd_metrics_open(struct gd_metrics *m, const char *tool);
/* Add label @key="@value" to every series that follows. */
void gd_metrics_base(struct gd_metrics *m, const char *key, const char *value);
/* The gauge family @name; its header is written with its first sample. */
void gd_metrics_family(struct gd_metrics *m, const char *name,
		       const char *help);
/* One sample of the current family: @value and NULL-terminated
 * key, value label pairs (values escaped here). */
void gd_metrics_put(struct gd_metrics *m, double value, ...);
/* The text written atomically to @path (the output of @opt); frees @m. */
int gd_metrics_finish(struct gd_metrics *m, const char *opt, const char *path);
void gd_metrics_free(struct gd_metrics *m);

/* "passed", "undecided" or "failed": a gate record's state. */
const char *gd_metrics_gate_state(struct json_object *gate);

/* The band label of a judged band ("<=4KiB", "4-64KiB", ">=64KiB"). */
const char *gd_metrics_band(double from_bytes, double to_bytes);

/*
 * A run document's gauges: its start time, exit status, ratio and
 * interval per comparison, direction and band, the verdicts and gates as
 * states, the phases' states, the counters that moved and the time
 * account; with @sizes, the ratio and figure per size too.
 */
void gd_metrics_run(struct gd_metrics *m, struct json_object *doc, bool sizes);
/* gd_metrics_run() of @doc into @path, atomically. 0 or -errno. */
int gd_metrics_run_write(const char *path, struct json_object *doc, bool sizes);

#endif
