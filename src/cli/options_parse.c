/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The command line: the option table read by the parser of every program
 * (util/opt.h: whole names or unambiguous abbreviations, '-' and '_'
 * alike), perftest's refused options named with their reason, and
 * gd_opts_parse, which layers defaults, --config and the command line.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/exit.h"
#include "util/opt.h"
#include "util/version.h"
#include "cli/options.h"
#include "cli/options_priv.h"

static int gd_opt_index_of(int c)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		if (gd_opt_table[i].short_name == c)
			return (int)i;
	return -1;
}

/* The device named by -d/--ib-dev in @argv, or NULL: a refusal that asks
 * the device may come before -d is parsed. */
static const char *gd_argv_ib_dev(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-d") || !strcmp(a, "--ib-dev") ||
		    !strcmp(a, "--ib_dev"))
			return i + 1 < argc ? argv[i + 1] : NULL;
		if (!strncmp(a, "-d", 2) && a[2] != '-')
			return a + 2;
		if (!strncmp(a, "--ib-dev=", 9) || !strncmp(a, "--ib_dev=", 9))
			return a + 9;
	}
	return NULL;
}

/*
 * The long names a benchmark knows, into @names (room for GD_NOPTS + 2 +
 * the refused count): the table's, perftest's --bidir and
 * --report-histogram, then with @refused the perftest options gdperf
 * refuses to @test, which a perftest user may abbreviate as well.
 * Returns how many.
 */
static size_t gd_opt_names(const struct gd_test *test, bool refused,
			   const char **names)
{
	size_t n = 0;
	const char *name, *what;
	int c;

	for (size_t i = 0; i < GD_NOPTS; i++)
		names[n++] = gd_opt_table[i].long_name;
	names[n++] = "bidir";
	names[n++] = "report-histogram";
	for (size_t i = 0; refused && i < gd_opts_perftest_refused_count(); i++)
		if (gd_perftest_refused_entry(test, i, &name, &c, &what) &&
		    name)
			names[n++] = name;
	return n;
}

#define GD_OPT_NAMES_MAX (GD_NOPTS + 2 + gd_opts_perftest_refused_count())

/* One parse of a benchmark's command line (gd_opt_parse's context). */
struct gd_parse {
	const struct gd_test *test;
	struct gd_opts *o;
	const char *dev; /* -d's device, for the refusals that ask it */
	bool json_alone; /* --json without its FILE */
};

/*
 * A name not given whole, or a letter that is no option: perftest's
 * reason when it is one of perftest's options gdperf refuses, or when it
 * abbreviates one alone; an abbreviation of one of ours and one of those
 * is ambiguous (--ph is perftest's TPH hint, never --phases). Otherwise
 * the one wording of every program (0: gd_opt_parse says it).
 */
static int gd_parse_name(void *ctx, const char *typed, size_t len, int letter,
			 enum gd_opt_match m)
{
	const struct gd_parse *p = ctx;
	const char *names[GD_OPT_NAMES_MAX];
	size_t n, idx, ours = GD_NOPTS + 2;

	(void)m;
	if (letter)
		return gd_perftest_refusal(p->test, NULL, 0, letter, p->dev) !=
				       -ENOENT
			       ? gd_err_code()
			       : 0;
	if (gd_perftest_refusal(p->test, typed, len, 0, p->dev) != -ENOENT)
		return gd_err_code();
	n = gd_opt_names(p->test, true, names);
	switch (gd_opt_match(typed, len, names, n, &idx)) {
	case GD_OPT_PREFIX:
		if (idx >= ours &&
		    gd_perftest_refusal(p->test, names[idx], strlen(names[idx]),
					0, p->dev) != -ENOENT)
			return gd_err_code();
		return 0;
	case GD_OPT_AMBIGUOUS:
		return gd_opt_err_name(p->test->name, typed, len, names, n);
	default:
		return 0;
	}
}

/* One option given: refused when it does not apply to the test or is one
 * of perftest's connection types gdperf lacks, else stored and marked. */
static int gd_parse_one(void *ctx, const struct gd_opt *opt, const char *arg)
{
	struct gd_parse *p = ctx;
	const struct gd_opt_def *d = &gd_opt_table[opt->id];
	int ret = gd_opt_check_applies(p->test, d);

	if (!ret && d->type == GD_T_CONN &&
	    gd_perftest_conn_refusal(arg, p->dev) != -ENOENT)
		ret = gd_err_code();
	if (!ret)
		ret = gd_opt_store(d, p->o, arg);
	if (ret)
		return ret;
	if (d->type == GD_T_JSONOPT)
		p->json_alone = !arg;
	gd_opt_mark_given(p->o, (size_t)opt->id);
	return 0;
}

/* The option table in the form of every program's parser (util/opt.h),
 * and perftest's two other spellings of -b and -H. */
static void gd_parse_table(struct gd_opt *t)
{
	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		t[i] = (struct gd_opt){ d->long_name,
					d->short_name,
					d->type == GD_T_FLAG ? GD_OPT_NOARG
					: (d->flags & GD_F_OPTARG)
						? GD_OPT_OPTARG
						: GD_OPT_ARG,
					d->arg,
					d->help,
					(int)i,
					0 };
	}
	t[GD_NOPTS] = (struct gd_opt){ "bidir", 0,    GD_OPT_NOARG,
				       NULL,	NULL, gd_opt_index_of('b'),
				       0 };
	/* perftest's --help spells it so; its option table "histogrm" */
	t[GD_NOPTS + 1] = (struct gd_opt){
		"report-histogram",   0, GD_OPT_NOARG, NULL, NULL,
		gd_opt_index_of('H'), 0
	};
}

int gd_opts_getopt(const struct gd_test *test, int argc, char **argv,
		   struct gd_opts *o, int *first)
{
	struct gd_opt table[GD_NOPTS + 2];
	struct gd_parse p = { test, o, gd_argv_ib_dev(argc, argv), false };
	const struct gd_opt_prog prog = { .name = test->name,
					  .opts = table,
					  .n = GD_NOPTS + 2,
					  .exits = GD_EXIT_ALL,
					  .name_hook = gd_parse_name };
	size_t n;
	int ret;

	gd_parse_table(table);
	ret = gd_opt_parse(&prog, argc, argv, gd_parse_one, &p, first);
	if (ret || !p.json_alone || *first >= argc)
		return ret;
	/* --json's FILE is optional, so "--json out.json" would make
	 * out.json the server's host name: refused instead */
	n = strlen(argv[*first]);
	if (n > 5 && !strcmp(argv[*first] + n - 5, ".json"))
		return gd_err(
			-EINVAL,
			"--json takes its file attached: --json=%s ('%s' would be the server's host name)",
			argv[*first], argv[*first]);
	return 0;
}

/*
 * Defaults, then the --config file, then the command line. The command line
 * is read twice: alone first, so that the file skips what it gives or
 * excludes (the command line wins, whatever the file says), then over the
 * file's settings.
 */
static int gd_opts_command_line(const struct gd_test *test, int argc,
				char **argv, struct gd_opts *o, int *first)
{
	struct gd_opts cl;
	int ret;

	gd_opts_defaults(test, &cl);
	ret = gd_opts_getopt(test, argc, argv, &cl, first);
	gd_opts_defaults(test, o);
	o->ops = &gd_cli_opts_ops;
	if (!ret)
		ret = gd_opts_load_config(test, argc, argv, o, &cl);
	gd_opts_free(&cl);
	if (!ret)
		ret = gd_opts_getopt(test, argc, argv, o, first);
	return ret;
}

int gd_opts_parse(const struct gd_test *test, int argc, char **argv,
		  struct gd_opts *o, FILE *out)
{
	int ret, first;

	ret = gd_opts_command_line(test, argc, argv, o, &first);
	if (ret)
		return ret;
	if (o->help) {
		gd_opts_usage(test, o->help_all, out);
		return 1;
	}
	if (o->version) {
		gd_version_print(out, test->name, true);
		return 1;
	}
	if (first < argc - 1)
		return gd_err(-EINVAL,
			      "one host argument expected, got '%s' and '%s'",
			      argv[first], argv[first + 1]);
	if (first == argc - 1)
		o->server_host = strdup(argv[first]);
	if (!gd_opts_given(o, "warmup"))
		o->warmup_iters = o->iters / 10 < 100 ? o->iters / 10 : 100;
	ret = gd_opts_validate(test, o);
	return ret ? ret : gd_opts_check_cpu(o);
}
