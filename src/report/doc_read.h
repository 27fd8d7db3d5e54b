/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Readers of a run document's phases (tolerant: a missing field reads as
 * its default) and a bounded string builder for evidence text.
 */
#ifndef GD_DOC_READ_H
#define GD_DOC_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "util/json_get.h"

struct json_object;

#define GD_SBUF_LEN 1024

struct gd_sbuf {
	char buf[GD_SBUF_LEN];
	size_t len;
};

void gd_sb_add(struct gd_sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

const char *gd_phase_placement(struct json_object *phase);
const char *gd_phase_direction(struct json_object *phase);
bool gd_phase_ok(struct json_object *phase);
bool gd_phase_has_device(struct json_object *phase);
/* Is the document a latency test (doc.test.measure, else results keys)? */
bool gd_doc_is_lat(struct json_object *doc);

#endif
