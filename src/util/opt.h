/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The command-line manners all twelve programs share: option names matched
 * whole or by an unambiguous abbreviation ('-' and '_' alike), "did you
 * mean" for a near miss, one wording for every option error, and one
 * --help layout. Every program's options are a table that gd_opt_parse
 * reads: the companion tools' struct gd_opt, the benchmarks' option table
 * (src/cli) turned into one, with a hook for perftest's refused options.
 */
#ifndef GD_OPT_H
#define GD_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum gd_opt_arg {
	GD_OPT_NOARG,  /* --quiet */
	GD_OPT_ARG,    /* --plan=FILE or --plan FILE */
	GD_OPT_OPTARG, /* --json[=FILE]: the value attached only */
};

/* still accepted, said so in --help, no longer offered by completion */
#define GD_OPT_DEPRECATED 0x1

/*
 * One option of a companion tool, in the benchmarks' table form (name,
 * letter, argument, metavariable, help): @id is what the tool's handler
 * switches on. An entry without @long_name is a heading of --help, @help
 * its title.
 */
struct gd_opt {
	const char *long_name;
	int short_name; /* 0: long only */
	enum gd_opt_arg arg;
	const char *metavar;
	const char *help;
	int id;
	unsigned int flags; /* GD_OPT_* */
};

/* How a typed name (without "--" and "=value") matched a list of names. */
enum gd_opt_match {
	GD_OPT_EXACT,
	GD_OPT_PREFIX,	  /* an abbreviation of exactly one */
	GD_OPT_AMBIGUOUS, /* an abbreviation of several */
	GD_OPT_UNKNOWN,
};

/* The ids gd_opt_parse handles itself: --help prints the program's usage
 * (gd_opt_usage), --version its version, and parsing stops with 1. */
#define GD_OPT_ID_HELP (-1)
#define GD_OPT_ID_VERSION (-2)

/* A companion tool's command line: its name, the lines --help starts with
 * (usage and what it does), its options, and the exit statuses it can
 * return (GD_EXIT_BIT, util/exit.h) for the line --help ends with. */
struct gd_opt_prog {
	const char *name;
	const char *usage;
	const struct gd_opt *opts;
	size_t n;
	unsigned int exits;
	/*
	 * NULL, or called with the handler's context for a long name not
	 * given whole (@typed, @len bytes; @m how it matched) or a letter
	 * that is no option's: 0 to go on as the table says (an abbreviation
	 * taken, else the one wording of the error), or a -errno with its own
	 * message recorded (the benchmarks: perftest's option, refused).
	 */
	int (*name_hook)(void *ctx, const char *typed, size_t len, int letter,
			 enum gd_opt_match m);
};

/*
 * Called for each option given, in order, with its value (NULL for none):
 * 0 to go on, a -errno with the message recorded (gd_err) to stop with it,
 * or > 0 to stop there (--help, --version), which gd_opt_parse returns.
 */
typedef int (*gd_opt_fn)(void *ctx, const struct gd_opt *o, const char *arg);

/*
 * Parse @argv against the options of @prog: options and arguments may mix,
 * as with getopt_long, and "--" ends the options. The arguments are moved
 * after the options, from *@first on. Returns 0, 1 after --help or
 * --version (printed to stdout), the handler's > 0, or -EINVAL with the
 * message recorded (an unknown, ambiguous or misused option, named) or the
 * handler's error.
 */
int gd_opt_parse(const struct gd_opt_prog *prog, int argc, char **argv,
		 gd_opt_fn fn, void *ctx, int *first);
/* --help of @prog: its usage lines, its options, its exit statuses. */
void gd_opt_usage(const struct gd_opt_prog *prog, FILE *out);

/*
 * Match the @len bytes of @typed against the @n names of @names (NULL
 * entries skipped; '-' and '_' alike); *@idx is the one it names (exact or
 * prefix), or for GD_OPT_AMBIGUOUS the first it abbreviates.
 */
enum gd_opt_match gd_opt_match(const char *typed, size_t len,
			       const char *const *names, size_t n, size_t *idx);
/* The name of @names nearest the @len bytes of @typed, when one alone is
 * near enough to be what was meant (a letter or two off); else NULL. */
const char *gd_opt_suggest(const char *typed, size_t len,
			   const char *const *names, size_t n);
/*
 * The one wording of an option that was not taken, recorded with gd_err
 * and returned (-EINVAL): "unknown option --sise; did you mean --size?
 * (see PROG --help)", or "option --min is ambiguous: --min-size,
 * --min-bw, ...", for the @len bytes of @typed against @names.
 */
int gd_opt_err_name(const char *prog, const char *typed, size_t len,
		    const char *const *names, size_t n);

/* --help: where descriptions start, and the width every line fits. */
#define GD_OPT_HELP_COL 26
#define GD_OPT_HELP_WIDTH 80
/*
 * @text from column @col (where the cursor is), wrapped at
 * GD_OPT_HELP_WIDTH on blanks, continued at column @indent.
 */
void gd_opt_help_wrap(FILE *out, const char *text, size_t col, size_t indent);
/*
 * One option's line of --help in the layout of every program:
 * "  -d, --ib-dev=DEV        text" ("      --json[=FILE]" for an optional
 * value), the text wrapped at column GD_OPT_HELP_COL.
 */
void gd_opt_help_line(FILE *out, int short_name, const char *long_name,
		      enum gd_opt_arg arg, const char *metavar,
		      const char *text);
/* The @n entries of @opts as --help lists them: headings and lines. */
void gd_opt_help(FILE *out, const struct gd_opt *opts, size_t n);

#endif
