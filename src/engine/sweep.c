/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sweep: sizes, phases (placement x direction), the order both sides
 * walk them in (interleaved A B A B per size by default), and handing the
 * per-phase results to the report once every step has run.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "engine/session.h"
#include "engine/sweep.h"

#define GD_LAT_MAX_SAMPLES (50ULL * 1000 * 1000)

static int gd_plan_sizes(struct gd_session *s)
{
	const struct gd_opts *o = s->o;

	s->num_sizes = 0;
	if (!o->all_sizes) {
		s->sizes[s->num_sizes++] = o->size_bytes;
		return 0;
	}
	for (uint64_t sz = o->min_size_bytes; sz <= o->max_size_bytes;
	     sz *= 2) {
		if (s->num_sizes == GD_MAX_SIZES)
			return gd_err(-E2BIG, "too many sizes in the -a sweep");
		s->sizes[s->num_sizes++] = sz;
	}
	return 0;
}

static int gd_place_of(char c, enum gd_place *p)
{
	if (c == 'H')
		*p = GD_PLACE_HOST;
	else if (c == 'D')
		*p = GD_PLACE_DEV;
	else
		return -EINVAL;
	return 0;
}

static int gd_add_phase(struct gd_session *s, const char *tok, enum gd_dir dir)
{
	struct gd_phase *ph;

	if (s->num_phases == GD_MAX_PHASES)
		return gd_err(-E2BIG, "too many phases (at most %d)",
			      GD_MAX_PHASES);
	ph = &s->phases[s->num_phases];
	memset(ph, 0, sizeof(*ph));
	if (strlen(tok) != 2 || gd_place_of(tok[0], &ph->client_place) ||
	    gd_place_of(tok[1], &ph->server_place))
		return gd_err(
			-EINVAL,
			"--phases: '%s' is not a placement; use HH, DD, HD or DH (client side first)",
			tok);
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (!strncmp(s->phases[i].name, tok, 2) &&
		    s->phases[i].dir == dir)
			return gd_err(-EINVAL, "--phases: '%s' is listed twice",
				      tok);
	ph->dir = dir;
	snprintf(ph->name, sizeof(ph->name), "%s%s", tok,
		 dir == GD_DIR_REVERSE ? ":rev"
		 : dir == GD_DIR_BIDIR ? ":bidir"
				       : "");
	s->num_phases++;
	return 0;
}

static int gd_plan_phases(struct gd_session *s)
{
	char *list = strdup(s->o->phases ? s->o->phases : "HH");
	enum gd_dir dir = s->o->bidir ? GD_DIR_BIDIR : GD_DIR_FORWARD;
	char *save = NULL;
	unsigned int forward;
	int ret = 0;

	s->num_phases = 0;
	for (char *t = strtok_r(list, ",", &save); t && !ret;
	     t = strtok_r(NULL, ",", &save))
		ret = gd_add_phase(s, t, dir);
	free(list);
	if (!ret && !s->num_phases)
		ret = gd_err(-EINVAL, "--phases names no phase");
	forward = s->num_phases;
	if (!ret && s->o->reverse && !s->o->bidir)
		for (unsigned int i = 0; i < forward && !ret; i++) {
			char tok[3] = { s->phases[i].name[0],
					s->phases[i].name[1], 0 };

			ret = gd_add_phase(s, tok, GD_DIR_REVERSE);
		}
	return ret;
}

static bool gd_plan_has_device(const struct gd_session *s)
{
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (s->phases[i].client_place == GD_PLACE_DEV ||
		    s->phases[i].server_place == GD_PLACE_DEV)
			return true;
	return false;
}

/* A paired run must send the same way in every phase, and device buffers
 * cannot be sent inline (options.c refuses an explicit -I with GPU memory). */
static int gd_plan_inline(struct gd_session *s)
{
	struct gd_opts *o = s->o;

	if (!gd_plan_has_device(s))
		return 0;
	o->inline_bytes = 0;
	return 0;
}

int gd_sweep_plan(struct gd_session *s)
{
	const struct gd_opts *o = s->o;
	int ret = gd_plan_sizes(s);

	if (!ret)
		ret = gd_plan_phases(s);
	if (ret)
		return ret;
	/* The CPU cannot poll device memory, so write latency with any
	 * device phase completes through write-with-immediate, and every
	 * phase uses the same method so only the memory path differs. */
	s->use_imm = o->write_with_imm;
	for (unsigned int i = 0; i < s->num_phases; i++)
		if (s->test->verb->imm && s->test->measure == GD_MEASURE_LAT &&
		    (s->phases[i].client_place == GD_PLACE_DEV ||
		     s->phases[i].server_place == GD_PLACE_DEV))
			s->use_imm = true;
	ret = gd_plan_inline(s);
	if (ret || s->test->measure != GD_MEASURE_LAT)
		return ret;
	s->samples_cap =
		o->duration_s ? GD_LAT_MAX_SAMPLES : o->iters + o->warmup_iters;
	if (s->samples_cap > GD_LAT_MAX_SAMPLES)
		return gd_err(-E2BIG,
			      "-n %" PRIu64
			      " is too many latency samples (at most %llu)",
			      o->iters, GD_LAT_MAX_SAMPLES);
	s->samples_ns = calloc(s->samples_cap, sizeof(uint64_t));
	if (!s->samples_ns)
		return gd_err(-ENOMEM, "cannot allocate %zu latency samples",
			      s->samples_cap);
	return 0;
}

/* Sum the per-size counter deltas of a phase into one phase delta. */
static void gd_counters_accumulate(struct json_object **acc,
				   struct json_object *add)
{
	struct json_object *ac, *bc;
	static const char *const sums[] = { "tx_bytes", "rx_bytes",
					    "tx_packets", "rx_packets" };

	if (!add || !json_object_object_get_ex(add, "counters", &bc))
		return;
	if (!*acc) {
		*acc = NULL;
		json_object_deep_copy(add, acc, NULL);
		return;
	}
	if (!json_object_object_get_ex(*acc, "counters", &ac))
		return;
	for (size_t i = 0; i < json_object_array_length(bc); i++) {
		struct json_object *b = json_object_array_get_idx(bc, i), *bn,
				   *bd;

		json_object_object_get_ex(b, "name", &bn);
		json_object_object_get_ex(b, "delta", &bd);
		for (size_t j = 0; j < json_object_array_length(ac); j++) {
			struct json_object *a = json_object_array_get_idx(ac,
									  j),
					   *an, *ad;

			json_object_object_get_ex(a, "name", &an);
			if (!an || !bn ||
			    strcmp(json_object_get_string(an),
				   json_object_get_string(bn)))
				continue;
			json_object_object_get_ex(a, "delta", &ad);
			json_object_set_int64(
				ad, json_object_get_int64(ad) +
					    json_object_get_int64(bd));
		}
	}
	for (size_t i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		struct json_object *a, *b;

		if (json_object_object_get_ex(*acc, sums[i], &a) &&
		    json_object_object_get_ex(add, sums[i], &b) &&
		    json_object_is_type(a, json_type_int) &&
		    json_object_is_type(b, json_type_int))
			json_object_set_int64(a,
					      json_object_get_int64(a) +
						      json_object_get_int64(b));
	}
	json_object_object_get_ex(add, "errors_moved", &bc);
	json_object_object_get_ex(*acc, "errors_moved", &ac);
	for (size_t i = 0; bc && ac && i < json_object_array_length(bc); i++)
		json_object_array_add(
			ac, json_object_get(json_object_array_get_idx(bc, i)));
}

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

	json_object_object_add(m, "local",
			       lb->ok ? gd_mem_describe(&lb->mem)
				      : json_object_new_string(lb->why_absent));
	if (s->remote[ph->server_place].memory) {
		r = json_object_get(s->remote[ph->server_place].memory);
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

static void gd_outcome_free(struct gd_step_outcome *o)
{
	json_object_put(o->counters_local);
	json_object_put(o->counters_remote);
	json_object_put(o->verify);
	memset(o, 0, sizeof(*o));
}

static struct json_object *gd_steps_json(struct gd_step_outcome *outs,
					 unsigned int n, const uint64_t *sizes,
					 uint64_t *app_bytes,
					 struct json_object **cl,
					 struct json_object **cr)
{
	struct json_object *arr = json_object_new_array();

	*app_bytes = 0;
	for (unsigned int z = 0; z < n; z++) {
		struct gd_step_outcome *o = &outs[z];
		struct json_object *e = json_object_new_object();

		json_object_object_add(
			e, "size_bytes",
			json_object_new_int64((int64_t)sizes[z]));
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
		gd_counters_accumulate(cl, o->counters_local);
		gd_counters_accumulate(cr, o->counters_remote);
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
static void gd_report_size(struct gd_session *s, int idx,
			   const struct gd_phase *ph,
			   const struct gd_step_outcome *o, uint64_t size_bytes)
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
		return;
	if (cpu)
		json_object_object_add(
			row, "cpu_util_pct",
			json_object_new_double(o->res.cpu_util_pct));
	if (s->test->verb->target_recv && o->res.is_bw &&
	    ph->dir != GD_DIR_BIDIR)
		gd_row_delivery(row, o);
}

static void gd_report_phase(struct gd_session *s, unsigned int p,
			    struct gd_step_outcome *outs)
{
	struct gd_phase *ph = &s->phases[p];
	struct json_object *cl = NULL, *cr = NULL, *counters, *steps;
	char placement[3] = { ph->name[0], ph->name[1], 0 };
	uint64_t app_bytes;
	int idx;
	const struct gd_step_outcome *first_fail = NULL;

	idx = gd_report_phase_begin(s->rep, ph->name, placement,
				    gd_dir_name(ph->dir),
				    gd_phase_memory(s, ph));
	for (unsigned int z = 0; z < s->num_sizes; z++) {
		if (outs[z].ok)
			gd_report_size(s, idx, ph, &outs[z], s->sizes[z]);
		else if (!first_fail)
			first_fail = &outs[z];
	}
	steps = gd_steps_json(outs, s->num_sizes, s->sizes, &app_bytes, &cl,
			      &cr);
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

void gd_sweep_order(const struct gd_session *s, unsigned int step,
		    unsigned int *phase, unsigned int *size_idx)
{
	unsigned int np = s->num_phases, nz = s->num_sizes;

	/* Interleaved: every phase at one size before the next size, so a
	 * drifting machine cannot pass for a memory-path difference. */
	*phase = s->o->no_interleave ? step / nz : step % np;
	*size_idx = s->o->no_interleave ? step % nz : step / np;
}

int gd_sweep_run(struct gd_session *s)
{
	unsigned int np = s->num_phases, nz = s->num_sizes, step = 0;
	struct gd_step_outcome *outs = calloc((size_t)np * nz, sizeof(*outs));
	char fatal_msg[600] = "";
	int fatal = 0;

	if (!outs)
		return gd_err(-ENOMEM, "cannot allocate the step table");
	for (unsigned int i = 0; i < np * nz; i++) {
		unsigned int p, z;
		struct gd_step_outcome *o;

		gd_sweep_order(s, i, &p, &z);
		o = &outs[p * nz + z];

		if (fatal) {
			snprintf(o->error, sizeof(o->error), "not run: %s",
				 fatal_msg);
			continue;
		}
		fatal = gd_step_run(s, step++, &s->phases[p], s->sizes[z], o);
		if (fatal)
			snprintf(fatal_msg, sizeof(fatal_msg), "%s",
				 gd_err_msg());
	}
	if (!s->is_server)
		for (unsigned int p = 0; p < np; p++)
			gd_report_phase(s, p, &outs[p * nz]);
	for (unsigned int i = 0; i < np * nz; i++)
		gd_outcome_free(&outs[i]);
	free(outs);
	return fatal;
}

struct json_object *gd_sweep_describe(const struct gd_session *s)
{
	struct json_object *t = gd_opts_describe(s->test, s->o);
	struct json_object *sizes = json_object_new_array();

	for (unsigned int z = 0; z < s->num_sizes; z++)
		json_object_array_add(
			sizes, json_object_new_int64((int64_t)s->sizes[z]));
	json_object_object_add(t, "sizes_bytes", sizes);
	return t;
}
