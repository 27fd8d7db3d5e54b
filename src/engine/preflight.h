/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The checks an end makes before it listens or connects (preflight.c).
 */
#ifndef GD_PREFLIGHT_H
#define GD_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/opts.h"

/*
 * Open this side's device, port and GID and close them again; with
 * @memory, also allocate and free a page of each memory this side was
 * given (--mem, --use_hugepages). 0, or the first failure recorded with
 * its next check. @ready (may be NULL) gets "rxe0 port 1, memory: host,
 * cuda:0" for the line that says what the end will serve.
 */
int gd_preflight(const struct gd_opts *o, bool memory, char *ready, size_t len);

#endif
