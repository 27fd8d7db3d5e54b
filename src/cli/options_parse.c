/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The command line: getopt_long over the option table (whole names or
 * unambiguous abbreviations, '-' and '_' alike, in the manners of every
 * program: util/opt.h), perftest's refused options named with their
 * reason, and gd_opts_parse, which layers defaults, --config and the
 * command line.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/opt.h"
#include "util/version.h"
#include "cli/options.h"
#include "cli/options_priv.h"

/* Room for every option's other spelling: a hyphen for an underscore. */
#define GD_OPT_NAME_MAX 32

/* Each table option under its name and, when it has '-' or '_', under the
 * other spelling too: one naming rule for perftest's options and ours. */
static void gd_build_longopts(struct option *lo, char (*alt)[GD_OPT_NAME_MAX],
			      char *shortopts)
{
	size_t n = 0;
	char *s = shortopts;

	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];
		int has_arg = d->type == GD_T_FLAG	 ? no_argument
			      : (d->flags & GD_F_OPTARG) ? optional_argument
							 : required_argument;

		lo[n++] = (struct option){ d->long_name, has_arg, NULL,
					   256 + (int)i };
		snprintf(alt[i], GD_OPT_NAME_MAX, "%s", d->long_name);
		for (char *p = alt[i]; *p; p++)
			*p = *p == '-' ? '_' : *p == '_' ? '-' : *p;
		if (strcmp(alt[i], d->long_name))
			lo[n++] = (struct option){ alt[i], has_arg, NULL,
						   256 + (int)i };
		if (d->short_name) {
			*s++ = (char)d->short_name;
			if (d->type != GD_T_FLAG)
				*s++ = ':';
			/* -h or -hall: the argument is optional */
			if (d->flags & GD_F_OPTARG)
				*s++ = ':';
		}
	}
	lo[n++] = (struct option){ "bidir", no_argument, NULL, 'b' };
	/* perftest's --help spells it so; its option table "histogrm" */
	lo[n++] = (struct option){ "report-histogram", no_argument, NULL, 'H' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	*s = '\0';
}

static int gd_opt_index_of(int c)
{
	if (c >= 256 && c < 256 + (int)GD_NOPTS)
		return c - 256;
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

/* The option word as typed, without "--" and "=value". */
static size_t gd_typed_name(const char *word, const char **name)
{
	*name = word + 2;
	return strcspn(*name, "=");
}

/*
 * The long names a benchmark knows, into @names (room for GD_NOPTS + 2 +
 * the refused count): the table's, the two other spellings of perftest's,
 * then with @refused the perftest options gdperf refuses to @test, which a
 * perftest user may abbreviate as well. Returns how many.
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

/* getopt_long could not take @word: perftest's reason when it is one of
 * perftest's options, else the one wording of every program (util/opt.h):
 * ambiguous, or unknown with the near name it may have meant. */
static int gd_opt_unknown(const struct gd_test *test, const char *word, int c,
			  const char *dev)
{
	const char *names[GD_OPT_NAMES_MAX];
	const char *name;
	size_t len, n, idx, ours = GD_NOPTS + 2;
	enum gd_opt_match m;

	if (c > 0 && c < 256 && gd_opt_index_of(c) >= 0)
		return gd_err(-EINVAL, "option -%c needs an argument (%s)", c,
			      gd_opt_table[gd_opt_index_of(c)].arg);
	if (c > 0 && c < 256) {
		if (gd_perftest_refusal(test, NULL, 0, c, dev) != -ENOENT)
			return gd_err_code();
		return gd_err(-EINVAL, "unknown option -%c; see %s --help", c,
			      test->name);
	}
	/* a flag given a value ("--reverse=x") lands here too */
	if (c >= 256 && c < 256 + (int)GD_NOPTS && !gd_opt_table[c - 256].arg)
		return gd_err(-EINVAL,
			      "option --%s takes no value; give it alone",
			      gd_opt_table[c - 256].long_name);
	if (c >= 256 && c < 256 + (int)GD_NOPTS)
		return gd_err(-EINVAL, "option --%s needs an argument (%s)",
			      gd_opt_table[c - 256].long_name,
			      gd_opt_table[c - 256].arg);
	if (!word || strncmp(word, "--", 2))
		return gd_err(-EINVAL,
			      "unknown option near '%s'; see %s --help",
			      word ? word : "", test->name);
	len = gd_typed_name(word, &name);
	if (gd_perftest_refusal(test, name, len, 0, dev) != -ENOENT)
		return gd_err_code();
	/* an abbreviation of one of perftest's, which gdperf refuses: its
	 * reason; of it and one of ours: ambiguous */
	n = gd_opt_names(test, true, names);
	m = gd_opt_match(name, len, names, n, &idx);
	if (m == GD_OPT_PREFIX && idx >= ours &&
	    gd_perftest_refusal(test, names[idx], strlen(names[idx]), 0, dev) !=
		    -ENOENT)
		return gd_err_code();
	return gd_opt_err_name(test->name, name, len, names,
			       m == GD_OPT_AMBIGUOUS ? n : ours);
}

/* getopt_long also takes an unambiguous abbreviation, as perftest's does,
 * but knows only gdperf's names: one that also abbreviates a perftest
 * option gdperf refuses is refused as ambiguous (--ph is perftest's TPH
 * hint, never --phases). @word is what was typed. */
static int gd_opt_abbrev(const struct gd_test *test, const char *word,
			 const struct option *lo, const char *dev)
{
	const char *names[GD_OPT_NAMES_MAX];
	const char *name;
	size_t len, n, idx;

	if (!word || strncmp(word, "--", 2))
		return 0;
	len = gd_typed_name(word, &name);
	if (len == strlen(lo->name) && !strncmp(name, lo->name, len))
		return 0;
	if (gd_perftest_refusal(test, name, len, 0, dev) != -ENOENT)
		return gd_err_code();
	n = gd_opt_names(test, true, names);
	if (gd_opt_match(name, len, names, n, &idx) == GD_OPT_AMBIGUOUS)
		return gd_opt_err_name(test->name, name, len, names, n);
	return 0;
}

/* --json's FILE is optional, so "--json out.json" would make out.json the
 * server's host name; a word that looks like a file is refused instead. */
static int gd_json_word_check(const struct gd_opt_def *d, const char *arg,
			      int argc, char **argv)
{
	size_t n;

	if (d->type != GD_T_JSONOPT || arg || optind >= argc)
		return 0;
	n = strlen(argv[optind]);
	if (n > 5 && !strcmp(argv[optind] + n - 5, ".json"))
		return gd_err(
			-EINVAL,
			"--json takes its file attached: --json=%s ('%s' would be the server's host name)",
			argv[optind], argv[optind]);
	return 0;
}

/* The word getopt_long just consumed for a long option: the one before the
 * separate argument, if there was one. */
static const char *gd_opt_word(char **argv, const struct option *lo)
{
	if (optind < 1)
		return NULL;
	if (lo->has_arg == required_argument && optind >= 2 &&
	    optarg == argv[optind - 1])
		return argv[optind - 2];
	return argv[optind - 1];
}

int gd_opts_getopt(const struct gd_test *test, int argc, char **argv,
		   struct gd_opts *o)
{
	struct option lo[2 * GD_NOPTS + 3];
	char alt[GD_NOPTS][GD_OPT_NAME_MAX];
	char shortopts[GD_NOPTS * 3 + 2];
	const char *dev = gd_argv_ib_dev(argc, argv);
	int c, idx, li, ret;

	gd_build_longopts(lo, alt, shortopts);
	optind = 0; /* glibc's full reset, also of a half-parsed cluster */
	opterr = 0;
	for (;;) {
		li = -1;
		c = getopt_long(argc, argv, shortopts, lo, &li);
		if (c == -1)
			return 0;
		if (c == '?' || c == ':')
			return gd_opt_unknown(test, argv[optind - 1], optopt,
					      dev);
		if (li >= 0) {
			ret = gd_opt_abbrev(test, gd_opt_word(argv, &lo[li]),
					    &lo[li], dev);
			if (ret)
				return ret;
		}
		idx = gd_opt_index_of(c);
		if (idx < 0)
			return gd_err(-EINVAL, "unhandled option '%c'", c);
		ret = gd_opt_check_applies(test, &gd_opt_table[idx]);
		if (!ret)
			ret = gd_json_word_check(&gd_opt_table[idx], optarg,
						 argc, argv);
		if (!ret && gd_opt_table[idx].type == GD_T_CONN &&
		    gd_perftest_conn_refusal(optarg, dev) != -ENOENT)
			ret = gd_err_code();
		if (!ret)
			ret = gd_opt_store(&gd_opt_table[idx], o, optarg);
		if (ret)
			return ret;
		gd_opt_mark_given(o, (size_t)idx);
	}
}

/*
 * Defaults, then the --config file, then the command line. The command line
 * is read twice: alone first, so that the file skips what it gives or
 * excludes (the command line wins, whatever the file says), then over the
 * file's settings.
 */
static int gd_opts_command_line(const struct gd_test *test, int argc,
				char **argv, struct gd_opts *o)
{
	struct gd_opts cl;
	int ret;

	gd_opts_defaults(test, &cl);
	ret = gd_opts_getopt(test, argc, argv, &cl);
	gd_opts_defaults(test, o);
	o->ops = &gd_cli_opts_ops;
	if (!ret)
		ret = gd_opts_load_config(test, argc, argv, o, &cl);
	gd_opts_free(&cl);
	if (!ret)
		ret = gd_opts_getopt(test, argc, argv, o);
	return ret;
}

int gd_opts_parse(const struct gd_test *test, int argc, char **argv,
		  struct gd_opts *o, FILE *out)
{
	int ret;

	ret = gd_opts_command_line(test, argc, argv, o);
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
	if (optind < argc - 1)
		return gd_err(-EINVAL,
			      "one host argument expected, got '%s' and '%s'",
			      argv[optind], argv[optind + 1]);
	if (optind == argc - 1)
		o->server_host = strdup(argv[optind]);
	if (!gd_opts_given(o, "warmup"))
		o->warmup_iters = o->iters / 10 < 100 ? o->iters / 10 : 100;
	ret = gd_opts_validate(test, o);
	return ret ? ret : gd_opts_check_cpu(o);
}
