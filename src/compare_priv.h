/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Helpers shared by the comparison, verdict and printing files: tolerant
 * readers of the JSON document and a bounded string builder for evidence.
 */
#ifndef GD_COMPARE_PRIV_H
#define GD_COMPARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "json_get.h"

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

/* Verdicts from phases and the comparison rows; @gate_evidence holds one
 * string per failing gate (may be empty). Returns a new array. */
struct json_object *gd_verdicts_build(struct json_object *doc,
				      struct json_object *comparison,
				      const struct gd_gate_cfg *gates,
				      struct json_object *gate_evidence);

#endif
