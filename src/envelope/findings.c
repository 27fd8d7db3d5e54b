/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Findings: what the inventory saw that can make a measurement wrong or
 * impossible, each with a severity, the unit it is about, and the next check.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "envelope/doctor.h"

static const char *const gd_severity_names[] = {
	[GD_SEV_INFO] = "info",
	[GD_SEV_WARNING] = "warning",
	[GD_SEV_ERROR] = "error",
};

const char *gd_severity_name(enum gd_severity sev)
{
	return sev <= GD_SEV_ERROR ? gd_severity_names[sev] : "error";
}

void gd_doctor_finding(struct gd_doctor_ctx *ctx, enum gd_severity sev,
		       const char *id, const char *subject,
		       const char *next_check, const char *fmt, ...)
{
	struct json_object *f;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f = json_object_new_object();
	if (!f)
		return;
	json_object_object_add(f, "severity",
			       json_object_new_string(gd_severity_name(sev)));
	json_object_object_add(f, "id", json_object_new_string(id));
	json_object_object_add(f, "subject", json_object_new_string(subject));
	json_object_object_add(f, "message", json_object_new_string(msg));
	json_object_object_add(f, "next_check",
			       gd_json_str_or_null(next_check));
	json_object_array_add(ctx->findings, f);
}

enum gd_severity gd_envelope_worst(struct json_object *envelope)
{
	enum gd_severity worst = GD_SEV_INFO;
	struct json_object *list, *sev;
	size_t i, n;

	if (!json_object_object_get_ex(envelope, "findings", &list))
		return worst;
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(list, i);
		const char *s;

		if (!json_object_object_get_ex(f, "severity", &sev))
			continue;
		s = json_object_get_string(sev);
		if (!strcmp(s, "error"))
			worst = GD_SEV_ERROR;
		else if (!strcmp(s, "warning") && worst < GD_SEV_WARNING)
			worst = GD_SEV_WARNING;
	}
	return worst;
}
