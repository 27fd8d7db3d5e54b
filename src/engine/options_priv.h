/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Private to options.c and options_wire.c: the option table's shape, the
 * table itself and the helpers both halves use.
 */
#ifndef GD_OPTIONS_PRIV_H
#define GD_OPTIONS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/options.h"

enum gd_opt_type {
	GD_T_FLAG, /* bool, no argument */
	GD_T_U64,  /* unsigned, no suffix */
	GD_T_SIZE, /* unsigned, K/M/G suffix */
	GD_T_I64,  /* signed (for -1 "unset" fields) */
	GD_T_DBL,
	GD_T_STR,
	GD_T_CONN,
	GD_T_OUTPUT,
	GD_T_LABEL,
	GD_T_JSONOPT, /* --json[=F] */
};

/* flags */
#define GD_F_TRAVELS 0x1 /* sent to the server, must match if given there */
#define GD_F_OPTARG 0x2	 /* optional argument (--json[=F]) */

struct gd_opt_def {
	const char *long_name;
	int short_name; /* 0: long only */
	enum gd_opt_type type;
	size_t offset;
	int64_t min, max;
	const char *arg;
	const char *help;
	unsigned int flags;
};

extern const struct gd_opt_def gd_opt_table[];
extern const size_t gd_opt_count;
#define GD_NOPTS gd_opt_count
extern const char *const gd_conn_names[];

/* Parse @arg for option @d into @o (range-checked, message recorded). */
int gd_opt_store(const struct gd_opt_def *d, struct gd_opts *o,
		 const char *arg);
/* Was table entry @idx given on the command line? */
bool gd_is_given(const struct gd_opts *o, size_t idx);
/* Every field at the test's default. */
void gd_opts_defaults(const struct gd_test *test, struct gd_opts *o);
/* Cross-option checks and derived values, after parsing or adopting. */
int gd_opts_validate(const struct gd_test *test, struct gd_opts *o);

/* Index in gd_opt_table of the option named by the @len bytes of @name
 * ('-' and '_' alike), or -1. */
int gd_opt_find(const char *name, size_t len);
/* Record that option @idx was given (by the command line or --config). */
void gd_opt_mark_given(struct gd_opts *o, size_t idx);

/* options_file.c: apply the --config file named in @argv, if any, but
 * none of what @cl (the command line alone) gives or excludes. */
int gd_opts_load_config(const struct gd_test *test, int argc, char **argv,
			struct gd_opts *o, const struct gd_opts *cl);
/* options_parse.c: the command line's options into @o (given marked). */
int gd_opts_getopt(const struct gd_test *test, int argc, char **argv,
		   struct gd_opts *o);

/* options_compat.c */
/* Are @a (NUL-terminated) and the @b_len bytes of @b the same option name,
 * with '-' and '_' taken as one letter? */
bool gd_opt_name_eq(const char *a, const char *b, size_t b_len);
/* A perftest option gdperf does not implement, named by long name (@name,
 * @name_len bytes) or, with @name NULL, by letter: records why, naming
 * @test, and returns -EINVAL; -ENOENT when perftest has no such option. */
int gd_perftest_refusal(const struct gd_test *test, const char *name,
			size_t name_len, int short_name);

#endif
