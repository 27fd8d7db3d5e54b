/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The result lines of the GPU smoke programs: "PASS what" or "FAIL what:
 * why", every one an asserted check, counted for the exit status. Header
 * only: each smoke program is a single translation unit.
 */
#ifndef GD_SMOKE_REPORT_H
#define GD_SMOKE_REPORT_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static int smoke_failures;

static void __attribute__((format(printf, 2, 3)))
step(const char *verdict, const char *fmt, ...)
{
	va_list ap;

	if (!strcmp(verdict, "FAIL"))
		smoke_failures++;
	printf("%-4s ", verdict);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	gd_err_clear();
}

/* PASS when @ok, else FAIL with the recorded error. */
static void check(int ok, const char *what)
{
	if (ok)
		step("PASS", "%s", what);
	else
		step("FAIL", "%s: %s", what,
		     gd_err_is_set() ? gd_err_msg() : "check failed");
}

#endif
