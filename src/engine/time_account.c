/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The run's time account: where the wall time of an invocation went, so
 * that the cost outside the measured windows (what makes one sweep slower
 * than the same curves run by perftest) can be seen and cut. Each stage
 * and each step part is the gap between two consecutive clock readings;
 * what the sweep spent between its steps is the sweep's time less its
 * steps', so the parts add up to the wall time by construction, and the
 * document says so (closure_s).
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "engine/time_account.h"

static const char *const gd_acct_stage_key[GD_ACCT_STAGES] = {
	"preflight_s", "connect_s", "handshake_s", "device_s",	 "memory_s",
	"qp_s",	       "sweep_s",   "report_s",	   "teardown_s",
};

double gd_acct_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void gd_acct_start_on(struct gd_time_account *a, double (*now_s)(void))
{
	memset(a, 0, sizeof(*a));
	a->now_s = now_s;
	a->start_s = a->mark_s = now_s();
}

void gd_acct_start(struct gd_time_account *a)
{
	gd_acct_start_on(a, gd_acct_now_s);
}

double gd_acct_mark(struct gd_time_account *a, enum gd_acct_stage stage)
{
	double now = a->now_s ? a->now_s() : gd_acct_now_s();

	if (a->start_s > 0 && stage < GD_ACCT_STAGES)
		a->stage_s[stage] += now - a->mark_s;
	a->mark_s = now;
	return now;
}

double gd_step_times_total(const struct gd_step_times *t)
{
	return t->agree_s + t->prepare_s + t->start_s + t->transfer_s +
	       t->counters_s + t->verify_s + t->exchange_s;
}

static void gd_times_add(struct gd_step_times *sum,
			 const struct gd_step_times *t)
{
	sum->agree_s += t->agree_s;
	sum->prepare_s += t->prepare_s;
	sum->start_s += t->start_s;
	sum->transfer_s += t->transfer_s;
	sum->window_s += t->window_s;
	sum->counters_s += t->counters_s;
	sum->verify_s += t->verify_s;
	sum->exchange_s += t->exchange_s;
}

void gd_acct_add_step(struct gd_time_account *a, unsigned int p,
		      const char *name, const struct gd_step_times *t)
{
	if (p >= GD_ACCT_MAX_PHASES)
		return;
	if (p >= a->num_phases)
		a->num_phases = p + 1;
	a->phase_name[p] = name;
	a->steps[p]++;
	gd_times_add(&a->step[p], t);
}

static void gd_jd(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

static struct json_object *gd_times_json(const struct gd_step_times *t,
					 unsigned int steps)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "steps", json_object_new_int((int)steps));
	gd_jd(o, "agree_s", t->agree_s);
	gd_jd(o, "prepare_s", t->prepare_s);
	gd_jd(o, "start_s", t->start_s);
	gd_jd(o, "window_s", t->window_s);
	gd_jd(o, "warmup_and_drain_s", t->transfer_s - t->window_s);
	gd_jd(o, "counters_s", t->counters_s);
	gd_jd(o, "verify_s", t->verify_s);
	gd_jd(o, "exchange_s", t->exchange_s);
	gd_jd(o, "total_s", gd_step_times_total(t));
	return o;
}

struct json_object *gd_acct_json(const struct gd_time_account *a, char *line,
				 unsigned long len)
{
	struct json_object *j = json_object_new_object(), *ph, *st;
	struct gd_step_times all = { 0 };
	double wall = a->mark_s - a->start_s, sum = 0, setup = 0, between;
	unsigned int nsteps = 0;

	for (unsigned int p = 0; p < a->num_phases; p++) {
		gd_times_add(&all, &a->step[p]);
		nsteps += a->steps[p];
	}
	between = a->stage_s[GD_ACCT_STEPS] - gd_step_times_total(&all);
	gd_jd(j, "wall_s", wall);
	st = json_object_new_object();
	for (unsigned int i = 0; i < GD_ACCT_STAGES; i++) {
		gd_jd(st, gd_acct_stage_key[i], a->stage_s[i]);
		sum += a->stage_s[i];
		if (i < GD_ACCT_STEPS)
			setup += a->stage_s[i];
	}
	json_object_object_add(j, "stages", st);
	st = gd_times_json(&all, nsteps);
	gd_jd(st, "between_steps_s", between);
	json_object_object_add(j, "steps", st);
	ph = json_object_new_array();
	for (unsigned int p = 0; p < a->num_phases; p++) {
		struct json_object *o = gd_times_json(&a->step[p], a->steps[p]);

		json_object_object_add(
			o, "name",
			json_object_new_string(
				a->phase_name[p] ? a->phase_name[p] : "?"));
		json_object_array_add(ph, o);
	}
	json_object_object_add(j, "phases", ph);
	/* wall less every stage: 0 but for rounding, as the stages are
	 * consecutive clock readings */
	gd_jd(j, "closure_s", wall - sum);
	gd_jd(j, "window_share", wall > 0 ? all.window_s / wall : 0);
	if (line)
		snprintf(
			line, len,
			" Time: %.1f s: measured windows %.1f s (%.0f%%), warm-up and drain %.1f, counter snapshots %.1f, step agreement and start %.1f, result exchange %.1f, prepare %.1f, verify %.1f, between steps %.1f; setup %.1f (memory %.1f), report %.1f, teardown %.1f",
			wall, all.window_s,
			wall > 0 ? 100 * all.window_s / wall : 0,
			all.transfer_s - all.window_s, all.counters_s,
			all.agree_s + all.start_s, all.exchange_s,
			all.prepare_s, all.verify_s, between, setup,
			a->stage_s[GD_ACCT_MEMORY], a->stage_s[GD_ACCT_REPORT],
			a->stage_s[GD_ACCT_TEARDOWN]);
	return j;
}
