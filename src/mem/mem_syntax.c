/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The words of the --mem grammar that any backend may use: route names, a
 * device by index or PCI address, and a spec in text through its backend.
 * Below the backend table, so backends call it without a call cycle.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "mem/mem_priv.h"

static const char *const gd_mem_route_names[] = {
	[GD_ROUTE_AUTO] = "auto",
	[GD_ROUTE_PLAIN] = "plain",
	[GD_ROUTE_PEERMEM] = "peermem",
	[GD_ROUTE_DMABUF] = "dmabuf",
};

const char *gd_mem_route_name(enum gd_mem_route route)
{
	if ((unsigned int)route >=
	    sizeof(gd_mem_route_names) / sizeof(gd_mem_route_names[0]))
		return "unknown";
	return gd_mem_route_names[route];
}

int gd_mem_route_parse(const char *text, enum gd_mem_route *route)
{
	if (!strcmp(text, "auto"))
		*route = GD_ROUTE_AUTO;
	else if (!strcmp(text, "dmabuf"))
		*route = GD_ROUTE_DMABUF;
	else if (!strcmp(text, "peermem"))
		*route = GD_ROUTE_PEERMEM;
	else
		return -EINVAL;
	return 0;
}

static bool gd_is_hex_run(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Accepts "DDDD:BB:DD.F" or "BB:DD.F" (hex); writes the lower-case
 * four-digit-domain form that drivers and sysfs use. */
static bool gd_parse_bdf(const char *s, char *out, size_t out_len)
{
	size_t n = strlen(s);
	const char *bdf = s;
	char domain[5] = "0000";

	if (n == 12) {
		if (!gd_is_hex_run(s, 4) || s[4] != ':')
			return false;
		memcpy(domain, s, 4);
		bdf = s + 5;
	} else if (n != 7) {
		return false;
	}
	if (!gd_is_hex_run(bdf, 2) || bdf[2] != ':' ||
	    !gd_is_hex_run(bdf + 3, 2) || bdf[5] != '.' || bdf[6] < '0' ||
	    bdf[6] > '7')
		return false;
	snprintf(out, out_len, "%s:%.7s", domain, bdf);
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return true;
}

static bool gd_parse_device_index(const char *s, int *index)
{
	char *end;
	long v;

	if (!*s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > GD_MEM_DEVICE_INDEX_MAX)
		return false;
	*index = (int)v;
	return true;
}

bool gd_mem_parse_device_ref(const char *text, struct gd_mem_spec *spec)
{
	spec->locality = GD_MEM_NAMED;
	if (!strcmp(text, "near") || !strcmp(text, "far")) {
		spec->locality = text[0] == 'n' ? GD_MEM_NEAR : GD_MEM_FAR;
		spec->gpu_index = -1;
		spec->gpu_bus_id[0] = '\0';
		return true;
	}
	if (gd_parse_device_index(text, &spec->gpu_index)) {
		spec->gpu_bus_id[0] = '\0';
		return true;
	}
	spec->gpu_index = -1;
	return gd_parse_bdf(text, spec->gpu_bus_id, sizeof(spec->gpu_bus_id));
}

void gd_mem_ops_format(const struct gd_mem_ops *ops,
		       const struct gd_mem_spec *spec, char *buf, size_t len)
{
	if (ops && ops->format)
		ops->format(spec, buf, len);
	else
		snprintf(buf, len, "%s", ops ? ops->name : "unknown");
}
