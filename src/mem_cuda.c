/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cuda memory backend: device memory from cuMemAlloc on the GPU's
 * retained primary context, refused when managed, SYNC_MEMOPS set, filled
 * with the known pattern through explicit copies, and registered by the
 * route gd_route_decide() picks: ibv_reg_mr on the device pointer
 * (peer-memory) or a DMA-BUF export imported with ibv_reg_dmabuf_mr.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "cuda_api.h"
#include "error.h"
#include "mem.h"
#include "mem_priv.h"
#include "route.h"

/* GPUDirect pins GPU memory in 64 KiB pages and DMA-BUF export wants whole
 * pages: keep the registered span aligned to that on both ends. */
#define GD_GPU_PAGE_BYTES (64u * 1024u)

struct gd_cuda_buf {
	struct gd_cuda_ctx ctx;
	struct gd_gpu_info info;
	uint64_t base;	   /* what cuMemAlloc returned */
	size_t span_bytes; /* len rounded up to whole GPU pages */
	int dmabuf_fd;
	unsigned long long dmabuf_flags;
};

static struct gd_cuda_buf *gd_cuda_priv(const struct gd_mem_buf *buf)
{
	return buf->priv;
}

static uint64_t gd_cuda_addr(const struct gd_mem_buf *buf)
{
	return (uint64_t)(uintptr_t)buf->addr;
}

static int gd_cuda_pick_gpu(const struct gd_mem_spec *spec, int *index)
{
	if (spec->gpu_index >= 0) {
		*index = spec->gpu_index;
		return 0;
	}
	return gd_cuda_find(spec->gpu_bus_id, index);
}

static void gd_cuda_release(struct gd_cuda_buf *c)
{
	if (c->dmabuf_fd >= 0)
		close(c->dmabuf_fd);
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
	c->dmabuf_fd = -1;
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
				    c->dmabuf_fd, access);
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

static int gd_cuda_reg_dmabuf(struct gd_mem_buf *buf, struct ibv_pd *pd,
			      int access, const struct gd_route_decision *d)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	struct json_object *exp = json_object_new_object();
	char why[512] = "";
	int ret;

	json_object_object_add(buf->evidence, "dmabuf_export", exp);
	ret = gd_cuda_export_dmabuf(&c->ctx, gd_cuda_addr(buf), c->span_bytes,
				    &c->dmabuf_fd, &c->dmabuf_flags, why,
				    sizeof(why));
	if (ret) {
		json_object_object_add(exp, "error",
				       json_object_new_string(why));
		return gd_err(
			ret,
			"DMA-BUF export of %zu bytes on GPU %d (%s) for %s failed: %s; route decision: dmabuf because %s; next: use --mem=cuda:%d:peermem with nvidia-peermem loaded (peer-memory: %s)",
			c->span_bytes, c->ctx.index, c->ctx.pci_bus_id,
			gd_pd_device(pd), why, d->why, c->ctx.index,
			d->why_not_peermem[0] ? d->why_not_peermem
					      : "available");
	}
	json_object_object_add(
		exp, "flags",
		json_object_new_string(c->dmabuf_flags ? "pcie" : "0"));
	return gd_cuda_import_dmabuf(buf, pd, access);
}

static const char *gd_sysfs_root(void)
{
	const char *root = getenv("GD_SYSFS_ROOT");

	return root && *root ? root : "/";
}

static int gd_cuda_reg(struct gd_mem_buf *buf, struct ibv_pd *pd, int access)
{
	struct gd_cuda_buf *c = gd_cuda_priv(buf);
	struct gd_route_facts facts;
	struct gd_route_decision d;

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
	if (d.route == GD_ROUTE_PEERMEM)
		return gd_cuda_reg_peermem(buf, pd, access);
	return gd_cuda_reg_dmabuf(buf, pd, access, &d);
}

static int gd_cuda_copy_in(struct gd_mem_buf *buf, size_t off, const void *src,
			   size_t len)
{
	return gd_cuda_copy_htod(&gd_cuda_priv(buf)->ctx,
				 gd_cuda_addr(buf) + off, src, len);
}

static int gd_cuda_copy_out(struct gd_mem_buf *buf, size_t off, void *dst,
			    size_t len)
{
	return gd_cuda_copy_dtoh(&gd_cuda_priv(buf)->ctx, dst,
				 gd_cuda_addr(buf) + off, len);
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
	json_object_object_add(obj, "gpu", gpu);
}

const struct gd_mem_ops gd_mem_cuda_ops = {
	.name = "cuda",
	.cpu_accessible = false,
	.alloc = gd_cuda_alloc,
	.free = gd_cuda_free,
	.reg = gd_cuda_reg,
	.copy_in = gd_cuda_copy_in,
	.copy_out = gd_cuda_copy_out,
	.describe = gd_cuda_describe,
};
