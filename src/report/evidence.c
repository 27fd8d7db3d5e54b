/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * How strong the evidence is that a device phase is slower than HH: one
 * assessment per device phase and direction over the judged sizes of the
 * comparison rows (all, or from --gate-from), by band and by size, from the
 * paired rounds (--repeat) or, with one round, across a band's sizes; all
 * of a run's assessments corrected together. The verdicts and the
 * expect-ratio gate both read it; the decision itself is util/assess.c's,
 * shared with gd_report, and gdperf(7)'s STATISTICS says it in words.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare_priv.h"
#include "report/evidence_segment.h"
#include "util/assess.h"
#include "util/infer.h"

#define GD_EV_MAX_SIZES 128
#define GD_EV_MAX_ROUNDS 64

const char gd_evidence_method[] =
	"per device phase and direction, the sizes judged in three bands (at most 4 KiB, 4-64 KiB, at least 64 KiB): with two or more rounds, each band's paired log-ratio t-interval over rounds (each round, a block of time, gives the mean over the band's sizes of log(device/HH); its spread shrunk towards what the band's sizes' spreads and their correlation within a round say, 2 prior degrees of freedom), and each size's t-test over its rounds with its own spread shrunk towards its band's (2 prior degrees of freedom); with one round, each band's t-interval over its sizes; slower when a band, a size or a contiguous run of sizes (every segment scanned wherever it starts, Bonferroni over them, its spread from its sizes' pooled spreads and their correlation within a round) lies below the floor at the Holm-adjusted level (a quarter to the bands, three eighths to the sizes, three eighths to the segments, then across the run's assessments, 2.5%), each interval widened for correlated rounds, naming the segment furthest below; not below when every judged size's own 95% lower bound (an adaptive run's level split over its planned looks: alpha_not_below) clears the floor, its spread pooled only with sizes of like noise (neighbours' median log variance within a factor 4, and its own variance agreeing with the pool's by an F test); else inconclusive, naming the undecided sizes";
const char gd_evidence_assumptions[] =
	"rounds are blocks of time, alike; from 5 rounds their correlation is read (a drift a round's sizes share, and the lag-1 correlation of neighbouring rounds for a size's own noise and for that drift, each pooled over the sizes and bias-corrected) and every interval for \"slower\" is widened by it, never refused; a drift that stays through every round of a run cannot be told from a slowdown; log-ratios are close to normal; with one round, a band's sizes stand in for repeats";

#define GD_EV_MAX_ASSESS 32

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
	uint64_t gate_from;	  /* sizes below it are not judged */
	unsigned int skipped;	  /* sizes with figures below gate_from */
	unsigned int looks;	  /* an adaptive run's planned looks, or 1 */
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
	in->nsz = in->rounds = in->span = in->skipped = 0;
	in->gate_from = gate_from;
	for (size_t i = 0; i < gd_json_len(rows); i++) {
		struct json_object *row = gd_json_idx(rows, i);
		const char *d = gd_json_str(row, "direction");
		double size = 0;

		gd_json_num(row, "size_bytes", &size);
		if (!d || strcmp(d, in->dir) || in->nsz == GD_EV_MAX_SIZES)
			continue;
		if ((uint64_t)size < gate_from) {
			in->skipped++;
			continue;
		}
		if (!gd_ev_pair(in, row, pl, ref, &in->sz[in->nsz]))
			continue;
		if (in->sz[in->nsz].n > in->rounds)
			in->rounds = in->sz[in->nsz].n;
		if (in->sz[in->nsz].span > in->span)
			in->span = in->sz[in->nsz].span;
		in->nsz++;
	}
}

/* One assessment of the run: what it compared and what was decided. */
struct gd_ev_out {
	const char *label, *dir;
	unsigned int rounds, skipped;
	uint64_t gate_from;
	struct gd_assessment a;
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
	ret = gd_assess_seq(d, sb, in->span, in->nsz, in->floor, in->looks,
			    &o->a, NULL);
	free(d);
	o->label = in->label;
	o->dir = in->dir;
	o->rounds = in->rounds;
	o->skipped = in->skipped;
	o->gate_from = in->gate_from;
	return ret;
}

static struct json_object *gd_dbl_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void gd_ev_range(struct gd_sbuf *sb, double lo, double hi)
{
	char a[32], b[32];

	gd_sb_add(sb, "%s..%s", gd_assess_bytes_str(lo, a, sizeof(a)),
		  gd_assess_bytes_str(hi, b, sizeof(b)));
}

/* "bands 2 B..4 KiB 0.98 (0.95..1.01), ..." */
static void gd_ev_text_bands(const struct gd_assessment *a, struct gd_sbuf *sb)
{
	const char *sep = "; bands ";

	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++) {
		const struct gd_assess_band *bd = &a->band[b];

		if (!bd->sizes)
			continue;
		gd_sb_add(sb, "%s", sep);
		sep = ", ";
		gd_ev_range(sb, bd->lo_bytes, bd->hi_bytes);
		gd_sb_add(sb, " %.2f", bd->ci.ratio);
		if (bd->decided)
			gd_sb_add(sb, " (%.2f..%.2f)", bd->ci.lo, bd->ci.hi);
		else
			gd_sb_add(sb, " (no interval)");
	}
}

/* What was found below the floor: the band and the sizes flagged. */
static void gd_ev_text_slower(const struct gd_ev_out *o, struct gd_sbuf *sb)
{
	const struct gd_assessment *a = &o->a;
	char w[32];

	gd_ev_text_segment(a, sb);
	gd_sb_add(sb, "below %.2f at the Holm-adjusted %.1f%% level (p=%.2g",
		  a->floor, GD_ASSESS_ALPHA * 100, a->p_slower_run);
	if (a->family > 1)
		gd_sb_add(sb, " over the run's %u assessments", a->family);
	gd_sb_add(sb, ")");
	if (a->slow_band >= 0) {
		const struct gd_assess_band *bd = &a->band[a->slow_band];

		gd_sb_add(sb, ": band ");
		gd_ev_range(sb, bd->lo_bytes, bd->hi_bytes);
		gd_sb_add(sb, " %.2f, 95%% interval %.2f..%.2f", bd->ci.ratio,
			  bd->ci.lo, bd->ci.hi);
	}
	if (a->nslow)
		gd_sb_add(
			sb,
			"%s%u size(s) below it on their own, worst %.2f at %s",
			a->slow_band >= 0 ? "; " : ": ", a->nslow,
			a->worst_ratio,
			gd_assess_bytes_str(a->worst_size, w, sizeof(w)));
	gd_sb_add(sb, "; overall ");
}

/* The interval the decision turned on: that of the band whose lower bound
 * is nearest the floor (the overall interval over every judged size,
 * unmoderated, is in the document; printed here it could cross the floor
 * while every band clears it, and read as a contradiction). */
static void gd_ev_text_nearest(const struct gd_assessment *a,
			       struct gd_sbuf *sb)
{
	const struct gd_assess_band *near = NULL;

	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++) {
		const struct gd_assess_band *bd = &a->band[b];

		if (bd->sizes && bd->decided &&
		    (!near || bd->ci.lo < near->ci.lo))
			near = bd;
	}
	if (!near)
		return;
	gd_sb_add(sb, ", %.0f%% interval %.2f..%.2f", GD_INFER_CONFIDENCE * 100,
		  near->ci.lo, near->ci.hi);
	if (a->nbands > 1) {
		gd_sb_add(sb, " in band ");
		gd_ev_range(sb, near->lo_bytes, near->hi_bytes);
		gd_sb_add(sb, ", the nearest the floor");
	}
}

/* "Not below" is decided by every judged size's own lower bound (the
 * spread pooled with sizes of like noise, widened for correlated rounds:
 * util/assess.c) clearing the floor: the words name the weakest size and
 * its bound, the figures that decided, then the overall ratio. The band
 * intervals are not the rule and stay in the document. */
static void gd_ev_text_weakest(const struct gd_ev_out *o, struct gd_sbuf *sb)
{
	const struct gd_assessment *a = &o->a;
	double conf = 100 * (1 - 2 * a->alpha_not_below);
	int weak = -1;
	char w[32];

	for (unsigned int z = 0; z < a->sizes; z++)
		if (isfinite(a->st[z].lo) &&
		    (weak < 0 || a->st[z].lo < a->st[weak].lo))
			weak = (int)z;
	gd_sb_add(sb, "every judged size's own %.3g%% lower bound clears it",
		  conf);
	if (weak >= 0)
		gd_sb_add(
			sb, ", the lowest %.2f at %s (ratio %.2f there)",
			a->st[weak].lo,
			gd_assess_bytes_str(a->size_bytes[weak], w, sizeof(w)),
			exp(a->st[weak].mean));
	gd_sb_add(sb, "; overall ratio %.2f over sizes ", a->ci.ratio);
	gd_ev_range(sb, a->lo_bytes, a->hi_bytes);
	gd_sb_add(sb, ", %u round(s)", o->rounds);
}

/* The sizes not settled, as runs of neighbouring sizes, each with the
 * rounds that would settle its slowest-to-settle size: "2 MiB..8 MiB
 * (about 7 rounds), 64 KiB (about 12 rounds)". */
static void gd_ev_text_undecided(const struct gd_assessment *a,
				 struct gd_sbuf *sb)
{
	const char *sep = "";

	gd_sb_add(sb, "; %u size(s) undecided: ", a->nundecided);
	for (unsigned int z = 0; z < a->sizes; z++) {
		unsigned int e = z, need = 0;

		if (!a->st[z].undecided)
			continue;
		while (e < a->sizes && a->st[e].undecided) {
			need = a->st[e].need > need ? a->st[e].need : need;
			e++;
		}
		gd_sb_add(sb, "%s", sep);
		sep = ", ";
		if (e - z > 1)
			gd_ev_range(sb, a->size_bytes[z], a->size_bytes[e - 1]);
		else
			gd_sb_add(sb, "%s",
				  gd_assess_bytes_str(a->size_bytes[z],
						      (char[32]){ 0 }, 32));
		gd_sb_add(sb, " (about %u%s rounds)", need,
			  need >= GD_ASSESS_REPEATS_CAP ? " or more" : "");
		z = e - 1;
	}
}

/* One line for the verdicts: the decision, the figures, what was judged. */
static void gd_ev_text(const struct gd_ev_out *o, struct gd_sbuf *sb)
{
	const struct gd_assessment *a = &o->a;
	char g[32];

	gd_sb_add(sb, "%s %s: ", o->label, o->dir);
	if (a->decision == GD_DECISION_SLOWER)
		gd_sb_add(sb, "slower: ");
	else if (a->decision == GD_DECISION_NOT_BELOW)
		gd_sb_add(sb, "not below %.2f: ", a->floor);
	else
		gd_sb_add(sb, "undecided against %.2f: ", a->floor);
	if (a->decision == GD_DECISION_NOT_BELOW) {
		gd_ev_text_weakest(o, sb);
	} else {
		if (a->decision == GD_DECISION_SLOWER)
			gd_ev_text_slower(o, sb);
		gd_sb_add(sb, "ratio %.2f", a->ci.ratio);
		gd_ev_text_nearest(a, sb);
		gd_sb_add(sb, " (sizes ");
		gd_ev_range(sb, a->lo_bytes, a->hi_bytes);
		gd_sb_add(sb, ", %u band(s), %u round(s))", a->nbands,
			  o->rounds);
		gd_ev_text_bands(a, sb);
	}
	if (!isnan(a->rho))
		gd_sb_add(sb, "; lag-1 autocorrelation of rounds %.2f", a->rho);
	if (o->skipped)
		gd_sb_add(sb, "; %u size(s) below %s not judged (--gate-from)",
			  o->skipped,
			  gd_assess_bytes_str((double)o->gate_from, g,
					      sizeof(g)));
	if (a->decision == GD_DECISION_INCONCLUSIVE)
		gd_sb_add(
			sb,
			"; %s; spread %.0f%% (CV of one ratio); about %u%s rounds (--repeat=%u) would settle it",
			a->reason ?: "undecided", a->ratio_cv_pct,
			a->repeats_needed,
			a->repeats_needed >= GD_ASSESS_REPEATS_CAP ? " or more"
								   : "",
			a->repeats_needed);
	if (a->decision == GD_DECISION_INCONCLUSIVE && a->nundecided)
		gd_ev_text_undecided(a, sb);
}

static struct json_object *gd_ev_band_json(const struct gd_assess_band *bd)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "from_bytes",
			       json_object_new_int64((int64_t)bd->lo_bytes));
	json_object_object_add(j, "to_bytes",
			       json_object_new_int64((int64_t)bd->hi_bytes));
	json_object_object_add(j, "sizes", json_object_new_int((int)bd->sizes));
	json_object_object_add(
		j, "replicates",
		json_object_new_string(bd->by_rounds ? "rounds" : "sizes"));
	json_object_object_add(j, "n", json_object_new_int((int)bd->ci.n));
	json_object_object_add(j, "decided",
			       json_object_new_boolean(bd->decided));
	json_object_object_add(j, "ratio", gd_dbl_or_null(bd->ci.ratio));
	json_object_object_add(j, "low",
			       bd->decided ? gd_dbl_or_null(bd->ci.lo) : NULL);
	json_object_object_add(j, "high",
			       bd->decided ? gd_dbl_or_null(bd->ci.hi) : NULL);
	json_object_object_add(j, "p_slower",
			       json_object_new_double(bd->p_slower));
	json_object_object_add(j, "p_not_below",
			       json_object_new_double(bd->p_not_below));
	json_object_object_add(j, "holm_p", json_object_new_double(bd->holm_p));
	json_object_object_add(j, "autocorrelation", gd_dbl_or_null(bd->rho));
	json_object_object_add(j, "correlation_widen",
			       json_object_new_double(bd->widen));
	json_object_object_add(j, "detectable_ratio",
			       gd_dbl_or_null(bd->detectable_ratio));
	return j;
}

static struct json_object *gd_ev_size_json(const struct gd_assessment *a,
					   unsigned int z)
{
	const struct gd_assess_size *s = &a->st[z];
	struct json_object *e = json_object_new_object();

	json_object_object_add(
		e, "size_bytes",
		json_object_new_int64((int64_t)a->size_bytes[z]));
	json_object_object_add(e, "ratio",
			       json_object_new_double(exp(s->mean)));
	json_object_object_add(e, "rounds", json_object_new_int((int)s->n));
	json_object_object_add(e, "df", json_object_new_int((int)s->df));
	json_object_object_add(
		e, "cv_pct",
		json_object_new_double(100.0 * sqrt(exp(s->sd * s->sd) - 1)));
	json_object_object_add(e, "p_slower",
			       json_object_new_double(s->p_slower));
	json_object_object_add(e, "holm_p", json_object_new_double(s->holm_p));
	json_object_object_add(e, "slow", json_object_new_boolean(s->slow));
	json_object_object_add(e, "pooled_df",
			       json_object_new_int((int)s->df_nb));
	json_object_object_add(e, "low", gd_dbl_or_null(s->lo));
	json_object_object_add(e, "p_not_below",
			       json_object_new_double(s->p_not_below));
	json_object_object_add(e, "undecided",
			       json_object_new_boolean(s->undecided));
	json_object_object_add(
		e, "rounds_needed",
		json_object_new_int((int)(s->undecided ? s->need : 0)));
	json_object_object_add(
		e, "high",
		s->slow ? json_object_new_double(exp(s->mean + s->half))
			: NULL);
	return e;
}

static struct json_object *gd_ev_per_size_json(const struct gd_assessment *a)
{
	struct json_object *p = json_object_new_object(), *all, *slow;

	json_object_object_add(p, "tests", json_object_new_int((int)a->tests));
	json_object_object_add(p, "prior_df",
			       json_object_new_int(GD_ASSESS_PRIOR_DF));
	all = json_object_new_array();
	slow = json_object_new_array();
	for (unsigned int z = 0; z < a->sizes; z++) {
		json_object_array_add(all, gd_ev_size_json(a, z));
		if (a->st[z].slow)
			json_object_array_add(slow, gd_ev_size_json(a, z));
	}
	json_object_object_add(p, "sizes", all);
	json_object_object_add(p, "slow_sizes", slow);
	return p;
}

static struct json_object *gd_ev_judged_json(const struct gd_ev_out *o)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "from_bytes",
			       json_object_new_int64((int64_t)o->a.lo_bytes));
	json_object_object_add(j, "to_bytes",
			       json_object_new_int64((int64_t)o->a.hi_bytes));
	json_object_object_add(j, "gate_from_bytes",
			       json_object_new_int64((int64_t)o->gate_from));
	json_object_object_add(j, "not_judged_sizes",
			       json_object_new_int((int)o->skipped));
	return j;
}

/* The correlation model every "slower" interval was widened by. */
static struct json_object *gd_ev_corr_json(const struct gd_assess_corr *c)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "within_round",
			       json_object_new_double(c->within));
	json_object_object_add(j, "lag1_own",
			       json_object_new_double(c->rho_own));
	json_object_object_add(j, "lag1_shared",
			       json_object_new_double(c->rho_shared));
	json_object_object_add(j, "widen_own",
			       json_object_new_double(c->f_own));
	json_object_object_add(j, "widen_shared",
			       json_object_new_double(c->f_shared));
	json_object_object_add(j, "from_rounds",
			       json_object_new_int(GD_ASSESS_CORR_MIN_ROUNDS));
	json_object_object_add(j, "pooled_assessments",
			       json_object_new_int((int)c->pooled));
	return j;
}

static void gd_ev_json_decision(struct json_object *j,
				const struct gd_assessment *a)
{
	json_object_object_add(j, "decision",
			       json_object_new_string(a->decision_name));
	json_object_object_add(j, "reason",
			       a->reason && a->decision ==
						       GD_DECISION_INCONCLUSIVE
				       ? json_object_new_string(a->reason)
				       : NULL);
	json_object_object_add(j, "p_slower",
			       json_object_new_double(a->p_slower));
	json_object_object_add(j, "p_slower_run",
			       json_object_new_double(a->p_slower_run));
	json_object_object_add(j, "p_not_below",
			       json_object_new_double(a->p_not_below));
	json_object_object_add(j, "family",
			       json_object_new_int((int)a->family));
	json_object_object_add(j, "alpha",
			       json_object_new_double(GD_ASSESS_ALPHA));
	/* each size's one-sided level for "not below": below alpha where an
	 * adaptive run split it over its looks, so the rule's words can say
	 * which lower bound decided */
	json_object_object_add(j, "alpha_not_below",
			       json_object_new_double(a->alpha_not_below));
	json_object_object_add(j, "autocorrelation", gd_dbl_or_null(a->rho));
	json_object_object_add(j, "correlation", gd_ev_corr_json(&a->corr));
}

static struct json_object *gd_ev_json(const struct gd_ev_out *o, bool lat)
{
	struct json_object *j = json_object_new_object(), *ci, *bands;
	const struct gd_assessment *a = &o->a;
	struct gd_sbuf sb = { .len = 0 };

	json_object_object_add(j, "comparison",
			       json_object_new_string(o->label));
	json_object_object_add(j, "direction", json_object_new_string(o->dir));
	json_object_object_add(
		j, "figure",
		json_object_new_string(lat ? "latency speed HH/X"
					   : "bandwidth ratio X/HH"));
	json_object_object_add(j, "floor", json_object_new_double(a->floor));
	gd_ev_json_decision(j, a);
	json_object_object_add(j, "sizes", json_object_new_int((int)a->sizes));
	json_object_object_add(j, "rounds",
			       json_object_new_int((int)o->rounds));
	json_object_object_add(j, "judged", gd_ev_judged_json(o));
	json_object_object_add(j, "ratio", gd_dbl_or_null(a->ci.ratio));
	ci = json_object_new_object();
	json_object_object_add(
		ci, "replicates",
		json_object_new_string(a->by_rounds ? "rounds" : "sizes"));
	json_object_object_add(ci, "n", json_object_new_int((int)a->ci.n));
	json_object_object_add(ci, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(ci, "low", gd_dbl_or_null(a->ci.lo));
	json_object_object_add(ci, "high", gd_dbl_or_null(a->ci.hi));
	json_object_object_add(j, "interval", ci);
	bands = json_object_new_array();
	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++)
		if (a->band[b].sizes)
			json_object_array_add(bands,
					      gd_ev_band_json(&a->band[b]));
	json_object_object_add(j, "bands", bands);
	if (a->by_rounds)
		json_object_object_add(j, "per_size", gd_ev_per_size_json(a));
	json_object_object_add(j, "segment", gd_ev_segment_json(a));
	json_object_object_add(j, "ratio_cv_pct",
			       json_object_new_double(a->ratio_cv_pct));
	json_object_object_add(j, "resolution_pct",
			       json_object_new_double(a->resolution_pct));
	json_object_object_add(j, "detectable_ratio",
			       gd_dbl_or_null(a->detectable_ratio));
	json_object_object_add(j, "detectable_power",
			       json_object_new_double(GD_ASSESS_POWER));
	json_object_object_add(j, "repeats_needed",
			       json_object_new_int((int)a->repeats_needed));
	json_object_object_add(j, "looks", json_object_new_int((int)a->looks));
	gd_ev_text(o, &sb);
	json_object_object_add(j, "evidence", json_object_new_string(sb.buf));
	return j;
}

/* The comparisons (device phase and direction) of the rows, each once,
 * assessed into @o; their number. */
static unsigned int gd_ev_all(struct json_object *rows, struct gd_ev_in *in,
			      struct gd_ev_out *o, uint64_t gate_from,
			      double floor, bool lat, unsigned int looks)
{
	struct json_object *seen = json_object_new_object();
	unsigned int n = 0;

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
			    json_object_object_get_ex(seen, key, NULL) ||
			    n == GD_EV_MAX_ASSESS)
				continue;
			json_object_object_add(seen, key, NULL);
			*in = (struct gd_ev_in){ .label = label,
						 .dir = dir,
						 .lat = lat,
						 .floor = floor,
						 .looks = looks ? looks : 1 };
			gd_ev_collect(in, rows, gate_from);
			if (in->nsz && !gd_ev_decide(in, &o[n]))
				n++;
		}
	}
	json_object_put(seen);
	return n;
}

/*
 * Every device phase and direction of the run, decided together: Holm
 * across them (gd_assess_run), so that the run's rate of a false "slower"
 * is the one gdperf(7) states however many phases and directions it has.
 */
struct json_object *gd_evidence_assess(struct json_object *rows, bool lat,
				       uint64_t gate_from, double floor,
				       unsigned int looks)
{
	struct json_object *out = json_object_new_array();
	struct gd_ev_in *in = calloc(1, sizeof(*in));
	struct gd_ev_out *o = calloc(GD_EV_MAX_ASSESS, sizeof(*o));
	struct gd_assessment *a = calloc(GD_EV_MAX_ASSESS, sizeof(*a));
	unsigned int n;

	if (!in || !o || !a)
		goto free_all;
	n = gd_ev_all(rows, in, o, gate_from, floor, lat, looks);
	for (unsigned int i = 0; i < n; i++)
		a[i] = o[i].a;
	gd_assess_run(a, n);
	for (unsigned int i = 0; i < n; i++) {
		o[i].a = a[i];
		json_object_array_add(out, gd_ev_json(&o[i], lat));
	}
free_all:
	free(in);
	free(o);
	free(a);
	return out;
}
