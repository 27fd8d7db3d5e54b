/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Per-size comparison of every phase against HH in the same direction,
 * the CI gates over it, and the app-vs-port bytes cross-check. Reads only
 * the JSON document so a saved document can be judged again offline.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/compare_priv.h"
#include "report/perftest_limits.h"
#include "report/tails.h"
#include "util/error.h"
#include "util/assess.h"
#include "util/infer.h"

/* A repeat number beyond --repeat's range is not a round of this run. */
#define GD_MAX_ROUNDS_JSON 64

static struct json_object *gd_phase_result(struct json_object *phase,
					   uint64_t size_bytes)
{
	struct json_object *res = gd_json_path(phase, "results", NULL);
	size_t n = res ? gd_json_len(res) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *r = gd_json_idx(res, i);
		double s;

		if (gd_json_num(r, "size_bytes", &s) &&
		    (uint64_t)s == size_bytes)
			return r;
	}
	return NULL;
}

static int gd_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorted union of result sizes over the phases of one direction. */
static size_t gd_direction_sizes(struct json_object *phases, const char *dir,
				 uint64_t *sizes, size_t max)
{
	size_t n = 0, np = gd_json_len(phases);

	for (size_t i = 0; i < np; i++) {
		struct json_object *ph = gd_json_idx(phases, i);
		struct json_object *res = gd_json_path(ph, "results", NULL);
		size_t nr = res ? gd_json_len(res) : 0;

		if (strcmp(gd_phase_direction(ph), dir))
			continue;
		for (size_t j = 0; j < nr; j++) {
			double s;
			size_t k;

			if (!gd_json_num(gd_json_idx(res, j), "size_bytes", &s))
				continue;
			for (k = 0; k < n && sizes[k] != (uint64_t)s; k++)
				;
			if (k == n && n < max)
				sizes[n++] = (uint64_t)s;
		}
	}
	qsort(sizes, n, sizeof(*sizes), gd_u64_cmp);
	return n;
}

struct gd_cmp_ctx {
	struct json_object *doc, *phases;
	const struct gd_gate_cfg *gates;
	bool lat;
	struct json_object *gate_evidence; /* strings, one per failing gate */
};

/*
 * --repeat: the @key figure of every repeat as @as, indexed by round (its
 * "repeat" number, else its place), null where a repeat failed, so that a
 * device phase's round r is paired with HH's round r and nothing else.
 */
static void gd_row_samples(struct json_object *fig, struct json_object *r,
			   const char *key, const char *as)
{
	struct json_object *s = gd_json_path(r, "samples", NULL), *out;

	if (!s || !json_object_is_type(s, json_type_array))
		return;
	out = json_object_new_array();
	for (size_t i = 0; i < gd_json_len(s); i++) {
		struct json_object *e = gd_json_idx(s, i);
		double x, rep;

		if (!gd_json_num(e, "repeat", &rep))
			rep = (double)i + 1;
		if (!gd_json_num(e, key, &x) || rep < 1 ||
		    rep > GD_MAX_ROUNDS_JSON)
			continue;
		json_object_array_put_idx(out, (size_t)rep - 1,
					  json_object_new_double(x));
	}
	json_object_object_add(fig, as, out);
}

/* Figure of one phase at one size, as stored in the comparison row. */
static struct json_object *gd_row_figure(struct gd_cmp_ctx *c,
					 struct json_object *ph, uint64_t size)
{
	struct json_object *fig = json_object_new_object();
	struct json_object *r = gd_phase_result(ph, size);
	double x;

	json_object_object_add(
		fig, "status",
		json_object_new_string(
			gd_phase_ok(ph)
				? (r ? "ok" : "no_result")
				: (gd_json_str(ph, "status") ?: "failed")));
	if (!gd_phase_ok(ph) || !r)
		return fig;
	if (c->lat) {
		if (gd_json_num(r, "lat_typical_us", &x))
			json_object_object_add(fig, "lat_typical_us",
					       json_object_new_double(x));
		if (gd_json_num(r, "lat_p99_us", &x))
			json_object_object_add(fig, "lat_p99_us",
					       json_object_new_double(x));
	} else if (gd_json_num(r, "bw_avg_MiBps", &x)) {
		json_object_object_add(fig, "bw_avg_MiBps",
				       json_object_new_double(x));
	}
	gd_row_samples(fig, r, c->lat ? "lat_typical_us" : "bw_avg_MiBps",
		       "samples");
	if (c->lat)
		gd_row_samples(fig, r, "lat_p99_us", "samples_p99");
	return fig;
}

static void gd_row_gate_fail(struct json_object *row, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void gd_row_gate_fail(struct json_object *row, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(json_object_object_get(row, "gate_failures"),
			      json_object_new_string(buf));
}

static struct json_object *gd_num_or_null(bool ok, double v)
{
	return ok ? json_object_new_double(v) : NULL;
}

/* Did the phase behind this figure run (it may still lack this size)? */
static bool gd_fig_ran(struct json_object *fig)
{
	const char *st = gd_json_str(fig, "status");

	return st && (!strcmp(st, "ok") || !strcmp(st, "no_result"));
}

/* --repeat: this size's X/HH ratio over the paired rounds with its
 * t-interval on the log scale, under "ratio_intervals". */
static void gd_row_interval(struct json_object *row, const char *pl,
			    struct json_object *fig, const char *ref,
			    struct json_object *hh)
{
	struct json_object *xs = gd_json_path(fig, "samples", NULL);
	struct json_object *hs = gd_json_path(hh, "samples", NULL);
	struct json_object *ri, *o;
	double logs[64];
	size_t n = 0;
	struct gd_log_ci ci;
	char label[32];

	if (!xs || !hs)
		return;
	for (size_t r = 0; r < gd_json_len(xs) && r < gd_json_len(hs) && n < 64;
	     r++) {
		double x = json_object_get_double(gd_json_idx(xs, r));
		double h = json_object_get_double(gd_json_idx(hs, r));

		if (x > 0 && h > 0)
			logs[n++] = log(x / h);
	}
	if (n < 2 || gd_log_ci(logs, n, GD_INFER_CONFIDENCE, &ci))
		return;
	if (!json_object_object_get_ex(row, "ratio_intervals", &ri)) {
		ri = json_object_new_object();
		json_object_object_add(row, "ratio_intervals", ri);
	}
	o = json_object_new_object();
	json_object_object_add(o, "rounds", json_object_new_int((int)n));
	json_object_object_add(o, "geomean", json_object_new_double(ci.ratio));
	json_object_object_add(o, "low", json_object_new_double(ci.lo));
	json_object_object_add(o, "high", json_object_new_double(ci.hi));
	snprintf(label, sizeof(label), "%s/%s", pl, ref);
	json_object_object_add(ri, label, o);
}

/* Ratios and differences of phase @pl against @ref (HH, or D1's phase of
 * the same shape for D2..D4), and the expect-ratio gate against HH. */
static void gd_row_versus(struct gd_cmp_ctx *c, struct json_object *row,
			  const char *pl, struct json_object *fig,
			  const char *ref, struct json_object *hh,
			  uint64_t size)
{
	const char *key = c->lat ? "lat_typical_us" : "bw_avg_MiBps";
	double x, h, xp, hp;
	bool have = hh && gd_json_num(fig, key, &x) &&
		    gd_json_num(hh, key, &h) && h > 0 && x > 0;
	char label[32];

	snprintf(label, sizeof(label), "%s/%s", pl, ref);
	json_object_object_add(json_object_object_get(row, "ratios"), label,
			       gd_num_or_null(have, have ? x / h : 0));
	if (c->lat) {
		bool p99 = hh && gd_json_num(fig, "lat_p99_us", &xp) &&
			   gd_json_num(hh, "lat_p99_us", &hp);

		snprintf(label, sizeof(label), "%s-%s", pl, ref);
		json_object_object_add(
			json_object_object_get(row, "diff_typical_us"), label,
			gd_num_or_null(have, have ? x - h : 0));
		json_object_object_add(
			json_object_object_get(row, "diff_p99_us"), label,
			gd_num_or_null(p99, p99 ? xp - hp : 0));
	}
	gd_row_interval(row, pl, fig, ref, hh);
	/* a phase that did not run is reported once, by gd_gate_failed_phases;
	 * a figure below the ratio is judged over all sizes (gd_gate_ratio) */
	if (c->gates->expect_ratio <= 0 || size < c->gates->gate_from_bytes ||
	    strcmp(ref, "HH") || !strchr(pl, 'D') || !gd_fig_ran(fig) || !hh ||
	    !gd_fig_ran(hh))
		return;
	if (!have)
		gd_row_gate_fail(row, "expect_ratio %s/HH no figure to compare",
				 pl);
}

static void gd_row_abs_gates(struct gd_cmp_ctx *c, struct json_object *row,
			     const char *pl, struct json_object *fig,
			     uint64_t size)
{
	const struct gd_gate_cfg *g = c->gates;
	const char *lat_key =
		g->max_lat_is_p99 ? "lat_p99_us" : "lat_typical_us";
	double x;

	if (size < g->gate_from_bytes || !gd_fig_ran(fig))
		return;
	if (g->min_bw_MiBps > 0 && !c->lat) {
		if (!gd_json_num(fig, "bw_avg_MiBps", &x))
			gd_row_gate_fail(row, "min_bw %s no figure", pl);
		else if (x < g->min_bw_MiBps)
			gd_row_gate_fail(row, "min_bw %s %.2f < %.2f MiB/s", pl,
					 x, g->min_bw_MiBps);
	}
	if (g->max_lat_us > 0 && c->lat) {
		if (!gd_json_num(fig, lat_key, &x))
			gd_row_gate_fail(row, "max_lat %s no figure", pl);
		else if (x > g->max_lat_us)
			gd_row_gate_fail(row, "max_lat %s %s %.2f > %.2f us",
					 pl,
					 g->max_lat_is_p99 ? "p99" : "typical",
					 x, g->max_lat_us);
	}
}

static struct json_object *gd_row_new(struct gd_cmp_ctx *c, const char *dir,
				      uint64_t size)
{
	struct json_object *row = json_object_new_object();

	json_object_object_add(row, "direction", json_object_new_string(dir));
	json_object_object_add(row, "size_bytes",
			       json_object_new_int64((int64_t)size));
	json_object_object_add(row, "measure",
			       json_object_new_string(c->lat ? "lat" : "bw"));
	json_object_object_add(row, "phases", json_object_new_object());
	json_object_object_add(row, "ratios", json_object_new_object());
	if (c->lat) {
		json_object_object_add(row, "diff_typical_us",
				       json_object_new_object());
		json_object_object_add(row, "diff_p99_us",
				       json_object_new_object());
	}
	json_object_object_add(row, "gate_failures", json_object_new_array());
	return row;
}

/* Several device memories (--mem=A,B): D2..D4 also against D1 in the same
 * shape, "D2D2/D1D1", "HD2/HD1", so that two GPUs or two routes are
 * compared with each other as well as with host memory. */
static void gd_row_versus_d1(struct gd_cmp_ctx *c, struct json_object *row,
			     struct json_object *figs, uint64_t size)
{
	json_object_object_foreach(figs, pl, fig)
	{
		char ref[16];
		bool other = false;
		struct json_object *rf;

		snprintf(ref, sizeof(ref), "%s", pl);
		for (char *p = ref; *p; p++)
			if (p > ref && p[-1] == 'D' && *p >= '2' && *p <= '9') {
				*p = '1';
				other = true;
			}
		if (other && json_object_object_get_ex(figs, ref, &rf))
			gd_row_versus(c, row, pl, fig, ref, rf, size);
	}
}

static struct json_object *gd_row_build(struct gd_cmp_ctx *c, const char *dir,
					uint64_t size)
{
	struct json_object *row = gd_row_new(c, dir, size);
	struct json_object *figs = json_object_object_get(row, "phases");
	struct json_object *hh = NULL;
	size_t np = gd_json_len(c->phases);

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < np; i++) {
			struct json_object *ph = gd_json_idx(c->phases, i);
			const char *pl = gd_phase_placement(ph);
			bool is_hh = !strcmp(pl, "HH");
			struct json_object *fig;

			if (strcmp(gd_phase_direction(ph), dir) ||
			    is_hh != !pass)
				continue;
			fig = gd_row_figure(c, ph, size);
			json_object_object_add(figs, pl, fig);
			if (is_hh)
				hh = fig;
			else
				gd_row_versus(c, row, pl, fig, "HH", hh, size);
			gd_row_abs_gates(c, row, pl, fig, size);
		}
	}
	gd_row_versus_d1(c, row, figs, size);
	return row;
}

/*
 * Collapse row gate failures into one evidence line per failing gate and
 * phase ("expect_ratio DD/HH forward: 65536 131072 B"), so the verdict
 * lists failing sizes without repeating itself.
 */
static void gd_gate_collect(struct gd_cmp_ctx *c, struct json_object *rows)
{
	struct json_object *seen = json_object_new_object();
	size_t nr = gd_json_len(rows);

	for (size_t i = 0; i < nr; i++) {
		struct json_object *row = gd_json_idx(rows, i);
		struct json_object *gf =
			json_object_object_get(row, "gate_failures");
		const char *dir = gd_json_str(row, "direction");
		double size = 0;

		gd_json_num(row, "size_bytes", &size);
		for (size_t j = 0; j < gd_json_len(gf); j++) {
			const char *f =
				json_object_get_string(gd_json_idx(gf, j));
			char key[160], item[96];
			const char *sp = strchr(f, ' ');
			const char *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
			struct json_object *acc;

			/* key: gate name and phase, i.e. the first two words */
			snprintf(key, sizeof(key), "%.*s %s",
				 (int)(sp2 ? sp2 - f : (ptrdiff_t)strlen(f)), f,
				 dir);
			snprintf(item, sizeof(item), "%.0f (%s)", size,
				 sp2 ? sp2 + 1 : "");
			if (!json_object_object_get_ex(seen, key, &acc)) {
				acc = json_object_new_array();
				json_object_object_add(seen, key, acc);
			}
			json_object_array_add(acc,
					      json_object_new_string(item));
		}
	}
	json_object_object_foreach(seen, key, acc)
	{
		struct gd_sbuf sb = { .len = 0 };

		gd_sb_add(&sb, "%s fails at size_bytes:", key);
		for (size_t j = 0; j < gd_json_len(acc); j++)
			gd_sb_add(&sb, " %s",
				  json_object_get_string(gd_json_idx(acc, j)));
		json_object_array_add(c->gate_evidence,
				      json_object_new_string(sb.buf));
	}
	json_object_put(seen);
}

/* A gated phase that did not produce results fails every gate it is in. */
static void gd_gate_failed_phases(struct gd_cmp_ctx *c)
{
	const struct gd_gate_cfg *g = c->gates;
	bool any = g->expect_ratio > 0 || (g->min_bw_MiBps > 0 && !c->lat) ||
		   (g->max_lat_us > 0 && c->lat);
	size_t np = gd_json_len(c->phases);

	for (size_t i = 0; any && i < np; i++) {
		struct json_object *ph = gd_json_idx(c->phases, i);
		char buf[160];

		if (gd_phase_ok(ph))
			continue;
		snprintf(
			buf, sizeof(buf),
			"phase %s %s %s: gates cannot pass without its figures",
			gd_phase_placement(ph), gd_phase_direction(ph),
			gd_json_str(ph, "status") ?: "failed");
		json_object_array_add(c->gate_evidence,
				      json_object_new_string(buf));
	}
}

/* Which side sends the payload: "read" pulls data towards the initiator. */
static const char *gd_phase_sender(struct json_object *doc,
				   struct json_object *phase)
{
	const char *verb = gd_json_str(gd_json_path(doc, "test", NULL), "verb");
	const char *dir = gd_phase_direction(phase);
	bool local_initiates = strcmp(dir, "reverse") != 0;

	if (!strcmp(dir, "bidir"))
		return "both";
	if (verb && !strcmp(verb, "read"))
		local_initiates = !local_initiates;
	return local_initiates ? "local" : "remote";
}

/* Sum of a counters-delta field over the sending side(s); false if absent. */
static bool gd_sender_sum(struct json_object *phase, const char *sender,
			  const char *field, double *out)
{
	static const char *const sides[] = { "local", "remote" };
	bool both = !strcmp(sender, "both");
	double sum = 0, v;

	for (int i = 0; i < 2; i++) {
		if (!both && strcmp(sender, sides[i]))
			continue;
		if (!gd_json_num(gd_json_path(phase, "counters", sides[i]),
				 field, &v))
			return false;
		sum += v;
	}
	*out = sum;
	return true;
}

/* Payload bytes and data packets the application accounts for. */
static void gd_phase_app(struct json_object *doc, struct json_object *phase,
			 double *bytes, double *pkts)
{
	struct json_object *res = gd_json_path(phase, "results", NULL);
	double mtu = 0, s, it;
	bool have_app = gd_json_num(phase, "app_bytes", bytes);

	gd_json_num(gd_json_path(doc, "header", NULL), "active_mtu_bytes",
		    &mtu);
	*pkts = -1;
	if (have_app) {
		if (mtu > 0)
			*pkts = (double)(((uint64_t)*bytes + (uint64_t)mtu -
					  1) /
					 (uint64_t)mtu);
		return;
	}
	*bytes = 0;
	*pkts = mtu > 0 ? 0 : -1;
	for (size_t i = 0; res && i < gd_json_len(res); i++) {
		struct json_object *r = gd_json_idx(res, i);
		uint64_t per_msg;

		if (!gd_json_num(r, "size_bytes", &s) ||
		    !gd_json_num(r, "iterations", &it))
			continue;
		*bytes += s * it;
		if (mtu <= 0)
			continue;
		per_msg = ((uint64_t)s + (uint64_t)mtu - 1) / (uint64_t)mtu;
		*pkts += (double)(per_msg ? per_msg : 1) * it;
	}
}

struct json_object *gd_compare_port_check(struct json_object *doc,
					  struct json_object *phase)
{
	struct json_object *o = json_object_new_object();
	const char *sender = gd_phase_sender(doc, phase);
	double app, exp_pkts, port_b, port_p;
	bool hb, hp;

	gd_phase_app(doc, phase, &app, &exp_pkts);
	hb = gd_sender_sum(phase, sender, "tx_bytes", &port_b);
	hp = gd_sender_sum(phase, sender, "tx_packets", &port_p);
	json_object_object_add(o, "app_bytes",
			       json_object_new_int64((int64_t)app));
	json_object_object_add(o, "sender", json_object_new_string(sender));
	json_object_object_add(o, "port_bytes",
			       hb ? json_object_new_int64((int64_t)port_b)
				  : NULL);
	json_object_object_add(
		o, "bytes_ratio",
		gd_num_or_null(hb && app > 0,
			       hb && app > 0 ? port_b / app : 0));
	json_object_object_add(
		o, "expected_packets",
		exp_pkts >= 0 ? json_object_new_int64((int64_t)exp_pkts)
			      : NULL);
	json_object_object_add(o, "port_packets",
			       hp ? json_object_new_int64((int64_t)port_p)
				  : NULL);
	json_object_object_add(
		o, "packets_ratio",
		gd_num_or_null(hp && exp_pkts > 0,
			       hp && exp_pkts > 0 ? port_p / exp_pkts : 0));
	return o;
}

/* The document's "statistics" and "gates" sections: what the verdicts
 * and gates were decided on, with the method named. */
static void gd_compare_sections(struct gd_cmp_ctx *c, struct json_object *rows,
				struct json_object *assess)
{
	struct json_object *st = json_object_new_object();
	double reps = 1;

	gd_json_num(gd_json_path(c->doc, "test", NULL), "repeat", &reps);
	json_object_object_add(st, "repeats", json_object_new_int((int)reps));
	json_object_object_add(st, "method",
			       json_object_new_string(gd_evidence_method));
	json_object_object_add(st, "assumptions",
			       json_object_new_string(gd_evidence_assumptions));
	json_object_object_add(st, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(st, "alpha",
			       json_object_new_double(GD_ASSESS_ALPHA));
	json_object_object_add(
		st, "dispersion",
		json_object_new_string(
			"coefficient of variation (sample stdev / mean) of the repeats' figures, in percent"));
	json_object_object_add(st, "assessments", json_object_get(assess));
	if (c->lat)
		json_object_object_add(st, "tails", gd_tails_build(c->doc));
	json_object_object_add(c->doc, "statistics", st);
	json_object_object_add(c->doc, "gates",
			       gd_gate_records(c->gates, c->lat, rows, assess));
}

#define GD_CMP_MAX_SIZES 128
#define GD_CMP_MAX_DIRS 8

static size_t gd_directions(struct json_object *phases, const char **dirs)
{
	size_t n = 0, np = gd_json_len(phases);

	for (size_t i = 0; i < np; i++) {
		const char *d = gd_phase_direction(gd_json_idx(phases, i));
		size_t k;

		for (k = 0; k < n && strcmp(dirs[k], d); k++)
			;
		if (k == n && n < GD_CMP_MAX_DIRS)
			dirs[n++] = d;
	}
	return n;
}

int gd_compare_run(struct json_object *doc, const struct gd_gate_cfg *gates,
		   struct json_object **comparison,
		   struct json_object **verdicts, bool *gate_failed)
{
	static const struct gd_gate_cfg no_gates;
	struct gd_cmp_ctx c = { .doc = doc,
				.gates = gates ? gates : &no_gates };
	uint64_t sizes[GD_CMP_MAX_SIZES];
	const char *dirs[GD_CMP_MAX_DIRS];
	struct json_object *rows, *assess;
	double looks = 1;
	size_t nd;

	*comparison = *verdicts = NULL;
	*gate_failed = false;
	c.phases = gd_json_path(doc, "phases", NULL);
	if (!c.phases || !json_object_is_type(c.phases, json_type_array))
		return gd_err(
			-EINVAL,
			"compare: the run document has no phases[] to compare");
	c.lat = gd_doc_is_lat(doc);
	c.gate_evidence = json_object_new_array();
	rows = json_object_new_array();
	nd = gd_directions(c.phases, dirs);
	for (size_t d = 0; d < nd; d++) {
		size_t ns = gd_direction_sizes(c.phases, dirs[d], sizes,
					       GD_CMP_MAX_SIZES);

		for (size_t s = 0; s < ns; s++)
			json_object_array_add(
				rows, gd_row_build(&c, dirs[d], sizes[s]));
	}
	for (size_t i = 0; i < gd_json_len(c.phases); i++) {
		struct json_object *ph = gd_json_idx(c.phases, i);

		if (gd_json_path(ph, "counters", NULL))
			json_object_object_add(ph, "port_check",
					       gd_compare_port_check(doc, ph));
	}
	/* an adaptive run's levels are split over its planned looks */
	if (!gd_json_num(gd_json_path(doc, "precision", NULL), "looks",
			 &looks) ||
	    !(looks >= 1))
		looks = 1;
	assess = gd_evidence_assess(rows, c.lat, c.gates->judge_from_bytes,
				    c.gates->expect_ratio > 0
					    ? c.gates->expect_ratio
					    : GD_COMPARE_SLOW_RATIO,
				    (unsigned int)looks);
	gd_gate_failed_phases(&c);
	gd_gate_ratio(c.gates, c.lat, rows, assess, c.gate_evidence);
	gd_gate_collect(&c, rows);
	gd_compare_sections(&c, rows, assess);
	/* perftest's -w and -y, judged from the document's options */
	gd_perftest_limits(doc, json_object_object_get(doc, "gates"),
			   c.gate_evidence);
	*gate_failed = gd_json_len(c.gate_evidence) > 0;
	*verdicts =
		gd_verdicts_build(doc, rows, c.gates, c.gate_evidence, assess);
	json_object_put(assess);
	json_object_put(c.gate_evidence);
	*comparison = rows;
	return 0;
}
