/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --precision: when a gated size has had enough rounds. The figure is the
 * widest 95% interval at that size of a device phase's ratio to HH over the
 * paired rounds (of each phase's own figure when there is no device phase),
 * computed as the comparison computes it; the sizes' outcome goes into the
 * document's "precision" section and one text line.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "util/infer.h"
#include "engine/session.h"
#include "engine/sweep.h"

/* Fewer than three rounds give no useful interval (t with 1 df is 12.7). */
unsigned int gd_precision_base(const struct gd_opts *o)
{
	uint64_t base = o->repeat > 3 ? o->repeat : 3;

	return (unsigned int)(base < o->max_repeat ? base : o->max_repeat);
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

const char *gd_precision_stop(const struct gd_session *s,
			      const struct gd_step_outcome *outs,
			      const struct gd_rounds *rd, unsigned int z,
			      double elapsed_s)
{
	if (gd_widest_pct(s, outs, rd, z) <= s->o->precision_pct)
		return "precision";
	if (rd->done[z] >= s->o->max_repeat)
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
	e->reached = e->half_pct <= s->o->precision_pct;
	e->gated = s->sizes[z] >= s->o->gate_from_bytes;
}

static struct json_object *gd_precision_json(const struct gd_session *s,
					     const struct gd_precision *pr)
{
	struct json_object *j = json_object_new_object(), *arr;

	json_object_object_add(j, "target_pct",
			       json_object_new_double(s->o->precision_pct));
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
	len = (size_t)snprintf(
		text, sizeof(text),
		" Precision: %u of %u gated size(s) reached +/-%.3g%% (95%% interval of the ratio to HH) in %u..%u rounds, %.1f s",
		reached, gated, s->o->precision_pct, lo, hi, pr->elapsed_s);
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
