/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Before an end waits for its peer or reaches for it: open this side's
 * RDMA device, port and GID, and allocate a page of every memory this side
 * was given, so that a typo in -d or a missing GPU fails at once with its
 * next check instead of after a client arrives (perftest opens its device
 * before it listens, too). Everything is released again; the session
 * opens it for real once the test has travelled.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "mem/mem.h"
#include "transport/verbs.h"
#include "engine/preflight.h"

#define GD_PREFLIGHT_BYTES 4096

static int gd_preflight_device(const struct gd_opts *o, char *dev, size_t len)
{
	struct gd_verbs v;
	int ret;

	memset(&v, 0, sizeof(v));
	ret = gd_verbs_open(&v, o->ib_dev, (unsigned int)o->ib_port,
			    o->ipv6_gid ? GD_GID_PICK_IPV6 : (int)o->gid_index);
	if (!ret)
		snprintf(dev, len, "%s port %u", v.port.dev_name,
			 (unsigned int)v.port.port);
	gd_verbs_close(&v);
	return ret;
}

/* One memory of this side: a page of it allocated and freed. cuda:near
 * and cuda:far need the GPU-to-NIC map, which the session reads later:
 * here only their backend is checked. */
static int gd_preflight_memory(const char *text)
{
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;
	int ret = gd_mem_spec_parse(text, &spec);

	if (ret)
		return ret;
	if (spec.locality != GD_MEM_NAMED)
		return gd_mem_device_backend(text)
			       ? 0
			       : gd_err(-ENOTSUP,
					"--mem %s: no backend for this memory "
					"in this build (check gd_doctor)",
					text);
	memset(&buf, 0, sizeof(buf));
	ret = gd_mem_alloc(&buf, &spec, GD_PREFLIGHT_BYTES);
	if (ret)
		return gd_err(ret, "--mem %s: %s", text, gd_err_msg());
	return gd_mem_free(&buf);
}

int gd_preflight(const struct gd_opts *o, bool memory, char *ready, size_t len)
{
	char dev[96] = "", mem[160];
	int ret = gd_preflight_device(o, dev, sizeof(dev));
	size_t used =
		(size_t)snprintf(mem, sizeof(mem), "%s",
				 o->use_hugepages ? "huge pages" : "host");

	if (!ret && memory && o->use_hugepages)
		ret = gd_preflight_memory("hugepage");
	for (unsigned int i = 0; !ret && memory && i < o->num_mem; i++) {
		ret = gd_preflight_memory(o->mem_list[i]);
		if (used < sizeof(mem))
			used += (size_t)snprintf(mem + used, sizeof(mem) - used,
						 ", %s", o->mem_list[i]);
	}
	if (!ret && ready)
		snprintf(ready, len, "%s, memory: %s", dev, mem);
	return ret;
}
