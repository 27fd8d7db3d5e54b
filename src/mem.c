/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Memory backends, the generic half: the enum-indexed ops table, the --mem
 * spec grammar, dispatch to a backend, the JSON description and the data
 * verification pattern (fill and check through the backend's copy hooks).
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "error.h"
#include "mem.h"
#include "mem_priv.h"

static const struct gd_mem_ops *const gd_mem_backends[GD_MEM_KIND_COUNT] = {
	[GD_MEM_HOST] = &gd_mem_host_ops,
	[GD_MEM_HUGEPAGE] = &gd_mem_hugepage_ops,
	[GD_MEM_CUDA] = &gd_mem_cuda_ops,
};

static const char *const gd_mem_route_names[] = {
	[GD_ROUTE_AUTO] = "auto",
	[GD_ROUTE_PLAIN] = "plain",
	[GD_ROUTE_PEERMEM] = "peermem",
	[GD_ROUTE_DMABUF] = "dmabuf",
};

/* Staging chunk for pattern fill/check: large enough that device copies are
 * not dominated by per-call overhead, small enough for any stack-free use. */
#define GD_PATTERN_CHUNK_BYTES (256u * 1024u)
#define GD_GPU_INDEX_MAX 1023

const char *gd_mem_kind_name(enum gd_mem_kind kind)
{
	if ((unsigned int)kind >= GD_MEM_KIND_COUNT)
		return "unknown";
	return gd_mem_backends[kind]->name;
}

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

int gd_mem_alloc(struct gd_mem_buf *buf, const struct gd_mem_spec *spec,
		 size_t len_bytes)
{
	int ret;

	memset(buf, 0, sizeof(*buf));
	if ((unsigned int)spec->kind >= GD_MEM_KIND_COUNT)
		return gd_err(-EINVAL, "unknown memory kind %d", spec->kind);
	if (!len_bytes)
		return gd_err(-EINVAL, "memory buffer of 0 bytes requested");
	buf->ops = gd_mem_backends[spec->kind];
	buf->spec = *spec;
	ret = buf->ops->alloc(buf, len_bytes);
	if (ret) {
		buf->ops = NULL;
		return ret;
	}
	return 0;
}

int gd_mem_register(struct gd_mem_buf *buf, struct ibv_pd *pd, int access)
{
	if (!buf->ops || !buf->addr)
		return gd_err(
			-EINVAL,
			"registering a memory buffer that was not allocated");
	if (buf->mr)
		return gd_err(-EBUSY, "%s buffer is already registered",
			      buf->ops->name);
	return buf->ops->reg(buf, pd, access);
}

void gd_mem_free(struct gd_mem_buf *buf)
{
	if (buf->mr) {
		/* A failure here leaves nothing for the caller to act on:
		 * the process is tearing the buffer down either way. */
		(void)ibv_dereg_mr(buf->mr);
		buf->mr = NULL;
	}
	if (buf->ops && buf->addr)
		buf->ops->free(buf);
	if (buf->evidence)
		json_object_put(buf->evidence);
	memset(buf, 0, sizeof(*buf));
}

struct json_object *gd_mem_describe(const struct gd_mem_buf *buf)
{
	struct json_object *obj = json_object_new_object();
	char spec[GD_MEM_SPEC_MAX];

	gd_mem_spec_format(&buf->spec, spec, sizeof(spec));
	json_object_object_add(
		obj, "kind",
		json_object_new_string(gd_mem_kind_name(buf->spec.kind)));
	json_object_object_add(obj, "spec", json_object_new_string(spec));
	json_object_object_add(obj, "len_bytes",
			       json_object_new_int64((int64_t)buf->len_bytes));
	json_object_object_add(
		obj, "cpu_accessible",
		json_object_new_boolean(buf->ops && buf->ops->cpu_accessible));
	json_object_object_add(obj, "registered",
			       json_object_new_boolean(buf->mr != NULL));
	json_object_object_add(
		obj, "route",
		json_object_new_string(gd_mem_route_name(buf->route_used)));
	if (buf->ops && buf->ops->describe)
		buf->ops->describe(buf, obj);
	if (buf->evidence)
		json_object_object_add(obj, "route_evidence",
				       json_object_get(buf->evidence));
	return obj;
}

uint8_t gd_pattern_byte(uint32_t seed, size_t index)
{
	/* A multiply-xorshift mix of (seed, index): every byte depends on
	 * both, so a stale buffer from another size or iteration (another
	 * seed) or a shifted copy (another index) does not match. */
	uint64_t x = ((uint64_t)seed << 32) ^ (uint64_t)index;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (uint8_t)x;
}

static int gd_mem_check_range(const struct gd_mem_buf *buf, size_t off,
			      size_t len)
{
	if (!buf->ops || !buf->addr)
		return gd_err(
			-EINVAL,
			"pattern on a memory buffer that was not allocated");
	if (off > buf->len_bytes || len > buf->len_bytes - off)
		return gd_err(
			-ERANGE,
			"pattern range %zu+%zu bytes exceeds the %zu-byte %s buffer",
			off, len, buf->len_bytes, buf->ops->name);
	return 0;
}

int gd_mem_fill_pattern(struct gd_mem_buf *buf, size_t off, size_t len,
			uint32_t seed)
{
	uint8_t *chunk;
	size_t done = 0;
	int ret = gd_mem_check_range(buf, off, len);

	if (ret)
		return ret;
	if (buf->ops->cpu_accessible) {
		uint8_t *p = (uint8_t *)buf->addr + off;

		for (size_t i = 0; i < len; i++)
			p[i] = gd_pattern_byte(seed, off + i);
		return 0;
	}
	chunk = malloc(GD_PATTERN_CHUNK_BYTES);
	if (!chunk)
		return gd_err(-ENOMEM,
			      "no host memory for the pattern staging buffer");
	while (done < len && !ret) {
		size_t n = len - done < GD_PATTERN_CHUNK_BYTES
				   ? len - done
				   : GD_PATTERN_CHUNK_BYTES;

		for (size_t i = 0; i < n; i++)
			chunk[i] = gd_pattern_byte(seed, off + done + i);
		ret = buf->ops->copy_in(buf, off + done, chunk, n);
		done += n;
	}
	free(chunk);
	return ret;
}

/* Records the first mismatch in [base, base+n) of @data and counts all. */
static void gd_pattern_scan(const uint8_t *data, size_t base, size_t n,
			    uint32_t seed, size_t *first, uint8_t *exp,
			    uint8_t *found, size_t *bad)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t want = gd_pattern_byte(seed, base + i);

		if (data[i] == want)
			continue;
		if (!*bad) {
			*first = base + i;
			*exp = want;
			*found = data[i];
		}
		(*bad)++;
	}
}

int gd_mem_check_pattern(struct gd_mem_buf *buf, size_t off, size_t len,
			 uint32_t seed)
{
	size_t first = 0, bad = 0, done = 0;
	uint8_t exp = 0, found = 0, *chunk = NULL;
	char spec[GD_MEM_SPEC_MAX];
	int ret = gd_mem_check_range(buf, off, len);

	if (ret)
		return ret;
	if (buf->ops->cpu_accessible) {
		gd_pattern_scan((uint8_t *)buf->addr + off, off, len, seed,
				&first, &exp, &found, &bad);
	} else {
		chunk = malloc(GD_PATTERN_CHUNK_BYTES);
		if (!chunk)
			return gd_err(
				-ENOMEM,
				"no host memory for the pattern staging buffer");
	}
	while (chunk && done < len && !ret) {
		size_t n = len - done < GD_PATTERN_CHUNK_BYTES
				   ? len - done
				   : GD_PATTERN_CHUNK_BYTES;

		ret = buf->ops->copy_out(buf, off + done, chunk, n);
		if (!ret)
			gd_pattern_scan(chunk, off + done, n, seed, &first,
					&exp, &found, &bad);
		done += n;
	}
	free(chunk);
	if (ret || !bad)
		return ret;
	gd_mem_spec_format(&buf->spec, spec, sizeof(spec));
	return gd_err(
		-EILSEQ,
		"data verification failed in %s memory (%zu bytes checked from offset %zu, pattern seed %u): first mismatch at offset %zu: expected 0x%02x, found 0x%02x; %zu bytes differ. Check that the transfer completed before the check and, for GPU memory, the registration route",
		spec, len, off, seed, first, exp, found, bad);
}
