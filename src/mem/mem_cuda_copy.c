/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cuda backend's copy hooks (see mem_cuda_copy.h): libc and the CUDA
 * loader only.
 */
#include <config.h>

#include "mem/cuda_api.h"
#include "mem/mem_cuda_copy.h"

int gd_cuda_copy_in(struct gd_mem_buf *buf, size_t off, const void *src,
		    size_t len)
{
	return gd_cuda_copy_htod(&gd_cuda_priv(buf)->ctx,
				 gd_cuda_addr(buf) + off, src, len);
}

int gd_cuda_copy_out(struct gd_mem_buf *buf, size_t off, void *dst, size_t len)
{
	return gd_cuda_copy_dtoh(&gd_cuda_priv(buf)->ctx, dst,
				 gd_cuda_addr(buf) + off, len);
}

/* Before the read-back of received data: without native ordering, RDMA
 * writes may still be in flight to the GPU when cuMemcpyDtoH reads. */
int gd_cuda_before_read(struct gd_mem_buf *buf)
{
	return gd_cuda_flush_rdma_writes(&gd_cuda_priv(buf)->ctx);
}
