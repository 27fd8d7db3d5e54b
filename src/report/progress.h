/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The progress line on a terminal's stderr: which step of the sweep runs
 * (phase, size, round) and the time left, rewritten in place and cleared
 * before any other line is printed. Formatting and the estimate are pure.
 */
#ifndef GD_REPORT_PROGRESS_H
#define GD_REPORT_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gd_progress_mode {
	GD_PROGRESS_AUTO = 0, /* a line when stderr is a terminal */
	GD_PROGRESS_NONE,
	GD_PROGRESS_LINE,
};

/* The step about to run, and how far the sweep has come. */
struct gd_progress {
	const char *tool;
	const char *phase;
	uint64_t size_bytes;
	unsigned int round, rounds; /* 1-based round of this size, of N */
	bool rounds_at_most;	    /* --precision: N is the most, not all */
	unsigned long done, total;  /* steps finished, steps in the sweep */
	double elapsed_s;	    /* since the sweep's first step */
	double step_s;		    /* -D: each step's length, 0 when unknown */
};

/* "none", "line" or "auto", exactly; NULL is auto. 0 or -EINVAL. */
int gd_progress_mode_parse(const char *word, enum gd_progress_mode *mode);
/* Does @mode show the line, when stderr is a terminal or not? */
bool gd_progress_enabled(enum gd_progress_mode mode, bool stderr_is_tty);
/* Seconds left: the time per finished step times the steps left, or -D's
 * length before any step finished; -1 when nothing says. */
double gd_progress_eta_s(const struct gd_progress *p);
/* "gd_write_bw: DD:rev 65536 B, round 2/3, step 10/92, 0:12 left" into
 * @buf; returns @buf. */
char *gd_progress_format(char *buf, size_t len, const struct gd_progress *p);
/* Show @p on stderr in place of the previous line. */
void gd_progress_show(const struct gd_progress *p);
/* Erase the line, if one shows; every other printer calls this first. */
void gd_progress_clear(void);

#endif
