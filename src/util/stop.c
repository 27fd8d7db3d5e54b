/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The stop request of SIGINT and SIGTERM (see stop.h): one flag written by
 * the handler, read by whoever waits or loops, and the words that say what
 * the run was doing when it came.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/stop.h"

#define GD_STOP_DURING_MAX 160

static volatile sig_atomic_t gd_stop_sig;
static _Thread_local char gd_stop_during_buf[GD_STOP_DURING_MAX];

static void gd_stop_handler(int sig)
{
	gd_stop_sig = sig;
}

int gd_stop_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = gd_stop_handler;
	sigemptyset(&sa.sa_mask);
	/* SA_RESTART: a library's read or ioctl (verbs, CUDA) must not fail
	 * on the way out; the waits that matter (poll, nanosleep) return
	 * EINTR whatever the flag and look at gd_stop_sig. The first signal
	 * asks, the second one ends. */
	sa.sa_flags = SA_RESTART | SA_RESETHAND;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return gd_err(
				-errno, "cannot install the %s handler: %s",
				gd_stop_signal_name(sigs[i]), strerror(errno));
	return 0;
}

int gd_stop_signal(void)
{
	return gd_stop_sig;
}

void gd_stop_reset(void)
{
	gd_stop_sig = 0;
}

const char *gd_stop_signal_name(int sig)
{
	static _Thread_local char buf[24];

	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

int gd_stop_exit_status(int sig)
{
	return 128 + sig;
}

bool gd_stop_is_exit_status(int status)
{
	return status == 128 + SIGINT || status == 128 + SIGTERM;
}

void gd_stop_during(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(gd_stop_during_buf, sizeof(gd_stop_during_buf), fmt, ap);
	va_end(ap);
}

const char *gd_stop_during_text(void)
{
	return gd_stop_during_buf[0] ? gd_stop_during_buf : "setup";
}
