/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's document (schema "gdperf.fleet/1"): gates, failure domains,
 * coverage per round, rail and association curves, every execution, the
 * acceptance checklist, what was read and, with a locality round, that
 * round on its own (fleet_locality.c). Built once; the Markdown report
 * is rendered from it (fleet_markdown.c) so the two can never disagree.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/printbuf.h>

#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_decide.h"
#include "tools/cluster/fleet_tails.h"
#include "util/error.h"
#include "util/output.h"

struct grid {
	char phase[GD_FLEET_PHASES_MAX][8];
	int n_phases;
	const struct gd_fleet_phase *sizes; /* the size grid of one run */
	bool lat;
	double ref_size; /* largest size */
};

static void grid_init(const struct gd_fleet *fl, struct grid *g)
{
	size_t i;
	int p, k;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		for (p = 0; r->have_measure && p < r->n_phases; p++) {
			for (k = 0; k < g->n_phases; k++)
				if (!strcmp(g->phase[k], r->phases[p].name))
					break;
			if (k == g->n_phases && k < GD_FLEET_PHASES_MAX)
				strcpy(g->phase[g->n_phases++],
				       r->phases[p].name);
			if (!g->sizes || r->phases[p].n > g->sizes->n) {
				g->sizes = &r->phases[p];
				g->lat = r->lat;
			}
		}
	}
	if (g->sizes && g->sizes->n)
		g->ref_size = g->sizes->size_bytes[g->sizes->n - 1];
}

static const char *unit_of(const struct grid *g)
{
	return g->lat ? "us" : "MiB/s";
}

static struct json_object *jnum(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

static struct json_object *curves_json(const struct gd_fleet *fl,
				       const struct grid *gr, int rail,
				       int host, int gpu)
{
	struct json_object *o = json_object_new_object();
	int k, i;

	for (k = 0; k < gr->n_phases && gr->sizes; k++) {
		struct json_object *arr = json_object_new_array();

		for (i = 0; i < gr->sizes->n; i++) {
			struct json_object *pt = json_object_new_object();
			double s = gr->sizes->size_bytes[i];

			json_object_object_add(pt, "size_bytes", jnum(s));
			json_object_object_add(
				pt, gr->lat ? "lat_typical_us" : "bw_avg_MiBps",
				jnum(host >= 0 ? gd_fleet_assoc_value(
							 fl, host, gpu,
							 gr->phase[k], s)
					       : gd_fleet_rail_value(
							 fl, rail, gr->phase[k],
							 s)));
			json_object_array_add(arr, pt);
		}
		json_object_object_add(o, gr->phase[k], arr);
	}
	(void)rail;
	return o;
}

/* null for what is no JSON number (NaN: no interval, or an infinity). */
static struct json_object *jdbl(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

/* One series' assessment that is not "not below": listed (slower at the
 * campaign's false discovery rate) or undecided. */
static struct json_object *json_judged(const struct gd_fleet *fl,
				       const struct gd_fleet_judged *j)
{
	struct json_object *o = json_object_new_object();
	char text[GD_FLEET_TEXT_MAX * 2];

	json_object_object_add(o, "execution", json_object_new_string(j->id));
	json_object_object_add(o, "phase", json_object_new_string(j->phase));
	json_object_object_add(
		o, "replicates",
		json_object_new_string(j->reps > 1 ? "repeats" : "rounds"));
	json_object_object_add(o, "repeats", json_object_new_int((int)j->reps));
	json_object_object_add(o, "replicate_count",
			       json_object_new_int((int)j->rows));
	json_object_object_add(o, "sizes", json_object_new_int((int)j->sizes));
	json_object_object_add(
		o, "decision",
		json_object_new_string(j->decision == GD_DECISION_SLOWER
					       ? "slower"
					       : "inconclusive"));
	json_object_object_add(o, "ratio", jdbl(j->ratio));
	json_object_object_add(o, "low", jdbl(j->lo));
	json_object_object_add(o, "high", jdbl(j->hi));
	json_object_object_add(o, "p", jdbl(j->p));
	if (j->listed) {
		bool seg = j->seg_sizes && j->seg_p <= GD_FLEET_FDR_LEVEL;

		json_object_object_add(
			o, "from_bytes",
			seg ? json_object_new_int64((int64_t)j->seg_from)
			    : NULL);
		json_object_object_add(
			o, "to_bytes",
			seg ? json_object_new_int64((int64_t)j->seg_to) : NULL);
		gd_fleet_judged_text(j, fl->opt.expect_ratio, text,
				     sizeof(text));
	} else {
		json_object_object_add(o, "sizes_undecided",
				       json_object_new_int((int)j->nundecided));
		json_object_object_add(o, "needed",
				       json_object_new_int((int)j->need));
		json_object_object_add(
			o, "needed_unit",
			json_object_new_string(j->reps > 1 ? "repeats"
							   : "rounds"));
		gd_fleet_undecided_text(j, text, sizeof(text));
	}
	json_object_object_add(o, "evidence", json_object_new_string(text));
	return o;
}

/* How the repeatability gate judged: its method and figures. */
static void gate_repeatability_json(const struct gd_fleet *fl,
				    struct json_object *g)
{
	json_object_object_add(g, "method",
			       json_object_new_string(gd_fleet_cv_method));
	json_object_object_add(g, "worst_cv_pct",
			       json_object_new_double(fl->rep.worst_cv_pct));
	json_object_object_add(g, "limit_cv_pct",
			       json_object_new_double(fl->opt.max_cv * 100));
	json_object_object_add(g, "series",
			       json_object_new_int64((int64_t)fl->rep.series));
}

static struct json_object *jcount(size_t n)
{
	return json_object_new_int64((int64_t)n);
}

/* The undecided records named in the document, at most. */
#define GD_FLEET_UNDECIDED_NAMED 1000

/* How the ratio gate judged: method, levels, counts, every series listed
 * slower and the undecided ones. */
static void gate_ratio_json(const struct gd_fleet *fl, struct json_object *g)
{
	const struct gd_fleet_ratio_counts *c = &fl->ratio;
	struct json_object *n, *slow, *und, *fdr;
	char rule[2048];
	size_t i, named = 0;

	if (fl->opt.expect_ratio <= 0)
		return;
	n = json_object_new_object();
	slow = json_object_new_array();
	und = json_object_new_array();
	fdr = json_object_new_object();
	json_object_object_add(g, "method",
			       json_object_new_string(gd_fleet_ratio_rule(
				       rule, sizeof(rule))));
	json_object_object_add(g, "floor",
			       json_object_new_double(fl->opt.expect_ratio));
	json_object_object_add(g, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(g, "alpha",
			       json_object_new_double(GD_ASSESS_ALPHA));
	json_object_object_add(fdr, "method",
			       json_object_new_string("Benjamini-Hochberg"));
	json_object_object_add(fdr, "level",
			       json_object_new_double(GD_FLEET_FDR_LEVEL));
	json_object_object_add(fdr, "rate_stated",
			       json_object_new_double(GD_FLEET_FDR_STATED));
	json_object_object_add(fdr, "series", jcount(c->series));
	json_object_object_add(
		fdr, "threshold",
		c->fdr_threshold >= 0 ? json_object_new_double(c->fdr_threshold)
				      : NULL);
	json_object_object_add(g, "false_discovery_rate", fdr);
	json_object_object_add(n, "series", jcount(c->series));
	json_object_object_add(n, "assessed", jcount(c->assessed));
	json_object_object_add(n, "slower", jcount(c->listed));
	json_object_object_add(n, "slower_series", jcount(c->listed_series));
	json_object_object_add(n, "slower_on_their_own", jcount(c->slower));
	json_object_object_add(n, "not_below", jcount(c->no_difference));
	/* the name before issue 25, for readers of older reports */
	json_object_object_add(n, "no_difference", jcount(c->no_difference));
	json_object_object_add(n, "inconclusive", jcount(c->inconclusive));
	json_object_object_add(n, "by_repeats", jcount(c->by_repeats));
	json_object_object_add(n, "by_rounds", jcount(c->by_rounds));
	json_object_object_add(
		n, "by_sizes",
		jcount(c->assessed - c->by_repeats - c->by_rounds));
	json_object_object_add(g, "counts", n);
	json_object_object_add(g, "repeats_needed",
			       json_object_new_int((int)c->repeats_needed));
	for (i = 0; i < fl->n_judged; i++) {
		if (fl->judged[i].listed)
			json_object_array_add(slow,
					      json_judged(fl, &fl->judged[i]));
		else if (named++ < GD_FLEET_UNDECIDED_NAMED)
			json_object_array_add(und,
					      json_judged(fl, &fl->judged[i]));
	}
	json_object_object_add(g, "slower", slow);
	json_object_object_add(g, "undecided_series", und);
}

static struct json_object *json_gates(const struct gd_fleet *fl, int *status)
{
	struct gd_fleet_gate gates[GD_FLEET_GATES];
	struct gd_fleet_item items[GD_FLEET_CHECK_ITEMS];
	struct json_object *o = json_object_new_object();
	struct json_object *ga = json_object_new_array();
	struct json_object *ca = json_object_new_array();
	int i;

	*status = gd_fleet_gates(fl, gates);
	for (i = 0; i < GD_FLEET_GATES; i++) {
		struct json_object *g = json_object_new_object();

		json_object_object_add(g, "name",
				       json_object_new_string(gates[i].name));
		json_object_object_add(g, "pass",
				       json_object_new_boolean(gates[i].pass));
		json_object_object_add(
			g, "state",
			json_object_new_string(
				gd_fleet_state_name(gates[i].state)));
		json_object_object_add(g, "detail",
				       json_object_new_string(gates[i].detail));
		json_object_object_add(
			g, "undecided",
			json_object_new_boolean(gates[i].state ==
						GD_FLEET_UNDECIDED));
		/* the ratio gate's always: its series' testcases follow it */
		if (gates[i].state == GD_FLEET_UNDECIDED ||
		    (!strcmp(gates[i].name, "ratio") &&
		     fl->opt.expect_ratio > 0))
			json_object_object_add(
				g, "undecided_policy",
				json_object_new_string(gd_fleet_undecided_name(
					fl->opt.undecided)));
		if (!strcmp(gates[i].name, "repeatability"))
			gate_repeatability_json(fl, g);
		if (!strcmp(gates[i].name, "ratio"))
			gate_ratio_json(fl, g);
		json_object_array_add(ga, g);
	}
	gd_fleet_checklist(fl, items);
	for (i = 0; i < GD_FLEET_CHECK_ITEMS; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "item",
				       json_object_new_string(items[i].name));
		json_object_object_add(
			c, "status",
			json_object_new_string(items[i].satisfied ? "satisfied"
								  : "open"));
		json_object_object_add(
			c, "evidence",
			json_object_new_string(items[i].evidence));
		json_object_array_add(ca, c);
	}
	json_object_object_add(o, "gates", ga);
	json_object_object_add(o, "checklist", ca);
	return o;
}

static struct json_object *json_domains(const struct gd_fleet *fl)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < fl->n_domains; i++) {
		const struct gd_fleet_domain *d = &fl->domains[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(
			o, "unit",
			json_object_new_string(gd_fleet_unit_name(d->unit)));
		json_object_object_add(o, "name",
				       json_object_new_string(d->name));
		json_object_object_add(o, "evidence",
				       json_object_new_string(d->evidence));
		json_object_object_add(o, "action",
				       json_object_new_string(d->action));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* Association @gpu of server @h: its coverage per round and curves. */
static struct json_object *assoc_json(const struct gd_fleet *fl,
				      const struct grid *gr, size_t h, int gpu)
{
	struct json_object *o = json_object_new_object();
	int round, planned, passed;

	json_object_object_add(o, "server",
			       json_object_new_string(fl->hosts[h].name));
	json_object_object_add(o, "gpu", json_object_new_int(gpu));
	for (round = 1; round <= GD_FLEET_ROUNDS; round++) {
		char key[16];
		enum gd_cov c = gd_fleet_coverage(fl, round, (int)h, gpu,
						  &planned, &passed);

		snprintf(key, sizeof(key), "round%d", round);
		json_object_object_add(
			o, key,
			planned ? json_object_new_string(gd_fleet_cov_name(c))
				: NULL);
	}
	json_object_object_add(o, "curves",
			       curves_json(fl, gr, -1, (int)h, gpu));
	return o;
}

static struct json_object *run_json(const struct gd_fleet_run *r)
{
	struct json_object *o = json_object_new_object();
	const char *st = !(r->have_measure || r->have_server) ? "untested"
			 : !r->ok			      ? "failed"
			 : r->slow			      ? "outlier"
							      : "pass";

	json_object_object_add(o, "id", json_object_new_string(r->id));
	json_object_object_add(o, "round", json_object_new_int(r->round));
	json_object_object_add(o, "status", json_object_new_string(st));
	json_object_object_add(o, "reason",
			       json_object_new_string(gd_fleet_run_why(r)));
	json_object_object_add(
		o, "file", r->file[0] ? json_object_new_string(r->file) : NULL);
	return o;
}

/*
 * The lists as long as the campaign, "associations" (every server's GPUs
 * in order), "executions" and "ratio_series": the document holds an empty
 * array for each that writes its elements, one at a time, when it is
 * serialised, and gd_fleet_doc_item() builds one for a renderer. As
 * json-c objects, a campaign of 100k GPUs would hold some 1.5 GiB of them.
 */
enum lazy_kind { LAZY_ASSOCIATIONS, LAZY_EXECUTIONS, LAZY_SERIES };

struct lazy {
	const struct gd_fleet *fl;
	struct grid gr;
	enum lazy_kind kind;
};

static size_t lazy_len(const struct lazy *lz)
{
	switch (lz->kind) {
	case LAZY_EXECUTIONS:
		return lz->fl->n_runs;
	case LAZY_SERIES:
		return lz->fl->n_series_recs;
	default:
		return lz->fl->n_hosts * (size_t)lz->fl->gpus_per_server;
	}
}

/* One assessment of the ratio gate: "not below", or its judged record's
 * decision and words (json_judged has the figures of those). */
static struct json_object *series_json(const struct gd_fleet *fl,
				       const struct gd_fleet_series_rec *r)
{
	struct json_object *o = json_object_new_object();
	const struct gd_fleet_judged *j =
		r->judged < fl->n_judged ? &fl->judged[r->judged] : NULL;
	char text[GD_FLEET_TEXT_MAX * 2];
	const char *decision = "not_below";

	if (j && j->listed)
		decision = "slower";
	else if (j)
		decision = "undecided";
	json_object_object_add(o, "execution", json_object_new_string(r->id));
	json_object_object_add(o, "phase", json_object_new_string(r->phase));
	json_object_object_add(o, "decision", json_object_new_string(decision));
	if (!j)
		return o;
	if (j->listed)
		gd_fleet_judged_text(j, fl->opt.expect_ratio, text,
				     sizeof(text));
	else
		gd_fleet_undecided_text(j, text, sizeof(text));
	json_object_object_add(o, "evidence", json_object_new_string(text));
	return o;
}

static struct json_object *lazy_item(const struct lazy *lz, size_t i)
{
	size_t gps = (size_t)lz->fl->gpus_per_server;

	if (i >= lazy_len(lz))
		return NULL;
	if (lz->kind == LAZY_EXECUTIONS)
		return run_json(&lz->fl->runs[i]);
	if (lz->kind == LAZY_SERIES)
		return series_json(lz->fl, &lz->fl->series_recs[i]);
	return assoc_json(lz->fl, &lz->gr, i / gps, (int)(i % gps));
}

/* json-c's own indentation (json_object.c indent()). */
static void indent(struct printbuf *pb, int level, int flags)
{
	if (!(flags & JSON_C_TO_STRING_PRETTY))
		return;
	if (flags & JSON_C_TO_STRING_PRETTY_TAB)
		printbuf_memset(pb, -1, '\t', level);
	else
		printbuf_memset(pb, -1, ' ', level * 2);
}

/* An element serialised alone, indented as if at @level. */
static int lazy_put(struct printbuf *pb, struct json_object *o, int level,
		    int flags)
{
	const char *s = json_object_to_json_string_ext(o, flags), *nl;

	if (!s)
		return -1;
	while ((nl = strchr(s, '\n'))) {
		printbuf_memappend(pb, s, (int)(nl - s + 1));
		indent(pb, level, flags);
		s = nl + 1;
	}
	return printbuf_memappend(pb, s, (int)strlen(s)) < 0 ? -1 : 0;
}

/* What json-c's array serialiser writes for the same elements. */
static int lazy_serialize(struct json_object *jso, struct printbuf *pb,
			  int level, int flags)
{
	const struct lazy *lz = json_object_get_userdata(jso);
	bool pretty = flags & JSON_C_TO_STRING_PRETTY;
	size_t i, n = lazy_len(lz);
	int ret = 0;

	printbuf_strappend(pb, "[");
	if (pretty)
		printbuf_strappend(pb, "\n");
	for (i = 0; !ret && i < n; i++) {
		struct json_object *o = lazy_item(lz, i);

		if (i)
			printbuf_strappend(pb, ",");
		if (i && pretty)
			printbuf_strappend(pb, "\n");
		if (flags & JSON_C_TO_STRING_SPACED && !pretty)
			printbuf_strappend(pb, " ");
		indent(pb, level + 1, flags);
		ret = o ? lazy_put(pb, o, level + 1, flags) : -1;
		json_object_put(o);
	}
	if (pretty && n)
		printbuf_strappend(pb, "\n");
	indent(pb, level, flags);
	if (flags & JSON_C_TO_STRING_SPACED && !pretty)
		return printbuf_strappend(pb, " ]");
	return ret ? ret : printbuf_strappend(pb, "]");
}

static void lazy_free(struct json_object *jso, void *userdata)
{
	(void)jso;
	free(userdata);
}

static struct json_object *lazy_list(const struct gd_fleet *fl,
				     const struct grid *gr, enum lazy_kind kind)
{
	struct json_object *arr = json_object_new_array();
	struct lazy *lz = calloc(1, sizeof(*lz));

	if (!arr || !lz) {
		json_object_put(arr);
		free(lz);
		return NULL;
	}
	lz->fl = fl;
	lz->gr = *gr;
	lz->kind = kind;
	json_object_set_serializer(arr, lazy_serialize, lz, lazy_free);
	return arr;
}

static const struct lazy *lazy_of(struct json_object *doc, const char *key)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(doc, key, &arr) ||
	    json_object_get_type(arr) != json_type_array)
		return NULL;
	return json_object_get_userdata(arr);
}

/* A document read back from a file holds these lists as plain arrays. */
size_t gd_fleet_doc_len(struct json_object *doc, const char *key)
{
	const struct lazy *lz = lazy_of(doc, key);
	struct json_object *arr;

	if (lz)
		return lazy_len(lz);
	return json_object_object_get_ex(doc, key, &arr) &&
			       json_object_is_type(arr, json_type_array)
		       ? json_object_array_length(arr)
		       : 0;
}

struct json_object *gd_fleet_doc_item(struct json_object *doc, const char *key,
				      size_t i)
{
	const struct lazy *lz = lazy_of(doc, key);
	struct json_object *arr;

	if (lz)
		return lazy_item(lz, i);
	if (!json_object_object_get_ex(doc, key, &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    i >= json_object_array_length(arr))
		return NULL;
	return json_object_get(json_object_array_get_idx(arr, i));
}

/* The files skipped, each with why (the first GD_FLEET_SKIPS_MAX). */
static struct json_object *json_skips(const struct gd_fleet *fl)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < fl->n_skips; i++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(
			s, "file", json_object_new_string(fl->skips[i].path));
		json_object_object_add(
			s, "reason",
			json_object_new_string(fl->skips[i].reason));
		json_object_array_add(arr, s);
	}
	return arr;
}

/* What the Markdown's summary and empty tables need beyond the figures:
 * appended last so the keys before it keep their order. */
static struct json_object *json_inputs(const struct gd_fleet *fl)
{
	struct json_object *o = json_object_new_object();
	struct json_object *servers = json_object_new_array();
	size_t h;

	json_object_object_add(o, "documents",
			       json_object_new_int64((int64_t)fl->n_docs));
	json_object_object_add(o, "skipped",
			       json_object_new_int64((int64_t)fl->n_skipped));
	json_object_object_add(
		o, "unlabelled",
		json_object_new_int64((int64_t)fl->n_unlabelled));
	json_object_object_add(o, "plan",
			       json_object_new_boolean(fl->have_plan));
	for (h = 0; h < fl->n_hosts; h++)
		json_object_array_add(
			servers, json_object_new_string(fl->hosts[h].name));
	json_object_object_add(o, "servers", servers);
	json_object_object_add(o, "gpus_per_server",
			       json_object_new_int(fl->gpus_per_server));
	json_object_object_add(o, "skipped_files", json_skips(fl));
	return o;
}

/* The phases and sizes every "curves" object is laid out on. */
static struct json_object *json_grid(const struct grid *gr)
{
	struct json_object *o = json_object_new_object();
	struct json_object *phases = json_object_new_array();
	struct json_object *sizes = json_object_new_array();
	int k, i;

	for (k = 0; k < gr->n_phases && gr->sizes; k++)
		json_object_array_add(phases,
				      json_object_new_string(gr->phase[k]));
	for (i = 0; gr->sizes && i < gr->sizes->n; i++)
		json_object_array_add(sizes, jnum(gr->sizes->size_bytes[i]));
	json_object_object_add(o, "phases", phases);
	json_object_object_add(o, "sizes_bytes", sizes);
	return o;
}

struct json_object *gd_fleet_document(const struct gd_fleet *fl)
{
	struct json_object *root = json_object_new_object(), *rails, *tails;
	struct grid gr;
	int rail, status;

	if (!root) {
		gd_err(-ENOMEM, "out of memory building the fleet report");
		return NULL;
	}
	grid_init(fl, &gr);
	json_object_object_add(root, "schema",
			       json_object_new_string("gdperf.fleet/1"));
	json_object_object_add(root, "tool",
			       json_object_new_string("gd_report"));
	json_object_object_add(root, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(root, "unit",
			       json_object_new_string(unit_of(&gr)));
	json_object_object_add(root, "acceptance", json_gates(fl, &status));
	json_object_object_add(root, "pass", json_object_new_boolean(!status));
	json_object_object_add(root, "exit_status",
			       json_object_new_int(status));
	json_object_object_add(root, "domains", json_domains(fl));
	json_object_object_add(root, "associations",
			       lazy_list(fl, &gr, LAZY_ASSOCIATIONS));
	rails = json_object_new_array();
	for (rail = 0; rail < fl->rails; rail++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "rail", json_object_new_int(rail));
		json_object_object_add(
			o, "outlier",
			json_object_new_boolean(fl->rail_slow[rail]));
		json_object_object_add(o, "curves",
				       curves_json(fl, &gr, rail, -1, 0));
		json_object_array_add(rails, o);
	}
	json_object_object_add(root, "rails", rails);
	json_object_object_add(root, "executions",
			       lazy_list(fl, &gr, LAZY_EXECUTIONS));
	/* only with --expect-ratio, so other reports stay as they were */
	if (fl->opt.expect_ratio > 0)
		json_object_object_add(root, "ratio_series",
				       lazy_list(fl, &gr, LAZY_SERIES));
	json_object_object_add(root, "inputs", json_inputs(fl));
	json_object_object_add(root, "curve_grid", json_grid(&gr));
	/* only with round-4 executions, so other reports stay as they were */
	if (fl->n_loc_runs)
		json_object_object_add(root, "locality",
				       gd_fleet_locality_json(fl));
	/* only with latency series, likewise */
	tails = gd_fleet_tails_json(fl);
	if (tails)
		json_object_object_add(root, "latency_tails", tails);
	return root;
}

int gd_fleet_write_json(struct json_object *doc, const char *path)
{
	return gd_out_file(
		"--json", path,
		json_object_to_json_string_ext(
			doc, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE));
}
