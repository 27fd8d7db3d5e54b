/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The --mem grammar: parsing a spec (kind, GPU by index or PCI address,
 * registration route) and formatting it back, and the route names.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

/* The words of the grammar; each backend's ops name is the same word. */
static const char *const gd_mem_kind_names[GD_MEM_KIND_COUNT] = {
	[GD_MEM_HOST] = "host",
	[GD_MEM_HUGEPAGE] = "hugepage",
	[GD_MEM_CUDA] = "cuda",
};

const char *gd_mem_kind_name(enum gd_mem_kind kind)
{
	if ((unsigned int)kind >= GD_MEM_KIND_COUNT)
		return "unknown";
	return gd_mem_kind_names[kind];
}

static const char *const gd_mem_route_names[] = {
	[GD_ROUTE_AUTO] = "auto",
	[GD_ROUTE_PLAIN] = "plain",
	[GD_ROUTE_PEERMEM] = "peermem",
	[GD_ROUTE_DMABUF] = "dmabuf",
};

#define GD_GPU_INDEX_MAX 1023

const char *gd_mem_route_name(enum gd_mem_route route)
{
	if ((unsigned int)route >=
	    sizeof(gd_mem_route_names) / sizeof(gd_mem_route_names[0]))
		return "unknown";
	return gd_mem_route_names[route];
}

static int gd_mem_parse_route(const char *text, enum gd_mem_route *route)
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
 * four-digit-domain form the CUDA driver and sysfs use. */
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

static bool gd_parse_gpu_index(const char *s, int *index)
{
	char *end;
	long v;

	if (!*s || !isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > GD_GPU_INDEX_MAX)
		return false;
	*index = (int)v;
	return true;
}

static bool gd_parse_gpu_ref(const char *s, struct gd_mem_spec *spec)
{
	if (gd_parse_gpu_index(s, &spec->gpu_index)) {
		spec->gpu_bus_id[0] = '\0';
		return true;
	}
	spec->gpu_index = -1;
	return gd_parse_bdf(s, spec->gpu_bus_id, sizeof(spec->gpu_bus_id));
}

static int gd_mem_parse_cuda(const char *text, const char *rest,
			     struct gd_mem_spec *spec)
{
	char ref[GD_MEM_SPEC_MAX];
	char *colon;

	spec->kind = GD_MEM_CUDA;
	spec->route = GD_ROUTE_AUTO;
	if (strlen(rest) >= sizeof(ref))
		return gd_err(-EINVAL, "--mem '%s' is too long", text);
	strcpy(ref, rest);
	if (gd_parse_gpu_ref(ref, spec))
		return 0;
	colon = strrchr(ref, ':');
	if (colon) {
		*colon = '\0';
		if (gd_parse_gpu_ref(ref, spec)) {
			if (!gd_mem_parse_route(colon + 1, &spec->route))
				return 0;
			return gd_err(
				-EINVAL,
				"--mem '%s': unknown registration route '%s' (expected auto, dmabuf or peermem)",
				text, colon + 1);
		}
	}
	return gd_err(
		-EINVAL,
		"--mem '%s': GPU '%s' is neither an index (0..%d) nor a PCI bus id (0000:17:00.0); expected cuda:N[:auto|dmabuf|peermem] or cuda:BDF[:route]",
		text, rest, GD_GPU_INDEX_MAX);
}

int gd_mem_spec_parse(const char *text, struct gd_mem_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->gpu_index = -1;
	spec->route = GD_ROUTE_PLAIN;
	if (!text)
		return gd_err(-EINVAL, "--mem needs a value");
	if (!strcmp(text, "host")) {
		spec->kind = GD_MEM_HOST;
		return 0;
	}
	if (!strcmp(text, "hugepage")) {
		spec->kind = GD_MEM_HUGEPAGE;
		return 0;
	}
	if (!strncmp(text, "cuda:", 5))
		return gd_mem_parse_cuda(text, text + 5, spec);
	return gd_err(
		-EINVAL,
		"--mem '%s': unknown memory type (expected host, hugepage, cuda:N[:auto|dmabuf|peermem] or cuda:BDF[:route])",
		text);
}

void gd_mem_spec_format(const struct gd_mem_spec *spec, char *buf, size_t len)
{
	const char *route = "";

	if (spec->kind != GD_MEM_CUDA) {
		snprintf(buf, len, "%s", gd_mem_kind_name(spec->kind));
		return;
	}
	if (spec->route == GD_ROUTE_DMABUF || spec->route == GD_ROUTE_PEERMEM)
		route = spec->route == GD_ROUTE_DMABUF ? ":dmabuf" : ":peermem";
	if (spec->gpu_bus_id[0])
		snprintf(buf, len, "cuda:%s%s", spec->gpu_bus_id, route);
	else
		snprintf(buf, len, "cuda:%d%s", spec->gpu_index, route);
}
