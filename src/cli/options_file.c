/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --config=FILE: a lab's fixed sweep kept under version control, in the
 * "key = value" format of gd_plan's --config, keys being long option names.
 * The file is applied before the command line and skips what the command
 * line gives or excludes, so the command line wins; the run records the
 * file's path, its SHA-256 and the settings it did not take.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/keyval.h"
#include "util/opt.h"
#include "cli/options.h"
#include "cli/options_priv.h"

struct gd_cfg_ctx {
	const struct gd_test *test;
	struct gd_opts *o;
	const struct gd_opts *cl; /* what the command line gave */
	const char *path;
};

/*
 * Options that exclude each other (gd_opts_validate refuses both given):
 * one of a group on the command line drops the others from the file, so
 * that a lab's file of "iters = 5000" still runs with -D 10.
 */
static const char *const gd_cfg_exclusive[][4] = {
	{ "all", "size", "sizes", NULL },
	{ "duration", "iters", NULL },
	{ "run_infinitely", "repeat", "all", NULL },
	{ "mem", "use_cuda", "use_cuda_bus_id", "use_hugepages" },
};

/* Does the command line give @name, or an option that excludes it? */
static bool gd_cfg_overridden(const struct gd_opts *cl, const char *name)
{
	if (gd_opts_given(cl, name))
		return true;
	for (size_t g = 0;
	     g < sizeof(gd_cfg_exclusive) / sizeof(gd_cfg_exclusive[0]); g++) {
		const char *const *grp = gd_cfg_exclusive[g];
		bool member = false, other = false;

		for (size_t i = 0; i < 4 && grp[i]; i++) {
			if (!strcmp(grp[i], name))
				member = true;
			else if (gd_opts_given(cl, grp[i]))
				other = true;
		}
		if (member && other)
			return true;
	}
	return false;
}

static int gd_cfg_flag(const char *value, bool *on)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcmp(value, yes[i]) || !strcmp(value, no[i])) {
			*on = !strcmp(value, yes[i]);
			return 0;
		}
	}
	return -EINVAL;
}

/* The recorded error, prefixed with the file and line it came from. */
static int gd_cfg_where(const struct gd_cfg_ctx *c, int lineno)
{
	char msg[GD_ERR_MSG_MAX];

	snprintf(msg, sizeof(msg), "%s", gd_err_msg());
	return gd_err_replace(-EINVAL, "--config: %s line %d: %s", c->path,
			      lineno, msg);
}

/*
 * A key that is no whole option name. A file outlives releases, and a
 * later one may make an abbreviation ambiguous (gdperf(7) COMMAND LINE), so
 * a file's keys are whole names: an abbreviation is named with the option
 * it stands for, a near miss with the option meant.
 */
static int gd_cfg_unknown(const struct gd_cfg_ctx *c, const char *key,
			  int lineno)
{
	const char **names = calloc(GD_NOPTS, sizeof(*names));
	const char *near;
	size_t idx, len = strlen(key);
	int ret;

	if (!names)
		return gd_err(-ENOMEM, "--config: out of memory");
	for (size_t i = 0; i < GD_NOPTS; i++)
		names[i] = gd_opt_table[i].long_name;
	if (gd_opt_match(key, len, names, GD_NOPTS, &idx) == GD_OPT_PREFIX)
		ret = gd_err(
			-EINVAL,
			"--config: %s line %d: '%s' abbreviates '%s'; keys in a file are whole option names (a later release may make an abbreviation ambiguous)",
			c->path, lineno, key, names[idx]);
	else if ((near = gd_opt_suggest(key, len, names, GD_NOPTS)))
		ret = gd_err(
			-EINVAL,
			"--config: %s line %d: '%s' is not an option of %s; did you mean '%s'? (keys are long option names without '--')",
			c->path, lineno, key, c->test->name, near);
	else
		ret = gd_err(
			-EINVAL,
			"--config: %s line %d: '%s' is not an option of %s; keys are long option names without '--' (see %s --help)",
			c->path, lineno, key, c->test->name, c->test->name);
	free(names);
	return ret;
}

static int gd_cfg_set(void *arg, const char *key, const char *value, int lineno)
{
	struct gd_cfg_ctx *c = arg;
	int idx = gd_opt_find(key, strlen(key));
	const struct gd_opt_def *d;
	bool on = true;

	if (idx < 0) {
		if (gd_perftest_refusal(c->test, key, strlen(key), 0, NULL) !=
		    -ENOENT)
			return gd_cfg_where(c, lineno);
		return gd_cfg_unknown(c, key, lineno);
	}
	d = &gd_opt_table[idx];
	if (!strcmp(d->long_name, "config") || !strcmp(d->long_name, "help") ||
	    !strcmp(d->long_name, "version"))
		return gd_err(-EINVAL,
			      "--config: %s line %d: '%s' is not a setting",
			      c->path, lineno, key);
	if (gd_opt_check_applies(c->test, d))
		return gd_cfg_where(c, lineno);
	if (d->type == GD_T_FLAG && gd_cfg_flag(value, &on))
		return gd_err(
			-EINVAL,
			"--config: %s line %d: %s takes yes or no, not '%s'",
			c->path, lineno, key, value);
	if (gd_cfg_overridden(c->cl, d->long_name)) {
		if (c->o->config_overridden_count < GD_CONFIG_MAX_OVERRIDDEN)
			c->o->config_overridden
				[c->o->config_overridden_count++] =
				d->long_name;
		return 0;
	}
	if (!on)
		return 0;
	/* "key =" means the empty string for a string option; a number,
	 * flag word or enum needs a value (gd_opt_store would parse NULL) */
	if (!*value && d->type != GD_T_STR && d->type != GD_T_JSONOPT)
		return gd_err(-EINVAL, "--config: %s line %d: %s needs a value",
			      c->path, lineno, key);
	if (gd_opt_store(d, c->o, *value ? value : NULL))
		return gd_cfg_where(c, lineno);
	gd_opt_mark_given(c->o, (size_t)idx);
	return 0;
}

/* The file named by --config on the command line, if any: "--config=F" or
 * "--config F", up to a "--" that ends the options. */
static const char *gd_cfg_path(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--config=", 9))
			return argv[i] + 9;
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			return argv[i + 1];
	}
	return NULL;
}

int gd_opts_load_config(const struct gd_test *test, int argc, char **argv,
			struct gd_opts *o, const struct gd_opts *cl)
{
	struct gd_cfg_ctx c = { .test = test, .o = o, .cl = cl };

	c.path = gd_cfg_path(argc, argv);
	if (!c.path)
		return 0;
	return gd_keyval_load(c.path, "--config", gd_cfg_set, &c,
			      o->config_sha256);
}
