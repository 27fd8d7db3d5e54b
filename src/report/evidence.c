/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * How strong the evidence is that a device phase is slower than HH: one
 * assessment per device phase and direction over the gated sizes of the
 * comparison rows, from the paired rounds (--repeat) or, with one round,
 * from the shape across sizes. The verdicts and the expect-ratio gate both
 * read it; the man page's STATISTICS section says the same in words.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare_priv.h"
#include "util/infer.h"

#define GD_EV_MAX_SIZES 128
#define GD_EV_MAX_ROUNDS 64
#define GD_EV_REPEATS_CAP 100

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
	double mean, sd;	    /* over the rounds present */
	double half;		    /* per-size half-width, log units */
	bool slow;		    /* per-size interval below the floor */
};

struct gd_ev_in {
	const char *label, *dir;
	bool lat;
	double floor;
	struct gd_ev_size sz[GD_EV_MAX_SIZES];
	unsigned int nsz, rounds; /* rounds: the most any size has */
	unsigned int span;	  /* round numbers seen: 0 .. span - 1 */
};

struct gd_ev_out {
	/* one round: the shape across sizes */
	unsigned int below, longest;
	double p_sign, p_run;
	bool consistent;
	/* the interval of the geometric-mean ratio */
	bool by_rounds;
	struct gd_log_ci ci;
	double resolution_pct, detectable_ratio, ratio_cv_pct;
	/* two or more rounds: per size */
	double pooled_sd;
	unsigned int pooled_df, nslow;
	double each_conf;
	int worst; /* index of the slowest flagged size, -1 */
	const char *decision;
	unsigned int repeats_needed;
};

/* A figure's values by round: its "samples" (null where a repeat failed),
 * else its single figure as round 1. Returns the number of rounds. */
static unsigned int gd_fig_rounds(struct json_object *fig, const char *key,
				  double *out)
{
	struct json_object *s = gd_json_path(fig, "samples", NULL);
	unsigned int n = 0;

	if (s && json_object_is_type(s, json_type_array)) {
		for (size_t i = 0;
		     i < json_object_array_length(s) && n < GD_EV_MAX_ROUNDS;
		     i++) {
			struct json_object *v = json_object_array_get_idx(s, i);

			out[n++] = v ? json_object_get_double(v) : NAN;
		}
		return n;
	}
	return gd_json_num(fig, key, &out[0]) ? 1 : 0;
}

/* Paired speed logs (bw: log X/HH, lat: log HH/X) of @pl at one row. */
static bool gd_ev_pair(struct gd_ev_in *in, struct json_object *row,
		       const char *pl, struct gd_ev_size *out)
{
	const char *key = in->lat ? "lat_typical_us" : "bw_avg_MiBps";
	struct json_object *figs = gd_json_path(row, "phases", NULL);
	double x[GD_EV_MAX_ROUNDS], h[GD_EV_MAX_ROUNDS], sum = 0, sq = 0;
	double size = 0;
	unsigned int nx = gd_fig_rounds(gd_json_path(figs, pl, NULL), key, x);
	unsigned int nh = gd_fig_rounds(gd_json_path(figs, "HH", NULL), key, h);
	unsigned int nr = nx < nh ? nx : nh;

	memset(out, 0, sizeof(*out));
	for (unsigned int r = 0; r < nr; r++) {
		out->d[r] = NAN;
		if (!(x[r] > 0) || !(h[r] > 0))
			continue;
		out->d[r] = in->lat ? log(h[r] / x[r]) : log(x[r] / h[r]);
		sum += out->d[r];
		out->n++;
		out->span = r + 1;
	}
	for (unsigned int r = nr; r < GD_EV_MAX_ROUNDS; r++)
		out->d[r] = NAN;
	gd_json_num(row, "size_bytes", &size);
	out->size = (uint64_t)size;
	if (!out->n)
		return false;
	out->mean = sum / out->n;
	for (unsigned int r = 0; r < nr; r++)
		if (!isnan(out->d[r]))
			sq += (out->d[r] - out->mean) * (out->d[r] - out->mean);
	out->sd = out->n > 1 ? sqrt(sq / (out->n - 1)) : 0;
	return true;
}

static void gd_ev_collect(struct gd_ev_in *in, struct json_object *rows,
			  uint64_t gate_from)
{
	char pl[16];
	size_t plen = strcspn(in->label, "/");

	snprintf(pl, sizeof(pl), "%.*s", (int)plen, in->label);
	in->nsz = in->rounds = in->span = 0;
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		const char *d = gd_json_str(row, "direction");
		double size = 0;

		gd_json_num(row, "size_bytes", &size);
		if (!d || strcmp(d, in->dir) || (uint64_t)size < gate_from ||
		    in->nsz == GD_EV_MAX_SIZES)
			continue;
		if (!gd_ev_pair(in, row, pl, &in->sz[in->nsz]))
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
static void gd_ev_shape(const struct gd_ev_in *in, struct gd_ev_out *o)
{
	double lf = log(in->floor);
	unsigned int run = 0;

	for (unsigned int z = 0; z < in->nsz; z++) {
		bool b = in->sz[z].mean < lf;

		o->below += b;
		run = b ? run + 1 : 0;
		o->longest = run > o->longest ? run : o->longest;
	}
	o->p_sign = gd_binom_tail(in->nsz, o->below, 0.5);
	o->p_run = gd_longest_run_tail(in->nsz, o->longest, 0.5);
	o->consistent = in->nsz >= 2 && o->below >= 2 &&
			(o->p_sign <= GD_INFER_ALPHA / 2 ||
			 o->p_run <= GD_INFER_ALPHA / 2);
}

/* The geometric-mean ratio's interval: over rounds (each round's mean over
 * the sizes it has) when there are two or more, else over sizes. */
static void gd_ev_interval(const struct gd_ev_in *in, struct gd_ev_out *o)
{
	double m[GD_EV_MAX_SIZES > GD_EV_MAX_ROUNDS ? GD_EV_MAX_SIZES
						    : GD_EV_MAX_ROUNDS];
	unsigned int n = 0;

	o->by_rounds = in->rounds >= 2;
	for (unsigned int r = 0; o->by_rounds && r < in->span; r++) {
		double sum = 0;
		unsigned int k = 0;

		for (unsigned int z = 0; z < in->nsz; z++)
			if (!isnan(in->sz[z].d[r])) {
				sum += in->sz[z].d[r];
				k++;
			}
		if (k)
			m[n++] = sum / k;
	}
	for (unsigned int z = 0; !o->by_rounds && z < in->nsz; z++)
		m[n++] = in->sz[z].mean;
	gd_log_ci(m, n, GD_INFER_CONFIDENCE, &o->ci);
	if (o->ci.n < 2)
		return;
	o->resolution_pct = 100.0 * (o->ci.hi / o->ci.ratio - 1);
	o->detectable_ratio = in->floor * o->ci.ratio / o->ci.hi;
}

/*
 * Two or more rounds, per size: mean over its rounds against the floor,
 * half-width t * max(pooled sd, own sd) / sqrt(n) at 1 - 0.05/S (Bonferroni
 * over the S sizes), so that a slowdown at a few sizes is not averaged away
 * and a noisy size does not pass for one.
 */
static void gd_ev_per_size(struct gd_ev_in *in, struct gd_ev_out *o)
{
	double ss = 0, lf = log(in->floor), t, worst = 0;
	unsigned int df = 0;

	o->worst = -1;
	for (unsigned int z = 0; z < in->nsz; z++)
		if (in->sz[z].n >= 2) {
			ss += in->sz[z].sd * in->sz[z].sd * (in->sz[z].n - 1);
			df += in->sz[z].n - 1;
		}
	if (!df)
		return;
	o->pooled_df = df;
	o->pooled_sd = sqrt(ss / df);
	o->each_conf = 1 - (1 - GD_INFER_CONFIDENCE) / in->nsz;
	t = gd_t_quantile(o->each_conf, df);
	for (unsigned int z = 0; z < in->nsz; z++) {
		struct gd_ev_size *s = &in->sz[z];
		double sd = s->sd > o->pooled_sd ? s->sd : o->pooled_sd;

		if (s->n < 2)
			continue;
		s->half = t * sd / sqrt((double)s->n);
		s->slow = s->mean + s->half < lf;
		if (!s->slow)
			continue;
		o->nslow++;
		if (o->worst < 0 || s->mean < worst) {
			o->worst = (int)z;
			worst = s->mean;
		}
	}
}

/* Rounds that would bring the interval's half-width within the gap to the
 * floor. With one round the spread is across sizes, and a round's mean over
 * S sizes varies sqrt(S) times less than one size does. */
static unsigned int gd_ev_repeats(const struct gd_ev_in *in,
				  const struct gd_ev_out *o)
{
	struct gd_log_ci per_round = o->ci;
	unsigned int n;

	if (!o->by_rounds && in->nsz > 1)
		per_round.sd_log /= sqrt((double)in->nsz);
	n = gd_repeats_needed(&per_round, in->floor, GD_EV_REPEATS_CAP);
	return n && n < 3 ? 3 : n;
}

static void gd_ev_decide(struct gd_ev_in *in, struct gd_ev_out *o)
{
	bool slower;

	memset(o, 0, sizeof(*o));
	gd_ev_shape(in, o);
	gd_ev_interval(in, o);
	if (o->by_rounds) {
		gd_ev_per_size(in, o);
		o->ratio_cv_pct =
			100.0 * sqrt(exp(o->pooled_sd * o->pooled_sd) - 1);
		slower = o->ci.hi < in->floor || o->nslow > 0;
	} else {
		o->ratio_cv_pct =
			100.0 * sqrt(exp(o->ci.sd_log * o->ci.sd_log) - 1);
		slower = o->consistent;
	}
	if (slower)
		o->decision = "slower";
	else if (o->ci.n >= 2 && o->ci.lo >= in->floor)
		o->decision = "no_difference";
	else {
		o->decision = "inconclusive";
		o->repeats_needed = gd_ev_repeats(in, o);
	}
}

static struct json_object *gd_dbl_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void gd_ev_text_per_size(const struct gd_ev_in *in,
				const struct gd_ev_out *o, struct gd_sbuf *sb)
{
	const struct gd_ev_size *w;

	if (!o->pooled_df)
		return;
	gd_sb_add(
		sb,
		"; per size (spread %.0f%% pooled, %.4g%% intervals, Bonferroni over %u): ",
		o->ratio_cv_pct, o->each_conf * 100, in->nsz);
	if (!o->nslow) {
		gd_sb_add(sb, "none below it");
		return;
	}
	w = &in->sz[o->worst];
	gd_sb_add(sb, "%u below it, worst %.2f at %llu bytes", o->nslow,
		  exp(w->mean), (unsigned long long)w->size);
}

/* One line for the verdicts: the decision, the figures, the method. */
static void gd_ev_text(const struct gd_ev_in *in, const struct gd_ev_out *o,
		       struct gd_sbuf *sb)
{
	const char *what = in->lat ? "latency speed HH/X" : "bandwidth ratio";

	gd_sb_add(sb, "%s %s: %s %.2f", in->label, in->dir, what, o->ci.ratio);
	if (o->ci.n >= 2)
		gd_sb_add(sb, ", %.0f%% interval %.2f..%.2f",
			  GD_INFER_CONFIDENCE * 100, o->ci.lo, o->ci.hi);
	gd_sb_add(sb, " against %.2f (%s, %u round(s), %u size(s))", in->floor,
		  o->by_rounds ? "geometric mean, t-interval over rounds"
			       : "geometric mean, sizes as replicates",
		  in->rounds, in->nsz);
	if (o->by_rounds)
		gd_ev_text_per_size(in, o, sb);
	else
		gd_sb_add(
			sb,
			"; %u of %u size(s) below it, sign test p=%.2g, longest run %u, run test p=%.2g (each at %.3g)",
			o->below, in->nsz, o->p_sign, o->longest, o->p_run,
			GD_INFER_ALPHA / 2);
	if (!strcmp(o->decision, "no_difference"))
		gd_sb_add(
			sb,
			"; resolution +/-%.0f%%: a ratio below %.2f would have been flagged",
			o->resolution_pct, o->detectable_ratio);
	else if (!strcmp(o->decision, "inconclusive") && o->repeats_needed)
		gd_sb_add(
			sb,
			"; spread %.0f%% (CV of one ratio); about %u%s rounds (--repeat=%u) would settle it",
			o->ratio_cv_pct, o->repeats_needed,
			o->repeats_needed >= GD_EV_REPEATS_CAP ? " or more"
							       : "",
			o->repeats_needed);
	else if (!strcmp(o->decision, "inconclusive"))
		gd_sb_add(sb, "; too few figures for an interval (--repeat=3)");
}

static struct json_object *gd_ev_per_size_json(const struct gd_ev_in *in,
					       const struct gd_ev_out *o)
{
	struct json_object *p = json_object_new_object(), *slow;

	json_object_object_add(p, "pooled_cv_pct",
			       json_object_new_double(o->ratio_cv_pct));
	json_object_object_add(p, "df", json_object_new_int((int)o->pooled_df));
	json_object_object_add(p, "confidence_each",
			       json_object_new_double(o->each_conf));
	slow = json_object_new_array();
	for (unsigned int z = 0; z < in->nsz; z++) {
		const struct gd_ev_size *s = &in->sz[z];
		struct json_object *e;

		if (!s->slow)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "size_bytes",
				       json_object_new_int64((int64_t)s->size));
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

	json_object_object_add(t, "below", json_object_new_int((int)o->below));
	json_object_object_add(t, "p", json_object_new_double(o->p_sign));
	json_object_object_add(t, "longest_run",
			       json_object_new_int((int)o->longest));
	json_object_object_add(t, "run_p", json_object_new_double(o->p_run));
	json_object_object_add(t, "alpha",
			       json_object_new_double(GD_INFER_ALPHA));
	json_object_object_add(t, "decides",
			       json_object_new_boolean(!o->by_rounds));
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
			       json_object_new_string(o->decision));
	json_object_object_add(a, "sizes", json_object_new_int((int)in->nsz));
	json_object_object_add(a, "rounds",
			       json_object_new_int((int)in->rounds));
	json_object_object_add(a, "ratio", gd_dbl_or_null(o->ci.ratio));
	ci = json_object_new_object();
	json_object_object_add(
		ci, "replicates",
		json_object_new_string(o->by_rounds ? "rounds" : "sizes"));
	json_object_object_add(ci, "n", json_object_new_int((int)o->ci.n));
	json_object_object_add(ci, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(ci, "low", gd_dbl_or_null(o->ci.lo));
	json_object_object_add(ci, "high", gd_dbl_or_null(o->ci.hi));
	json_object_object_add(a, "interval", ci);
	json_object_object_add(a, "across_sizes", gd_ev_shape_json(o));
	if (o->pooled_df)
		json_object_object_add(a, "per_size",
				       gd_ev_per_size_json(in, o));
	json_object_object_add(a, "ratio_cv_pct",
			       json_object_new_double(o->ratio_cv_pct));
	json_object_object_add(a, "resolution_pct",
			       json_object_new_double(o->resolution_pct));
	json_object_object_add(
		a, "detectable_ratio",
		o->ci.n >= 2 ? json_object_new_double(o->detectable_ratio)
			     : NULL);
	json_object_object_add(a, "repeats_needed",
			       json_object_new_int((int)o->repeats_needed));
	gd_ev_text(in, o, &sb);
	json_object_object_add(a, "evidence", json_object_new_string(sb.buf));
	return a;
}

struct json_object *gd_evidence_assess(struct json_object *rows, bool lat,
				       uint64_t gate_from, double floor)
{
	struct json_object *out = json_object_new_array(), *seen;
	struct gd_ev_in *in = calloc(1, sizeof(*in));

	if (!in)
		return out;
	seen = json_object_new_object();
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		const char *dir = gd_json_str(row, "direction");

		json_object_object_foreach(gd_json_path(row, "ratios", NULL),
					   label, val)
		{
			char key[64];
			struct gd_ev_out o;

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
			if (!in->nsz)
				continue;
			gd_ev_decide(in, &o);
			json_object_array_add(out, gd_ev_json(in, &o));
		}
	}
	json_object_put(seen);
	free(in);
	return out;
}
