/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the RDMA device says about a capability that one of perftest's
 * refused options needs: asked only when such an option is given, so that
 * the refusal names the device's own answer (decoded ibv_query_device_ex
 * attributes, or the errno of the verb that would be used).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "util/error.h"
#include "cli/options_priv.h"

/* "send recv write" for the ODP transport bits of @caps, "none" if 0. */
static void gd_odp_bits(uint32_t caps, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} bits[] = {
		{ IBV_ODP_SUPPORT_SEND, "send" },
		{ IBV_ODP_SUPPORT_RECV, "recv" },
		{ IBV_ODP_SUPPORT_WRITE, "write" },
		{ IBV_ODP_SUPPORT_READ, "read" },
		{ IBV_ODP_SUPPORT_ATOMIC, "atomic" },
		{ IBV_ODP_SUPPORT_SRQ_RECV, "srq_recv" },
	};
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if ((caps & bits[i].bit) && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? " " : "", bits[i].name);
	if (!off)
		snprintf(buf, len, "none");
}

static void gd_cap_odp(const char *dev, const struct ibv_device_attr_ex *a,
		       char *buf, size_t len)
{
	char rc[64], uc[64], ud[64];

	gd_odp_bits(a->odp_caps.per_transport_caps.rc_odp_caps, rc, sizeof(rc));
	gd_odp_bits(a->odp_caps.per_transport_caps.uc_odp_caps, uc, sizeof(uc));
	gd_odp_bits(a->odp_caps.per_transport_caps.ud_odp_caps, ud, sizeof(ud));
	snprintf(
		buf, len,
		"%s %s on-demand paging (ibv_query_device_ex: odp_caps.general_caps 0x%llx%s; RC: %s; UC: %s; UD: %s)",
		dev,
		a->odp_caps.general_caps & IBV_ODP_SUPPORT ? "supports"
							   : "does not support",
		(unsigned long long)a->odp_caps.general_caps,
		a->odp_caps.general_caps & IBV_ODP_SUPPORT_IMPLICIT
			? ", implicit"
			: "",
		rc, uc, ud);
}

/* Allocating one is the only way to ask: providers without it answer
 * EOPNOTSUPP before looking at anything. */
static void gd_cap_null_mr(const char *dev, struct ibv_context *ctx, char *buf,
			   size_t len)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_mr *mr;
	int err;

	if (!pd) {
		snprintf(buf, len, "%s: ibv_alloc_pd failed (%s)", dev,
			 strerror(errno));
		return;
	}
	errno = 0;
	mr = ibv_alloc_null_mr(pd);
	err = errno;
	if (mr) {
		snprintf(buf, len, "%s provides a null MR (ibv_alloc_null_mr)",
			 dev);
		ibv_dereg_mr(mr);
	} else {
		snprintf(buf, len,
			 "%s has no null MR (ibv_alloc_null_mr: %s, %s)", dev,
			 gd_errno_name(-err), strerror(err));
	}
	ibv_dealloc_pd(pd);
}

static void gd_cap_answer(const char *dev, struct ibv_context *ctx,
			  enum gd_cap cap, const struct ibv_device_attr_ex *a,
			  char *buf, size_t len)
{
	const struct ibv_device_attr *o = &a->orig_attr;

	switch (cap) {
	case GD_CAP_ODP:
		gd_cap_odp(dev, a, buf, len);
		return;
	case GD_CAP_NULL_MR:
		gd_cap_null_mr(dev, ctx, buf, len);
		return;
	case GD_CAP_XRC:
		snprintf(buf, len, "%s %s XRC (device_cap_flags 0x%x%s)", dev,
			 o->device_cap_flags & IBV_DEVICE_XRC
				 ? "supports"
				 : "does not support",
			 (unsigned int)o->device_cap_flags,
			 o->device_cap_flags & IBV_DEVICE_XRC
				 ? ", IBV_DEVICE_XRC set"
				 : ", IBV_DEVICE_XRC clear");
		return;
	case GD_CAP_DM:
		snprintf(buf, len,
			 "%s has %llu bytes of device memory (max_dm_size)",
			 dev, (unsigned long long)a->max_dm_size);
		return;
	case GD_CAP_PORTS:
		snprintf(buf, len, "%s has %u port%s (phys_port_cnt)", dev,
			 o->phys_port_cnt, o->phys_port_cnt == 1 ? "" : "s");
		return;
	case GD_CAP_RATE_LIMIT:
		snprintf(
			buf, len,
			"%s %s QP rate limiting (packet_pacing_caps: %u..%u kbps)",
			dev,
			a->packet_pacing_caps.qp_rate_limit_max
				? "supports"
				: "does not support",
			a->packet_pacing_caps.qp_rate_limit_min,
			a->packet_pacing_caps.qp_rate_limit_max);
		return;
	case GD_CAP_NONE:
	case GD_CAP_COUNT:
		break;
	}
	snprintf(buf, len, "%s: nothing to ask", dev);
}

void gd_caps_describe(const char *dev, enum gd_cap cap, char *buf, size_t len)
{
	struct ibv_device **list;
	struct ibv_device_attr_ex a;
	struct ibv_context *ctx = NULL;
	const char *name = NULL;
	int n = 0, ret;

	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !ctx; i++) {
		name = ibv_get_device_name(list[i]);
		if (!dev || !strcmp(dev, name))
			ctx = ibv_open_device(list[i]);
	}
	if (!ctx) {
		if (!list || !n)
			snprintf(
				buf, len,
				"no RDMA device %s%sto ask (ibv_get_device_list found none)",
				dev ? dev : "", dev ? " " : "");
		else if (dev && strcmp(dev, name))
			snprintf(buf, len, "no RDMA device %s to ask", dev);
		else
			snprintf(buf, len,
				 "cannot open RDMA device %s to ask: %s", name,
				 strerror(errno));
		if (list)
			ibv_free_device_list(list);
		return;
	}
	memset(&a, 0, sizeof(a));
	ret = ibv_query_device_ex(ctx, NULL, &a);
	if (ret)
		snprintf(buf, len, "%s: ibv_query_device_ex failed (%s)",
			 ibv_get_device_name(ctx->device), strerror(ret));
	else
		gd_cap_answer(ibv_get_device_name(ctx->device), ctx, cap, &a,
			      buf, len);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
}
