/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The engine's entry point: one invocation's run, from parsed options to
 * the exit status. src/cli parses the command line and calls it.
 */
#ifndef GD_ENGINE_H
#define GD_ENGINE_H

#include "engine/opts.h"
#include "engine/test.h"
#include "util/exit.h" /* GD_EXIT_*, the one table of exit statuses */

/* Run @test as @o says (server, client or --loopback), report once (text
 * and JSON) and return the exit status. @argc/@argv go into the document. */
int gd_engine_run(const struct gd_test *test, struct gd_opts *o, int argc,
		  char **argv);
/*
 * --dry-run: check @o as a run would and print what it would do (phases,
 * sizes, rounds, steps, the expected time), opening, connecting and
 * writing nothing. A client's test is also adopted by @server, the options
 * of the server it is checked against (@who names it in the refusal);
 * NULL with --loopback, whose server half runs @o itself. GD_EXIT_OK, or
 * GD_EXIT_USAGE with the run's one line printed.
 */
int gd_engine_dry_run(const struct gd_test *test, struct gd_opts *o,
		      struct gd_opts *server, const char *who);

#endif
