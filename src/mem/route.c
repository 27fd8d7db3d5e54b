/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU-memory registration route: gather the facts (peer-memory modules
 * under /sys/module, the NVIDIA kernel module flavour, the GPU's attributes,
 * whether rdma-core has ibv_reg_dmabuf_mr), decide from them without side
 * effects, and describe the decision as evidence.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "util/error.h"
#include "mem/route.h"

static bool gd_path_exists(const char *root, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &st) == 0;
}

/* 1 open flavour, 0 proprietary, -1 no NVIDIA kernel module to ask. */
static int gd_probe_open_module(const char *root)
{
	char path[512], line[512];
	int open_module = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/driver/nvidia/version", root);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "Open Kernel Module"))
			open_module = 1;
	fclose(f);
	return open_module;
}

/* "6.1.0-18-amd64" -> 6, 1; -1 when the file is absent (fixtures). */
static void gd_probe_kernel(const char *root, struct gd_route_facts *f)
{
	char path[512];
	FILE *fp;

	f->kernel_major = -1;
	f->kernel_minor = -1;
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", root);
	fp = fopen(path, "r");
	if (!fp)
		return;
	if (fscanf(fp, "%d.%d", &f->kernel_major, &f->kernel_minor) != 2) {
		f->kernel_major = -1;
		f->kernel_minor = -1;
	}
	fclose(fp);
}

/* A build without ibv_reg_dmabuf_mr cannot call it, whatever the library
 * loaded at run time exports. */
static bool gd_probe_rdma_core_dmabuf(void)
{
#ifndef HAVE_IBV_REG_DMABUF_MR
	return false;
#else
	void *verbs;
	bool found;

	if (dlsym(RTLD_DEFAULT, "ibv_reg_dmabuf_mr"))
		return true;
	/* Not in the global scope (a static or dlopen'ed verbs library):
	 * ask the loaded libibverbs without loading a new one. */
	verbs = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!verbs)
		return false;
	found = dlsym(verbs, "ibv_reg_dmabuf_mr") != NULL;
	dlclose(verbs);
	return found;
#endif
}

/* What the route record can say about the CUDA side, in words. */
static void gd_probe_cuda_failed(struct gd_route_facts *f)
{
	if (gd_cuda_load_state() == 1)
		snprintf(
			f->cuda_status, sizeof(f->cuda_status),
			"CUDA driver %.100s loaded but cuInit failed, GPU not probed",
			gd_cuda_library_name());
	else if (strstr(f->driver_error, " lacks "))
		snprintf(
			f->cuda_status, sizeof(f->cuda_status),
			"CUDA driver %.100s too old (lacks an entry point), not probed",
			gd_cuda_library_name());
	else
		snprintf(f->cuda_status, sizeof(f->cuda_status),
			 "no CUDA driver (%.100s not found), not probed",
			 gd_cuda_library_name());
}

static void gd_probe_cuda(const char *root, int gpu, struct gd_route_facts *f)
{
	struct gd_gpu_info info;
	bool had_error = gd_err_is_set();

	if (gd_cuda_try_load(f->driver_error, sizeof(f->driver_error))) {
		gd_probe_cuda_failed(f);
		return;
	}
	if (gd_cuda_gpu_info(gpu, &info)) {
		snprintf(f->driver_error, sizeof(f->driver_error), "%s",
			 gd_err_msg());
		snprintf(f->cuda_status, sizeof(f->cuda_status),
			 "CUDA driver loaded, but GPU %d could not be queried",
			 gpu);
		/* A probe gathers facts; the failure is one of them and must
		 * not become the program's error unless it already was. */
		if (!had_error)
			gd_err_clear();
		return;
	}
	f->gpu_dmabuf_supported = info.dmabuf_supported;
	f->gpu_gdr_supported = info.gdr_supported;
	f->cuda_driver_version = info.driver_version;
	f->writes_ordering = info.writes_ordering;
	snprintf(f->gpu_bus_id, sizeof(f->gpu_bus_id), "%s", info.pci_bus_id);
	f->bar1_bytes = gd_route_bar1_bytes(root, info.pci_bus_id);
	snprintf(f->cuda_status, sizeof(f->cuda_status),
		 "GPU %d queried through CUDA driver %d", gpu,
		 info.driver_version);
}

int gd_route_probe(const char *sysfs_root, int gpu, struct gd_route_facts *f)
{
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/";

	memset(f, 0, sizeof(*f));
	f->gpu_dmabuf_supported = -1;
	f->gpu_gdr_supported = -1;
	f->cuda_driver_version = -1;
	f->writes_ordering = -1;
	f->peermem_loaded = gd_path_exists(root, "sys/module/nvidia_peermem");
	f->nv_peer_mem_loaded = gd_path_exists(root, "sys/module/nv_peer_mem");
	f->ofed_peer_api = gd_path_exists(root, "sys/module/mlx_compat");
	f->open_kernel_module = gd_probe_open_module(root);
	f->rdma_core_has_dmabuf = gd_probe_rdma_core_dmabuf();
#ifndef HAVE_IBV_REG_DMABUF_MR
	f->dmabuf_not_built = true;
#endif
	gd_probe_kernel(root, f);
	if (gpu >= 0)
		gd_probe_cuda(root, gpu, f);
	else
		snprintf(f->cuda_status, sizeof(f->cuda_status),
			 "CUDA not probed (no GPU asked for)");
	return 0;
}

#define GD_ROUTE_CACHE_MAX 16

static struct {
	pthread_mutex_t lock;
	unsigned int n;
	struct {
		char root[256];
		int gpu;
		struct gd_route_facts facts;
	} e[GD_ROUTE_CACHE_MAX];
} gd_route_cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The lock is held across the probe, so two threads (a loopback pair)
 * that register on one GPU at once probe it once. */
int gd_route_probe_cached(const char *sysfs_root, int gpu,
			  struct gd_route_facts *f)
{
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/";
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&gd_route_cache.lock);
	for (i = 0; i < gd_route_cache.n; i++)
		if (gd_route_cache.e[i].gpu == gpu &&
		    !strcmp(gd_route_cache.e[i].root, root))
			break;
	if (i < gd_route_cache.n) {
		*f = gd_route_cache.e[i].facts;
	} else {
		ret = gd_route_probe(root, gpu, f);
		if (!ret && i < GD_ROUTE_CACHE_MAX &&
		    strlen(root) < sizeof(gd_route_cache.e[i].root)) {
			strcpy(gd_route_cache.e[i].root, root);
			gd_route_cache.e[i].gpu = gpu;
			gd_route_cache.e[i].facts = *f;
			gd_route_cache.n++;
		}
	}
	pthread_mutex_unlock(&gd_route_cache.lock);
	return ret;
}

void gd_route_forget(void)
{
	pthread_mutex_lock(&gd_route_cache.lock);
	gd_route_cache.n = 0;
	pthread_mutex_unlock(&gd_route_cache.lock);
	gd_bar1_forget();
}

void gd_route_set_nic_probe(struct gd_route_facts *f, const char *device,
			    int ret)
{
	snprintf(f->nic_device, sizeof(f->nic_device), "%s",
		 device ? device : "?");
	f->nic_dmabuf_errno = ret ? -ret : EBADF;
	if (!ret)
		f->nic_dmabuf = GD_NIC_DMABUF_YES;
	else if (ret == -EOPNOTSUPP || ret == -EPROTONOSUPPORT)
		f->nic_dmabuf = GD_NIC_DMABUF_NO;
	else if (ret == -ENOSYS || ret == -EINVAL)
		f->nic_dmabuf = GD_NIC_DMABUF_UNPROBED;
	else
		f->nic_dmabuf = GD_NIC_DMABUF_UNKNOWN;
	if (ret == -ENOSYS || ret == -EINVAL)
		f->nic_dmabuf_errno = 0;
}

/* What the NIC probe said, in words for the record. */
static void gd_nic_probe_text(const struct gd_route_facts *f, char *buf,
			      size_t len)
{
	const char *verdict = f->nic_dmabuf == GD_NIC_DMABUF_YES ? "supported"
			      : f->nic_dmabuf == GD_NIC_DMABUF_NO
				      ? "not supported"
				      : "unknown";

	if (f->nic_dmabuf == GD_NIC_DMABUF_UNPROBED)
		snprintf(buf, len, "%s",
			 f->dmabuf_not_built
				 ? "not probed: no DMA-BUF in this build"
				 : "not probed (no protection domain yet)");
	else
		snprintf(
			buf, len,
			"%s: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) on %s answered errno %d (%s)%s",
			verdict, f->nic_device, f->nic_dmabuf_errno,
			gd_errno_name(f->nic_dmabuf_errno),
			f->nic_dmabuf == GD_NIC_DMABUF_UNKNOWN
				? ", neither EBADF (supported) nor EOPNOTSUPP/EPROTONOSUPPORT (not supported)"
				: "");
}

/* The kernel version no longer decides (vendor kernels backport the
 * import, and a new kernel's driver may lack it): a hint only. */
static void gd_kernel_hint(const struct gd_route_facts *f, char *buf,
			   size_t len)
{
	if (f->kernel_major <= 0)
		snprintf(buf, len, "kernel version not read");
	else if (f->kernel_major < 5 ||
		 (f->kernel_major == 5 && f->kernel_minor < 12))
		snprintf(
			buf, len,
			"kernel %d.%d predates mainline RDMA dma-buf import (Linux 5.12); a vendor kernel may have it backported: the NIC probe decides",
			f->kernel_major, f->kernel_minor);
	else
		snprintf(
			buf, len,
			"kernel %d.%d has mainline RDMA dma-buf import (Linux >= 5.12); the NIC driver must implement it too: the NIC probe decides",
			f->kernel_major, f->kernel_minor);
}

/* The last component of the link @fmt names under @root ("" if none). */
static void __attribute__((format(printf, 4, 5)))
gd_link_base(const char *root, char *out, size_t len, const char *fmt, ...)
{
	char rel[256], path[512], target[512];
	const char *base;
	va_list ap;
	ssize_t n;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	out[0] = '\0';
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) < len)
		memcpy(out, base, strlen(base) + 1);
}

int gd_route_pcie_mapping_fits(const char *sysfs_root, const char *gpu_bdf,
			       const char *ibdev, int host_native_atomic,
			       char *why, size_t len)
{
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/";
	char nic_bdf[64], gpu_group[64], nic_group[64];

	if (host_native_atomic != 1) {
		snprintf(
			why, len,
			"not a cache-coherent platform (CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED=%d; NVIDIA maps it only over a coherent link such as Grace's NVLink-C2C)",
			host_native_atomic);
		return 0;
	}
	/* From here on advice only: NVIDIA's attach decides (its topology
	 * check, nv_pci_is_valid_topology_for_direct_pci, takes equal IOMMU
	 * groups, both absent included, and anything that
	 * NVreg_GrdmaPciTopoCheckOverride allows), and a refusal is retried
	 * with flags 0. The flag asked for is always tried here. */
	gd_link_base(root, nic_bdf, sizeof(nic_bdf),
		     "sys/class/infiniband/%s/device", ibdev);
	if (!nic_bdf[0]) {
		snprintf(
			why, len,
			"coherent platform; %s has no PCI function in sysfs (sys/class/infiniband/%s/device), so its IOMMU group is unknown: tried, a refusal at attach is retried with flags 0",
			ibdev, ibdev);
		return 1;
	}
	gd_link_base(root, gpu_group, sizeof(gpu_group),
		     "sys/bus/pci/devices/%s/iommu_group", gpu_bdf);
	gd_link_base(root, nic_group, sizeof(nic_group),
		     "sys/bus/pci/devices/%s/iommu_group", nic_bdf);
	if (!gpu_group[0] && !nic_group[0]) {
		snprintf(
			why, len,
			"coherent platform, neither GPU %s nor %s (%s) in an IOMMU group (IOMMU off), which NVIDIA's topology check takes as one group",
			gpu_bdf, ibdev, nic_bdf);
		return 1;
	}
	if (!gpu_group[0] || !nic_group[0] || strcmp(gpu_group, nic_group)) {
		snprintf(
			why, len,
			"coherent platform, GPU %s in IOMMU group %s and %s (%s) in group %s: NVIDIA's attach refuses this unless NVreg_GrdmaPciTopoCheckOverride allows it; tried, a refusal is retried with flags 0",
			gpu_bdf, gpu_group[0] ? gpu_group : "none", ibdev,
			nic_bdf, nic_group[0] ? nic_group : "none");
		return 1;
	}
	snprintf(why, len,
		 "coherent platform, GPU %s and %s (%s) in IOMMU group %s",
		 gpu_bdf, ibdev, nic_bdf, gpu_group);
	return 1;
}

/* Append "; "-separated clauses to a reason buffer. */
static void __attribute__((format(printf, 3, 4)))
gd_reason_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used && used + 2 < len) {
		memcpy(buf + used, "; ", 3);
		used += 2;
	}
	if (used >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static void gd_why_not_dmabuf(const struct gd_route_facts *f, char *buf,
			      size_t len)
{
	if (f->gpu_dmabuf_supported == 0)
		gd_reason_add(
			buf, len,
			"GPU reports CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED=0%s",
			f->open_kernel_module == 0
				? " (proprietary NVIDIA kernel module; DMA-BUF needs the open module >= 515)"
				: " (needs the open GPU kernel module >= 515 and CUDA >= 11.7)");
	else if (f->gpu_dmabuf_supported < 0 && f->cuda_driver_version > 0)
		gd_reason_add(
			buf, len,
			"GPU DMA-BUF attribute unknown: CUDA driver %d did not report CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED (needs >= 11.7)",
			f->cuda_driver_version);
	else if (f->gpu_dmabuf_supported < 0)
		gd_reason_add(buf, len, "GPU DMA-BUF attribute unknown: %s",
			      f->cuda_status[0] ? f->cuda_status
						: "not queried");
	if (f->gpu_gdr_supported == 0)
		gd_reason_add(
			buf, len,
			"GPU reports CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED=0");
	if (f->dmabuf_not_built)
		gd_reason_add(
			buf, len,
			"no DMA-BUF in this build (configured without ibv_reg_dmabuf_mr: rebuild against rdma-core >= 34)");
	else if (!f->rdma_core_has_dmabuf)
		gd_reason_add(
			buf, len,
			"rdma-core lacks ibv_reg_dmabuf_mr (needs rdma-core >= 34)");
	if (f->nic_dmabuf == GD_NIC_DMABUF_NO)
		gd_reason_add(
			buf, len,
			"%s cannot import a dma-buf: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) answered errno %d (%s), so its driver or the kernel's RDMA stack lacks DMA-BUF support",
			f->nic_device, f->nic_dmabuf_errno,
			gd_errno_name(f->nic_dmabuf_errno));
}

static void gd_why_not_peermem(const struct gd_route_facts *f, char *buf,
			       size_t len)
{
	if (f->gpu_gdr_supported == 0)
		gd_reason_add(
			buf, len,
			"GPU reports CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED=0");
	if (!f->peermem_loaded && !f->nv_peer_mem_loaded && f->ofed_peer_api)
		gd_reason_add(
			buf, len,
			"neither nvidia_peermem nor nv_peer_mem is loaded (/sys/module); MLNX/DOCA-OFED is (mlx_compat), so load with: modprobe nvidia-peermem");
	else if (!f->peermem_loaded && !f->nv_peer_mem_loaded)
		gd_reason_add(
			buf, len,
			"neither nvidia_peermem nor nv_peer_mem is loaded (/sys/module); nvidia-peermem needs the peer-memory API of MLNX_OFED/DOCA-OFED (no mlx_compat module here: an inbox RDMA stack, where it cannot load)");
	if (f->peermem_loaded && f->nv_peer_mem_loaded)
		gd_reason_add(
			buf, len,
			"both nvidia_peermem and the legacy nv_peer_mem are loaded; only one may be: rmmod nv_peer_mem");
}

static const char *gd_peer_module(const struct gd_route_facts *f)
{
	return f->peermem_loaded ? "nvidia_peermem" : "nv_peer_mem";
}

static void gd_decide_requested(const struct gd_route_facts *f,
				enum gd_mem_route requested,
				struct gd_route_decision *d)
{
	bool dmabuf = requested == GD_ROUTE_DMABUF;
	char *chosen_why_not = dmabuf ? d->why_not_dmabuf : d->why_not_peermem;
	char *other_why_not = dmabuf ? d->why_not_peermem : d->why_not_dmabuf;
	char other[512];

	d->route = requested;
	d->possible = true;
	if (!chosen_why_not[0])
		snprintf(
			d->why, sizeof(d->why), "requested (:%s)%s",
			dmabuf ? "dmabuf" : "peermem",
			dmabuf ? "; GPU reports DMA_BUF_SUPPORTED=1 and rdma-core has ibv_reg_dmabuf_mr"
			       : "; a peer-memory module is loaded");
	else
		snprintf(d->why, sizeof(d->why),
			 "requested (:%s) although %.400s",
			 dmabuf ? "dmabuf" : "peermem", chosen_why_not);
	chosen_why_not[0] = '\0';
	snprintf(other, sizeof(other), "not requested%s%.400s",
		 other_why_not[0] ? "; also: " : "", other_why_not);
	memcpy(other_why_not, other, sizeof(other));
}

static void gd_decide_auto(const struct gd_route_facts *f,
			   struct gd_route_decision *d)
{
	if (!d->why_not_dmabuf[0]) {
		d->route = GD_ROUTE_DMABUF;
		d->possible = true;
		snprintf(
			d->why, sizeof(d->why),
			"GPU reports CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED=1 and rdma-core has ibv_reg_dmabuf_mr: DMA-BUF needs no peer-memory module%s%s",
			f->nic_dmabuf == GD_NIC_DMABUF_YES
				? "; the NIC probe answered EBADF (supported) on "
			: f->nic_dmabuf == GD_NIC_DMABUF_UNKNOWN
				? "; the NIC probe's answer is unknown on "
				: "",
			f->nic_dmabuf == GD_NIC_DMABUF_YES ||
					f->nic_dmabuf == GD_NIC_DMABUF_UNKNOWN
				? f->nic_device
				: "");
		/* The attribute does not say the NIC driver can import: keep
		 * peer-memory as the fallback when it is usable. */
		if (!d->why_not_peermem[0])
			d->fallback = GD_ROUTE_PEERMEM;
		if (!d->why_not_peermem[0])
			snprintf(
				d->why_not_peermem, sizeof(d->why_not_peermem),
				"DMA-BUF preferred when both are available (%s is loaded too)",
				gd_peer_module(f));
		return;
	}
	if (!d->why_not_peermem[0]) {
		d->route = GD_ROUTE_PEERMEM;
		d->possible = true;
		snprintf(
			d->why, sizeof(d->why),
			"%s is loaded: ibv_reg_mr on the device pointer; DMA-BUF not usable",
			gd_peer_module(f));
		return;
	}
	d->route = GD_ROUTE_AUTO;
	d->possible = false;
	snprintf(
		d->stop_condition, sizeof(d->stop_condition),
		d->peermem_conflict
			? "no usable GPU registration route: DMA-BUF unavailable and two peer-memory modules conflict; unload nv_peer_mem"
		: f->ofed_peer_api
			? "no supported GPU registration route: load nvidia-peermem (modprobe nvidia-peermem; MLNX/DOCA-OFED is present), or for DMA-BUF use the open GPU kernel module >= 515, CUDA >= 11.7, rdma-core >= 34 and a NIC whose driver imports dma-bufs (Linux >= 5.12 or a backport)"
			: "no supported GPU registration route: for DMA-BUF use the open GPU kernel module >= 515, CUDA >= 11.7, rdma-core >= 34 and a NIC whose driver imports dma-bufs (Linux >= 5.12 or a backport); nvidia-peermem needs the peer-memory API of MLNX_OFED/DOCA-OFED and cannot load on inbox kernels");
}

void gd_route_decide(const struct gd_route_facts *facts,
		     enum gd_mem_route requested, struct gd_route_decision *out)
{
	memset(out, 0, sizeof(*out));
	out->route = GD_ROUTE_AUTO;
	out->fallback = GD_ROUTE_AUTO;
	out->peermem_conflict =
		facts->peermem_loaded && facts->nv_peer_mem_loaded;
	if (facts->driver_error[0]) {
		snprintf(out->why_not_dmabuf, sizeof(out->why_not_dmabuf), "%s",
			 facts->cuda_status[0] ? facts->cuda_status
					       : "no CUDA driver");
		snprintf(out->why_not_peermem, sizeof(out->why_not_peermem),
			 "%s",
			 facts->cuda_status[0] ? facts->cuda_status
					       : "no CUDA driver");
		snprintf(out->stop_condition, sizeof(out->stop_condition), "%s",
			 facts->driver_error);
		return;
	}
	gd_why_not_dmabuf(facts, out->why_not_dmabuf,
			  sizeof(out->why_not_dmabuf));
	gd_why_not_peermem(facts, out->why_not_peermem,
			   sizeof(out->why_not_peermem));
	if (requested == GD_ROUTE_DMABUF || requested == GD_ROUTE_PEERMEM) {
		gd_decide_requested(facts, requested, out);
		return;
	}
	if (requested == GD_ROUTE_PLAIN) {
		snprintf(
			out->stop_condition, sizeof(out->stop_condition),
			"the plain route is for CPU memory; GPU memory needs auto, dmabuf or peermem");
		return;
	}
	gd_decide_auto(facts, out);
}

static void gd_add_str(struct json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, json_object_new_string(val));
}

struct json_object *gd_route_evidence(const struct gd_route_facts *facts,
				      const struct gd_route_decision *d)
{
	struct json_object *ev = json_object_new_object();
	struct json_object *why_not = json_object_new_object();
	struct json_object *f = json_object_new_object();
	char text[320];

	gd_add_str(ev, "route",
		   d->possible ? gd_mem_route_name(d->route) : "none");
	json_object_object_add(ev, "possible",
			       json_object_new_boolean(d->possible));
	gd_add_str(ev, "why", d->why);
	if (d->why_not_dmabuf[0])
		gd_add_str(why_not, "dmabuf", d->why_not_dmabuf);
	if (d->why_not_peermem[0])
		gd_add_str(why_not, "peermem", d->why_not_peermem);
	json_object_object_add(ev, "why_not", why_not);
	if (!d->possible)
		gd_add_str(ev, "stop_condition", d->stop_condition);
	json_object_object_add(ev, "peer_memory_conflict",
			       json_object_new_boolean(d->peermem_conflict));
	json_object_object_add(
		f, "gpu_dma_buf_supported",
		json_object_new_int(facts->gpu_dmabuf_supported));
	json_object_object_add(f, "gpu_direct_rdma_supported",
			       json_object_new_int(facts->gpu_gdr_supported));
	json_object_object_add(f, "cuda_driver_version",
			       json_object_new_int(facts->cuda_driver_version));
	json_object_object_add(
		f, "rdma_core_has_ibv_reg_dmabuf_mr",
		json_object_new_boolean(facts->rdma_core_has_dmabuf));
	json_object_object_add(f, "nvidia_peermem_loaded",
			       json_object_new_boolean(facts->peermem_loaded));
	json_object_object_add(
		f, "nv_peer_mem_loaded",
		json_object_new_boolean(facts->nv_peer_mem_loaded));
	json_object_object_add(f, "open_kernel_module",
			       json_object_new_int(facts->open_kernel_module));
	json_object_object_add(f, "mlx_compat_loaded",
			       json_object_new_boolean(facts->ofed_peer_api));
	json_object_object_add(f, "gpu_direct_rdma_writes_ordering",
			       json_object_new_string(gd_cuda_ordering_name(
				       facts->writes_ordering)));
	if (facts->bar1_bytes)
		json_object_object_add(
			f, "bar1_bytes",
			json_object_new_int64((int64_t)facts->bar1_bytes));
	gd_nic_probe_text(facts, text, sizeof(text));
	gd_add_str(f, "nic_dma_buf", text);
	gd_kernel_hint(facts, text, sizeof(text));
	gd_add_str(f, "kernel_hint", text);
	gd_add_str(f, "cuda_checked", facts->cuda_status);
	if (facts->driver_error[0])
		gd_add_str(f, "driver_error", facts->driver_error);
	json_object_object_add(ev, "facts", f);
	return ev;
}
