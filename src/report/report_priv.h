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
};

/* report.c: the error object of the document and of a failed phase. */
struct json_object *gd_report_error_obj(int err, const char *msg);

#endif
