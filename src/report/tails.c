/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Latency tails: the median and the p99 of each device phase against HH,
 * as a ratio with a 95% interval per size and over the sizes. With two or
 * more rounds the interval is the t-interval of the per-round log ratios
 * (the same paired design as the median's assessment); with one round it
 * is the sampling error within the round, from each figure's own
 * order-statistic interval (engine/lat_tail.c). Informational only.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"
#include "report/tails.h"

#define GD_TAILS_MAX_SIZES 128
#define GD_TAILS_MAX_ROUNDS 64
/* sizes of a saved document past 2^53 bytes are not ones a run writes */
#define GD_TAILS_MAX_BYTES 9007199254740992.0
/* The normal quantile of a two-sided 95% interval: the within-round
 * errors come from thousands of samples, not from a handful of rounds. */
#define GD_TAILS_Z 1.959963984540054

/* One percentile of one device phase against HH in one direction. */
struct gd_tails_in {
	const char *pl, *dir;
	const char *unit; /* what a replicate is: "rounds" or "repeats" */
	int pct;
	unsigned int nsz, span; /* span: round numbers seen, 0 .. span-1 */
	uint64_t size[GD_TAILS_MAX_SIZES];
	double d[GD_TAILS_MAX_SIZES][GD_TAILS_MAX_ROUNDS]; /* log X/HH */
	double one[GD_TAILS_MAX_SIZES], se[GD_TAILS_MAX_SIZES];
};

struct gd_tails_out {
	const char *replicates;	    /* unit, "within_round", "none" */
	unsigned int rounds, sized; /* sized: sizes inside the interval */
	double ratio, lo, hi;
	double s_ratio[GD_TAILS_MAX_SIZES], s_lo[GD_TAILS_MAX_SIZES],
		s_hi[GD_TAILS_MAX_SIZES];
};

void gd_tails_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;
	uint64_t v = bytes;

	while (u < 3 && v >= 1024 && !(v % 1024)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
}

int gd_tails_within(double x, const double x_ci[2], double h,
		    const double h_ci[2], double *log_ratio, double *se_log)
{
	double sx, sh;

	*log_ratio = *se_log = NAN;
	if (!(x > 0) || !(h > 0))
		return -ERANGE;
	*log_ratio = log(x / h);
	if (!(x_ci[0] > 0 && x_ci[1] > 0 && h_ci[0] > 0 && h_ci[1] > 0))
		return -ERANGE;
	/* an order-statistic interval is not symmetric about the figure:
	 * its width stands for two standard errors on the log scale */
	sx = log(x_ci[1] / x_ci[0]) / (2 * GD_TAILS_Z);
	sh = log(h_ci[1] / h_ci[0]) / (2 * GD_TAILS_Z);
	*se_log = sqrt(sx * sx + sh * sh);
	return 0;
}

void gd_tails_over_rounds(const double *d, unsigned int rounds,
			  unsigned int nsz, struct gd_log_ci *overall,
			  struct gd_log_ci *per)
{
	unsigned int most = rounds > nsz ? rounds : nsz;
	double *v = malloc(sizeof(*v) * (most ? most : 1));
	size_t m = 0;

	memset(overall, 0, sizeof(*overall));
	overall->ratio = overall->lo = overall->hi = NAN;
	if (!v)
		return;
	for (unsigned int z = 0; per && z < nsz; z++) {
		m = 0;
		for (unsigned int r = 0; r < rounds; r++)
			if (isfinite(d[r * nsz + z]))
				v[m++] = d[r * nsz + z];
		if (gd_log_ci(v, m, GD_INFER_CONFIDENCE, &per[z]))
			per[z].ratio = per[z].lo = per[z].hi = NAN;
	}
	/* a round missing a size would shift its mean by that size's own
	 * level: only complete rounds enter the overall interval */
	m = 0;
	for (unsigned int r = 0; r < rounds; r++) {
		double sum = 0;
		unsigned int z;

		for (z = 0; z < nsz && isfinite(d[r * nsz + z]); z++)
			sum += d[r * nsz + z];
		if (z == nsz && nsz)
			v[m++] = sum / nsz;
	}
	if (gd_log_ci(v, m, GD_INFER_CONFIDENCE, overall))
		overall->ratio = overall->lo = overall->hi = NAN;
	free(v);
}

/* [low, high] of @key in @r; 0 for a null or absent side. */
static void gd_tails_ci(struct json_object *r, const char *key, double ci[2])
{
	struct json_object *a = gd_json_path(r, key, NULL);

	ci[0] = ci[1] = 0;
	if (!a || !json_object_is_type(a, json_type_array) ||
	    gd_json_len(a) != 2)
		return;
	for (size_t i = 0; i < 2; i++) {
		struct json_object *x = gd_json_idx(a, i);

		if (x && (json_object_is_type(x, json_type_double) ||
			  json_object_is_type(x, json_type_int)))
			ci[i] = json_object_get_double(x);
	}
}

/* Each round's @key of result @r by its "repeat" number; the span. */
static unsigned int gd_tails_rounds(struct json_object *r, const char *key,
				    double *out)
{
	struct json_object *s = gd_json_path(r, "samples", NULL);
	unsigned int span = 0;

	for (unsigned int i = 0; i < GD_TAILS_MAX_ROUNDS; i++)
		out[i] = NAN;
	for (size_t i = 0; s && i < gd_json_len(s); i++) {
		struct json_object *e = gd_json_idx(s, i);
		double rep = (double)i + 1, v;

		gd_json_num(e, "repeat", &rep);
		/* written so that a NaN read from a saved document fails */
		if (!(rep >= 1 && rep <= GD_TAILS_MAX_ROUNDS) ||
		    !gd_json_num(e, key, &v) || !(v > 0))
			continue;
		out[(unsigned int)rep - 1] = v;
		if ((unsigned int)rep > span)
			span = (unsigned int)rep;
	}
	return span;
}

struct json_object *gd_tails_result(struct json_object *ph, double size)
{
	struct json_object *res = gd_json_path(ph, "results", NULL);

	for (size_t i = 0; i < gd_json_len(res); i++) {
		double s;

		if (gd_json_num(gd_json_idx(res, i), "size_bytes", &s) &&
		    s == size)
			return gd_json_idx(res, i);
	}
	return NULL;
}

/* One size: its per-round logs and its within-round log and error. */
static void gd_tails_pair(struct gd_tails_in *in, struct json_object *rx,
			  struct json_object *rh, uint64_t size)
{
	const char *key = in->pct == 50 ? "lat_typical_us" : "lat_p99_us";
	const char *ci_key =
		in->pct == 50 ? "lat_typical_us_ci95" : "lat_p99_us_ci95";
	double xr[GD_TAILS_MAX_ROUNDS], hr[GD_TAILS_MAX_ROUNDS];
	double x = 0, h = 0, xci[2], hci[2];
	unsigned int z = in->nsz++, span;

	span = gd_tails_rounds(rx, key, xr);
	if (gd_tails_rounds(rh, key, hr) < span)
		span = gd_tails_rounds(rh, key, hr);
	in->size[z] = size;
	for (unsigned int r = 0; r < GD_TAILS_MAX_ROUNDS; r++)
		in->d[z][r] = r < span && xr[r] > 0 && hr[r] > 0
				      ? log(xr[r] / hr[r])
				      : NAN;
	if (span > in->span)
		in->span = span;
	gd_json_num(rx, key, &x);
	gd_json_num(rh, key, &h);
	gd_tails_ci(rx, ci_key, xci);
	gd_tails_ci(rh, ci_key, hci);
	gd_tails_within(x, xci, h, hci, &in->one[z], &in->se[z]);
}

static void gd_tails_collect(struct gd_tails_in *in, struct json_object *ph,
			     struct json_object *hh)
{
	struct json_object *res = gd_json_path(ph, "results", NULL);

	in->nsz = in->span = 0;
	for (size_t i = 0; i < gd_json_len(res) && in->nsz < GD_TAILS_MAX_SIZES;
	     i++) {
		struct json_object *rx = gd_json_idx(res, i), *rh;
		double size;

		if (!gd_json_num(rx, "size_bytes", &size) ||
		    !(size >= 0 && size <= GD_TAILS_MAX_BYTES) ||
		    !(rh = gd_tails_result(hh, size)))
			continue;
		gd_tails_pair(in, rx, rh, (uint64_t)size);
	}
}

static bool gd_tails_by_rounds(const struct gd_tails_in *in,
			       struct gd_tails_out *o)
{
	double *d = malloc(sizeof(*d) * (in->span * in->nsz + 1));
	struct gd_log_ci all, *per = calloc(in->nsz + 1, sizeof(*per));
	bool ok;

	if (!d || !per) {
		free(d);
		free(per);
		return false;
	}
	for (unsigned int r = 0; r < in->span; r++)
		for (unsigned int z = 0; z < in->nsz; z++)
			d[r * in->nsz + z] = in->d[z][r];
	gd_tails_over_rounds(d, in->span, in->nsz, &all, per);
	ok = all.n >= 2;
	if (ok) {
		*o = (struct gd_tails_out){ .replicates = in->unit,
					    .rounds = (unsigned int)all.n,
					    .sized = in->nsz,
					    .ratio = all.ratio,
					    .lo = all.lo,
					    .hi = all.hi };
		for (unsigned int z = 0; z < in->nsz; z++) {
			o->s_ratio[z] = per[z].ratio;
			o->s_lo[z] = per[z].lo;
			o->s_hi[z] = per[z].hi;
		}
	}
	free(d);
	free(per);
	return ok;
}

/* One round: sizes are independent samples, so their errors add in
 * quadrature in the mean of the log ratios; this says nothing about how
 * much a second run would differ (drift between runs is not sampled). */
static void gd_tails_in_round(const struct gd_tails_in *in,
			      struct gd_tails_out *o)
{
	double sum = 0, var = 0, all = 0;
	unsigned int k = 0, m = 0;

	*o = (struct gd_tails_out){ .replicates = "within_round", .rounds = 1 };
	for (unsigned int z = 0; z < in->nsz; z++) {
		double half = GD_TAILS_Z * in->se[z];

		o->s_ratio[z] = exp(in->one[z]);
		o->s_lo[z] = isfinite(half) ? exp(in->one[z] - half) : NAN;
		o->s_hi[z] = isfinite(half) ? exp(in->one[z] + half) : NAN;
		if (isfinite(in->one[z])) {
			all += in->one[z];
			m++;
		}
		if (!isfinite(in->one[z]) || !isfinite(in->se[z]))
			continue;
		sum += in->one[z];
		var += in->se[z] * in->se[z];
		k++;
	}
	o->sized = k;
	o->lo = o->hi = NAN;
	if (k == m && k) {
		o->ratio = exp(sum / k);
		o->lo = exp(sum / k - GD_TAILS_Z * sqrt(var) / k);
		o->hi = exp(sum / k + GD_TAILS_Z * sqrt(var) / k);
		return;
	}
	/* a size without an interval would be left out of the interval but
	 * not out of the ratio: no interval rather than one of other sizes */
	o->replicates = "none";
	o->ratio = m ? exp(all / m) : NAN;
}

static struct json_object *gd_tails_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

/* The size with the highest ratio: where a tail grows, it is one size. */
static unsigned int gd_tails_highest(const struct gd_tails_in *in,
				     const struct gd_tails_out *o)
{
	unsigned int best = 0;

	for (unsigned int z = 1; z < in->nsz; z++)
		if (isfinite(o->s_ratio[z]) &&
		    !(o->s_ratio[z] <= o->s_ratio[best]))
			best = z;
	return best;
}

static void gd_tails_text(const struct gd_tails_in *in,
			  const struct gd_tails_out *o, struct gd_sbuf *sb)
{
	char a[24], b[24];
	unsigned int top = gd_tails_highest(in, o);

	gd_tails_size(a, sizeof(a), in->size[0]);
	gd_tails_size(b, sizeof(b), in->size[in->nsz - 1]);
	gd_sb_add(sb, "p%d ratio %s/HH %s %.2f", in->pct, in->pl, in->dir,
		  o->ratio);
	if (isfinite(o->lo))
		gd_sb_add(sb, ", %.0f%% interval %.2f..%.2f",
			  GD_INFER_CONFIDENCE * 100, o->lo, o->hi);
	gd_sb_add(sb, " (sizes %s..%s, %u size(s), ", a, b, in->nsz);
	if (!strcmp(o->replicates, in->unit))
		gd_sb_add(sb, "over %u %s)", o->rounds, in->unit);
	else if (!strcmp(o->replicates, "within_round"))
		gd_sb_add(sb, "one round: sampling error within it only)");
	else
		gd_sb_add(
			sb,
			"one round: no interval, %u size(s) with too few samples to bound a p%d; 368 or more per size bound a p99)",
			in->nsz - o->sized, in->pct);
	if (in->nsz < 2 || !isfinite(o->s_ratio[top]))
		return;
	gd_tails_size(a, sizeof(a), in->size[top]);
	gd_sb_add(sb, "; highest %.2f at %s", o->s_ratio[top], a);
	if (isfinite(o->s_lo[top]))
		gd_sb_add(sb, " (%.2f..%.2f)", o->s_lo[top], o->s_hi[top]);
}

static struct json_object *gd_tails_json(const struct gd_tails_in *in,
					 const struct gd_tails_out *o)
{
	struct json_object *e = json_object_new_object(), *ci, *per;
	struct gd_sbuf sb = { .len = 0 };
	char label[24];

	snprintf(label, sizeof(label), "%s/HH", in->pl);
	json_object_object_add(e, "comparison", json_object_new_string(label));
	json_object_object_add(e, "direction", json_object_new_string(in->dir));
	json_object_object_add(e, "percentile", json_object_new_int(in->pct));
	json_object_object_add(
		e, "figure",
		json_object_new_string(
			in->pct == 50
				? "lat_typical_us X/HH (above 1: higher latency than HH)"
				: "lat_p99_us X/HH (above 1: higher latency than HH)"));
	json_object_object_add(e, "replicates",
			       json_object_new_string(o->replicates));
	json_object_object_add(e, "rounds",
			       json_object_new_int((int)o->rounds));
	json_object_object_add(e, "sizes", json_object_new_int((int)in->nsz));
	json_object_object_add(e, "size_min_bytes",
			       json_object_new_int64((int64_t)in->size[0]));
	json_object_object_add(
		e, "size_max_bytes",
		json_object_new_int64((int64_t)in->size[in->nsz - 1]));
	json_object_object_add(e, "ratio", gd_tails_num(o->ratio));
	ci = json_object_new_object();
	json_object_object_add(ci, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(ci, "low", gd_tails_num(o->lo));
	json_object_object_add(ci, "high", gd_tails_num(o->hi));
	json_object_object_add(e, "interval", ci);
	per = json_object_new_array();
	for (unsigned int z = 0; z < in->nsz; z++) {
		struct json_object *s = json_object_new_object();

		json_object_object_add(
			s, "size_bytes",
			json_object_new_int64((int64_t)in->size[z]));
		json_object_object_add(s, "ratio", gd_tails_num(o->s_ratio[z]));
		json_object_object_add(s, "low", gd_tails_num(o->s_lo[z]));
		json_object_object_add(s, "high", gd_tails_num(o->s_hi[z]));
		json_object_array_add(per, s);
	}
	json_object_object_add(e, "per_size", per);
	gd_tails_text(in, o, &sb);
	json_object_object_add(e, "text", json_object_new_string(sb.buf));
	return e;
}

/* HH of @dir, the reference of every device phase in that direction. */
static struct json_object *gd_tails_hh(struct json_object *phases,
				       const char *dir)
{
	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);

		if (!strcmp(gd_phase_placement(ph), "HH") &&
		    !strcmp(gd_phase_direction(ph), dir) && gd_phase_ok(ph))
			return ph;
	}
	return NULL;
}

static void gd_tails_phase(struct json_object *out, struct gd_tails_in *in,
			   struct gd_tails_out *o, struct json_object *ph,
			   struct json_object *hh)
{
	static const int pcts[] = { 50, 99 };

	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		in->pct = pcts[k];
		gd_tails_collect(in, ph, hh);
		if (!in->nsz)
			continue;
		if (in->span < 2 || !gd_tails_by_rounds(in, o))
			gd_tails_in_round(in, o);
		json_object_array_add(out, gd_tails_json(in, o));
	}
}

struct json_object *gd_tails_build(struct json_object *doc)
{
	return gd_tails_build_over(doc, "rounds");
}

struct json_object *gd_tails_build_over(struct json_object *doc,
					const char *unit)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	struct json_object *out;
	struct gd_tails_in *in;
	struct gd_tails_out *o;

	if (!gd_doc_is_lat(doc))
		return NULL;
	out = json_object_new_array();
	in = calloc(1, sizeof(*in));
	o = calloc(1, sizeof(*o));
	for (size_t i = 0; in && o && i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i), *hh;
		const char *pl = gd_phase_placement(ph);

		if (!strchr(pl, 'D') || !gd_phase_ok(ph) ||
		    !(hh = gd_tails_hh(phases, gd_phase_direction(ph))))
			continue;
		in->pl = pl;
		in->unit = unit;
		in->dir = gd_phase_direction(ph);
		gd_tails_phase(out, in, o, ph, hh);
	}
	free(in);
	free(o);
	return out;
}

void gd_tails_print(FILE *out, struct json_object *doc)
{
	struct json_object *t = gd_json_path(doc, "statistics", "tails");

	if (!out || !gd_json_len(t))
		return;
	fprintf(out,
		" Latency tails (device/HH; informational, no verdict reads them):\n");
	for (size_t i = 0; i < gd_json_len(t); i++)
		fprintf(out, "  %s\n", gd_json_str(gd_json_idx(t, i), "text"));
}
