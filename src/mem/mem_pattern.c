/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The data verification pattern: fill and check any backend's buffer
 * through its copy hooks, the first mismatch reported with its offset.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

/* Staging chunk for pattern fill/check: large enough that device copies are
 * not dominated by per-call overhead, small enough for any stack-free use. */
#define GD_PATTERN_CHUNK_BYTES (256u * 1024u)

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
		/* One flush makes every chunk's bytes visible. */
		if (buf->ops->before_read)
			ret = buf->ops->before_read(buf);
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
	gd_mem_ops_format(buf->ops, &buf->spec, spec, sizeof(spec));
	return gd_err(
		-EILSEQ,
		"data verification failed in %s memory (%zu bytes checked from offset %zu, pattern seed %u): first mismatch at offset %zu: expected 0x%02x, found 0x%02x; %zu bytes differ. Check that the transfer completed before the check and, for GPU memory, the registration route",
		spec, len, off, seed, first, exp, found, bad);
}
