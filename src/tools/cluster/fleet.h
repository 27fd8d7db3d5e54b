/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's model: the executions found in a directory of gdperf.run
 * documents (client and server sides merged by the "exec" label), gd_doctor
 * envelopes, the plan they were meant to cover, and what the analysis
 * concludes (coverage, outliers, failure domains, acceptance checklist).
 * Round-4 (locality) executions are kept apart: they are reported on their
 * own and never count as coverage, outliers or gates.
 */
#ifndef GD_CLUSTER_FLEET_H
#define GD_CLUSTER_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/assess.h"
#include "util/infer.h"

#define GD_FLEET_SIZES_MAX 48
#define GD_FLEET_PHASES_MAX 8
#define GD_FLEET_NAME_MAX 64
#define GD_FLEET_TEXT_MAX 320
#define GD_FLEET_ROUNDS 3	  /* the rounds coverage is counted for */
#define GD_FLEET_ROUND_LOCALITY 4 /* gd_plan --locality-round */

struct json_object;

/* What a locality execution's client document chose and decided: the near
 * (D1) and far (D2) device with their path classes, and the run's own
 * D2D2/D1D1 assessment. In the fleet's pool, round 4 only. */
struct gd_fleet_locality {
	char nic[GD_FLEET_NAME_MAX]; /* header.device, "" unknown */
	char path_class[2][8];	     /* "PIX".."SYS", "" not chosen */
	int device[2];		     /* device index, -1 unknown */
	char decision[16];	     /* "slower", ...; "" no assessment */
	double ratio, low, high;     /* D2D2/D1D1; NAN absent */
	int repeats_needed;
	char phase_error[GD_FLEET_TEXT_MAX]; /* first failed phase's */
};

struct gd_fleet_phase {
	char name[8]; /* "HH", "DD", ... */
	bool ok;
	int n;
	/* n sizes and values, in the fleet's pool */
	const double *size_bytes;
	const double *value; /* bw_avg_MiBps or lat_typical_us */
	/* with --expect-ratio and --repeat: each size's rounds, n x rounds
	 * (size major, by the round's "repeat" number; NAN where missing),
	 * NULL when the document has one figure per size */
	const double *round_value;
	int rounds;
};

/* One planned or observed execution; both sides' documents merged. Kept
 * small (strings and curves in the fleet's pool): a campaign of 100k GPUs
 * has half a million of them. */
struct gd_fleet_run {
	const char *id;
	const char *file;  /* the measuring document, "" none */
	const char *error; /* "" none */
	char *slow_why;	   /* GD_FLEET_TEXT_MAX bytes once slow, else NULL */
	struct gd_fleet_phase *phases;
	struct gd_fleet_locality *loc; /* round 4 with a client document */
	int n_phases;
	int round; /* 1..4, 0 unknown */
	int step, repeat, gpu, rail;
	int looks; /* an adaptive run's planned looks (precision.looks), 1 */
	int a, b;  /* host indices */
	bool b_to_a;
	bool planned;
	bool have_measure; /* client or loopback document */
	bool have_server;
	bool ok;
	bool lat; /* latency: higher is worse */
	/* analysis */
	bool slow;
	bool explained; /* by a proven failure domain */
};

struct gd_fleet_host {
	const char *name;    /* in the fleet's pool */
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
	double mad_k;	     /* robust threshold, in scaled MADs */
	double min_dev;	     /* and at least this relative deviation */
	double max_cv;	     /* repeatability gate */
	double expect_ratio; /* DD/HH gate, 0 = off */
	enum gd_fleet_undecided {
		GD_FLEET_UNDECIDED_FAIL, /* exit 4, a failed gate */
		GD_FLEET_UNDECIDED_PASS, /* passes */
		GD_FLEET_UNDECIDED_KEEP, /* exit 4, neither pass nor fail */
	} undecided;			 /* --gate-undecided */
	double gate_from_bytes;		 /* sizes gated / judged from here */
};

/* fleet_pool.c: the model's memory, freed all at once. */
struct gd_fleet_pool {
	struct gd_fleet_chunk *head;
	size_t used, cap; /* in the head chunk */
};

/* fleet_hash.c: open addressing from a 32-bit hash to an array index. */
struct gd_fleet_hash {
	struct gd_fleet_slot *slot;
	size_t cap, n;
};

/* fleet_repeats.c: the statistics over a campaign's repeats. */
struct gd_fleet_repeats {
	size_t series;	     /* series with two or more repeats measured */
	double worst_cv_pct; /* gd_spread_of's CV, percent */
	char worst_cv_where[GD_FLEET_TEXT_MAX];
};

/* One assessment of a series that did not decide "not below", kept for
 * the ratio gate (fleet_repeats.c): compact, since a campaign has
 * thousands. */
struct gd_fleet_judged {
	const char *id; /* the series' first ok repeat */
	char phase[8];
	enum gd_decision decision; /* the series' own, as its run's rule */
	bool listed;		   /* in the campaign's list of slow series */
	bool seg_up;		   /* the segment reaches the largest size */
	size_t series;		   /* index of its series among those judged */
	unsigned int reps, rows, sizes, nundecided, need;
	double p;	      /* gd_fleet_p_slower */
	double ratio, lo, hi; /* all judged sizes */
	double seg_p, seg_from, seg_to, seg_ratio, seg_lo, seg_hi;
	unsigned int seg_sizes;
};

/* Every assessment the ratio gate made, in series order, compact (a
 * campaign of 100k GPUs has as many): what --junit writes a testcase for
 * and the document's ratio_series lists. */
struct gd_fleet_series_rec {
	const char *id; /* the series' first ok repeat */
	char phase[8];	/* its device phase */
	/* its record in judged[], or UINT32_MAX where "not below" */
	uint32_t judged;
};

struct gd_fleet_ratio_counts {
	size_t assessed, slower, no_difference, inconclusive;
	size_t by_repeats;	      /* two or more repeats, each a cluster */
	size_t by_rounds;	      /* one repeat, its rounds */
	size_t series;		      /* series with an assessment */
	size_t listed, listed_series; /* at the false discovery rate */
	double fdr_threshold;	      /* Benjamini-Hochberg's, -1 none */
	unsigned int repeats_needed;  /* the most any undecided one needs */
};

struct gd_fleet_index;

/* A .json file under the directory that is not read, and why. */
struct gd_fleet_skip {
	const char *path; /* in the pool */
	char reason[160];
};
#define GD_FLEET_SKIPS_MAX 100 /* named; the count goes on */

struct gd_fleet {
	struct gd_fleet_opts opt;
	bool have_plan;
	int gpus_per_server, rails;
	struct gd_fleet_host *hosts;
	size_t n_hosts, hosts_cap;
	struct gd_fleet_run *runs; /* every round but the locality round */
	size_t n_runs, runs_cap;
	struct gd_fleet_run *loc_runs; /* round 4, once the reading is done */
	size_t n_loc_runs;
	struct gd_fleet_check_doc *checks;
	size_t n_checks, checks_cap;
	size_t n_docs, n_skipped, n_unlabelled, n_run_docs;
	size_t n_unreadable; /* of n_skipped: not valid JSON, not readable */
	const char *dir;     /* the results directory */
	struct gd_fleet_skip *skips; /* the first GD_FLEET_SKIPS_MAX */
	size_t n_skips, skips_cap;
	struct gd_fleet_pool pool;
	struct gd_fleet_hash run_ids, host_names;
	/* analysis */
	struct gd_fleet_index *ix; /* fleet_index.c, built by the analysis */
	struct gd_fleet_domain *domains;
	size_t n_domains, domains_cap;
	bool *rail_slow; /* per rail */
	struct gd_fleet_repeats rep;
	struct gd_fleet_ratio_counts ratio;
	struct gd_fleet_judged *judged; /* not "not below", series order */
	size_t n_judged, judged_cap;
	struct gd_fleet_series_rec *series_recs; /* every assessment */
	size_t n_series_recs, series_recs_cap;
};

/* fleet_pool.c: zeroed, aligned for any member; NULL when out of memory. */
void *gd_fleet_pool_alloc(struct gd_fleet_pool *p, size_t n);
char *gd_fleet_pool_str(struct gd_fleet_pool *p, const char *s);
void gd_fleet_pool_free(struct gd_fleet_pool *p);
/* @arr (capacity *@cap elements of @elem bytes) with room for element
 * @n, grown geometrically; NULL when out of memory, @arr left as it was. */
void *gd_fleet_grow(void *arr, size_t *cap, size_t n, size_t elem);

/* fleet_hash.c */
uint32_t gd_fleet_hash_bytes(const void *p, size_t n, uint32_t seed);
/* The index stored under a key whose hash is @hv, or -1: @same tells
 * whether stored index @idx holds @key. */
long gd_fleet_hash_find(const struct gd_fleet_hash *h, uint32_t hv,
			bool (*same)(const void *ctx, uint32_t idx,
				     const void *key),
			const void *ctx, const void *key);
int gd_fleet_hash_add(struct gd_fleet_hash *h, uint32_t hv, uint32_t idx);
void gd_fleet_hash_free(struct gd_fleet_hash *h);

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

/* fleet_locality.c: round 4, apart from everything else. */
/* The choices and the D2D2/D1D1 assessment of @doc, the client document
 * of locality execution @r, into r->loc; -ENOMEM. */
int gd_fleet_locality_read(struct gd_fleet *fl, struct gd_fleet_run *r,
			   struct json_object *doc);
/* The report's "locality" section; NULL when there is no round 4. */
struct json_object *gd_fleet_locality_json(const struct gd_fleet *fl);

/* fleet_run.c: questions about one execution. */
const struct gd_fleet_phase *gd_fleet_phase_of(const struct gd_fleet_run *r,
					       const char *name);
/* The figure at the first index of @size; NAN when none. */
double gd_fleet_phase_at(const struct gd_fleet_phase *p, double size);
bool gd_fleet_run_tested(const struct gd_fleet_run *r);
bool gd_fleet_run_bad(const struct gd_fleet_run *r);
/* Why it is bad: its error, or why it stands out; "" when neither. */
const char *gd_fleet_run_why(const struct gd_fleet_run *r);
int gd_fleet_run_class(const struct gd_fleet_run *r); /* 1: round 3 */
bool gd_fleet_size_judged(const struct gd_fleet *fl,
			  const struct gd_fleet_phase *p, int i);

/* fleet_analyze.c: outliers, rails, repeats, coverage; builds fl->ix. */
int gd_fleet_analyze(struct gd_fleet *fl);
/* Counts of an association in a round; after gd_fleet_analyze. */
enum gd_cov gd_fleet_coverage(const struct gd_fleet *fl, int round, int host,
			      int gpu, int *planned, int *passed);
const char *gd_fleet_cov_name(enum gd_cov c);
/* Median over an association's (rail's) ok runs of rounds 1-2 of one phase
 * at one size; NAN when none. After gd_fleet_analyze. */
double gd_fleet_assoc_value(const struct gd_fleet *fl, int host, int gpu,
			    const char *phase, double size_bytes);
double gd_fleet_rail_value(const struct gd_fleet *fl, int rail,
			   const char *phase, double size_bytes);

/* fleet_repeats.c: the statistics over a campaign's repeats, the run
 * tool's (src/report/evidence.c). */
/* Every series: repeatability into fl->rep, with --expect-ratio the
 * assessments into fl->ratio and fl->judged, the campaign's list of slow
 * series marked (Benjamini-Hochberg over series, fleet_decide.h). */
int gd_fleet_judge_repeats(struct gd_fleet *fl);
/* "ID: DD/HH 0.75, ...; below R from 1 MiB up: ..." into @dst. */
void gd_fleet_judged_text(const struct gd_fleet_judged *j, double floor,
			  char *dst, size_t len);
/* "ID DD (about 6 repeats)" into @dst: an undecided one. */
void gd_fleet_undecided_text(const struct gd_fleet_judged *j, char *dst,
			     size_t len);
extern const char gd_fleet_cv_method[];

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
/* A gate's state: "passed", "failed" or "undecided" (the evidence
 * neither passes nor fails it); @pass is what --gate-undecided makes of
 * it. The CI formats (fleet_ci.c) read the same words. */
enum gd_fleet_state {
	GD_FLEET_PASS,
	GD_FLEET_FAIL,
	GD_FLEET_UNDECIDED,
};
struct gd_fleet_gate {
	const char *name;
	bool pass;
	enum gd_fleet_state state;
	char detail[GD_FLEET_TEXT_MAX * 4];
};
#define GD_FLEET_GATES 4
/* The exit status the gates give: 0 every gate passes, 3 one failed, 4
 * none failed and one is undecided that --gate-undecided does not pass. */
int gd_fleet_gates(const struct gd_fleet *fl,
		   struct gd_fleet_gate gates[GD_FLEET_GATES]);
const char *gd_fleet_state_name(enum gd_fleet_state s);
const char *gd_fleet_undecided_name(enum gd_fleet_undecided u);

/* fleet_write.c: the whole report as one gdperf.fleet/1 document (NULL
 * and gd_err when out of memory), and that document written to @path. */
struct json_object *gd_fleet_document(const struct gd_fleet *fl);
int gd_fleet_write_json(struct json_object *doc, const char *path);
/* The document's "associations" and "executions" are written when it is
 * serialised, not held in it: their length, and element @i built anew
 * (json_object_put it; NULL past the end or out of memory). */
size_t gd_fleet_doc_len(struct json_object *doc, const char *key);
struct json_object *gd_fleet_doc_item(struct json_object *doc, const char *key,
				      size_t i);
/* fleet_markdown.c: the Markdown report, rendered from the document alone
 * ("-" is stdout). */
int gd_fleet_write_markdown(struct json_object *doc, const char *path);
/* fleet_plot.c: SVG through gnuplot when in PATH, else the .gp scripts. */
int gd_fleet_plot(const struct gd_fleet *fl, const char *dir, char *note,
		  size_t note_len);

#endif
