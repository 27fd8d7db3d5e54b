/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Memory backends, the generic half: dispatch of a buffer's life to its
 * backend and the JSON description. The backend table and the --mem
 * dispatch are in mem_spec.c, the shared words in mem_syntax.c, the
 * verification pattern in mem_pattern.c; backends call the last two,
 * never this file.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

int gd_mem_alloc(struct gd_mem_buf *buf, const struct gd_mem_spec *spec,
		 size_t len_bytes)
{
	int ret;

	memset(buf, 0, sizeof(*buf));
	if (!gd_mem_backend(spec->kind))
		return gd_err(-EINVAL, "unknown memory kind %d", spec->kind);
	if (!len_bytes)
		return gd_err(-EINVAL, "memory buffer of 0 bytes requested");
	buf->ops = gd_mem_backend(spec->kind);
	buf->spec = *spec;
	ret = buf->ops->alloc(buf, len_bytes);
	if (ret) {
		buf->ops = NULL;
		return ret;
	}
	return 0;
}

int gd_mem_register(struct gd_mem_buf *buf, struct ibv_pd *pd, int access)
{
	if (!buf->ops || !buf->addr)
		return gd_err(
			-EINVAL,
			"registering a memory buffer that was not allocated");
	if (buf->mr)
		return gd_err(-EBUSY, "%s buffer is already registered",
			      buf->ops->name);
	return buf->ops->reg(buf, pd, access);
}

int gd_mem_register_part(const struct gd_mem_buf *buf, size_t off, size_t len,
			 struct ibv_pd *pd, int access, struct ibv_mr **mr)
{
	/* a view of the part: the backend's own state, its route fixed */
	struct gd_mem_buf view = *buf;
	int ret;

	*mr = NULL;
	if (!buf->mr || off + len > buf->len_bytes)
		return gd_err(
			-EINVAL,
			"registering bytes %zu..%zu of a %zu-byte %s buffer that is %s",
			off, off + len, buf->len_bytes,
			buf->ops ? buf->ops->name : "unknown",
			buf->mr ? "shorter" : "not registered");
	view.addr = (char *)buf->addr + off;
	view.len_bytes = len;
	view.mr = NULL;
	view.evidence = NULL;
	if (view.spec.route == GD_ROUTE_AUTO)
		view.spec.route = buf->route_used;
	ret = buf->ops->reg(&view, pd, access);
	if (view.evidence)
		json_object_put(view.evidence);
	*mr = view.mr;
	return ret;
}

int gd_mem_free(struct gd_mem_buf *buf)
{
	int ret = 0, fr;

	if (buf->mr && ibv_dereg_mr(buf->mr))
		ret = gd_err(errno ? -errno : -EIO,
			     "ibv_dereg_mr of the %s buffer failed: %s",
			     buf->ops ? buf->ops->name : "unknown",
			     strerror(errno ? errno : EIO));
	buf->mr = NULL;
	if (buf->ops && buf->addr) {
		fr = buf->ops->free(buf);
		if (!ret)
			ret = fr;
	}
	if (buf->evidence)
		json_object_put(buf->evidence);
	memset(buf, 0, sizeof(*buf));
	return ret;
}

struct json_object *gd_mem_take_evidence(struct gd_mem_buf *buf)
{
	struct json_object *ev = buf->evidence;

	buf->evidence = NULL;
	return ev;
}

bool gd_mem_effect(const struct gd_mem_buf *buf, const char *what, char *out,
		   size_t len)
{
	return buf->ops && buf->ops->effect && buf->evidence &&
	       buf->ops->effect(buf, what, out, len);
}

struct json_object *gd_mem_describe(const struct gd_mem_buf *buf)
{
	struct json_object *obj = json_object_new_object();
	char spec[GD_MEM_SPEC_MAX];

	gd_mem_spec_format(&buf->spec, spec, sizeof(spec));
	json_object_object_add(
		obj, "kind",
		json_object_new_string(gd_mem_kind_name(buf->spec.kind)));
	json_object_object_add(obj, "spec", json_object_new_string(spec));
	json_object_object_add(obj, "len_bytes",
			       json_object_new_int64((int64_t)buf->len_bytes));
	json_object_object_add(
		obj, "cpu_accessible",
		json_object_new_boolean(buf->ops && buf->ops->cpu_accessible));
	json_object_object_add(obj, "registered",
			       json_object_new_boolean(buf->mr != NULL));
	json_object_object_add(
		obj, "route",
		json_object_new_string(gd_mem_route_name(buf->route_used)));
	if (buf->ops && buf->ops->describe)
		buf->ops->describe(buf, obj);
	if (buf->evidence)
		json_object_object_add(obj, "route_evidence",
				       json_object_get(buf->evidence));
	return obj;
}
