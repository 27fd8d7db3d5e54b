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
extern const char *const gd_conn_names[];

/* Parse @arg for option @d into @o (range-checked, message recorded). */
int gd_opt_store(const struct gd_opt_def *d, struct gd_opts *o,
		 const char *arg);
/* Was table entry @idx given on the command line? */
bool gd_is_given(const struct gd_opts *o, size_t idx);
/* Cross-option checks and derived values, after parsing or adopting. */
int gd_opts_validate(const struct gd_test *test, struct gd_opts *o);

#endif
