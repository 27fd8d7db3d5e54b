/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The seconds per execution behind the worksheet's hours, from what the
 * runs will do: --seconds written as each run's -D (per size, phase and
 * round), --tool-args' own -D, or --seconds-from RUN.json, the time
 * account of a run of the same job (setup, warm-up, counter reads, the
 * sweep's steps) instead of a guess.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/plan.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/parse.h"

int gd_plan_seconds_from(struct gd_plan_cfg *c, const char *path)
{
	struct json_object *doc, *acct;
	const char *schema;
	double wall = NAN, windows = NAN;
	int ret = gd_json_load("--seconds-from", path, &doc);

	if (ret)
		return ret;
	schema = gd_json_str(doc, "schema");
	acct = gd_json_path(doc, "time_account", NULL);
	if (!schema ||
	    (strcmp(schema, "gdperf.run/4") && strcmp(schema, "gdperf.run/3") &&
	     strcmp(schema, "gdperf.run/2")))
		ret = gd_err(-EINVAL,
			     "--seconds-from %s: schema '%s' is not a run "
			     "document (gdperf.run/4, /3 or /2)",
			     path, schema ? schema : "none");
	else if (!acct || !gd_json_num(acct, "wall_s", &wall) || !(wall > 0))
		ret = gd_err(-EINVAL,
			     "--seconds-from %s: no time_account.wall_s in it; "
			     "run the job again with this gdperf, which writes "
			     "the time account",
			     path);
	if (!ret) {
		(void)gd_json_num(gd_json_path(acct, "steps", NULL), "window_s",
				  &windows);
		c->seconds = wall;
		c->seconds_src = GD_SECONDS_FROM;
		c->seconds_from_window_share = windows / wall;
		snprintf(c->seconds_from, sizeof(c->seconds_from), "%s", path);
	}
	json_object_put(doc);
	return ret;
}

const char *gd_plan_seconds_src_name(enum gd_plan_seconds_src src)
{
	static const char *const names[] = {
		[GD_SECONDS_DURATION] = "seconds",
		[GD_SECONDS_TOOL_D] = "tool-args-duration",
		[GD_SECONDS_ITERS] = "seconds-guess-iters",
		[GD_SECONDS_NO_D] = "seconds-guess-no-duration",
		[GD_SECONDS_FROM] = "seconds-from",
	};

	return names[src];
}

/* What --tool-args say about one run's length (the engine's defaults
 * otherwise: one size, -s 65536; -a from 2 bytes to 8 MiB). */
struct run_args {
	uint64_t duration_s; /* -D, 0: not given */
	bool iters;	     /* -n given */
	bool all;	     /* -a */
	long listed;	     /* sizes in --sizes, 0: none */
	uint64_t min_size, max_size;
};

/* The value of option @shrt/@lng in token @t ("-D 5", "-D5", "--duration
 * 5", "--duration=5"; the next token from @save), or NULL. */
static const char *opt_value(char *t, const char *shrt, const char *lng,
			     char **save)
{
	size_t n = strlen(lng);

	if (!strcmp(t, shrt) || !strcmp(t, lng))
		return strtok_r(NULL, " ", save);
	if (!strncmp(t, lng, n) && t[n] == '=')
		return t + n + 1;
	if (!strncmp(t, shrt, 2) && t[1] != '-' && t[2])
		return t + 2;
	return NULL;
}

static int run_args_token(struct run_args *r, char *t, char **save)
{
	const char *v;

	if (!strcmp(t, "-a") || !strcmp(t, "--all"))
		r->all = true;
	else if ((v = opt_value(t, "-D", "--duration", save)))
		return gd_parse_u64(v, "--tool-args -D", false, 1, 86400,
				    &r->duration_s);
	else if ((v = opt_value(t, "-n", "--iters", save)))
		r->iters = true;
	else if ((v = opt_value(t, "--sizes", "--sizes", save))) {
		r->listed = 1;
		while ((v = strchr(v, ',')))
			r->listed++, v++;
	} else if ((v = opt_value(t, "--min-size", "--min-size", save)))
		return gd_parse_u64(v, "--tool-args --min-size", true, 1,
				    1ULL << 32, &r->min_size);
	else if ((v = opt_value(t, "--max-size", "--max-size", save)))
		return gd_parse_u64(v, "--tool-args --max-size", true, 1,
				    1ULL << 32, &r->max_size);
	return 0;
}

static int run_args_parse(const char *args, struct run_args *r)
{
	char buf[GD_PLAN_ARGS_MAX], *save = NULL, *t;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->min_size = 2;
	r->max_size = 8u << 20;
	snprintf(buf, sizeof(buf), "%s", args);
	for (t = strtok_r(buf, " ", &save); t && !ret;
	     t = strtok_r(NULL, " ", &save))
		ret = run_args_token(r, t, &save);
	return ret;
}

/* -a: the powers of two from --min-size to --max-size. */
static long run_sizes(const struct run_args *r)
{
	uint64_t s;
	long n = 0;

	if (r->listed)
		return r->listed;
	if (!r->all)
		return 1;
	for (s = r->min_size; s <= r->max_size; s *= 2)
		n++;
	return n ? n : 1;
}

/* The latency tests without -D (ping-pong write and send). */
static bool tool_has_duration(const char *tool)
{
	const char *base = strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool;

	return strcmp(base, "gd_write_lat") && strcmp(base, "gd_send_lat");
}

int gd_plan_seconds_resolve(struct gd_plan_cfg *c)
{
	struct run_args r;
	int ret = run_args_parse(c->tool_args, &r);

	if (ret)
		return ret;
	c->run_sizes = run_sizes(&r);
	c->run_phases = strcmp(c->gpu_mem, "none") ? 2 : 1;
	c->run_steps = c->run_sizes * c->run_phases * c->tool_repeat;
	c->run_duration_s = 0;
	if (r.duration_s && c->seconds_given)
		return gd_err(
			-EINVAL,
			"--seconds %g and --tool-args' -D %llu both set a "
			"run's length; give one: --seconds S is written "
			"as each run's -D (S / (sizes x phases x rounds)), "
			"--tool-args' -D is kept as it is and counted",
			c->seconds, (unsigned long long)r.duration_s);
	if (c->seconds_from[0])
		c->seconds_src = GD_SECONDS_FROM;
	else if (r.duration_s) {
		c->seconds_src = GD_SECONDS_TOOL_D;
		c->seconds = (double)r.duration_s * c->run_steps;
	} else if (r.iters) {
		c->seconds_src = GD_SECONDS_ITERS;
	} else if (!tool_has_duration(c->tool)) {
		c->seconds_src = GD_SECONDS_NO_D;
	} else {
		/* -D is whole seconds per step: the nearest, at least 1 */
		c->seconds_src = GD_SECONDS_DURATION;
		c->run_duration_s = lround(c->seconds / c->run_steps);
		if (c->run_duration_s < 1)
			c->run_duration_s = 1;
		c->seconds = (double)c->run_duration_s * c->run_steps;
	}
	return 0;
}
