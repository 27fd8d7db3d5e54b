/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The backend table and the --mem grammar's dispatch: the leading word
 * picks the backend, which parses and formats the rest. This file knows
 * no backend's words; adding one is an enum value and a row here. It
 * also answers what the rest of the program asks of "the device backends"
 * (their envelope side, the one advice speaks for, per-run settings).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

static const struct gd_mem_ops *const gd_mem_backends[GD_MEM_KIND_COUNT] = {
	[GD_MEM_HOST] = &gd_mem_host_ops,
	[GD_MEM_HUGEPAGE] = &gd_mem_hugepage_ops,
	[GD_MEM_CUDA] = &gd_mem_cuda_ops,
	[GD_MEM_MMAP] = &gd_mem_mmap_ops,
};

const struct gd_mem_ops *gd_mem_backend(enum gd_mem_kind kind)
{
	if ((unsigned int)kind >= GD_MEM_KIND_COUNT)
		return NULL;
	return gd_mem_backends[kind];
}

const char *gd_mem_kind_name(enum gd_mem_kind kind)
{
	const struct gd_mem_ops *ops = gd_mem_backend(kind);

	return ops ? ops->name : "unknown";
}

/* Every backend's forms: "a, b, c or d", for the unknown-type message. */
static void gd_mem_syntax_list(char *out, size_t len)
{
	const char *forms[GD_MEM_KIND_COUNT * 3];
	size_t n = 0, used = 0;

	for (unsigned int k = 0; k < GD_MEM_KIND_COUNT; k++) {
		const struct gd_mem_ops *ops = gd_mem_backends[k];

		if (!ops->syntax[0])
			forms[n++] = ops->name;
		for (size_t i = 0; i < 3 && ops->syntax[i]; i++)
			forms[n++] = ops->syntax[i];
	}
	out[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		const char *sep = !i ? "" : i + 1 == n ? " or " : ", ";

		used += (size_t)snprintf(out + used, len - used, "%s%s", sep,
					 forms[i]);
	}
}

int gd_mem_spec_parse(const char *text, struct gd_mem_spec *spec)
{
	char expected[256];

	memset(spec, 0, sizeof(*spec));
	spec->gpu_index = -1;
	spec->route = GD_ROUTE_PLAIN;
	if (!text)
		return gd_err(-EINVAL, "--mem needs a value");
	for (unsigned int k = 0; k < GD_MEM_KIND_COUNT; k++) {
		const struct gd_mem_ops *ops = gd_mem_backends[k];
		size_t n = strlen(ops->name);

		if (strncmp(text, ops->name, n))
			continue;
		if (!text[n] && !ops->parse) {
			spec->kind = (enum gd_mem_kind)k;
			return 0;
		}
		if (text[n] == ':' && ops->parse) {
			spec->kind = (enum gd_mem_kind)k;
			return ops->parse(text, text + n + 1, spec);
		}
	}
	gd_mem_syntax_list(expected, sizeof(expected));
	return gd_err(-EINVAL, "--mem '%s': unknown memory type (expected %s)",
		      text, expected);
}

void gd_mem_spec_format(const struct gd_mem_spec *spec, char *buf, size_t len)
{
	gd_mem_ops_format(gd_mem_backend(spec->kind), spec, buf, len);
}

/* The backend whose name leads @text, as the option checks have always
 * matched it (before the text is parsed). */
static const struct gd_mem_ops *gd_mem_backend_of(const char *text)
{
	if (!text)
		return NULL;
	for (unsigned int k = 0; k < GD_MEM_KIND_COUNT; k++) {
		const char *name = gd_mem_backends[k]->name;

		if (!strncmp(text, name, strlen(name)))
			return gd_mem_backends[k];
	}
	return NULL;
}

bool gd_mem_spec_is_device(const char *text)
{
	const struct gd_mem_ops *ops = gd_mem_backend_of(text);

	return ops && !ops->cpu_accessible;
}

bool gd_mem_spec_may_export_dmabuf(const char *text)
{
	const struct gd_mem_ops *ops = gd_mem_backend_of(text);
	char peermem[16];

	snprintf(peermem, sizeof(peermem), ":%s",
		 gd_mem_route_name(GD_ROUTE_PEERMEM));
	return ops && ops->dmabuf_export && !strstr(text, peermem);
}

int gd_mem_spec_alias(const char *flag, const char *ref,
		      enum gd_mem_route route, char *out, size_t len)
{
	for (unsigned int k = 0; k < GD_MEM_KIND_COUNT; k++) {
		const struct gd_mem_ops *ops = gd_mem_backends[k];

		if (!ops->perftest_flag || strcmp(ops->perftest_flag, flag))
			continue;
		/* A reference too long for @out is cut, not refused: the
		 * parser refuses any spec that long, naming it. */
		snprintf(out, len, "%s:%s%s%s", ops->name, ref,
			 route == GD_ROUTE_AUTO ? "" : ":",
			 route == GD_ROUTE_AUTO ? ""
						: gd_mem_route_name(route));
		return 0;
	}
	return gd_err(-EINVAL, "no memory backend answers to --%s", flag);
}

void gd_mem_spec_apply_options(struct gd_mem_spec *spec,
			       struct json_object *options)
{
	const struct gd_mem_ops *ops = gd_mem_backend(spec->kind);

	if (ops && ops->apply_options && options)
		ops->apply_options(spec, options);
}

const struct gd_mem_ops *gd_mem_device_backend(const char *text)
{
	const struct gd_mem_ops *ops = gd_mem_backend_of(text);

	if (ops && !ops->cpu_accessible)
		return ops;
	for (unsigned int k = 0; k < GD_MEM_KIND_COUNT; k++)
		if (!gd_mem_backends[k]->cpu_accessible)
			return gd_mem_backends[k];
	return NULL;
}

const struct gd_mem_envelope_ops *gd_mem_envelope(unsigned int i)
{
	for (unsigned int k = 0; k < GD_MEM_KIND_COUNT; k++)
		if (gd_mem_backends[k]->envelope && !i--)
			return gd_mem_backends[k]->envelope;
	return NULL;
}
