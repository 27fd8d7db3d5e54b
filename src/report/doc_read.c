/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Tolerant readers of a run document's phases, and a bounded string
 * builder for evidence: what the comparison, the verdicts and the printing
 * all read, kept apart so that none of them calls back into another.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"

void gd_sb_add(struct gd_sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->len >= sizeof(sb->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sizeof(sb->buf) - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb->len += (size_t)n;
	if (sb->len >= sizeof(sb->buf) - 1) {
		sb->len = sizeof(sb->buf) - 1;
		memcpy(sb->buf + sb->len - 3, "...", 3);
	}
}

const char *gd_phase_placement(struct json_object *phase)
{
	const char *p = gd_json_str(phase, "placement");

	if (!p)
		p = gd_json_str(phase, "name");
	return p ? p : "?";
}

const char *gd_phase_direction(struct json_object *phase)
{
	const char *d = gd_json_str(phase, "direction");

	return d ? d : "forward";
}

bool gd_phase_ok(struct json_object *phase)
{
	const char *s = gd_json_str(phase, "status");

	return s && !strcmp(s, "ok");
}

bool gd_phase_has_device(struct json_object *phase)
{
	return strchr(gd_phase_placement(phase), 'D') != NULL;
}

bool gd_doc_is_lat(struct json_object *doc)
{
	const char *m = gd_json_str(gd_json_path(doc, "test", NULL), "measure");
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	size_t n = phases ? gd_json_len(phases) : 0;

	if (m)
		return !strcmp(m, "lat");
	for (size_t i = 0; i < n; i++) {
		struct json_object *r =
			gd_json_path(gd_json_idx(phases, i), "results", NULL);
		double x;

		if (r && gd_json_len(r))
			return gd_json_num(gd_json_idx(r, 0), "lat_typical_us",
					   &x);
	}
	return false;
}
