/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The run's text while it runs: each (phase, size) row as soon as it is
 * complete, and the progress line on a terminal's stderr. The document is
 * built apart, at the end (report.c).
 */
#include <config.h>

#include <stdio.h>

#include "report/progress.h"
#include "report/report.h"
#include "report/report_priv.h"

/* The width of the leading phase column: "D1D2:bidir" and a blank. */
#define GD_LIVE_PHASE_W 11

static void gd_live_header(struct gd_report *rep, const struct gd_live_row *r)
{
	if (r->phase_column)
		fprintf(rep->text, " %-*s", GD_LIVE_PHASE_W - 1, "phase");
	else if (r->direction && *r->direction)
		fprintf(rep->text, " Phase %s (%s)\n", r->phase, r->direction);
	else
		fprintf(rep->text, " Phase %s\n", r->phase);
	gd_report_columns(rep);
	rep->live_open = true;
	rep->table_open = true;
}

void gd_report_live_row(struct gd_report *rep, const struct gd_live_row *r)
{
	gd_progress_clear();
	if (!rep || !r || !rep->text || !rep->cfg.live || rep->cfg.brief)
		return;
	if (!rep->live_open)
		gd_live_header(rep, r);
	rep->in_live_row = true;
	if (r->cpu_util_pct >= 0)
		gd_report_cpu_util(rep, r->size_bytes, r->cpu_util_pct);
	if (r->phase_column)
		fprintf(rep->text, " %-*s", GD_LIVE_PHASE_W - 1, r->phase);
	if (r->spread)
		gd_report_next_spread(rep, r->spread);
	if (r->is_bw)
		gd_report_bw_text(rep, &r->bw);
	else
		gd_report_lat_text(rep, &r->lat, r->size_bytes, r->iters);
	if (r->is_bw && r->bidir)
		gd_report_bidir_line(rep, r->bw.size_bytes, r->c2s_MiBps,
				     r->s2c_MiBps, r->bw.avg_MiBps);
	rep->in_live_row = false;
	/* a pipe is fully buffered: the row must leave now */
	fflush(rep->text);
}

void gd_report_progress(struct gd_report *rep, const struct gd_progress *p)
{
	if (rep && rep->cfg.progress && p)
		gd_progress_show(p);
}

void gd_report_progress_end(struct gd_report *rep)
{
	(void)rep;
	gd_progress_clear();
}
