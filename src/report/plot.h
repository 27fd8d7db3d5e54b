/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --plot=FILE.svg: a gnuplot script with one curve per phase (bandwidth or
 * latency against size on a log-2 axis), written next to the SVG and run
 * when gnuplot is on PATH. Without gnuplot the script is still written.
 */
#ifndef GD_PLOT_H
#define GD_PLOT_H

#include <stddef.h>

struct json_object;

/* Returned (positive) when the script was written but gnuplot is absent. */
#define GD_PLOT_NO_GNUPLOT 1

/*
 * Write the script to @svg_path with ".svg" replaced by ".gp" (".gp"
 * appended otherwise) and run "gnuplot SCRIPT" to produce @svg_path.
 * Returns 0 (SVG written), GD_PLOT_NO_GNUPLOT (script only; @note says
 * "gnuplot not installed: wrote script X; run gnuplot X"), or -errno
 * (recorded with gd_err). @note may be NULL.
 */
int gd_plot_write(struct json_object *doc, const char *svg_path, char *note,
		  size_t note_len);

#endif
