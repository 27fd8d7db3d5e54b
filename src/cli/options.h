/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Command-line options: one table drives the parser, --help, validation and
 * which fields travel to the peer (and must match there).
 */
#ifndef GD_OPTIONS_H
#define GD_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/parse.h"

#include "engine/opts.h"

/* Does gdperf know @name as a perftest option it refuses (with a reason)? */
bool gd_opts_perftest_refused(const char *name);
size_t gd_opts_perftest_refused_count(void);
/* Parse argv for @test. 0 ok, -EINVAL usage error (message recorded),
 * 1 when --help/--version was handled (printed to @out). */
int gd_opts_parse(const struct gd_test *test, int argc, char **argv,
		  struct gd_opts *o, FILE *out);
void gd_opts_free(struct gd_opts *o);
/* A --phases entry this side (both halves, with --loopback) has no memory
 * for: -EINVAL (message recorded), else 0. gd_main applies it after the
 * parse, for a run and --dry-run alike (the sweep's unit tests plan
 * phases whose memories they never allocate). */
int gd_opts_phases_here_check(const struct gd_opts *o);
/* --help: @all adds the options that have no effect and the perftest
 * options gdperf refuses; every line fits in 80 columns. */
void gd_opts_usage(const struct gd_test *test, bool all, FILE *out);

/* The travelling fields as a JSON object (client -> server). */
struct json_object *gd_opts_to_wire(const struct gd_test *test,
				    const struct gd_opts *o);
/*
 * Server side: check every travelling field of @wire against the table's
 * limits, then against this side's own explicitly given options; adopt
 * the client's values otherwise. On mismatch returns -EINVAL and fills
 * field/ours/theirs for the REJECT frame.
 */
int gd_opts_from_wire(const struct gd_test *test, struct gd_opts *o,
		      struct json_object *wire, char *field, size_t field_len,
		      char *ours, char *theirs, size_t val_len);
/*
 * A deep copy of @src into @dst (every string and buffer its own), freed
 * with gd_opts_free: the server builds each client's request from a fresh
 * copy of its own options, so nothing of one client stays for the next.
 * 0, or -ENOMEM (recorded) with @dst holding nothing.
 */
int gd_opts_copy(struct gd_opts *dst, const struct gd_opts *src);
/* Test description object for the JSON document. */
/* Every option's effective value (defaults, --config, command line) under
 * its long name in snake_case ("ib-dev" -> "ib_dev"), and "config": {file,
 * sha256} when a --config file was read. */
struct json_object *gd_opts_effective(const struct gd_opts *o);
struct json_object *gd_opts_describe(const struct gd_test *test,
				     const struct gd_opts *o);
/* Did the user give --@long_name explicitly? */
bool gd_opts_given(const struct gd_opts *o, const char *long_name);
/* Every long option name, for the man-page consistency test. */
void gd_opts_list_long(FILE *out);

#endif
