/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Gauges for a fleet's Prometheus, built from the same JSON document the
 * run, gd_report or gd_compare writes: OpenMetrics (--openmetrics=FILE,
 * "# UNIT" lines and "# EOF") or the Prometheus text that node_exporter's
 * textfile collector reads (--prom-textfile=FILE), replaced atomically.
 */
#ifndef GD_REPORT_METRICS_H
#define GD_REPORT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

enum gd_metrics_format {
	GD_METRICS_OPENMETRICS, /* text 1.0.0: # UNIT, ends in # EOF */
	GD_METRICS_PROM,	/* Prometheus text 0.0.4 */
};

#define GD_METRICS_FAMILIES 48
#define GD_METRICS_BASE 2048

struct gd_metrics_family {
	const char *name, *help;
	FILE *f; /* its samples, an open_memstream */
	char *buf;
	size_t len;
};

/* Families keep their samples apart until gd_metrics_finish() writes them
 * in the order first named, so that several documents' series (gd_compare's
 * comparisons) can share a family without interleaving. */
struct gd_metrics {
	enum gd_metrics_format format;
	struct gd_metrics_family fam[GD_METRICS_FAMILIES];
	unsigned int nfam;
	struct gd_metrics_family *cur; /* the family being written */
	bool oom;
	/* labels every series carries: tool="...",run="...",... */
	char base[GD_METRICS_BASE];
	/* the verdict codes gdperf_verdict_state enumerates; NULL: a run's
	 * (gd_compare's two-run mode has codes of its own) */
	const char *const *codes;
	size_t ncodes;
	/* gdperf_run_exit_status's HELP, from util/exit.h's table */
	char exit_help[256];
};

/* @tool: every series' tool label; @path: the file it will be written to,
 * whose stem (file name without its extension) is every series' run label,
 * unique among the files of one textfile directory. 0 or -ENOMEM. */
int gd_metrics_open(struct gd_metrics *m, enum gd_metrics_format format,
		    const char *tool, const char *path);
/* Add label @key="@value" to every series that follows (nothing for an
 * empty or NULL @value). */
void gd_metrics_base(struct gd_metrics *m, const char *key, const char *value);
/* The --label KEY=VALUE pairs of @labels (a JSON object) as labels: each
 * key sanitised to a label name, and prefixed with "label_" where it
 * would collide with a label of gdperf's own. */
void gd_metrics_labels(struct gd_metrics *m, struct json_object *labels);
/* The gauge family @name; its header is written with its first sample.
 * A name that ends in a unit (_seconds, _bytes, _bytes_per_second,
 * _packets, _events, _ratio) gets an OpenMetrics # UNIT line. */
void gd_metrics_family(struct gd_metrics *m, const char *name,
		       const char *help);
/* One sample of the current family: @value and NULL-terminated
 * key, value label pairs (values escaped here). */
void gd_metrics_put(struct gd_metrics *m, double value, ...);
/* The text written atomically to @path (the output of @opt); frees @m. */
int gd_metrics_finish(struct gd_metrics *m, const char *opt, const char *path);
void gd_metrics_free(struct gd_metrics *m);
/* @s as an identifier label value: what is not a letter, digit, '_', '-',
 * '.', '/', '<', '>' or '=' becomes '_' ("pair coverage": "pair_coverage"). */
const char *gd_metrics_word(const char *s, char *buf, size_t len);

/* "passed", "undecided" or "failed": a gate record's state. */
const char *gd_metrics_gate_state(struct json_object *gate);

/* The band label of a judged band ("<=4KiB", "4-64KiB", ">=64KiB"). */
const char *gd_metrics_band(double from_bytes, double to_bytes);

/* The HELP of gdperf_run_exit_status: the exit statuses every gdperf
 * program shares. */

/*
 * A run document's gauges: its start time, exit status, ratio and
 * interval per comparison, direction and band, the verdicts and gates as
 * states, the phases' states, the counters that moved (one family per
 * unit) and the time account; with @sizes, the ratio and figure per size
 * too. gd_compare calls it once per comparison record.
 */
void gd_metrics_run(struct gd_metrics *m, struct json_object *doc, bool sizes);
/* gd_metrics_run() of @doc into @path as OpenMetrics (the run's
 * --openmetrics), atomically, with the document's device and --label
 * values as labels. 0 or -errno. */
int gd_metrics_run_write(const char *path, struct json_object *doc, bool sizes);
/* The same in either format. */
int gd_metrics_run_write_as(const char *path, enum gd_metrics_format format,
			    struct json_object *doc, bool sizes);

#endif
