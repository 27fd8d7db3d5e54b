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
#include "mem/mem_priv.h"
#include "mem/route.h"

/* GPUDirect pins GPU memory in 64 KiB pages and DMA-BUF export wants whole
 * pages: keep the registered span aligned to that on both ends. */
#define GD_GPU_PAGE_BYTES (64u * 1024u)

struct gd_cuda_buf {
	struct gd_cuda_ctx ctx;
	struct gd_gpu_info info;
	uint64_t base;	   /* what cuMemAlloc returned */
	size_t span_bytes; /* len rounded up to whole GPU pages */
	struct gd_cuda_export exp;
};

static struct gd_cuda_buf *gd_cuda_priv(const struct gd_mem_buf *buf)
{
	return buf->priv;
}

static uint64_t gd_cuda_addr(const struct gd_mem_buf *buf)
{
	return (uint64_t)(uintptr_t)buf->addr;
}

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

static void gd_cuda_release(struct gd_cuda_buf *c)
{
	if (c->exp.fd >= 0)
		close(c->exp.fd);
	if (c->base)
		gd_cuda_mem_free(&c->ctx, c->base);
	gd_cuda_ctx_release(&c->ctx);
	free(c);
}

static int gd_cuda_alloc(struct gd_mem_buf *buf, size_t len_bytes)
{
	struct gd_cuda_buf *c = calloc(1, sizeof(*c));
	uint64_t aligned;
	int index, ret;

	if (!c)
		return gd_err(-ENOMEM,
			      "no host memory for the cuda buffer state");
	c->exp.fd = -1;
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
	gd_cuda_release(c);
	return ret;
}

static void gd_cuda_free(struct gd_mem_buf *buf)
{
	gd_cuda_release(gd_cuda_priv(buf));
	buf->priv = NULL;
	buf->addr = NULL;
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

static int gd_cuda_import_dmabuf(struct gd_mem_buf *buf, struct ibv_pd *pd,
				 int access)
{
#ifdef HAVE_IBV_REG_DMABUF_MR
	struct gd_cuda_buf *c = gd_cuda_priv(buf);

	if (!pd)
		return gd_err(
			-EINVAL,
			"registering GPU memory without a protection domain");
	/* IOVA = the device address, so peers use the same addresses as with
	 * the peer-memory route. */
	buf->mr = ibv_reg_dmabuf_mr(pd, 0, buf->len_bytes, gd_cuda_addr(buf),
				    c->exp.fd, access);
	if (!buf->mr)
		return gd_mem_decode_reg_error(errno ? -errno : -EIO, buf,
					       gd_pd_device(pd),
					       "ibv_reg_dmabuf_mr");
	buf->route_used = GD_ROUTE_DMABUF;
	return 0;
#else
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

static void gd_cuda_bar1_hint(const struct gd_mem_buf *buf, char *out,
			      size_t len)
{
	const struct gd_cuda_buf *c = buf ? gd_cuda_priv(buf) : NULL;
	unsigned long long bar1 =
		c ? gd_route_bar1_bytes(gd_sysfs_root(), c->ctx.pci_bus_id) : 0;
	char size[96] = "BAR1 size unknown";

	if (bar1)
		snprintf(size, sizeof(size),
			 "BAR1 of GPU %d (%s) is %llu MiB (PCI sysfs)",
			 c->ctx.index, c->ctx.pci_bus_id, bar1 >> 20);
	snprintf(
		out, len,
		"GPU memory pinned for RDMA (peer-memory or DMA-BUF) is mapped through the GPU's BAR1 aperture and not charged to the locked-memory limit, so the usual cause is BAR1 space: %s; compare 'BAR1 Memory Usage' in nvidia-smi -q -d MEMORY, and use a smaller buffer (-s/--max-size, -q) or stop other processes that register GPU memory",
		size);
}

/* What a failed registration of GPU memory usually means: BAR1 space, not
 * the locked-memory limit; a device pointer the kernel cannot pin without
 * a peer-memory module; a NIC driver that cannot import a dma-buf. */
static bool gd_cuda_reg_advice(const struct gd_mem_buf *buf, int errnum,
			       const char *dev, const char *call, char *out,
			       size_t len)
{
	bool dmabuf_call = strstr(call, "dmabuf") != NULL;

	if (errnum == ENOMEM) {
		gd_cuda_bar1_hint(buf, out, len);
	} else if ((errnum == EFAULT || errnum == EINVAL) && !dmabuf_call) {
		snprintf(
			out, len,
			"peer-memory route not in place (the kernel could not pin this GPU address): load nvidia-peermem where MLNX_OFED/DOCA-OFED provides its peer-memory API (modprobe nvidia-peermem; it cannot load on inbox kernels), or use --mem=cuda:N:dmabuf (open GPU kernel module >= 515, Linux >= 5.12)");
	} else if (errnum == EOPNOTSUPP && dmabuf_call) {
		snprintf(
			out, len,
			"driver or device %s lacks DMA-BUF support (the RDMA driver cannot import a dma-buf); use --mem=cuda:N:peermem with nvidia-peermem loaded, or a NIC driver with dma-buf import (mlx5, Linux >= 5.12)",
			dev);
	} else {
		return false;
	}
	return true;
}

static void gd_cuda_export_evidence(struct gd_mem_buf *buf, bool want_pcie,
				    const char *error)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	struct json_object *exp = json_object_new_object();

	json_object_object_add(buf->evidence, "dmabuf_export", exp);
	json_object_object_add(exp, "pcie_mapping_requested",
			       json_object_new_boolean(want_pcie));
	if (c->exp.pcie_note[0])
		json_object_object_add(
			exp, "pcie_mapping_note",
			json_object_new_string(c->exp.pcie_note));
	if (error)
		json_object_object_add(exp, "error",
				       json_object_new_string(error));
	else
		json_object_object_add(
			exp, "flags",
			json_object_new_string(c->exp.flags ? "pcie" : "0"));
}

static int gd_cuda_reg_dmabuf(struct gd_mem_buf *buf, struct ibv_pd *pd,
			      int access, const struct gd_route_decision *d)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	bool want_pcie = buf->spec.dmabuf_pcie;
	char why[512] = "", bar1[512] = "";
	int ret;

	ret = gd_cuda_export_dmabuf(&c->ctx, gd_cuda_addr(buf), c->span_bytes,
				    want_pcie, &c->exp, why, sizeof(why));
	gd_cuda_export_evidence(buf, want_pcie, ret ? why : NULL);
	if (!ret)
		return gd_cuda_import_dmabuf(buf, pd, access);
	if (ret == -ENOMEM)
		gd_cuda_bar1_hint(buf, bar1, sizeof(bar1));
	return gd_err(
		ret,
		"DMA-BUF export of %zu bytes on GPU %d (%s) for %s failed: %s%s%s; route decision: dmabuf because %s; next: use --mem=cuda:%d:peermem with nvidia-peermem loaded (peer-memory: %s)",
		c->span_bytes, c->ctx.index, c->ctx.pci_bus_id,
		gd_pd_device(pd), why, bar1[0] ? "; " : "", bar1, d->why,
		c->ctx.index,
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
	if (c->exp.fd >= 0)
		close(c->exp.fd);
	c->exp.fd = -1;
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
	json_object_object_add(buf->evidence, "route",
			       json_object_new_string("peermem"));
	json_object_object_add(
		buf->evidence, "why",
		json_object_new_string(
			"DMA-BUF was chosen automatically but its registration failed (see attempts); fell back to the loaded peer-memory module"));
	return 0;
}

static int gd_cuda_reg(struct gd_mem_buf *buf, struct ibv_pd *pd, int access)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	struct gd_route_facts facts;
	struct gd_route_decision d;
	int ret;

	gd_route_probe(gd_sysfs_root(), c->ctx.index, &facts);
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

static int gd_cuda_copy_in(struct gd_mem_buf *buf, size_t off, const void *src,
			   size_t len)
{
	return gd_cuda_copy_htod(&gd_cuda_priv(buf)->ctx,
				 gd_cuda_addr(buf) + off, src, len);
}

/* The read-back of received data: without native ordering, RDMA writes
 * may still be in flight to the GPU when cuMemcpyDtoH reads. */
static int gd_cuda_copy_out(struct gd_mem_buf *buf, size_t off, void *dst,
			    size_t len)
{
	const struct gd_cuda_ctx *ctx = &gd_cuda_priv(buf)->ctx;
	int ret = gd_cuda_flush_rdma_writes(ctx);

	return ret ? ret
		   : gd_cuda_copy_dtoh(ctx, dst, gd_cuda_addr(buf) + off, len);
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
	.describe = gd_cuda_describe,
	.reg_advice = gd_cuda_reg_advice,
};
