/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --until-decided and --precision: when the judged sizes have had enough
 * rounds. After each round from the third (a look) the run's assessments
 * are made as the comparison makes them, at levels split over the planned
 * looks (util/assess.h); the judged sizes close together once every one is
 * decided and, with --precision, once the widest 95% interval at each of a
 * device phase's ratio to HH (each phase's own figure when there is no
 * device phase) is narrow enough. The outcome goes into the document's
 * "precision" section and one text line.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/assess.h"
#include "util/infer.h"
#include "report/compare.h"
#include "engine/session.h"
#include "engine/sweep.h"

/* Fewer than three rounds give no useful interval (t with 1 df is 12.7). */
unsigned int gd_precision_base(const struct gd_opts *o)
{
	uint64_t base = o->repeat > 3 ? o->repeat : 3;

	return (unsigned int)(base < o->max_repeat ? base : o->max_repeat);
}

unsigned int gd_precision_looks(const struct gd_opts *o)
{
	return gd_assess_looks(gd_precision_base(o),
			       (unsigned int)o->max_repeat);
}

bool gd_precision_judged(const struct gd_opts *o, uint64_t size_bytes)
{
	return !o->gate_from_given || size_bytes >= o->gate_from_bytes;
}

/* HH's phase in the direction of @ph, or -1. */
static int gd_hh_of(const struct gd_session *s, const struct gd_phase *ph)
{
	for (unsigned int p = 0; p < s->num_phases; p++)
		if (s->phases[p].dir == ph->dir &&
		    s->phases[p].client_place == GD_PLACE_HOST &&
		    s->phases[p].server_place == GD_PLACE_HOST)
			return (int)p;
	return -1;
}

/* Half-width in percent of the interval of log(x / ref) over the rounds
 * at size @z (@ref < 0: of log x itself); INFINITY with < 2 rounds. */
static double gd_half_pct(const struct gd_session *s,
			  const struct gd_step_outcome *outs,
			  const struct gd_rounds *rd, unsigned int z,
			  unsigned int p, int ref)
{
	double logs[GD_MAX_REPEAT];
	unsigned int n = 0;
	struct gd_log_ci ci;

	for (unsigned int r = 0; r < rd->done[z]; r++) {
		const struct gd_step_outcome *x =
			&outs[(p * s->num_sizes + z) * rd->stride + r];
		const struct gd_step_outcome *h =
			ref < 0 ? NULL
				: &outs[((unsigned int)ref * s->num_sizes + z) *
						rd->stride +
					r];
		double fx = x->ok ? gd_outcome_figure(x, &s->phases[p]) : 0;
		double fh = h && h->ok ? gd_outcome_figure(
						 h, &s->phases[(unsigned)ref])
				       : 1;

		if (fx > 0 && fh > 0 && (!h || h->ok))
			logs[n++] = log(fx / fh);
	}
	if (n < 2 || gd_log_ci(logs, n, GD_INFER_CONFIDENCE, &ci))
		return INFINITY;
	return 100.0 * (ci.hi / ci.ratio - 1);
}

/* The widest interval at size @z: every device phase against its HH, or
 * every phase's own figure when no phase has a device side and an HH. */
static double gd_widest_pct(const struct gd_session *s,
			    const struct gd_step_outcome *outs,
			    const struct gd_rounds *rd, unsigned int z)
{
	double worst = -1;
	bool paired = false;

	for (unsigned int p = 0; p < s->num_phases; p++) {
		const struct gd_phase *ph = &s->phases[p];
		int hh = gd_hh_of(s, ph);
		double w;

		if (hh < 0 || (ph->client_place == GD_PLACE_HOST &&
			       ph->server_place == GD_PLACE_HOST))
			continue;
		paired = true;
		w = gd_half_pct(s, outs, rd, z, p, hh);
		worst = w > worst ? w : worst;
	}
	for (unsigned int p = 0; !paired && p < s->num_phases; p++) {
		double w = gd_half_pct(s, outs, rd, z, p, -1);

		worst = w > worst ? w : worst;
	}
	return worst;
}

/* Phase @p against @hh over the first @rounds rounds of the judged sizes
 * (@col), as the comparison pairs them (bandwidth: log device / HH,
 * latency: log HH / device), into @d, rounds by sizes; NAN where missing. */
static void gd_look_matrix(const struct gd_session *s,
			   const struct gd_step_outcome *outs,
			   const struct gd_rounds *rd, unsigned int p,
			   unsigned int hh, const unsigned int *col,
			   unsigned int nz, unsigned int rounds, double *d)
{
	for (unsigned int i = 0; i < nz; i++)
		for (unsigned int r = 0; r < rounds; r++) {
			const struct gd_step_outcome *x =
				&outs[(p * s->num_sizes + col[i]) * rd->stride +
				      r];
			const struct gd_step_outcome *h =
				&outs[(hh * s->num_sizes + col[i]) *
					      rd->stride +
				      r];
			double fx =
				x->ok ? gd_outcome_figure(x, &s->phases[p]) : 0;
			double fh = h->ok ? gd_outcome_figure(h, &s->phases[hh])
					  : 0;

			d[r * nz + i] = NAN;
			if (fx > 0 && fh > 0)
				d[r * nz + i] = x->res.is_bw ? log(fx / fh)
							     : log(fh / fx);
		}
}

/* The run's assessments (one per device phase and direction, at most
 * s->num_phases) at this look's levels over the judged sizes' first
 * @rounds rounds into @a; their number, or -1 (no answer: keep
 * measuring). */
static int gd_precision_assess(const struct gd_session *s,
			       const struct gd_step_outcome *outs,
			       const struct gd_rounds *rd, unsigned int rounds,
			       struct gd_assessment *a)
{
	double floor = s->o->expect_ratio > 0 ? s->o->expect_ratio
					      : GD_COMPARE_SLOW_RATIO;
	unsigned int col[GD_MAX_SIZES], nz = 0, n = 0;
	double sb[GD_MAX_SIZES], *d;

	for (unsigned int z = 0; z < s->num_sizes && nz < GD_ASSESS_MAX_SIZES;
	     z++)
		if (gd_precision_judged(s->o, s->sizes[z])) {
			sb[nz] = (double)s->sizes[z];
			col[nz++] = z;
		}
	d = malloc(sizeof(*d) * (rounds ? rounds : 1) * (nz ? nz : 1));
	if (!d)
		return -1;
	for (unsigned int p = 0; p < s->num_phases; p++) {
		const struct gd_phase *ph = &s->phases[p];
		int hh = gd_hh_of(s, ph);

		if (hh < 0 || (ph->client_place == GD_PLACE_HOST &&
			       ph->server_place == GD_PLACE_HOST))
			continue;
		gd_look_matrix(s, outs, rd, p, (unsigned int)hh, col, nz,
			       rounds, d);
		if (gd_assess_seq(d, sb, rounds, nz, floor,
				  gd_precision_looks(s->o), &a[n], NULL)) {
			free(d);
			return -1;
		}
		n++;
	}
	free(d);
	gd_assess_run(a, n);
	return (int)n;
}

/* Every device phase and direction decided, at this look's levels, over
 * the judged sizes' first @rounds rounds, a "slower" one also at the
 * previous look (gd_assess_seq_stop); true when there is none. */
static bool gd_precision_decided(const struct gd_session *s,
				 const struct gd_step_outcome *outs,
				 const struct gd_rounds *rd,
				 unsigned int rounds)
{
	struct gd_assessment *a = calloc(2 * s->num_phases, sizeof(*a));
	enum gd_decision *prev = calloc(s->num_phases, sizeof(*prev));
	bool decided = false, first = rounds <= gd_precision_base(s->o);
	int n = a && prev ? gd_precision_assess(s, outs, rd, rounds, a) : -1;

	/* a "slower" stops the run only when the previous look said it too */
	if (n > 0 && !first && gd_assess_all_decided(a, (unsigned int)n)) {
		if (gd_precision_assess(s, outs, rd, rounds - 1,
					a + s->num_phases) != n)
			goto free_all;
		for (int i = 0; i < n; i++)
			prev[i] = a[s->num_phases + i].decision;
	}
	decided = !n || (n > 0 && gd_assess_seq_stop(first ? NULL : prev, a,
						     (unsigned int)n));
free_all:
	free(a);
	free(prev);
	return decided;
}

const char *gd_precision_stop(const struct gd_session *s,
			      const struct gd_step_outcome *outs,
			      const struct gd_rounds *rd, unsigned int rounds,
			      double elapsed_s)
{
	bool narrow = true;

	for (unsigned int z = 0; s->o->precision_pct > 0 && z < s->num_sizes;
	     z++)
		if (gd_precision_judged(s->o, s->sizes[z]) &&
		    gd_widest_pct(s, outs, rd, z) > s->o->precision_pct)
			narrow = false;
	if (narrow && gd_precision_decided(s, outs, rd, rounds))
		return s->o->precision_pct > 0 ? "precision" : "decided";
	if (rounds >= s->o->max_repeat)
		return "max_repeat";
	if (elapsed_s >= (double)s->o->precision_time_s)
		return "time_limit";
	return NULL;
}

void gd_precision_note(const struct gd_session *s, struct gd_precision *pr,
		       const struct gd_step_outcome *outs,
		       const struct gd_rounds *rd, unsigned int z,
		       const char *why)
{
	struct gd_precision_size *e;

	if (pr->n == GD_MAX_SIZES)
		return;
	e = &pr->sz[pr->n++];
	e->size_bytes = s->sizes[z];
	e->rounds = rd->done[z];
	e->half_pct = gd_widest_pct(s, outs, rd, z);
	e->stopped = why;
	e->reached = s->o->precision_pct > 0
			     ? e->half_pct <= s->o->precision_pct
			     : !strcmp(why, "decided");
	e->gated = gd_precision_judged(s->o, s->sizes[z]);
}

static struct json_object *gd_precision_json(const struct gd_session *s,
					     const struct gd_precision *pr)
{
	struct json_object *j = json_object_new_object(), *arr;

	json_object_object_add(
		j, "rule",
		json_object_new_string(s->o->precision_pct > 0
					       ? "precision"
					       : "until_decided"));
	json_object_object_add(j, "target_pct",
			       json_object_new_double(s->o->precision_pct));
	json_object_object_add(
		j, "looks", json_object_new_int((int)gd_precision_looks(s->o)));
	json_object_object_add(j, "decided",
			       json_object_new_boolean(pr->decided));
	json_object_object_add(j, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(
		j, "max_repeat",
		json_object_new_int64((int64_t)s->o->max_repeat));
	json_object_object_add(
		j, "time_limit_s",
		json_object_new_int64((int64_t)s->o->precision_time_s));
	json_object_object_add(j, "elapsed_s",
			       json_object_new_double(pr->elapsed_s));
	arr = json_object_new_array();
	for (unsigned int i = 0; i < pr->n; i++) {
		const struct gd_precision_size *e = &pr->sz[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(
			o, "size_bytes",
			json_object_new_int64((int64_t)e->size_bytes));
		json_object_object_add(o, "gated",
				       json_object_new_boolean(e->gated));
		json_object_object_add(o, "rounds",
				       json_object_new_int((int)e->rounds));
		json_object_object_add(
			o, "half_width_pct",
			isfinite(e->half_pct)
				? json_object_new_double(e->half_pct)
				: NULL);
		json_object_object_add(o, "reached",
				       json_object_new_boolean(e->reached));
		json_object_object_add(o, "stopped_by",
				       json_object_new_string(e->stopped));
		json_object_array_add(arr, o);
	}
	json_object_object_add(j, "sizes", arr);
	return j;
}

void gd_precision_report(struct gd_session *s, const struct gd_precision *pr)
{
	unsigned int gated = 0, reached = 0, lo = 0, hi = 0;
	char text[512];
	size_t len;

	for (unsigned int i = 0; i < pr->n; i++) {
		const struct gd_precision_size *e = &pr->sz[i];

		if (!e->gated)
			continue;
		lo = !gated || e->rounds < lo ? e->rounds : lo;
		hi = e->rounds > hi ? e->rounds : hi;
		gated++;
		reached += e->reached;
	}
	if (!(s->o->precision_pct > 0)) {
		snprintf(
			text, sizeof(text),
			" Until decided: %s after %u round(s) of %u judged size(s), at most %llu (levels split over %u looks), %.1f s",
			pr->decided ? "decided" : "not decided", hi, gated,
			(unsigned long long)s->o->max_repeat,
			gd_precision_looks(s->o), pr->elapsed_s);
		gd_report_section_text(s->rep, "precision",
				       gd_precision_json(s, pr), text);
		return;
	}
	len = (size_t)snprintf(
		text, sizeof(text),
		" Precision: %u of %u judged size(s) reached +/-%.3g%% (95%% interval of the ratio to HH) in %u..%u rounds, %s, %.1f s",
		reached, gated, s->o->precision_pct, lo, hi,
		pr->decided ? "decided" : "not decided", pr->elapsed_s);
	for (unsigned int i = 0; i < pr->n && len < sizeof(text) - 64; i++) {
		const struct gd_precision_size *e = &pr->sz[i];

		if (e->gated && !e->reached)
			len += (size_t)snprintf(
				text + len, sizeof(text) - len,
				"%s %llu B +/-%.3g%% (%s)",
				len && strchr(text, ';') ? ","
							 : "; not reached:",
				(unsigned long long)e->size_bytes, e->half_pct,
				e->stopped);
	}
	gd_report_section_text(s->rep, "precision", gd_precision_json(s, pr),
			       text);
}
