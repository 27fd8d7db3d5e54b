/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * util/opt.c, the command-line manners of every program: matching whole
 * names and abbreviations, suggestions, the one wording of option errors,
 * and the companion tools' parser (values, clusters, "--", the arguments
 * after the options).
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/error.h"
#include "util/exit.h"
#include "util/opt.h"

static const char *const names[] = { "size", "sizes",  "min-size", "min-bw",
				     NULL,   "ib_dev", "reverse",  "reversed" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void test_match(void **state)
{
	size_t idx = 99;

	(void)state;
	assert_int_equal(gd_opt_match("size", 4, names, NNAMES, &idx),
			 GD_OPT_EXACT);
	assert_int_equal(idx, 0);
	assert_int_equal(gd_opt_match("reverse", 7, names, NNAMES, &idx),
			 GD_OPT_EXACT);
	assert_int_equal(idx, 6);
	assert_int_equal(gd_opt_match("min-s", 5, names, NNAMES, &idx),
			 GD_OPT_PREFIX);
	assert_int_equal(idx, 2);
	/* '-' and '_' are one letter */
	assert_int_equal(gd_opt_match("min_b", 5, names, NNAMES, &idx),
			 GD_OPT_PREFIX);
	assert_int_equal(idx, 3);
	assert_int_equal(gd_opt_match("ib-d", 4, names, NNAMES, &idx),
			 GD_OPT_PREFIX);
	assert_int_equal(idx, 5);
	assert_int_equal(gd_opt_match("min", 3, names, NNAMES, &idx),
			 GD_OPT_AMBIGUOUS);
	assert_int_equal(gd_opt_match("siz", 3, names, NNAMES, &idx),
			 GD_OPT_AMBIGUOUS);
	assert_int_equal(gd_opt_match("sizex", 5, names, NNAMES, &idx),
			 GD_OPT_UNKNOWN);
	assert_int_equal(gd_opt_match("", 0, names, NNAMES, &idx),
			 GD_OPT_UNKNOWN);
}

static void test_suggest(void **state)
{
	(void)state;
	assert_string_equal(gd_opt_suggest("sise", 4, names, NNAMES), "size");
	assert_string_equal(gd_opt_suggest("min-szie", 8, names, NNAMES),
			    "min-size");
	assert_string_equal(gd_opt_suggest("revresed", 8, names, NNAMES),
			    "reversed");
	/* nothing near, or two as near ("reversd": reverse, reversed) */
	assert_null(gd_opt_suggest("reversd", 7, names, NNAMES));
	assert_null(gd_opt_suggest("frobnicate", 10, names, NNAMES));
	assert_null(gd_opt_suggest(
		"min-bx", 6, (const char *const[]){ "min-bw", "min-by" }, 2));
}

static void test_err_name(void **state)
{
	(void)state;
	gd_err_clear();
	assert_int_equal(gd_opt_err_name("gd_x", "sise", 4, names, NNAMES),
			 -EINVAL);
	assert_string_equal(gd_err_msg(), "unknown option --sise; did you "
					  "mean --size? (see gd_x --help)");
	gd_err_clear();
	gd_opt_err_name("gd_x", "rev", 3, names, NNAMES);
	assert_string_equal(gd_err_msg(), "option --rev is ambiguous: "
					  "--reverse, --reversed; see gd_x "
					  "--help");
	gd_err_clear();
	gd_opt_err_name("gd_x", "zzz", 3, names, NNAMES);
	assert_string_equal(gd_err_msg(),
			    "unknown option --zzz; see gd_x --help");
	gd_err_clear();
}

enum { T_PLAN = 1, T_QUIET, T_JSON, T_NUM };
static const struct gd_opt topts[] = {
	{ NULL, 0, GD_OPT_NOARG, NULL, "Inputs", 0, 0 },
	{ "plan", 'p', GD_OPT_ARG, "FILE", "a plan", T_PLAN, 0 },
	{ "quiet", 'q', GD_OPT_NOARG, NULL, "quiet", T_QUIET, 0 },
	{ "json", 0, GD_OPT_OPTARG, "FILE", "json", T_JSON, 0 },
	{ "number", 'n', GD_OPT_ARG, "N", "a number", T_NUM, 0 },
	{ "help", 'h', GD_OPT_NOARG, NULL, "this help", GD_OPT_ID_HELP, 0 },
};
static const struct gd_opt_prog tprog = {
	.name = "gd_t",
	.usage = "Usage: gd_t [options] ARG...",
	.opts = topts,
	.n = sizeof(topts) / sizeof(topts[0]),
	.exits = GD_EXIT_ALL,
};

struct seen {
	char log[256];
};

static int record(void *ctx, const struct gd_opt *o, const char *arg)
{
	struct seen *s = ctx;
	size_t n = strlen(s->log);

	if (o->id == T_NUM && strcmp(arg, "7"))
		return gd_err(-EINVAL, "--number: '%s' is not 7", arg);
	snprintf(s->log + n, sizeof(s->log) - n, "%s=%s;", o->long_name,
		 arg ? arg : "-");
	return 0;
}

/* Parse the NULL-terminated @words after "gd_t"; *@first as returned. */
static int parse(struct seen *s, char **argv, int *first,
		 const char *const *words)
{
	int argc = 1;

	argv[0] = (char *)"gd_t";
	while (words[argc - 1]) {
		argv[argc] = (char *)words[argc - 1];
		argc++;
	}
	memset(s, 0, sizeof(*s));
	gd_err_clear();
	return gd_opt_parse(&tprog, argc, argv, record, s, first);
}

#define PARSE(s, argv, first, ...)                                             \
	parse((s), (argv), (first), (const char *const[]){ __VA_ARGS__, NULL })

static void test_parse(void **state)
{
	struct seen s;
	char *argv[16];
	int first;

	(void)state;
	assert_int_equal(PARSE(&s, argv, &first, "a", "--pl", "x.json", "-qn7",
			       "b", "--json", "--json=o.json", "--", "-c"),
			 0);
	assert_string_equal(s.log,
			    "plan=x.json;quiet=-;number=7;json=-;json=o.json;");
	/* the arguments after the options, in their order */
	assert_int_equal(first, 7);
	assert_string_equal(argv[first], "a");
	assert_string_equal(argv[first + 1], "b");
	assert_string_equal(argv[first + 2], "-c");
	assert_int_equal(PARSE(&s, argv, &first, "-p", "f", "-pg", "-"), 0);
	assert_string_equal(s.log, "plan=f;plan=g;");
	assert_string_equal(argv[first], "-");
}

static void test_parse_errors(void **state)
{
	struct seen s;
	char *argv[16];
	int first;

	(void)state;
	assert_int_equal(PARSE(&s, argv, &first, "--plna", "x"), -EINVAL);
	assert_string_equal(gd_err_msg(), "unknown option --plna; did you "
					  "mean --plan? (see gd_t --help)");
	PARSE(&s, argv, &first, "--plan");
	assert_string_equal(gd_err_msg(),
			    "option --plan needs an argument (FILE)");
	PARSE(&s, argv, &first, "-p");
	assert_string_equal(gd_err_msg(), "option -p needs an argument (FILE)");
	PARSE(&s, argv, &first, "--quiet=yes");
	assert_string_equal(gd_err_msg(),
			    "option --quiet takes no value; give it alone");
	PARSE(&s, argv, &first, "-x");
	assert_string_equal(gd_err_msg(), "unknown option -x; see gd_t --help");
	/* a heading is no option */
	PARSE(&s, argv, &first, "--Inputs");
	assert_string_equal(gd_err_msg(),
			    "unknown option --Inputs; see gd_t --help");
	/* the handler's error stops the parse, its message kept */
	assert_int_equal(PARSE(&s, argv, &first, "-n", "8", "-q"), -EINVAL);
	assert_string_equal(gd_err_msg(), "--number: '8' is not 7");
	assert_string_equal(s.log, "");
	gd_err_clear();
}

static void test_help(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	gd_opt_usage(&tprog, f);
	fclose(f);
	assert_non_null(strstr(text, "Usage: gd_t [options] ARG...\n\n"
				     "Inputs:\n"
				     "  -p, --plan=FILE         a plan\n"
				     "  -q, --quiet             quiet\n"
				     "      --json[=FILE]       json\n"));
	assert_non_null(strstr(text, "\nExit status: 0 all passed, 1 a "
				     "runtime or output error,\n2 usage or "
				     "unreadable input, 3 a gate failed, 4 a "
				     "gate undecided.\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_err_name),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
