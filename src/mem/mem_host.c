/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The host memory backend: page-aligned, touched and filled with the known
 * pattern before registration (a peer that reads our buffer never sees
 * leftover process memory), registered with a plain ibv_reg_mr.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

static int gd_host_alloc(struct gd_mem_buf *buf, size_t len_bytes)
{
	long page_bytes = sysconf(_SC_PAGESIZE);
	void *p = NULL;
	int ret;

	if (page_bytes <= 0)
		page_bytes = 4096;
	ret = posix_memalign(&p, (size_t)page_bytes, len_bytes);
	if (ret)
		return gd_err(
			-ret,
			"cannot allocate %zu bytes of host memory: %s; check free memory and the process's address-space limit (ulimit -v)",
			len_bytes, strerror(ret));
	buf->addr = p;
	buf->len_bytes = len_bytes;
	buf->route_used = GD_ROUTE_PLAIN;
	/* Writing every byte also faults every page in, so registration
	 * pins memory that is really there. */
	return gd_mem_fill_pattern(buf, 0, len_bytes, GD_MEM_INIT_SEED);
}

static int gd_host_free(struct gd_mem_buf *buf)
{
	free(buf->addr);
	buf->addr = NULL;
	return 0;
}

int gd_mem_reg_plain(struct gd_mem_buf *buf, struct ibv_pd *pd, int access)
{
	struct json_object *ev;

	if (!pd)
		return gd_err(
			-EINVAL,
			"registering %s memory without a protection domain",
			buf->ops->name);
	buf->mr = ibv_reg_mr(pd, buf->addr, buf->len_bytes, access);
	if (!buf->mr)
		return gd_mem_decode_reg_error(
			errno ? -errno : -EIO, buf,
			ibv_get_device_name(pd->context->device), "ibv_reg_mr");
	buf->route_used = GD_ROUTE_PLAIN;
	ev = json_object_new_object();
	json_object_object_add(ev, "route", json_object_new_string("plain"));
	json_object_object_add(
		ev, "why",
		json_object_new_string(
			"CPU memory: ibv_reg_mr pins the pages directly; no GPU route involved"));
	if (buf->evidence)
		json_object_put(buf->evidence);
	buf->evidence = ev;
	return 0;
}

int gd_mem_cpu_copy_in(struct gd_mem_buf *buf, size_t off, const void *src,
		       size_t len)
{
	memcpy((char *)buf->addr + off, src, len);
	return 0;
}

int gd_mem_cpu_copy_out(struct gd_mem_buf *buf, size_t off, void *dst,
			size_t len)
{
	memcpy(dst, (const char *)buf->addr + off, len);
	return 0;
}

const struct gd_mem_ops gd_mem_host_ops = {
	.name = "host",
	.cpu_accessible = true,
	.alloc = gd_host_alloc,
	.free = gd_host_free,
	.reg = gd_mem_reg_plain,
	.copy_in = gd_mem_cpu_copy_in,
	.copy_out = gd_mem_cpu_copy_out,
};
