/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One error path for the whole program: the first failure is recorded with
 * its context (what failed, on which device/GPU/peer, what to check next) and
 * main prints it once, to stderr and into the JSON document.
 */
#ifndef GD_ERROR_H
#define GD_ERROR_H

#include <stdbool.h>
#include <stddef.h>

#define GD_ERR_MSG_MAX 1024

/*
 * Record an error unless one is already recorded, and return @err so callers
 * can write "return gd_err(-ENOMEM, ...)". @err is a negative errno.
 */
int gd_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like gd_err() but replaces an earlier error (used when a later, more
 * precise diagnosis supersedes a generic one). */
int gd_err_replace(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool gd_err_is_set(void);
int gd_err_code(void);
const char *gd_err_msg(void);
/*
 * The recorded error as every program prints it: "@prog: error: MSG", one
 * line on stderr (a line break inside MSG, as a library's message may
 * carry, becomes a blank). The benchmarks' report layer prints the same
 * shape through gd_report_error.
 */
void gd_err_print(const char *prog);
void gd_err_clear(void);
/*
 * For callers to whom a failure is an observation (the envelope, probes):
 * copy the message @ret left into @msg and restore the first-error slot to
 * what it was before the call (@was_set: gd_err_is_set() then), so a run's
 * own error is never overwritten or cleared. Without a recorded message,
 * @msg is strerror(@ret).
 */
void gd_err_take(bool was_set, int ret, char *msg, size_t len);

/* The kernel's internal ENOTSUPP, which drivers let reach user space:
 * NVIDIA's dma-buf attach answers it for a PCI topology it cannot map. */
#define GD_ENOTSUPP 524

/* errno value -> "ENOMEM" etc. (the numeric code stays in messages too). */
const char *gd_errno_name(int err);

#endif
