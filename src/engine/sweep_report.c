/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sweep's results into the report. While it runs, each (phase, size)
 * row as soon as its last round is in (gd_sweep_live_size: text only);
 * once every step has run, phase by phase, the document's rows (with
 * --repeat the median round's, its spread and every round as a sample),
 * the per-step counter windows and their sums, and the first failure.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/infer.h"
#include "transport/counters.h"
#include "engine/session.h"
#include "engine/sweep.h"

static const char *gd_dir_name(enum gd_dir d)
{
	return d == GD_DIR_REVERSE ? "reverse"
	       : d == GD_DIR_BIDIR ? "bidir"
				   : "forward";
}

static struct json_object *gd_phase_memory(struct gd_session *s,
					   const struct gd_phase *ph)
{
	struct json_object *m = json_object_new_object(), *r;
	const struct gd_local_buf *lb = &s->local[ph->client_place];

	const struct gd_remote_buf *rb = &s->remote[ph->server_place];
	struct json_object *l = lb->ok ? gd_mem_describe(&lb->mem)
				       : json_object_new_string(lb->why_absent);

	/* --mr_per_qp: the keys of each QP's own MR, either end's */
	if (lb->ok && lb->num_qp_mr)
		json_object_object_add(
			l, "qp_rkeys",
			gd_keys_json(lb->qp_rkeys, lb->num_qp_mr));
	json_object_object_add(m, "local", l);
	if (rb->memory) {
		r = json_object_get(rb->memory);
		if (rb->num_rkeys)
			json_object_object_add(
				r, "qp_rkeys",
				gd_keys_json(rb->rkeys, rb->num_rkeys));
	} else {
		r = json_object_new_object();
		json_object_object_add(
			r, "error",
			json_object_new_string(
				s->remote[ph->server_place].why_absent));
	}
	json_object_object_add(m, "remote", r);
	return m;
}

void gd_outcome_free(struct gd_step_outcome *o)
{
	json_object_put(o->counters_local);
	json_object_put(o->counters_remote);
	json_object_put(o->verify);
	memset(o, 0, sizeof(*o));
}

/* One entry per step of the phase (size, then round): each keeps its
 * own counter window. */
static struct json_object *
gd_steps_json(const struct gd_session *s, const struct gd_step_outcome *outs,
	      const struct gd_rounds *rd, uint64_t *app_bytes,
	      struct json_object **cl, struct json_object **cr)
{
	struct json_object *arr = json_object_new_array();

	*app_bytes = 0;
	for (unsigned int i = 0; i < s->num_sizes * rd->stride; i++) {
		unsigned int z = i / rd->stride, r = i % rd->stride;
		const struct gd_step_outcome *o = &outs[i];
		struct json_object *e;

		if (r >= rd->done[z])
			continue;
		e = json_object_new_object();
		json_object_object_add(
			e, "size_bytes",
			json_object_new_int64((int64_t)s->sizes[z]));
		if (rd->stride > 1)
			json_object_object_add(e, "repeat",
					       json_object_new_int((int)r + 1));
		json_object_object_add(
			e, "status",
			json_object_new_string(o->ok	? "ok"
					       : o->ran ? "failed"
							: "skipped"));
		if (!o->ok)
			json_object_object_add(
				e, "error", json_object_new_string(o->error));
		if (o->verify)
			json_object_object_add(e, "verify",
					       json_object_get(o->verify));
		json_object_object_add(e, "counters_local",
				       json_object_get(o->counters_local));
		json_object_object_add(e, "counters_remote",
				       json_object_get(o->counters_remote));
		json_object_array_add(arr, e);
		gd_counters_merge(cl, o->counters_local);
		gd_counters_merge(cr, o->counters_remote);
		if (o->ok)
			*app_bytes += o->res.app_bytes;
	}
	return arr;
}

/* Send tests: what the target received against what was sent (warm-up
 * included on both counts); unreliable transports may drop. */
static void gd_row_delivery(struct json_object *row,
			    const struct gd_step_outcome *o)
{
	uint64_t sent = o->res.msgs_done, got = o->target_received;

	json_object_object_add(row, "messages_sent",
			       json_object_new_int64((int64_t)sent));
	json_object_object_add(row, "messages_received",
			       json_object_new_int64((int64_t)got));
	json_object_object_add(
		row, "lost_pct",
		json_object_new_double(sent && got < sent
					       ? 100.0 * (double)(sent - got) /
							 (double)sent
					       : 0));
}

/* One size of a phase: its row, then what only some runs carry. */
static struct json_object *gd_report_size(struct gd_session *s, int idx,
					  const struct gd_phase *ph,
					  const struct gd_step_outcome *o,
					  uint64_t size_bytes)
{
	bool cpu = s->o->cpu_util && o->res.cpu_util_pct >= 0;
	struct json_object *row;

	if (cpu)
		gd_report_cpu_util(s->rep, size_bytes, o->res.cpu_util_pct);
	if (o->res.is_bw && ph->dir == GD_DIR_BIDIR)
		row = gd_report_bidir_row(s->rep, idx, &o->res.bw,
					  o->has_peer_bw ? &o->peer_bw : NULL);
	else if (o->res.is_bw)
		row = gd_report_bw_row(s->rep, idx, &o->res.bw);
	else
		row = gd_report_lat_row(s->rep, idx, &o->res.lat, size_bytes,
					o->res.lat.samples);
	if (!row)
		return NULL;
	if (cpu)
		json_object_object_add(
			row, "cpu_util_pct",
			json_object_new_double(o->res.cpu_util_pct));
	if (s->test->verb->target_recv && o->res.is_bw &&
	    ph->dir != GD_DIR_BIDIR)
		gd_row_delivery(row, o);
	return row;
}

/* The figure a repeat is ranked by: average bandwidth (both directions
 * for bidir), or typical latency. */
double gd_outcome_figure(const struct gd_step_outcome *o,
			 const struct gd_phase *ph)
{
	if (!o->res.is_bw)
		return o->res.lat.typical_us;
	if (ph->dir == GD_DIR_BIDIR && o->has_peer_bw)
		return o->res.bw.avg_MiBps + o->peer_bw.avg_MiBps;
	return o->res.bw.avg_MiBps;
}

static struct json_object *gd_sample_json(const struct gd_step_outcome *o,
					  const struct gd_phase *ph,
					  uint64_t size_bytes, unsigned int r)
{
	struct json_object *j;

	if (o->res.is_bw) {
		struct gd_bw_summary bw = o->res.bw;

		if (ph->dir == GD_DIR_BIDIR && o->has_peer_bw) {
			bw.iters += o->peer_bw.iters;
			bw.peak_MiBps += o->peer_bw.peak_MiBps;
			bw.avg_MiBps += o->peer_bw.avg_MiBps;
			bw.msg_rate_Mpps += o->peer_bw.msg_rate_Mpps;
		}
		j = gd_bw_summary_json(&bw);
	} else {
		j = gd_lat_summary_json(&o->res.lat);
		json_object_object_add(
			j, "size_bytes",
			json_object_new_int64((int64_t)size_bytes));
		json_object_object_add(
			j, "iterations",
			json_object_new_int64((int64_t)o->res.lat.samples));
	}
	json_object_object_add(j, "repeat", json_object_new_int((int)r + 1));
	return j;
}

static struct json_object *gd_spread_json(const struct gd_spread *sp)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "n", json_object_new_int((int)sp->n));
	json_object_object_add(j, "median", json_object_new_double(sp->median));
	json_object_object_add(j, "min", json_object_new_double(sp->min));
	json_object_object_add(j, "max", json_object_new_double(sp->max));
	json_object_object_add(j, "mean", json_object_new_double(sp->mean));
	json_object_object_add(j, "cv_pct", json_object_new_double(sp->cv_pct));
	json_object_object_add(
		j, "high",
		json_object_new_boolean(sp->cv_pct > GD_SPREAD_HIGH_PCT));
	return j;
}

/* The rounds of one size that succeeded (@ok, their count returned), the
 * spread of their ranking figure and the median's position in @ok; 0 when
 * none did. */
static unsigned int gd_size_median(const struct gd_phase *ph,
				   const struct gd_step_outcome *o,
				   unsigned int n, unsigned int *ok,
				   struct gd_spread *sp, size_t *m)
{
	unsigned int k = 0;
	double fig[GD_MAX_REPEAT];

	for (unsigned int r = 0; r < n; r++)
		if (o[r].ok) {
			fig[k] = gd_outcome_figure(&o[r], ph);
			ok[k++] = r;
		}
	if (!k || gd_spread_of(fig, k, sp))
		return 0;
	*m = gd_median_index(fig, k);
	return k;
}

/*
 * --repeat: one size's N outcomes (round order). The row is the median
 * repeat's, with the spread of the ranking figure and every repeat under
 * "samples"; a failed repeat is left out here and fails the phase.
 */
static void gd_report_size_rep(struct gd_session *s, int idx,
			       const struct gd_phase *ph,
			       const struct gd_step_outcome *o,
			       uint64_t size_bytes, unsigned int n, bool rounds)
{
	unsigned int k, ok[GD_MAX_REPEAT];
	struct json_object *row, *samples;
	struct gd_spread sp;
	size_t m;

	if (!n)
		return; /* never reached: a fatal error ended the sweep first */
	if (!rounds) {
		if (o[0].ok)
			gd_report_size(s, idx, ph, &o[0], size_bytes);
		return;
	}
	k = gd_size_median(ph, o, n, ok, &sp, &m);
	if (!k)
		return;
	gd_report_next_spread(s->rep, &sp);
	row = gd_report_size(s, idx, ph, &o[ok[m]], size_bytes);
	if (!row)
		return;
	samples = json_object_new_array();
	for (unsigned int i = 0; i < k; i++)
		json_object_array_add(
			samples,
			gd_sample_json(&o[ok[i]], ph, size_bytes, ok[i]));
	json_object_object_add(row, "repeats", json_object_new_int((int)n));
	json_object_object_add(row, "median_repeat",
			       json_object_new_int((int)ok[m] + 1));
	json_object_object_add(row, "spread", gd_spread_json(&sp));
	json_object_object_add(row, "samples", samples);
}

void gd_sweep_report_phase(struct gd_session *s, unsigned int p,
			   const struct gd_step_outcome *outs,
			   const struct gd_rounds *rd)
{
	struct gd_phase *ph = &s->phases[p];
	unsigned int st = rd->stride;
	struct json_object *cl = NULL, *cr = NULL, *counters, *steps;
	char placement[sizeof(ph->name)];
	uint64_t app_bytes;
	int idx;
	const struct gd_step_outcome *first_fail = NULL;

	snprintf(placement, sizeof(placement), "%.*s",
		 (int)strcspn(ph->name, ":"), ph->name);
	idx = gd_report_phase_begin(s->rep, ph->name, placement,
				    gd_dir_name(ph->dir),
				    gd_phase_memory(s, ph));
	for (unsigned int z = 0; z < s->num_sizes; z++) {
		gd_report_size_rep(s, idx, ph, &outs[z * st], s->sizes[z],
				   rd->done[z], st > 1);
		for (unsigned int r = 0; r < rd->done[z] && !first_fail; r++)
			if (!outs[z * st + r].ok)
				first_fail = &outs[z * st + r];
	}
	steps = gd_steps_json(s, outs, rd, &app_bytes, &cl, &cr);
	counters = json_object_new_object();
	json_object_object_add(counters, "local", cl);
	json_object_object_add(counters, "remote", cr);
	gd_report_phase_set(s->rep, idx, "counters", counters);
	gd_report_phase_set(s->rep, idx, "app_bytes",
			    json_object_new_int64((int64_t)app_bytes));
	gd_report_phase_set(s->rep, idx, "steps", steps);
	if (s->test->verb->imm && s->test->measure == GD_MEASURE_LAT)
		gd_report_phase_set(
			s->rep, idx, "completion_method",
			json_object_new_string(
				s->use_imm
					? "write-with-immediate, receive completion polled"
					: "write, last byte of the buffer polled"));
	if (first_fail)
		gd_report_phase_fail(s->rep, idx,
				     first_fail->err ? first_fail->err
						     : -ECANCELED,
				     first_fail->error, first_fail->stage);
}

void gd_sweep_live_size(struct gd_session *s, unsigned int p, unsigned int z,
			const struct gd_step_outcome *o, unsigned int n,
			bool rounds)
{
	const struct gd_phase *ph = &s->phases[p];
	struct gd_live_row row = {
		.phase = ph->name,
		.direction = gd_dir_name(ph->dir),
		.phase_column = s->num_phases > 1,
		.size_bytes = s->sizes[z],
		.cpu_util_pct = -1,
	};
	unsigned int ok[GD_MAX_REPEAT];
	struct gd_spread sp;
	size_t m = 0;

	if (s->is_server || !n)
		return;
	if (rounds) {
		if (!gd_size_median(ph, o, n, ok, &sp, &m))
			return;
		o = &o[ok[m]];
		row.spread = &sp;
	} else if (!o->ok) {
		return;
	}
	row.is_bw = o->res.is_bw;
	row.bw = o->res.bw;
	/* the document's bidirectional row is the sum of both directions */
	row.bidir = o->res.is_bw && ph->dir == GD_DIR_BIDIR;
	row.c2s_MiBps = o->res.bw.avg_MiBps;
	if (row.bidir && o->has_peer_bw) {
		row.s2c_MiBps = o->peer_bw.avg_MiBps;
		row.bw.iters += o->peer_bw.iters;
		row.bw.peak_MiBps += o->peer_bw.peak_MiBps;
		row.bw.avg_MiBps += o->peer_bw.avg_MiBps;
		row.bw.msg_rate_Mpps += o->peer_bw.msg_rate_Mpps;
	}
	row.lat = o->res.lat;
	row.iters = o->res.lat.samples;
	if (s->o->cpu_util && o->res.cpu_util_pct >= 0)
		row.cpu_util_pct = o->res.cpu_util_pct;
	gd_report_live_row(s->rep, &row);
}
