/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cuda backend's GPU peer-access matrix for the envelope: for every
 * ordered pair of visible GPUs what the driver says about direct access
 * (cuDeviceCanAccessPeer and the P2P attributes). Read only: no context is
 * made current, no peer mapping enabled. GPU-to-GPU peer access inside a
 * server is its own path, apart from GPU-to-NIC RDMA and from the fabric.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"
#include "util/error.h"
#include "util/json_get.h"

#define GD_P2P_LIST_MAX 512

static struct json_object *gd_p2p_flag(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

static struct json_object *gd_p2p_pair(struct json_object *a,
				       struct json_object *b,
				       const struct gd_gpu_p2p *q)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(
		o, "from",
		json_object_new_int((int)gd_json_int(a, "index", -1)));
	json_object_object_add(
		o, "to", json_object_new_int((int)gd_json_int(b, "index", -1)));
	json_object_object_add(
		o, "from_pci_bus_id",
		json_object_new_string(gd_json_str(a, "pci_bus_id") ?: ""));
	json_object_object_add(
		o, "to_pci_bus_id",
		json_object_new_string(gd_json_str(b, "pci_bus_id") ?: ""));
	json_object_object_add(o, "can_access_peer",
			       gd_p2p_flag(q->can_access_peer));
	json_object_object_add(o, "access_supported",
			       gd_p2p_flag(q->access_supported));
	json_object_object_add(o, "native_atomic_supported",
			       gd_p2p_flag(q->native_atomic));
	json_object_object_add(o, "cuda_array_access_supported",
			       gd_p2p_flag(q->cuda_array_access));
	json_object_object_add(
		o, "performance_rank",
		q->performance_rank < 0
			? NULL
			: json_object_new_int(q->performance_rank));
	return o;
}

/* What the pairs without peer access mean, as one finding. */
static void gd_p2p_finding(const struct gd_mem_probe *p, unsigned int pairs,
			   unsigned int without, const char *list)
{
	char msg[GD_P2P_LIST_MAX + 160];

	if (!without)
		return;
	snprintf(
		msg, sizeof(msg),
		"%u of %u GPU pair(s) have no direct peer access (%s): GPU-to-GPU traffic between them goes through host memory",
		without, pairs, list);
	p->finding(
		p->arg, without == pairs ? GD_MEM_SEV_WARNING : GD_MEM_SEV_INFO,
		"gpu-peer-access-missing", "host",
		"compare with nvidia-smi topo -p2p r and the GPU-to-NIC map; GPUs under different CPU sockets often lack it, all pairs missing suggests ACS redirect, the IOMMU or a VM",
		msg);
}

void gd_cuda_peer_matrix(const struct gd_mem_probe *p, struct json_object *gpu,
			 struct json_object *gpus)
{
	size_t n = json_object_array_length(gpus);
	struct json_object *sec, *pairs;
	unsigned int total = 0, without = 0;
	char list[GD_P2P_LIST_MAX] = "";
	bool was_set = gd_err_is_set();

	if (n < 2)
		return;
	sec = json_object_new_object();
	pairs = json_object_new_array();
	json_object_object_add(
		sec, "method",
		json_object_new_string(
			"cuDeviceCanAccessPeer and cuDeviceGetP2PAttribute per ordered pair; read only, no peer mapping enabled"));
	json_object_object_add(sec, "pairs", pairs);
	json_object_object_add(gpu, "peer_access", sec);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			struct json_object *a =
				json_object_array_get_idx(gpus, i);
			struct json_object *b =
				json_object_array_get_idx(gpus, j);
			struct gd_gpu_p2p q;
			char msg[GD_ERR_MSG_MAX];
			size_t len = strlen(list);
			int ret;

			if (i == j)
				continue;
			ret = gd_cuda_peer_access(
				(int)gd_json_int(a, "index", -1),
				(int)gd_json_int(b, "index", -1), &q);
			if (ret) {
				gd_err_take(was_set, ret, msg, sizeof(msg));
				json_object_object_add(
					sec, "error",
					json_object_new_string(msg));
				return;
			}
			json_object_array_add(pairs, gd_p2p_pair(a, b, &q));
			total++;
			if (q.can_access_peer)
				continue;
			without++;
			if (len + 16 < sizeof(list))
				snprintf(list + len, sizeof(list) - len,
					 "%s%d->%d", len ? ", " : "",
					 (int)gd_json_int(a, "index", -1),
					 (int)gd_json_int(b, "index", -1));
		}
	gd_p2p_finding(p, total, without, list);
}
