/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * First-error store. Thread-local so a loopback peer running as a thread
 * keeps its own diagnosis.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static _Thread_local int gd_err_code_val;
static _Thread_local char gd_err_text[GD_ERR_MSG_MAX];

static int gd_err_vset(int err, const char *fmt, va_list ap)
{
	gd_err_code_val = err ? err : -1;
	vsnprintf(gd_err_text, sizeof(gd_err_text), fmt, ap);
	return err;
}

int gd_err(int err, const char *fmt, ...)
{
	va_list ap;

	if (gd_err_code_val)
		return err;
	va_start(ap, fmt);
	gd_err_vset(err, fmt, ap);
	va_end(ap);
	return err;
}

int gd_err_replace(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gd_err_vset(err, fmt, ap);
	va_end(ap);
	return err;
}

bool gd_err_is_set(void)
{
	return gd_err_code_val != 0;
}

int gd_err_code(void)
{
	return gd_err_code_val;
}

const char *gd_err_msg(void)
{
	return gd_err_code_val ? gd_err_text : "";
}

void gd_err_clear(void)
{
	gd_err_code_val = 0;
	gd_err_text[0] = '\0';
}
