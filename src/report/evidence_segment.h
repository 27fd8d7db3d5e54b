/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Where the curves part, in words and in the document: the segment of an
 * assessment (util/assess_segment.h) for its evidence line and its
 * "segment" object.
 */
#ifndef GD_EVIDENCE_SEGMENT_H
#define GD_EVIDENCE_SEGMENT_H

#include <json-c/json.h>

#include "report/doc_read.h"
#include "util/assess.h"

/* "below 0.80 from 2 MiB up: 0.75 (0.73..0.77), 3 sizes (adjusted
 * p=2e-06, 36 segments); " when a segment was found, else nothing. */
void gd_ev_text_segment(const struct gd_assessment *a, struct gd_sbuf *sb);

/* The "segment" object (null when no segment could be scanned). */
struct json_object *gd_ev_segment_json(const struct gd_assessment *a);

#endif
