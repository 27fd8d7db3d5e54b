/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The exit statuses of all twelve programs, the eight benchmarks and
 * gd_plan, gd_report, gd_compare and gd_doctor: one table, kept here and
 * in gdperf(7) EXIT STATUS. SIGINT and SIGTERM end a run with 128 + the
 * signal (util/stop.h).
 */
#ifndef GD_EXIT_H
#define GD_EXIT_H

#include <stddef.h>

enum gd_exit {
	/* all passed: every phase ran, every gate and check held */
	GD_EXIT_OK = 0,
	/* a runtime or output error: a device, a peer, memory, a run that
	 * failed, an output that could not be written (the message names it) */
	GD_EXIT_FAIL = 1,
	/* usage or unreadable input: the command line, or a file the program
	 * was given to read (JSON, plan, hosts, topology) that it cannot read
	 * or refuses */
	GD_EXIT_USAGE = 2,
	/* a gate failed: a pass/fail limit, a coverage requirement or a
	 * gd_doctor check was not met */
	GD_EXIT_GATE_FAILED = 3,
	/* a gate undecided: not enough evidence, and --gate-undecided=fail */
	GD_EXIT_GATE_UNDECIDED = 4,
};

/* A set of statuses, for the ones a program can reach. */
#define GD_EXIT_BIT(status) (1u << (status))
#define GD_EXIT_ALL 0x1fu

/* The table's words for @status ("a gate failed"); NULL for another. */
const char *gd_exit_words(int status);
/*
 * The line every program's --help ends with: "Exit status: 0 all passed,
 * 1 ..." over the statuses of @set, broken between two to fit 80
 * columns, into @buf.
 */
void gd_exit_help(unsigned int set, char *buf, size_t len);

#endif
