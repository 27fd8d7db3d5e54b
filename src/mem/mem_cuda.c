/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cuda memory backend: its --mem words (cuda:N or cuda:BDF, then an
 * optional route), device memory from cuMemAlloc on the GPU's
 * retained primary context, refused when managed, SYNC_MEMOPS set, filled
 * with the known pattern through explicit copies, and registered by the
 * route gd_route_decide() picks: ibv_reg_mr on the device pointer
 * (peer-memory) or a DMA-BUF export imported with ibv_reg_dmabuf_mr, with
 * peer-memory as the fallback of an automatic DMA-BUF choice, and the
 * advice when registration fails.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_cuda_copy.h"
#include "mem/mem_priv.h"
#include "mem/route.h"

/* GPUDirect pins GPU memory in 64 KiB pages and DMA-BUF export wants whole
 * pages: keep the registered span aligned to that on both ends. */
#define GD_GPU_PAGE_BYTES (64u * 1024u)

/* "N[:route]" or "BDF[:route]"; BDF has colons of its own, so the route
 * is whatever follows the last colon once the rest is a GPU. */
static int gd_cuda_parse(const char *text, const char *args,
			 struct gd_mem_spec *spec)
{
	char ref[GD_MEM_SPEC_MAX];
	char *colon;

	spec->route = GD_ROUTE_AUTO;
	if (strlen(args) >= sizeof(ref))
		return gd_err(-EINVAL, "--mem '%s' is too long", text);
	strcpy(ref, args);
	if (gd_mem_parse_device_ref(ref, spec))
		return 0;
	colon = strrchr(ref, ':');
	if (colon) {
		*colon = '\0';
		if (gd_mem_parse_device_ref(ref, spec)) {
			if (!gd_mem_route_parse(colon + 1, &spec->route))
				return 0;
			return gd_err(
				-EINVAL,
				"--mem '%s': unknown registration route '%s' (expected auto, dmabuf or peermem)",
				text, colon + 1);
		}
	}
	return gd_err(
		-EINVAL,
		"--mem '%s': GPU '%s' is neither an index (0..%d), a PCI bus id (0000:17:00.0) nor near or far; expected cuda:N[:auto|dmabuf|peermem], cuda:BDF[:route] or cuda:near|far[:route]",
		text, args, GD_MEM_DEVICE_INDEX_MAX);
}

/* auto is the default and stays implicit, so the peer reads the same
 * text the user wrote. */
static void gd_cuda_format(const struct gd_mem_spec *spec, char *buf,
			   size_t len)
{
	const char *route = "";

	if (spec->route == GD_ROUTE_DMABUF || spec->route == GD_ROUTE_PEERMEM)
		route = spec->route == GD_ROUTE_DMABUF ? ":dmabuf" : ":peermem";
	if (spec->locality != GD_MEM_NAMED)
		snprintf(buf, len, "cuda:%s%s",
			 spec->locality == GD_MEM_NEAR ? "near" : "far", route);
	else if (spec->gpu_bus_id[0])
		snprintf(buf, len, "cuda:%s%s", spec->gpu_bus_id, route);
	else
		snprintf(buf, len, "cuda:%d%s", spec->gpu_index, route);
}

/* perftest's --use_cuda_pcie_mapping, per side: the DMA-BUF export flag. */
static void gd_cuda_apply_options(struct gd_mem_spec *spec,
				  struct json_object *options)
{
	struct json_object *v;

	spec->dmabuf_pcie = json_object_object_get_ex(
				    options, "use_cuda_pcie_mapping", &v) &&
			    json_object_get_boolean(v);
}

static int gd_cuda_pick_gpu(const struct gd_mem_spec *spec, int *index)
{
	if (spec->locality != GD_MEM_NAMED)
		return gd_err(
			-EINVAL,
			"--mem cuda:%s: the GPU must be chosen from the GPU-to-NIC map before it is allocated; this caller did not",
			spec->locality == GD_MEM_NEAR ? "near" : "far");
	if (spec->gpu_index >= 0) {
		*index = spec->gpu_index;
		return 0;
	}
	return gd_cuda_find(spec->gpu_bus_id, index);
}

/* Both steps run whatever the first gave; the first error is returned. */
static int gd_cuda_release(struct gd_cuda_buf *c)
{
	int ret = c->base ? gd_cuda_mem_free(&c->ctx, c->base) : 0;
	int rel = gd_cuda_ctx_release(&c->ctx);

	free(c);
	return ret ? ret : rel;
}

static int gd_cuda_alloc(struct gd_mem_buf *buf, size_t len_bytes)
{
	struct gd_cuda_buf *c = calloc(1, sizeof(*c));
	uint64_t aligned;
	int index, ret;

	if (!c)
		return gd_err(-ENOMEM,
			      "no host memory for the cuda buffer state");
	ret = gd_cuda_load();
	if (!ret)
		ret = gd_cuda_pick_gpu(&buf->spec, &index);
	if (!ret)
		ret = gd_cuda_ctx_retain(index, &c->ctx);
	if (!ret)
		ret = gd_cuda_gpu_info(index, &c->info);
	if (ret)
		goto err_release;
	c->span_bytes = (len_bytes + GD_GPU_PAGE_BYTES - 1) &
			~(size_t)(GD_GPU_PAGE_BYTES - 1);
	/* One spare page lets the buffer start on a page boundary whatever
	 * alignment the allocator gave. */
	ret = gd_cuda_mem_alloc(&c->ctx, c->span_bytes + GD_GPU_PAGE_BYTES,
				&c->base);
	if (ret)
		goto err_release;
	aligned = (c->base + GD_GPU_PAGE_BYTES - 1) &
		  ~(uint64_t)(GD_GPU_PAGE_BYTES - 1);
	ret = gd_cuda_prepare_rdma(&c->ctx, aligned);
	if (ret)
		goto err_release;
	buf->priv = c;
	buf->addr = (void *)(uintptr_t)aligned;
	buf->len_bytes = len_bytes;
	buf->route_used = GD_ROUTE_AUTO;
	ret = gd_mem_fill_pattern(buf, 0, len_bytes, GD_MEM_INIT_SEED);
	if (!ret)
		return 0;
	buf->priv = NULL;
	buf->addr = NULL;
err_release:
	/* the failure that brought us here is the one recorded */
	(void)gd_cuda_release(c);
	return ret;
}

static int gd_cuda_free(struct gd_mem_buf *buf)
{
	int ret = gd_cuda_release(gd_cuda_priv(buf));

	buf->priv = NULL;
	buf->addr = NULL;
	return ret;
}

static const char *gd_pd_device(struct ibv_pd *pd)
{
	return pd ? ibv_get_device_name(pd->context->device) : "(no device)";
}

static int gd_cuda_reg_peermem(struct gd_mem_buf *buf, struct ibv_pd *pd,
			       int access)
{
	if (!pd)
		return gd_err(
			-EINVAL,
			"registering GPU memory without a protection domain");
	buf->mr = ibv_reg_mr(pd, buf->addr, buf->len_bytes, access);
	if (!buf->mr)
		return gd_mem_decode_reg_error(errno ? -errno : -EIO, buf,
					       gd_pd_device(pd), "ibv_reg_mr");
	buf->route_used = GD_ROUTE_PEERMEM;
	return 0;
}

/*
 * The whole GPU pages around @buf's bytes: cuMemGetHandleForAddressRange
 * wants a start and a size aligned to the host page, and a part of the
 * buffer (--mr_per_qp) starts anywhere. 64 KiB pages are host-page aligned
 * on every host, and the rounded range stays inside the allocation because
 * the buffer starts on a GPU page and its span is whole GPU pages.
 */
static void gd_cuda_export_range(const struct gd_mem_buf *buf, uint64_t *start,
				 size_t *len)
{
	uint64_t page = GD_GPU_PAGE_BYTES;
	uint64_t first = gd_cuda_addr(buf) & ~(page - 1);
	uint64_t end =
		(gd_cuda_addr(buf) + buf->len_bytes + page - 1) & ~(page - 1);

	*start = first;
	*len = (size_t)(end - first);
}

/* The dma-buf fd is closed once the import is done, whatever its outcome:
 * the MR holds the kernel's own reference to the dma-buf. */
static int gd_cuda_import_dmabuf(struct gd_mem_buf *buf, struct ibv_pd *pd,
				 int access, int fd, uint64_t start)
{
#ifdef HAVE_IBV_REG_DMABUF_MR
	int err;

	if (!pd) {
		close(fd);
		return gd_err(
			-EINVAL,
			"registering GPU memory without a protection domain");
	}
	/* IOVA = the device address, so peers use the same addresses as with
	 * the peer-memory route. */
	buf->mr =
		ibv_reg_dmabuf_mr(pd, gd_cuda_addr(buf) - start, buf->len_bytes,
				  gd_cuda_addr(buf), fd, access);
	err = buf->mr ? 0 : errno ? errno : EIO;
	close(fd);
	if (err)
		return gd_mem_decode_reg_error(-err, buf, gd_pd_device(pd),
					       "ibv_reg_dmabuf_mr");
	buf->route_used = GD_ROUTE_DMABUF;
	return 0;
#else
	(void)access;
	(void)start;
	close(fd);
	return gd_err(
		-EOPNOTSUPP,
		"cannot register GPU %d memory on %s through DMA-BUF: rdma-core lacks ibv_reg_dmabuf_mr (this build's libibverbs predates rdma-core 34); rebuild against rdma-core >= 34 or use --mem=cuda:%d:peermem with nvidia-peermem loaded",
		gd_cuda_priv(buf)->ctx.index, gd_pd_device(pd),
		gd_cuda_priv(buf)->ctx.index);
#endif
}

static const char *gd_sysfs_root(void)
{
	const char *root = getenv("GD_SYSFS_ROOT");

	return root && *root ? root : "/";
}

/* BAR1 of the buffer's GPU as read now, with what NVML says is in use. */
static void gd_cuda_bar1_text(const struct gd_cuda_buf *c, char *out,
			      size_t len)
{
	struct gd_bar1 b;

	if (!c || gd_bar1_read(gd_sysfs_root(), c->ctx.pci_bus_id, &b)) {
		snprintf(
			out, len,
			"BAR1 size of GPU %d unknown (neither NVML nor the PCI resource file gave it)",
			c ? c->ctx.index : -1);
		return;
	}
	if (b.has_usage)
		snprintf(
			out, len,
			"BAR1 of GPU %d (%s) is %llu MiB, %llu MiB in use, %llu MiB free (%s)",
			c->ctx.index, c->ctx.pci_bus_id, b.total_bytes >> 20,
			b.used_bytes >> 20, b.free_bytes >> 20, b.source);
	else
		snprintf(out, len, "BAR1 of GPU %d (%s) is %llu MiB (%s)",
			 c->ctx.index, c->ctx.pci_bus_id, b.total_bytes >> 20,
			 b.source);
}

/*
 * Out of memory registering GPU memory, by route. Both routes map the
 * pinned pages through the GPU's BAR1 aperture. The peer-memory route is
 * also charged to RLIMIT_MEMLOCK: MLNX_OFED's ib_umem_get checks the limit
 * before it offers the range to the peer-memory client, unless the process
 * has CAP_IPC_LOCK. A DMA-BUF import pins through the exporter and is not.
 */
static void gd_cuda_bar1_hint(const struct gd_mem_buf *buf,
			      enum gd_mem_route route, char *out, size_t len)
{
	const struct gd_cuda_buf *c = buf ? gd_cuda_priv(buf) : NULL;
	char bar1[256], memlock[448];

	gd_cuda_bar1_text(c, bar1, sizeof(bar1));
	if (route == GD_ROUTE_DMABUF) {
		snprintf(
			out, len,
			"a DMA-BUF registration is mapped through the GPU's BAR1 aperture and not charged to the locked-memory limit, so the usual cause is BAR1 space: %s; compare 'BAR1 Memory Usage' in nvidia-smi -q -d MEMORY, and use a smaller buffer (-s/--max-size, -q) or stop other processes that register GPU memory",
			bar1);
		return;
	}
	if (gd_mem_cap_ipc_lock(gd_sysfs_root()) == 1) {
		snprintf(
			out, len,
			"this process has CAP_IPC_LOCK (root normally), for which ib_umem_get does not apply the locked-memory limit, so that limit is not the cause; the usual cause is BAR1 space: %s; compare 'BAR1 Memory Usage' in nvidia-smi -q -d MEMORY, check that nvidia-peermem is loaded and dmesg | grep -e NVRM -e peermem for its refusal, and use a smaller buffer (-s/--max-size, -q)",
			bar1);
		return;
	}
	gd_mem_memlock_text(buf ? buf->len_bytes : 0, memlock, sizeof(memlock));
	snprintf(
		out, len,
		"the peer-memory route is limited twice: by the locked-memory limit, which MLNX_OFED's ib_umem_get checks before it asks nvidia-peermem: %s; and by BAR1 space: %s; compare 'BAR1 Memory Usage' in nvidia-smi -q -d MEMORY, and use a smaller buffer (-s/--max-size, -q)",
		memlock, bar1);
}

/*
 * A failed ibv_reg_dmabuf_mr, from what the kernel and NVIDIA's module
 * answer: 524 (the kernel-internal ENOTSUPP) is NVIDIA's attach refusing
 * the PCI path between GPU and NIC; EOPNOTSUPP or EPROTONOSUPPORT an RDMA
 * stack or NIC driver without dma-buf import (NCCL reads them so too);
 * ENOMEM any mapping the exporter refused, the dma-buf core's one answer.
 */
static bool gd_cuda_dmabuf_advice(const struct gd_mem_buf *buf, int errnum,
				  const char *dev, char *out, size_t len)
{
	char bar1[768];

	if (errnum == GD_ENOTSUPP) {
		snprintf(
			out, len,
			"NVIDIA's kernel module refused to map this GPU's memory for %s (\"PCI topology not supported for dma-buf\"): GPU and NIC cannot reach each other peer-to-peer on this PCIe path (another socket, or a root complex without peer-to-peer; with --use_cuda_pcie_mapping also a platform that is not cache-coherent or a GPU and NIC in different IOMMU groups); check the GPU-NIC path with nvidia-smi topo -m, use a GPU near the NIC (cuda:near), or --mem=cuda:N:peermem with nvidia-peermem loaded",
			dev);
	} else if (errnum == EOPNOTSUPP || errnum == EPROTONOSUPPORT) {
		snprintf(
			out, len,
			"driver or device %s lacks DMA-BUF support: the kernel's RDMA stack or the NIC driver has no dma-buf import (it needs Linux >= 5.12 and a NIC driver that implements it, such as mlx5); use --mem=cuda:N:peermem with nvidia-peermem loaded, or a kernel and NIC driver with dma-buf import",
			dev);
	} else if (errnum == ENOMEM) {
		gd_cuda_bar1_hint(buf, GD_ROUTE_DMABUF, bar1, sizeof(bar1));
		snprintf(
			out, len,
			"the exporter (NVIDIA's kernel module) refused to map the dma-buf for %s, which the dma-buf core reports as ENOMEM whatever the reason: check dmesg | grep NVRM for its own; %s",
			dev, bar1);
	} else {
		return false;
	}
	return true;
}

/* What a failed registration of GPU memory usually means: BAR1 space (and
 * for peer-memory the locked-memory limit); a device pointer the kernel
 * cannot pin without a peer-memory module; a NIC driver that cannot import
 * a dma-buf. */
static bool gd_cuda_reg_advice(const struct gd_mem_buf *buf, int errnum,
			       const char *dev, const char *call, char *out,
			       size_t len)
{
	if (strstr(call, "dmabuf"))
		return gd_cuda_dmabuf_advice(buf, errnum, dev, out, len);
	if (errnum == ENOMEM) {
		gd_cuda_bar1_hint(buf, GD_ROUTE_PEERMEM, out, len);
	} else if (errnum == EFAULT || errnum == EINVAL) {
		snprintf(
			out, len,
			"peer-memory route not in place (the kernel could not pin this GPU address): load nvidia-peermem where MLNX_OFED/DOCA-OFED provides its peer-memory API (modprobe nvidia-peermem; it cannot load on inbox kernels), or use --mem=cuda:N:dmabuf (open GPU kernel module >= 515, Linux >= 5.12)");
	} else {
		return false;
	}
	return true;
}

static void gd_cuda_export_evidence(struct gd_mem_buf *buf,
				    const struct gd_cuda_export *ex,
				    bool want_pcie, const char *error)
{
	struct json_object *exp = json_object_new_object();

	json_object_object_add(buf->evidence, "dmabuf_export", exp);
	json_object_object_add(exp, "pcie_mapping_requested",
			       json_object_new_boolean(want_pcie));
	if (ex->pcie_note[0])
		json_object_object_add(exp, "pcie_mapping_note",
				       json_object_new_string(ex->pcie_note));
	if (error)
		json_object_object_add(exp, "error",
				       json_object_new_string(error));
	else
		json_object_object_add(
			exp, "flags",
			json_object_new_string(ex->flags ? "pcie" : "0"));
}

/* --use_cuda_pcie_mapping asked: whether the platform can import it, and
 * why (pcie_mapping_platform), or why it was skipped. */
static void gd_cuda_pcie_fit_evidence(struct gd_mem_buf *buf, bool fits,
				      const char *fit)
{
	struct json_object *exp;

	if (!fit[0] ||
	    !json_object_object_get_ex(buf->evidence, "dmabuf_export", &exp))
		return;
	json_object_object_add(
		exp, fits ? "pcie_mapping_platform" : "pcie_mapping_skipped",
		json_object_new_string(fit));
}

/* One import of @ex, recorded under dmabuf_export.imports. */
static int gd_cuda_import_logged(struct gd_mem_buf *buf, struct ibv_pd *pd,
				 int access, const struct gd_cuda_export *ex,
				 uint64_t start)
{
	struct json_object *exp, *list, *a;
	int ret = gd_cuda_import_dmabuf(buf, pd, access, ex->fd, start);

	if (!json_object_object_get_ex(buf->evidence, "dmabuf_export", &exp))
		return ret;
	if (!json_object_object_get_ex(exp, "imports", &list)) {
		list = json_object_new_array();
		json_object_object_add(exp, "imports", list);
	}
	a = json_object_new_object();
	json_object_object_add(
		a, "flags", json_object_new_string(ex->flags ? "pcie" : "0"));
	json_object_object_add(a, "ok", json_object_new_boolean(!ret));
	if (ret)
		json_object_object_add(a, "error",
				       json_object_new_string(gd_err_msg()));
	json_object_array_add(list, a);
	return ret;
}

/*
 * The import of the PCIe-mapped export failed: NVIDIA's module maps it
 * only on a cache-coherent platform with GPU and NIC in one IOMMU group,
 * and answers 524 (ENOMEM on 570-series drivers) elsewhere. Export again
 * without the flag and import that; both imports stay in the evidence.
 */
static int gd_cuda_reg_dmabuf_again(struct gd_mem_buf *buf, struct ibv_pd *pd,
				    int access, uint64_t start, size_t len)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	char first[GD_ERR_MSG_MAX], second[GD_ERR_MSG_MAX], why[512] = "";
	struct json_object *exp = NULL;
	struct gd_cuda_export ex;
	int ret;

	snprintf(first, sizeof(first), "%s", gd_err_msg());
	gd_err_clear();
	if (json_object_object_get_ex(buf->evidence, "dmabuf_export", &exp))
		json_object_object_add(exp, "pcie_import_error",
				       json_object_new_string(first));
	ret = gd_cuda_export_dmabuf(&c->ctx, start, len, false, &ex, why,
				    sizeof(why));
	if (ret)
		return gd_err(
			ret,
			"the PCIe-mapped DMA-BUF export of GPU %d (%s) could not be imported (%.400s), and the export again with flags 0 failed: %s",
			c->ctx.index, c->ctx.pci_bus_id, first, why);
	if (exp)
		json_object_object_add(exp, "flags",
				       json_object_new_string("0"));
	ret = gd_cuda_import_logged(buf, pd, access, &ex, start);
	if (!ret)
		return 0;
	snprintf(second, sizeof(second), "%s", gd_err_msg());
	return gd_err_replace(
		ret,
		"GPU %d (%s) memory could not be imported on %s with or without the PCIe mapping: with it: %.400s; exported again with flags 0: %.400s",
		c->ctx.index, c->ctx.pci_bus_id, gd_pd_device(pd), first,
		second);
}

static int gd_cuda_reg_dmabuf(struct gd_mem_buf *buf, struct ibv_pd *pd,
			      int access, const struct gd_route_decision *d)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	bool want_pcie = buf->spec.dmabuf_pcie;
	char why[512] = "", bar1[768] = "", fit[512] = "";
	struct gd_cuda_export ex;
	uint64_t start;
	size_t len;
	int ret;

	gd_cuda_export_range(buf, &start, &len);
	if (want_pcie && pd)
		want_pcie = gd_route_pcie_mapping_fits(
			gd_sysfs_root(), c->ctx.pci_bus_id, gd_pd_device(pd),
			c->info.host_native_atomic, fit, sizeof(fit));
	ret = gd_cuda_export_dmabuf(&c->ctx, start, len, want_pcie, &ex, why,
				    sizeof(why));
	gd_cuda_export_evidence(buf, &ex, buf->spec.dmabuf_pcie,
				ret ? why : NULL);
	gd_cuda_pcie_fit_evidence(buf, want_pcie, fit);
	if (!ret) {
		ret = gd_cuda_import_logged(buf, pd, access, &ex, start);
		/* a missing PD is the caller's, not the mapping's, failure */
		if (ret && ex.flags && pd)
			ret = gd_cuda_reg_dmabuf_again(buf, pd, access, start,
						       len);
		return ret;
	}
	if (ret == -ENOMEM)
		gd_cuda_bar1_hint(buf, GD_ROUTE_DMABUF, bar1, sizeof(bar1));
	return gd_err(
		ret,
		"DMA-BUF export of %zu bytes on GPU %d (%s) for %s failed: %s%s%s; route decision: dmabuf because %s; next: use --mem=cuda:%d:peermem with nvidia-peermem loaded (peer-memory: %s)",
		len, c->ctx.index, c->ctx.pci_bus_id, gd_pd_device(pd), why,
		bar1[0] ? "; " : "", bar1, d->why, c->ctx.index,
		d->why_not_peermem[0] ? d->why_not_peermem : "available");
}

/* One registration attempt through @route, recorded in the evidence. */
static int gd_cuda_reg_attempt(struct gd_mem_buf *buf, struct ibv_pd *pd,
			       int access, enum gd_mem_route route,
			       const struct gd_route_decision *d)
{
	struct json_object *a = json_object_new_object(), *list;
	int ret = route == GD_ROUTE_PEERMEM
			  ? gd_cuda_reg_peermem(buf, pd, access)
			  : gd_cuda_reg_dmabuf(buf, pd, access, d);

	if (!json_object_object_get_ex(buf->evidence, "attempts", &list)) {
		list = json_object_new_array();
		json_object_object_add(buf->evidence, "attempts", list);
	}
	json_object_object_add(
		a, "route", json_object_new_string(gd_mem_route_name(route)));
	json_object_object_add(a, "ok", json_object_new_boolean(!ret));
	if (ret)
		json_object_object_add(a, "error",
				       json_object_new_string(gd_err_msg()));
	json_object_array_add(list, a);
	return ret;
}

/* The evidence after the fallback says one thing: the route used is
 * peer-memory, why, and why not DMA-BUF; the decision's reasons against
 * the route that was in the end used no longer stand. */
static void gd_cuda_fallback_evidence(struct gd_mem_buf *buf)
{
	struct json_object *why_not;

	json_object_object_add(buf->evidence, "route",
			       json_object_new_string("peermem"));
	json_object_object_add(
		buf->evidence, "why",
		json_object_new_string(
			"DMA-BUF was chosen automatically but its registration failed (see attempts); fell back to the loaded peer-memory module"));
	if (!json_object_object_get_ex(buf->evidence, "why_not", &why_not))
		return;
	json_object_object_del(why_not, "peermem");
	json_object_object_add(
		why_not, "dmabuf",
		json_object_new_string(
			"chosen automatically, but its registration failed (see attempts)"));
}

/* Automatic DMA-BUF failed (the attribute does not say that the NIC driver
 * and kernel can import a dma-buf): peer-memory, recorded as such. */
static int gd_cuda_reg_fallback(struct gd_mem_buf *buf, struct ibv_pd *pd,
				int access, const struct gd_route_decision *d)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	char first[GD_ERR_MSG_MAX], second[GD_ERR_MSG_MAX];
	int ret;

	snprintf(first, sizeof(first), "%s", gd_err_msg());
	gd_err_clear();
	ret = gd_cuda_reg_attempt(buf, pd, access, GD_ROUTE_PEERMEM, d);
	if (ret) {
		snprintf(second, sizeof(second), "%s", gd_err_msg());
		/* Both errors matter; the route evidence keeps them whole. */
		return gd_err_replace(
			ret,
			"GPU %d (%s) memory could not be registered on %s by either route: DMA-BUF (chosen automatically): %.400s; peer-memory fallback: %.400s",
			c->ctx.index, c->ctx.pci_bus_id, gd_pd_device(pd),
			first, second);
	}
	gd_cuda_fallback_evidence(buf);
	return 0;
}

/*
 * Can @pd's device import a dma-buf? NCCL's probe: ibv_reg_dmabuf_mr with
 * fd -1 and length 0 registers nothing. 0: supported (EBADF: the kernel
 * looked for the fd, so it has the method); -EOPNOTSUPP or
 * -EPROTONOSUPPORT: not supported; -ENOSYS: this build has no
 * ibv_reg_dmabuf_mr; any other -errno: unknown. Here, not in the verbs
 * transport, because memory is the layer below it.
 */
static int gd_cuda_dmabuf_probe(struct ibv_pd *pd)
{
#ifdef HAVE_IBV_REG_DMABUF_MR
	struct ibv_mr *mr;

	errno = 0;
	mr = ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0);
	if (mr) {
		/* Nothing should register; a provider that did, did no harm. */
		ibv_dereg_mr(mr);
		return 0;
	}
	if (errno == EBADF)
		return 0;
	return errno ? -errno : -EIO;
#else
	(void)pd;
	return -ENOSYS;
#endif
}

static int gd_cuda_reg(struct gd_mem_buf *buf, struct ibv_pd *pd, int access)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	struct gd_route_facts facts;
	struct gd_route_decision d;
	int ret;

	gd_route_probe_cached(gd_sysfs_root(), c->ctx.index, &facts);
	/* Per device, not per GPU: the cached facts leave it out. */
	if (pd)
		gd_route_set_nic_probe(&facts, gd_pd_device(pd),
				       gd_cuda_dmabuf_probe(pd));
	gd_route_decide(&facts, buf->spec.route, &d);
	if (buf->evidence)
		json_object_put(buf->evidence);
	buf->evidence = gd_route_evidence(&facts, &d);
	if (!d.possible)
		return gd_err(
			-EOPNOTSUPP,
			"GPU %d (%s) memory cannot be registered on %s: %s (DMA-BUF: %s; peer-memory: %s)",
			c->ctx.index, c->ctx.pci_bus_id, gd_pd_device(pd),
			d.stop_condition, d.why_not_dmabuf, d.why_not_peermem);
	ret = gd_cuda_reg_attempt(buf, pd, access, d.route, &d);
	/* Only a route gdperf chose may be swapped; a named one is a test
	 * of that route and its failure is the result. */
	if (ret && d.fallback == GD_ROUTE_PEERMEM)
		ret = gd_cuda_reg_fallback(buf, pd, access, &d);
	return ret;
}

/* Did an import of the export with @flags ("pcie" or "0") succeed? */
static bool gd_cuda_imported(struct json_object *exp, const char *flags)
{
	struct json_object *list, *a, *v;

	if (!json_object_object_get_ex(exp, "imports", &list))
		return false;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		a = json_object_array_get_idx(list, i);
		if (json_object_object_get_ex(a, "ok", &v) &&
		    json_object_get_boolean(v) &&
		    json_object_object_get_ex(a, "flags", &v) &&
		    !strcmp(json_object_get_string(v), flags))
			return true;
	}
	return false;
}

/* What became of --use_cuda_pcie_mapping, in words for the header: from
 * the import that succeeded, not from the export's flags. */
static bool gd_cuda_effects(const struct gd_mem_buf *buf, const char *what,
			    char *out, size_t len)
{
	struct json_object *exp, *v;

	if (strcmp(what, "pcie_mapping") ||
	    !json_object_object_get_ex(buf->evidence, "dmabuf_export", &exp) ||
	    !json_object_object_get_ex(exp, "pcie_mapping_requested", &v) ||
	    !json_object_get_boolean(v))
		return false;
	if (json_object_object_get_ex(exp, "pcie_mapping_skipped", &v))
		snprintf(out, len,
			 "requested, skipped (exported with flags 0): %.400s",
			 json_object_get_string(v));
	else if (gd_cuda_imported(exp, "pcie"))
		snprintf(
			out, len,
			"requested and used (CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE)");
	else if (json_object_object_get_ex(exp, "pcie_import_error", &v))
		snprintf(
			out, len,
			"requested, refused at import (%.300s); exported again with flags 0%s",
			json_object_get_string(v),
			gd_cuda_imported(exp, "0")
				? " and imported"
				: ", whose import failed too");
	else if (json_object_object_get_ex(exp, "pcie_mapping_note", &v))
		snprintf(out, len, "requested, not used: %s",
			 json_object_get_string(v));
	else if (json_object_object_get_ex(exp, "flags", &v) &&
		 !strcmp(json_object_get_string(v), "pcie"))
		snprintf(out, len, "requested, exported with it, not imported");
	else
		snprintf(out, len,
			 "requested, not used: the DMA-BUF export failed");
	return true;
}

static void gd_cuda_describe(const struct gd_mem_buf *buf,
			     struct json_object *obj)
{
	const struct gd_cuda_buf *c = gd_cuda_priv(buf);
	struct json_object *gpu;
	char cc[16];

	if (!c)
		return;
	gpu = json_object_new_object();
	snprintf(cc, sizeof(cc), "%d.%d", c->info.compute_major,
		 c->info.compute_minor);
	json_object_object_add(gpu, "index",
			       json_object_new_int(c->info.index));
	json_object_object_add(gpu, "name",
			       json_object_new_string(c->info.name));
	json_object_object_add(gpu, "uuid",
			       json_object_new_string(c->info.uuid));
	json_object_object_add(gpu, "pci_bus_id",
			       json_object_new_string(c->info.pci_bus_id));
	json_object_object_add(gpu, "compute_capability",
			       json_object_new_string(cc));
	json_object_object_add(gpu, "cuda_driver_version",
			       json_object_new_int(c->info.driver_version));
	json_object_object_add(
		gpu, "total_mem_bytes",
		json_object_new_int64((int64_t)c->info.total_mem_bytes));
	json_object_object_add(gpu, "gpu_direct_rdma_writes_ordering",
			       json_object_new_string(gd_cuda_ordering_name(
				       c->info.writes_ordering)));
	json_object_object_add(
		gpu, "verify_read_back",
		json_object_new_string(gd_cuda_flush_plan(&c->ctx)));
	json_object_object_add(obj, "gpu", gpu);
}

const struct gd_mem_ops gd_mem_cuda_ops = {
	.name = "cuda",
	.syntax = { "cuda:N[:auto|dmabuf|peermem]", "cuda:BDF[:route]",
		    "cuda:near|far[:route]" },
	.perftest_flag = "use_cuda",
	.cpu_accessible = false,
	.dmabuf_export = true,
	.example = "cuda:N",
	.route_check =
		"DMA-BUF: GPU driver, kernel and rdma-core support; peer-memory: nvidia-peermem loaded",
	.visibility = "CUDA_VISIBLE_DEVICES, container device nodes",
	.envelope = &gd_mem_cuda_envelope_ops,
	.parse = gd_cuda_parse,
	.format = gd_cuda_format,
	.apply_options = gd_cuda_apply_options,
	.alloc = gd_cuda_alloc,
	.free = gd_cuda_free,
	.reg = gd_cuda_reg,
	.copy_in = gd_cuda_copy_in,
	.copy_out = gd_cuda_copy_out,
	.before_read = gd_cuda_before_read,
	.describe = gd_cuda_describe,
	.reg_advice = gd_cuda_reg_advice,
	.effect = gd_cuda_effects,
};
