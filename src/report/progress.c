/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The progress line: one line of stderr, rewritten with carriage return and
 * erase-to-end-of-line, so that a long sweep shows it is alive and how long
 * it still needs. It is erased before any other line is printed.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "report/progress.h"

/* Carriage return, then erase to the end of the line (ECMA-48 EL). */
#define GD_PROGRESS_ERASE "\r\033[K"

/* One per process: notices, which have no report, erase it too. */
static bool gd_progress_shown;

int gd_progress_mode_parse(const char *word, enum gd_progress_mode *mode)
{
	static const char *const names[] = { "auto", "none", "line" };

	for (unsigned int i = 0; i < 3; i++)
		if (!word || !strcmp(word, names[i])) {
			*mode = word ? (enum gd_progress_mode)i
				     : GD_PROGRESS_AUTO;
			return 0;
		}
	return gd_err(
		-EINVAL,
		"--progress: '%s' is not one of the accepted values none, line, auto",
		word);
}

bool gd_progress_enabled(enum gd_progress_mode mode, bool stderr_is_tty)
{
	return mode == GD_PROGRESS_LINE ||
	       (mode == GD_PROGRESS_AUTO && stderr_is_tty);
}

double gd_progress_eta_s(const struct gd_progress *p)
{
	unsigned long left = p->total > p->done ? p->total - p->done : 0;

	if (p->done && p->elapsed_s > 0)
		return p->elapsed_s / (double)p->done * (double)left;
	if (p->step_s > 0)
		return p->step_s * (double)left;
	return -1;
}

/* "1:02:03" or "2:03" */
static void gd_progress_hms(char *buf, size_t len, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

char *gd_progress_format(char *buf, size_t len, const struct gd_progress *p)
{
	double eta = gd_progress_eta_s(p);
	char hms[32], left[48] = "time left unknown";

	if (eta >= 0) {
		gd_progress_hms(hms, sizeof(hms), eta);
		snprintf(left, sizeof(left), "%s left%s", hms,
			 p->rounds_at_most ? " at most" : "");
	}
	snprintf(buf, len,
		 "%s: %s %" PRIu64 " B, round %u/%s%u, step %lu/%lu, %s",
		 p->tool ? p->tool : "gdperf", p->phase ? p->phase : "",
		 p->size_bytes, p->round, p->rounds_at_most ? "<=" : "",
		 p->rounds, p->done + 1, p->total, left);
	return buf;
}

void gd_progress_show(const struct gd_progress *p)
{
	char line[160];

	/* a line wider than the terminal wraps, and the carriage return
	 * would then rewrite only its last part: 79 columns at most */
	fprintf(stderr, GD_PROGRESS_ERASE "%.79s",
		gd_progress_format(line, sizeof(line), p));
	fflush(stderr);
	gd_progress_shown = true;
}

void gd_progress_clear(void)
{
	if (!gd_progress_shown)
		return;
	fputs(GD_PROGRESS_ERASE, stderr);
	fflush(stderr);
	gd_progress_shown = false;
}
