/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * SIGINT and SIGTERM end a run early but cleanly: the handler only records
 * which signal came (async-signal-safe); the side channel's waits, the sweep
 * and the measured loops look at it, stop, tell the peer and report what
 * was measured. A second signal of the same kind ends the process at once.
 */
#ifndef GD_STOP_H
#define GD_STOP_H

#include <stdbool.h>

/* Install the handler for SIGINT and SIGTERM (SA_RESETHAND: the second one
 * takes the default action). 0 or -errno with a message recorded. */
int gd_stop_install(void);
/* The signal that asked the run to stop, 0 while none has. */
int gd_stop_signal(void);
/* Forget a received signal (tests; the handler stays as installed). */
void gd_stop_reset(void);
/* "SIGINT", "SIGTERM", or "signal N". */
const char *gd_stop_signal_name(int sig);
/* The exit status of a run that @sig interrupted: 128 + @sig, as shells
 * report a command a signal ended (130 for SIGINT, 143 for SIGTERM). */
int gd_stop_exit_status(int sig);
bool gd_stop_is_exit_status(int status);

/*
 * What this thread's run is doing, for the interruption report
 * ("waiting for a client on port 18515", "phase DD size 65536 round 2").
 * Kept per thread like gd_err; never touched by the handler.
 */
void gd_stop_during(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *gd_stop_during_text(void);

#endif
