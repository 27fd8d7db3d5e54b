/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * How strong the evidence is that a device phase is slower than HH: one
 * assessment per device phase and direction over the gated sizes of the
 * comparison rows, from the paired rounds (--repeat) or, with one round,
 * from the shape across sizes. The verdicts and the expect-ratio gate both
 * read it; the decision itself is util/assess.c's, shared with gd_report,
 * and the man page's STATISTICS section says the same in words.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare_priv.h"
#include "util/assess.h"
#include "util/infer.h"

#define GD_EV_MAX_SIZES 128
#define GD_EV_MAX_ROUNDS 64

const char gd_evidence_method[] =
	"two or more rounds: paired log-ratio t-interval over rounds (each round: the mean over the gated sizes of log(device/HH) measured in that round) and, per size, a t-interval over its rounds with the spread pooled across sizes (never below the size's own) at a Bonferroni-corrected level; one round: exact one-sided sign test and longest-run test over the gated sizes";
const char gd_evidence_assumptions[] =
	"rounds are independent and alike (the phase order alternates between rounds so drift favours no phase); log-ratios are close to normal; with one round, sizes are independent and the sizes stand in for repeats only to say whether a difference could be ruled out";

/* Per-round speed logs of one device phase against HH at one size. */
struct gd_ev_size {
	uint64_t size;
	unsigned int n;		    /* rounds with both figures */
	unsigned int span;	    /* last such round + 1 */
	double d[GD_EV_MAX_ROUNDS]; /* by round; NAN where missing */
};

struct gd_ev_in {
	const char *label, *dir;
	bool lat;
	double floor;
	struct gd_ev_size sz[GD_EV_MAX_SIZES];
	unsigned int nsz, rounds; /* rounds: the most any size has */
	unsigned int span;	  /* round numbers seen: 0 .. span - 1 */
};

static unsigned int gd_fig_rounds(struct json_object *fig, const char *key,
				  double *out)
{
	struct json_object *s = gd_json_path(fig, "samples", NULL);
	unsigned int n = 0;

	if (s && json_object_is_type(s, json_type_array)) {
		for (size_t i = 0; i < gd_json_len(s) && n < GD_EV_MAX_ROUNDS;
		     i++) {
			struct json_object *v = gd_json_idx(s, i);

			out[n++] = v ? json_object_get_double(v) : NAN;
		}
		return n;
	}
	return gd_json_num(fig, key, &out[0]) ? 1 : 0;
}

/* Paired speed logs (bw: log X/REF, lat: log REF/X) of @pl against @ref
 * (HH, or D1's phase) at one row. */
static bool gd_ev_pair(struct gd_ev_in *in, struct json_object *row,
		       const char *pl, const char *ref, struct gd_ev_size *out)
{
	const char *key = in->lat ? "lat_typical_us" : "bw_avg_MiBps";
	struct json_object *figs = gd_json_path(row, "phases", NULL);
	double x[GD_EV_MAX_ROUNDS], h[GD_EV_MAX_ROUNDS], size = 0;
	unsigned int nx = gd_fig_rounds(gd_json_path(figs, pl, NULL), key, x);
	unsigned int nh = gd_fig_rounds(gd_json_path(figs, ref, NULL), key, h);
	unsigned int nr = nx < nh ? nx : nh;

	memset(out, 0, sizeof(*out));
	for (unsigned int r = 0; r < nr; r++) {
		out->d[r] = NAN;
		if (!(x[r] > 0) || !(h[r] > 0))
			continue;
		out->d[r] = in->lat ? log(h[r] / x[r]) : log(x[r] / h[r]);
		out->n++;
		out->span = r + 1;
	}
	for (unsigned int r = nr; r < GD_EV_MAX_ROUNDS; r++)
		out->d[r] = NAN;
	gd_json_num(row, "size_bytes", &size);
	out->size = (uint64_t)size;
	return out->n > 0;
}

static void gd_ev_collect(struct gd_ev_in *in, struct json_object *rows,
			  uint64_t gate_from)
{
	char pl[16], ref[16];
	size_t plen = strcspn(in->label, "/");

	snprintf(pl, sizeof(pl), "%.*s", (int)plen, in->label);
	snprintf(ref, sizeof(ref), "%s",
		 in->label[plen] ? in->label + plen + 1 : "HH");
	in->nsz = in->rounds = in->span = 0;
	for (size_t i = 0; i < gd_json_len(rows); i++) {
		struct json_object *row = gd_json_idx(rows, i);
		const char *d = gd_json_str(row, "direction");
		double size = 0;

		gd_json_num(row, "size_bytes", &size);
		if (!d || strcmp(d, in->dir) || (uint64_t)size < gate_from ||
		    in->nsz == GD_EV_MAX_SIZES)
			continue;
		if (!gd_ev_pair(in, row, pl, ref, &in->sz[in->nsz]))
			continue;
		if (in->sz[in->nsz].n > in->rounds)
			in->rounds = in->sz[in->nsz].n;
		if (in->sz[in->nsz].span > in->span)
			in->span = in->sz[in->nsz].span;
		in->nsz++;
	}
}

/* One round: sign and longest-run tests of "below the floor" over sizes.
 * Under "the true ratio is at the floor or above" each size is below it
 * with probability 1/2 at most, independently of its neighbours; each test
 * gets half of GD_INFER_ALPHA. */

struct gd_ev_out {
	struct gd_assessment a;
	struct gd_assess_size per[GD_EV_MAX_SIZES];
};

/* The sizes' rounds as util/assess.c's matrix, rounds by sizes. */
static int gd_ev_decide(const struct gd_ev_in *in, struct gd_ev_out *o)
{
	double *d =
		malloc(sizeof(double) * (in->span ? in->span : 1) * in->nsz);
	double sb[GD_EV_MAX_SIZES];
	int ret;

	if (!d)
		return -ENOMEM;
	for (unsigned int z = 0; z < in->nsz; z++) {
		sb[z] = (double)in->sz[z].size;
		for (unsigned int r = 0; r < in->span; r++)
			d[r * in->nsz + z] = in->sz[z].d[r];
	}
	ret = gd_assess(d, sb, in->span, in->nsz, in->floor, &o->a, o->per);
	free(d);
	return ret;
}

static struct json_object *gd_dbl_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void gd_ev_text_per_size(const struct gd_ev_in *in,
				const struct gd_ev_out *o, struct gd_sbuf *sb)
{
	if (!o->a.pooled_df)
		return;
	gd_sb_add(
		sb,
		"; per size (spread %.0f%% pooled, %.4g%% intervals, Bonferroni over %u): ",
		o->a.ratio_cv_pct, o->a.each_conf * 100, in->nsz);
	if (!o->a.nslow) {
		gd_sb_add(sb, "none below it");
		return;
	}
	gd_sb_add(sb, "%u below it, worst %.2f at %.0f bytes", o->a.nslow,
		  o->a.worst_ratio, o->a.worst_size);
}

/* One line for the verdicts: the decision, the figures, the method. */
static void gd_ev_text(const struct gd_ev_in *in, const struct gd_ev_out *o,
		       struct gd_sbuf *sb)
{
	const char *what = in->lat ? "latency speed HH/X" : "bandwidth ratio";

	gd_sb_add(sb, "%s %s: %s %.2f", in->label, in->dir, what,
		  o->a.ci.ratio);
	if (o->a.ci.n >= 2)
		gd_sb_add(sb, ", %.0f%% interval %.2f..%.2f",
			  GD_INFER_CONFIDENCE * 100, o->a.ci.lo, o->a.ci.hi);
	gd_sb_add(sb, " against %.2f (%s, %u round(s), %u size(s))", in->floor,
		  o->a.by_rounds ? "geometric mean, t-interval over rounds"
				 : "geometric mean, sizes as replicates",
		  in->rounds, in->nsz);
	if (o->a.by_rounds)
		gd_ev_text_per_size(in, o, sb);
	else
		gd_sb_add(
			sb,
			"; %u of %u size(s) below it, sign test p=%.2g, longest run %u, run test p=%.2g (each at %.3g)",
			o->a.below, in->nsz, o->a.p_sign, o->a.longest,
			o->a.p_run, GD_INFER_ALPHA / 2);
	if (!strcmp(o->a.decision_name, "no_difference"))
		gd_sb_add(
			sb,
			"; resolution +/-%.0f%%: a ratio below %.2f would have been flagged",
			o->a.resolution_pct, o->a.detectable_ratio);
	else if (!strcmp(o->a.decision_name, "inconclusive") &&
		 o->a.repeats_needed)
		gd_sb_add(
			sb,
			"; spread %.0f%% (CV of one ratio); about %u%s rounds (--repeat=%u) would settle it",
			o->a.ratio_cv_pct, o->a.repeats_needed,
			o->a.repeats_needed >= GD_ASSESS_REPEATS_CAP
				? " or more"
				: "",
			o->a.repeats_needed);
	else if (!strcmp(o->a.decision_name, "inconclusive"))
		gd_sb_add(sb, "; too few figures for an interval (--repeat=3)");
}

static struct json_object *gd_ev_per_size_json(const struct gd_ev_in *in,
					       const struct gd_ev_out *o)
{
	struct json_object *p = json_object_new_object(), *slow;

	json_object_object_add(p, "pooled_cv_pct",
			       json_object_new_double(o->a.ratio_cv_pct));
	json_object_object_add(p, "df",
			       json_object_new_int((int)o->a.pooled_df));
	json_object_object_add(p, "confidence_each",
			       json_object_new_double(o->a.each_conf));
	slow = json_object_new_array();
	for (unsigned int z = 0; z < in->nsz; z++) {
		const struct gd_assess_size *s = &o->per[z];
		struct json_object *e;

		if (!s->slow)
			continue;
		e = json_object_new_object();
		json_object_object_add(
			e, "size_bytes",
			json_object_new_int64((int64_t)in->sz[z].size));
		json_object_object_add(e, "ratio",
				       json_object_new_double(exp(s->mean)));
		json_object_object_add(
			e, "high",
			json_object_new_double(exp(s->mean + s->half)));
		json_object_object_add(e, "rounds",
				       json_object_new_int((int)s->n));
		json_object_array_add(slow, e);
	}
	json_object_object_add(p, "slow_sizes", slow);
	return p;
}

static struct json_object *gd_ev_shape_json(const struct gd_ev_out *o)
{
	struct json_object *t = json_object_new_object();

	json_object_object_add(t, "below",
			       json_object_new_int((int)o->a.below));
	json_object_object_add(t, "p", json_object_new_double(o->a.p_sign));
	json_object_object_add(t, "longest_run",
			       json_object_new_int((int)o->a.longest));
	json_object_object_add(t, "run_p", json_object_new_double(o->a.p_run));
	json_object_object_add(t, "alpha",
			       json_object_new_double(GD_INFER_ALPHA));
	json_object_object_add(t, "decides",
			       json_object_new_boolean(!o->a.by_rounds));
	return t;
}

static struct json_object *gd_ev_json(const struct gd_ev_in *in,
				      const struct gd_ev_out *o)
{
	struct json_object *a = json_object_new_object(), *ci;
	struct gd_sbuf sb = { .len = 0 };

	json_object_object_add(a, "comparison",
			       json_object_new_string(in->label));
	json_object_object_add(a, "direction", json_object_new_string(in->dir));
	json_object_object_add(
		a, "figure",
		json_object_new_string(in->lat ? "latency speed HH/X"
					       : "bandwidth ratio X/HH"));
	json_object_object_add(a, "floor", json_object_new_double(in->floor));
	json_object_object_add(a, "decision",
			       json_object_new_string(o->a.decision_name));
	json_object_object_add(a, "sizes", json_object_new_int((int)in->nsz));
	json_object_object_add(a, "rounds",
			       json_object_new_int((int)in->rounds));
	json_object_object_add(a, "ratio", gd_dbl_or_null(o->a.ci.ratio));
	ci = json_object_new_object();
	json_object_object_add(
		ci, "replicates",
		json_object_new_string(o->a.by_rounds ? "rounds" : "sizes"));
	json_object_object_add(ci, "n", json_object_new_int((int)o->a.ci.n));
	json_object_object_add(ci, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(ci, "low", gd_dbl_or_null(o->a.ci.lo));
	json_object_object_add(ci, "high", gd_dbl_or_null(o->a.ci.hi));
	json_object_object_add(a, "interval", ci);
	json_object_object_add(a, "across_sizes", gd_ev_shape_json(o));
	if (o->a.pooled_df)
		json_object_object_add(a, "per_size",
				       gd_ev_per_size_json(in, o));
	json_object_object_add(a, "ratio_cv_pct",
			       json_object_new_double(o->a.ratio_cv_pct));
	json_object_object_add(a, "resolution_pct",
			       json_object_new_double(o->a.resolution_pct));
	json_object_object_add(
		a, "detectable_ratio",
		o->a.ci.n >= 2 ? json_object_new_double(o->a.detectable_ratio)
			       : NULL);
	json_object_object_add(a, "repeats_needed",
			       json_object_new_int((int)o->a.repeats_needed));
	gd_ev_text(in, o, &sb);
	json_object_object_add(a, "evidence", json_object_new_string(sb.buf));
	return a;
}

struct json_object *gd_evidence_assess(struct json_object *rows, bool lat,
				       uint64_t gate_from, double floor)
{
	struct json_object *out = json_object_new_array(), *seen;
	struct gd_ev_in *in = calloc(1, sizeof(*in));
	struct gd_ev_out *o = calloc(1, sizeof(*o));

	if (!in || !o) {
		free(in);
		free(o);
		return out;
	}
	seen = json_object_new_object();
	for (size_t i = 0; i < gd_json_len(rows); i++) {
		struct json_object *row = gd_json_idx(rows, i);
		const char *dir = gd_json_str(row, "direction");

		json_object_object_foreach(gd_json_path(row, "ratios", NULL),
					   label, val)
		{
			char key[64];

			(void)val;
			snprintf(key, sizeof(key), "%s %s", label, dir);
			if (!dir || !strchr(label, 'D') ||
			    json_object_object_get_ex(seen, key, NULL))
				continue;
			json_object_object_add(seen, key, NULL);
			*in = (struct gd_ev_in){ .label = label,
						 .dir = dir,
						 .lat = lat,
						 .floor = floor };
			gd_ev_collect(in, rows, gate_from);
			if (!in->nsz || gd_ev_decide(in, o))
				continue;
			json_object_array_add(out, gd_ev_json(in, o));
		}
	}
	json_object_put(seen);
	free(in);
	free(o);
	return out;
}
