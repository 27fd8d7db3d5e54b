/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cuda backend's buffer state and its copy hooks, the ones the pattern
 * fill and check go through. They need only the CUDA loader (cuda_api.c),
 * not libibverbs or json-c, so tests/gpu/run.sh compiles them, with
 * mem_pattern.c, into the standalone cuda-smoke.
 */
#ifndef GD_MEM_CUDA_COPY_H
#define GD_MEM_CUDA_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "mem/cuda_api.h"
#include "mem/mem.h"

/* buf->priv of a cuda buffer; buf->addr is the device address. */
struct gd_cuda_buf {
	struct gd_cuda_ctx ctx;
	struct gd_gpu_info info;
	uint64_t base;	   /* what cuMemAlloc returned */
	size_t span_bytes; /* len rounded up to whole GPU pages */
};

static inline struct gd_cuda_buf *gd_cuda_priv(const struct gd_mem_buf *buf)
{
	return buf->priv;
}

static inline uint64_t gd_cuda_addr(const struct gd_mem_buf *buf)
{
	return (uint64_t)(uintptr_t)buf->addr;
}

/* copy_in: cuMemcpyHtoD to @off of the buffer. */
int gd_cuda_copy_in(struct gd_mem_buf *buf, size_t off, const void *src,
		    size_t len);
/* copy_out: cuMemcpyDtoH from @off of the buffer. */
int gd_cuda_copy_out(struct gd_mem_buf *buf, size_t off, void *dst, size_t len);
/* before_read: the flush the GPU's write ordering asks for, once per
 * read-back. */
int gd_cuda_before_read(struct gd_mem_buf *buf);

#endif
