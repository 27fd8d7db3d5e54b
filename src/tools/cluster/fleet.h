/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's model: the executions found in a directory of gdperf.run/1
 * documents (client and server sides merged by the "exec" label), gd_doctor
 * envelopes, the plan they were meant to cover, and what the analysis
 * concludes (coverage, outliers, failure domains, acceptance checklist).
 */
#ifndef GD_CLUSTER_FLEET_H
#define GD_CLUSTER_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#define GD_FLEET_SIZES_MAX 48
#define GD_FLEET_PHASES_MAX 8
#define GD_FLEET_NAME_MAX 64
#define GD_FLEET_TEXT_MAX 320
#define GD_FLEET_ROUNDS 3

struct json_object;

struct gd_fleet_phase {
	char name[8]; /* "HH", "DD", ... */
	bool ok;
	int n;
	double size_bytes[GD_FLEET_SIZES_MAX];
	double value[GD_FLEET_SIZES_MAX]; /* bw_avg_MiBps or lat_typical_us */
};

/* One planned or observed execution; both sides' documents merged. */
struct gd_fleet_run {
	char id[160];
	char file[GD_FLEET_TEXT_MAX]; /* the measuring document */
	int round;		      /* 1..3, 0 unknown */
	int step, repeat, gpu, rail;
	int a, b; /* host indices */
	bool b_to_a;
	bool planned;
	bool have_measure; /* client or loopback document */
	bool have_server;
	bool ok;
	bool lat; /* latency: higher is worse */
	char error[GD_FLEET_TEXT_MAX];
	int n_phases;
	struct gd_fleet_phase phases[GD_FLEET_PHASES_MAX];
	/* analysis */
	bool slow;
	char slow_why[GD_FLEET_TEXT_MAX];
	bool explained; /* by a proven failure domain */
};

struct gd_fleet_host {
	char name[GD_FLEET_NAME_MAX];
	bool envelope;	     /* a gd_doctor envelope was found */
	bool map;	     /* ... holding a GPU/NIC map */
	int envelope_errors; /* findings at error level */
	int *gpu_rail;	     /* planned rail per GPU, or NULL */
};

/* Evidence for the application/isolation/recovery/handover items: result
 * documents labelled check=ITEM. */
struct gd_fleet_check_doc {
	char item[32];
	char file[GD_FLEET_TEXT_MAX];
	bool ok;
};

enum gd_fleet_unit {
	GD_UNIT_ASSOCIATION,
	GD_UNIT_SERVER,
	GD_UNIT_RAIL,
	GD_UNIT_ENVIRONMENT,
	GD_UNIT_PAIR, /* unresolved: two candidates */
};

struct gd_fleet_domain {
	enum gd_fleet_unit unit;
	char name[GD_FLEET_NAME_MAX * 2];
	char evidence[GD_FLEET_TEXT_MAX * 2];
	char action[GD_FLEET_TEXT_MAX];
};

enum gd_cov { GD_COV_UNTESTED, GD_COV_PASS, GD_COV_FAIL, GD_COV_PARTIAL };

struct gd_fleet_opts {
	double mad_k;		/* robust threshold, in scaled MADs */
	double min_dev;		/* and at least this relative deviation */
	double max_cv;		/* repeatability gate */
	double expect_ratio;	/* DD/HH gate, 0 = off */
	double gate_from_bytes; /* sizes gated / judged from here */
};

struct gd_fleet {
	struct gd_fleet_opts opt;
	bool have_plan;
	int gpus_per_server, rails;
	struct gd_fleet_host *hosts;
	size_t n_hosts;
	struct gd_fleet_run *runs;
	size_t n_runs;
	struct gd_fleet_check_doc *checks;
	size_t n_checks;
	size_t n_docs, n_skipped, n_unlabelled;
	/* analysis */
	struct gd_fleet_domain *domains;
	size_t n_domains;
	bool *rail_slow; /* per rail */
	char worst_cv_where[GD_FLEET_TEXT_MAX];
	double worst_cv;
	size_t ratio_failures;
	char ratio_where[GD_FLEET_TEXT_MAX];
};

/* fleet_stats.c: all return NAN for n == 0. */
double gd_fleet_median(const double *v, size_t n);
double gd_fleet_mad(const double *v, size_t n); /* unscaled */
double gd_fleet_cv(const double *v, size_t n);	/* sample stdev / mean */
/* Worse than @median by more than k scaled MADs and @min_dev relative. */
bool gd_fleet_is_outlier(double x, double median, double mad, bool higher_bad,
			 double k, double min_dev);

/* fleet_ingest.c */
int gd_fleet_load_plan(struct gd_fleet *fl, const char *path);
int gd_fleet_ingest_dir(struct gd_fleet *fl, const char *dir);
int gd_fleet_host_index(struct gd_fleet *fl, const char *name, bool add);
void gd_fleet_free(struct gd_fleet *fl);

/* fleet_analyze.c */
int gd_fleet_analyze(struct gd_fleet *fl);
enum gd_cov gd_fleet_coverage(const struct gd_fleet *fl, int round, int host,
			      int gpu, int *planned, int *passed);
const char *gd_fleet_cov_name(enum gd_cov c);
/* Median over an association's (or NULL-filtered) runs of one phase at one
 * size index of the first run's grid; NAN when none. */
double gd_fleet_assoc_value(const struct gd_fleet *fl, int host, int gpu,
			    const char *phase, double size_bytes);
double gd_fleet_rail_value(const struct gd_fleet *fl, int rail,
			   const char *phase, double size_bytes);
const struct gd_fleet_phase *gd_fleet_phase_of(const struct gd_fleet_run *r,
					       const char *name);
bool gd_fleet_run_bad(const struct gd_fleet_run *r);

/* fleet_classify.c */
int gd_fleet_classify(struct gd_fleet *fl);
const char *gd_fleet_unit_name(enum gd_fleet_unit u);

/* fleet_check.c: the acceptance checklist and the gates. */
#define GD_FLEET_CHECK_ITEMS 10
struct gd_fleet_item {
	const char *name;
	bool satisfied;
	char evidence[GD_FLEET_TEXT_MAX * 2];
};
void gd_fleet_checklist(const struct gd_fleet *fl,
			struct gd_fleet_item items[GD_FLEET_CHECK_ITEMS]);
struct gd_fleet_gate {
	const char *name;
	bool pass;
	char detail[GD_FLEET_TEXT_MAX * 2];
};
#define GD_FLEET_GATES 4
/* Returns true when every gate passes. */
bool gd_fleet_gates(const struct gd_fleet *fl,
		    struct gd_fleet_gate gates[GD_FLEET_GATES]);

/* fleet_write.c: the whole report as one gdperf.fleet/1 document (NULL
 * and gd_err when out of memory), and that document written to @path. */
struct json_object *gd_fleet_document(const struct gd_fleet *fl);
int gd_fleet_write_json(struct json_object *doc, const char *path);
/* fleet_markdown.c: the Markdown report, rendered from the document alone
 * ("-" is stdout). */
int gd_fleet_write_markdown(struct json_object *doc, const char *path);
/* fleet_plot.c: SVG through gnuplot when in PATH, else the .gp scripts. */
int gd_fleet_plot(const struct gd_fleet *fl, const char *dir, char *note,
		  size_t note_len);

#endif
