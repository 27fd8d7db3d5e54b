/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CUDA driver API loaded at run time with dlopen("libcuda.so.1"), so one
 * binary runs on GPU nodes and CPU-only nodes. No link-time dependency on
 * libcuda. GD_CUDA_LIBRARY in the environment overrides the library path
 * (tests point it at the fake driver, a test double).
 */
#ifndef GD_CUDA_API_H
#define GD_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

struct gd_gpu_info {
	int index; /* process-visible ordinal */
	char name[128];
	char uuid[48];	     /* "GPU-xxxxxxxx-xxxx-..." */
	char pci_bus_id[32]; /* "0000:17:00.0" (lower case) */
	int driver_version;  /* cuDriverGetVersion, e.g. 12040 */
	int compute_major, compute_minor;
	int dmabuf_supported; /* attribute value, -1 unknown */
	int gdr_supported;    /* GPU_DIRECT_RDMA_SUPPORTED, -1 unknown */
	uint64_t total_mem_bytes;
};

/* Load and resolve the entry points once. On failure returns -ENOENT with
 * the message "CUDA driver not available (libcuda.so.1: <dlerror>)". */
int gd_cuda_load(void);
int gd_cuda_device_count(int *count);
int gd_cuda_gpu_info(int index, struct gd_gpu_info *info);
/* Resolve "N" or a PCI bus id to an ordinal. */
int gd_cuda_find(const char *index_or_bdf, int *index);

/* Like gd_cuda_load() but records nothing: on failure writes the same
 * message to @why (gd_doctor and the route probe treat it as a finding). */
int gd_cuda_try_load(char *why, size_t why_len);
/* Forget the loaded library so the next load reads GD_CUDA_LIBRARY again
 * (tests switch between the fake driver and none in one process). */
void gd_cuda_unload(void);

/* A retained primary context on one GPU. Every call below makes it current
 * first, so a buffer may be used from any thread. */
struct gd_cuda_ctx {
	int index;
	int device;    /* CUdevice */
	void *context; /* CUcontext */
	char pci_bus_id[32];
};

int gd_cuda_ctx_retain(int index, struct gd_cuda_ctx *ctx);
void gd_cuda_ctx_release(struct gd_cuda_ctx *ctx);
int gd_cuda_mem_alloc(const struct gd_cuda_ctx *ctx, size_t len_bytes,
		      uint64_t *dptr);
void gd_cuda_mem_free(const struct gd_cuda_ctx *ctx, uint64_t dptr);
int gd_cuda_copy_htod(const struct gd_cuda_ctx *ctx, uint64_t dst,
		      const void *src, size_t len_bytes);
int gd_cuda_copy_dtoh(const struct gd_cuda_ctx *ctx, void *dst, uint64_t src,
		      size_t len_bytes);
/* Refuse managed memory (RDMA on it measures a CPU path) and set
 * CU_POINTER_ATTRIBUTE_SYNC_MEMOPS so copies complete before RDMA sees them. */
int gd_cuda_prepare_rdma(const struct gd_cuda_ctx *ctx, uint64_t dptr);
/* Export [dptr, dptr+len) as a DMA-BUF fd: PCIe mapping flag first, then 0.
 * Records nothing; on failure returns -errno and writes the CUDA error(s)
 * to @why. */
int gd_cuda_export_dmabuf(const struct gd_cuda_ctx *ctx, uint64_t dptr,
			  size_t len_bytes, int *fd,
			  unsigned long long *flags_used, char *why,
			  size_t why_len);

#endif
