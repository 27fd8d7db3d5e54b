/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The run report's state, shared by its two halves: report.c (the tables
 * and the document's sections) and report_out.c (notices, and writing the
 * document when the run ends).
 */
#ifndef GD_REPORT_PRIV_H
#define GD_REPORT_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"
#include "util/infer.h"

/* perftest's rule line: scripts split tables on it. */
#define GD_REPORT_RULE                                                         \
	"---------------------------------------------------------------------------------------"

struct gd_report_hdr_line {
	char *label;
	char *value;
};

struct gd_report {
	struct gd_report_cfg cfg;
	FILE *text;	/* NULL when text is off or --output=X */
	FILE *only_out; /* --output=X numbers; NULL when off */
	struct json_object *root;
	struct json_object *header;
	struct json_object *phases;
	struct gd_report_hdr_line *hdr;
	size_t n_hdr, cap_hdr;
	bool table_open;
	bool error_set;
	bool spread_pending; /* --repeat: the next row's spread */
	struct gd_spread spread;
	bool live_open;	  /* the live table's column header is out */
	bool in_live_row; /* report_live.c is printing a row */
};

/* report.c: the column header and one row's line, on rep->text. */
void gd_report_columns(struct gd_report *rep);
void gd_report_bw_text(struct gd_report *rep, const struct gd_bw_summary *bw);
void gd_report_lat_text(struct gd_report *rep, const struct gd_lat_summary *lat,
			uint64_t size_bytes, uint64_t iters);
/* -b: the line after a row with each direction and their sum. */
void gd_report_bidir_line(struct gd_report *rep, uint64_t size_bytes,
			  double c2s_MiBps, double s2c_MiBps, double sum_MiBps);

/* No row line now: no text, or the rows came live (cfg.live) and this is
 * the document's copy at the end of the run. */
static inline bool gd_report_rows_quiet(const struct gd_report *rep)
{
	return !rep->text || (rep->cfg.live && !rep->in_live_row);
}

/* report.c: the error object of the document and of a failed phase. */
struct json_object *gd_report_error_obj(int err, const char *msg);

#endif
