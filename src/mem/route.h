/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU-memory registration route decision (DMA-BUF vs peer-memory), made
 * from gathered evidence. Shared by the cuda memory backend and gd_doctor's
 * route record so there is one decision code, not two copies.
 */
#ifndef GD_ROUTE_H
#define GD_ROUTE_H

#include <stdbool.h>

#include "mem/mem.h"

struct json_object;

enum gd_nic_dmabuf {
	GD_NIC_DMABUF_UNPROBED = 0, /* no protection domain to ask */
	GD_NIC_DMABUF_YES,	    /* EBADF: the kernel looked for the fd */
	GD_NIC_DMABUF_NO,	    /* EOPNOTSUPP or EPROTONOSUPPORT */
	GD_NIC_DMABUF_UNKNOWN,	    /* any other answer */
};

/* Everything the decision looks at; gathered by gd_route_probe() or filled
 * by tests. -1 means "unknown / could not be read". */
struct gd_route_facts {
	int gpu_dmabuf_supported; /* CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED */
	int gpu_gdr_supported; /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED
				*/
	int cuda_driver_version;   /* cuDriverGetVersion, e.g. 12040 */
	bool rdma_core_has_dmabuf; /* ibv_reg_dmabuf_mr resolvable */
	bool dmabuf_not_built;	   /* built without HAVE_IBV_REG_DMABUF_MR */
	/* the NCCL-style probe (mem_cuda.c) on the protection domain's device,
	 * and the errno it answered (0 when not probed) */
	enum gd_nic_dmabuf nic_dmabuf;
	int nic_dmabuf_errno;
	char nic_device[64];
	bool peermem_loaded;	 /* /sys/module/nvidia_peermem */
	bool nv_peer_mem_loaded; /* /sys/module/nv_peer_mem (legacy) */
	int open_kernel_module;	 /* /proc/driver/nvidia/version says Open */
	int ofed_peer_api;	 /* /sys/module/mlx_compat: MLNX/DOCA-OFED */
	int kernel_major, kernel_minor; /* proc/sys/kernel/osrelease, -1 */
	int writes_ordering;	       /* GPU_DIRECT_RDMA_WRITES_ORDERING, -1 */
	unsigned long long bar1_bytes; /* BAR1 aperture (PCI sysfs), 0 */
	char gpu_bus_id[32];	       /* the probed GPU's PCI address */
	char driver_error[512];	       /* why the CUDA driver could not load */
	char cuda_status[200];	       /* what was checked of the CUDA side */
};

struct gd_route_decision {
	enum gd_mem_route route; /* chosen; GD_ROUTE_AUTO = none possible */
	/* auto chose DMA-BUF: the route to try when its registration fails
	 * (GD_ROUTE_PEERMEM when a peer-memory module is usable, else AUTO) */
	enum gd_mem_route fallback;
	bool possible;
	bool peermem_conflict; /* nvidia_peermem and nv_peer_mem both loaded */
	char why[512];	       /* why this route */
	char why_not_dmabuf[512]; /* empty when chosen */
	char why_not_peermem[512];
	char stop_condition[512]; /* when !possible: what blocks testing */
};

/* Gather facts from the system: sysfs_root is "/" normally (tests pass a
 * fixture root); the CUDA part is skipped when @gpu < 0. */
int gd_route_probe(const char *sysfs_root, int gpu, struct gd_route_facts *f);
/* gd_route_probe() once per process for each GPU and root: the facts of
 * later calls are the first call's (a probe starts NVML, and every MR,
 * per QP with --mr_per_qp, asks). */
int gd_route_probe_cached(const char *sysfs_root, int gpu,
			  struct gd_route_facts *f);
/* Forget the cached facts and close NVML (tests that change the fake
 * driver's answers between registrations). */
void gd_route_forget(void);
/* Record the NIC's answer @ret (0 or -errno) to the DMA-BUF probe on
 * @device (mem_cuda.c). */
void gd_route_set_nic_probe(struct gd_route_facts *f, const char *device,
			    int ret);
/* Should a PCIe-mapped DMA-BUF export of GPU @gpu_bdf be tried for
 * @ibdev? NVIDIA maps it only on a cache-coherent platform
 * (@host_native_atomic, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED,
 * is 1): 0 (skip) elsewhere. On such a platform 1 (try) always; the IOMMU
 * groups (<root>/sys/bus/pci/devices/BDF/iommu_group) are advice in @why,
 * since the driver's attach decides and a refusal is retried with flags 0. */
int gd_route_pcie_mapping_fits(const char *sysfs_root, const char *gpu_bdf,
			       const char *ibdev, int host_native_atomic,
			       char *why, size_t len);
/* Pure: decide @requested (AUTO, DMABUF or PEERMEM) from @facts. */
void gd_route_decide(const struct gd_route_facts *facts,
		     enum gd_mem_route requested,
		     struct gd_route_decision *out);
/* A GPU's BAR1 aperture (bar1.c). */
struct gd_bar1 {
	unsigned long long total_bytes;		   /* 0: unknown */
	unsigned long long used_bytes, free_bytes; /* when has_usage */
	bool has_usage;	 /* NVML said what is in use */
	char source[64]; /* "NVML", "PCI sysfs resource, region 2" */
};
/* BAR1 of the GPU at @bdf: from NVML (libnvidia-ml.so.1, or
 * $GD_NVML_LIBRARY) on the live root "/", else from
 * <root>/sys/bus/pci/devices/<bdf>/resource, the memory region after BAR0
 * (region 1 after a 32-bit BAR0, region 2 after a 64-bit one). 0 or
 * -ENOENT, records nothing. */
int gd_bar1_read(const char *sysfs_root, const char *bdf, struct gd_bar1 *out);
/* Shut NVML down and unload it; the next read starts it again. */
void gd_bar1_forget(void);
/* Its size alone; 0 when unknown. */
unsigned long long gd_route_bar1_bytes(const char *sysfs_root, const char *bdf);
/* Evidence object for the JSON document and the text header. */
struct json_object *gd_route_evidence(const struct gd_route_facts *facts,
				      const struct gd_route_decision *d);

#endif
