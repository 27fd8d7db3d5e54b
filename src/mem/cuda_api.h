/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CUDA driver API loaded at run time with dlopen("libcuda.so.1"), so one
 * binary runs on GPU nodes and CPU-only nodes. No link-time dependency on
 * libcuda. GD_CUDA_LIBRARY in the environment overrides the library path
 * (tests point it at the fake driver, a test double).
 */
#ifndef GD_CUDA_API_H
#define GD_CUDA_API_H

#include <stdbool.h>
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
	int writes_ordering;  /* GPU_DIRECT_RDMA_WRITES_ORDERING, -1 unknown */
	int flush_options;    /* GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, -1 */
	int host_native_atomic; /* HOST_NATIVE_ATOMIC_SUPPORTED, -1 unknown */
	int compute_mode;	/* COMPUTE_MODE: 0 default, 2 prohibited, 3
				 * exclusive process; -1 unknown */
	uint64_t total_mem_bytes;
};

/* What the driver says about GPU @from reaching GPU @to directly (read
 * only: no context is created, no peer access enabled). -1: unknown. */
struct gd_gpu_p2p {
	int can_access_peer;   /* cuDeviceCanAccessPeer */
	int access_supported;  /* P2P_ATTRIBUTE_ACCESS_SUPPORTED */
	int native_atomic;     /* P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED */
	int cuda_array_access; /* P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED */
	int performance_rank;  /* P2P_ATTRIBUTE_PERFORMANCE_RANK */
};
int gd_cuda_peer_access(int from, int to, struct gd_gpu_p2p *out);

/* Load and resolve the entry points once. On failure returns -ENOENT with
 * the message "CUDA driver not available (libcuda.so.1: <dlerror>)", or
 * cuInit's failure by class, each with its own next check: -ENODEV (100,
 * no device), -EAGAIN (802, the system not ready: nvidia-fabricmanager),
 * -ELIBBAD (803, libcuda and kernel module differ),
 * -EOPNOTSUPP (804, forward compatibility refused), -EIO (999, others). */
int gd_cuda_load(void);
int gd_cuda_device_count(int *count);
int gd_cuda_gpu_info(int index, struct gd_gpu_info *info);
/* Resolve "N" or a PCI bus id to an ordinal. */
int gd_cuda_find(const char *index_or_bdf, int *index);

/* Like gd_cuda_load() but records nothing: on failure writes the same
 * message to @why (gd_doctor and the route probe treat it as a finding).
 * A failed cuInit is not retried: the driver keeps that failure for the
 * life of the process, so later calls return the first message again. */
int gd_cuda_try_load(char *why, size_t why_len);
/* The library gd_cuda_load() opens: $GD_CUDA_LIBRARY or libcuda.so.1. */
const char *gd_cuda_library_name(void);
/* Can that library be opened? Neither resolves nor calls cuInit (cheap);
 * for records that say what was checked without probing GPUs. */
bool gd_cuda_library_present(void);
/* What the last load attempt found: -1 not tried, 0 no library (or it lacks
 * needed symbols), 1 cuInit failed, 2 ready. */
int gd_cuda_load_state(void);
/* The CUresult of the failed cuInit (0 when none failed or none ran), for
 * callers that tell "no GPU" (100) from a broken driver (802, 803, 999). */
int gd_cuda_init_result(void);
/* "none", "owner", "all_devices" or "unknown" for a WRITES_ORDERING value. */
const char *gd_cuda_ordering_name(int writes_ordering);
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
	int writes_ordering; /* GPU_DIRECT_RDMA_WRITES_ORDERING, -1 unknown */
	int flush_options;   /* GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, -1 */
};

int gd_cuda_ctx_retain(int index, struct gd_cuda_ctx *ctx);
/* Drop the reference; 0 or -errno, recorded (its memory stays until the
 * process exits). Safe on a context never retained. */
int gd_cuda_ctx_release(struct gd_cuda_ctx *ctx);
int gd_cuda_mem_alloc(const struct gd_cuda_ctx *ctx, size_t len_bytes,
		      uint64_t *dptr);
/* cuMemFree; 0 or -errno, recorded. */
int gd_cuda_mem_free(const struct gd_cuda_ctx *ctx, uint64_t dptr);
int gd_cuda_copy_htod(const struct gd_cuda_ctx *ctx, uint64_t dst,
		      const void *src, size_t len_bytes);
int gd_cuda_copy_dtoh(const struct gd_cuda_ctx *ctx, void *dst, uint64_t src,
		      size_t len_bytes);
/* Refuse managed memory (RDMA on it measures a CPU path) and set
 * CU_POINTER_ATTRIBUTE_SYNC_MEMOPS so copies complete before RDMA sees them. */
int gd_cuda_prepare_rdma(const struct gd_cuda_ctx *ctx, uint64_t dptr);

struct gd_cuda_export {
	int fd;			  /* -1 until exported */
	unsigned long long flags; /* flags the export succeeded with */
	char pcie_note[384];	  /* why the PCIe flag was not used, if asked */
};

/* Export [dptr, dptr+len) as a DMA-BUF fd with flags 0, the driver's
 * default path. With @want_pcie (--use_cuda_pcie_mapping) the PCIe (BAR1)
 * mapping flag is tried first when the driver is new enough (>= 12.8) and
 * 0 after a refusal, the reason kept in @out->pcie_note. Records nothing;
 * on failure returns -errno and writes the CUDA error(s) to @why. */
int gd_cuda_export_dmabuf(const struct gd_cuda_ctx *ctx, uint64_t dptr,
			  size_t len_bytes, bool want_pcie,
			  struct gd_cuda_export *out, char *why,
			  size_t why_len);
/* What gd_cuda_flush_rdma_writes() does on @ctx's GPU: "native ordering"
 * (WRITES_ORDERING owner or all devices: nothing to do),
 * "cuFlushGPUDirectRDMAWrites" or "no flush available" (ordering none and
 * the driver offers no flush). */
const char *gd_cuda_flush_plan(const struct gd_cuda_ctx *ctx);
/* Make GPUDirect RDMA writes to @ctx's GPU visible before the CPU reads
 * them back (verification): cuFlushGPUDirectRDMAWrites to the owner when
 * the GPU's WRITES_ORDERING is weaker than "owner". */
int gd_cuda_flush_rdma_writes(const struct gd_cuda_ctx *ctx);

#endif
