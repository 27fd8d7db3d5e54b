/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GPU inventory through the CUDA driver API loaded at run time (a missing
 * driver is a finding, not a failure), the kernel module flavour from the
 * driver's proc file, and which peer-memory modules are loaded.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "envelope/doctor.h"
#include "util/error.h"
#include "mem/route.h"

/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14 ..." */
static void gd_gpu_kernel_module(struct gd_doctor_ctx *ctx,
				 struct json_object *gpu)
{
	struct json_object *km = json_object_new_object();
	char line[512], ver[32] = "";
	const char *flavour = NULL, *p;

	if (gd_doctor_read(ctx, line, sizeof(line),
			   "/proc/driver/nvidia/version") > 0) {
		flavour = strstr(line, "Open Kernel Module") ? "open"
							     : "proprietary";
		for (p = line; *p; p++)
			if (isdigit((unsigned char)*p) && p > line &&
			    p[-1] == ' ' && sscanf(p, "%31[0-9.]", ver) == 1 &&
			    strchr(ver, '.'))
				break;
		if (!*p)
			ver[0] = '\0';
	}
	json_object_object_add(km, "version", gd_json_str_or_null(ver));
	json_object_object_add(km, "flavour", gd_json_str_or_null(flavour));
	json_object_object_add(km, "proc_version",
			       gd_json_str_or_null(flavour ? line : NULL));
	json_object_object_add(gpu, "kernel_module", km);
}

static void gd_gpu_peer_memory(struct gd_doctor_ctx *ctx,
			       struct json_object *gpu)
{
	struct json_object *pm = json_object_new_object();
	bool peermem = gd_doctor_exists(ctx, "/sys/module/nvidia_peermem");
	bool legacy = gd_doctor_exists(ctx, "/sys/module/nv_peer_mem");

	json_object_object_add(pm, "nvidia_peermem",
			       json_object_new_boolean(peermem));
	json_object_object_add(pm, "nv_peer_mem",
			       json_object_new_boolean(legacy));
	json_object_object_add(gpu, "peer_memory", pm);
	if (peermem && legacy)
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "peermem-conflict", "host",
			"unload the legacy module ('rmmod nv_peer_mem') and keep nvidia-peermem, which ships with the driver",
			"both nvidia_peermem and the legacy nv_peer_mem are loaded; only one peer-memory client may be active");
}

static struct json_object *gd_tristate(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

static struct json_object *gd_gpu_one(struct gd_doctor_ctx *ctx,
				      const struct gd_gpu_info *g)
{
	struct json_object *o = json_object_new_object();
	unsigned long long bar1 = gd_route_bar1_bytes(ctx->root, g->pci_bus_id);
	char cc[16];

	snprintf(cc, sizeof(cc), "%d.%d", g->compute_major, g->compute_minor);
	json_object_object_add(o, "index", json_object_new_int(g->index));
	json_object_object_add(o, "name", gd_json_str_or_null(g->name));
	json_object_object_add(o, "uuid", gd_json_str_or_null(g->uuid));
	json_object_object_add(o, "pci_bus_id",
			       gd_json_str_or_null(g->pci_bus_id));
	json_object_object_add(o, "compute_capability",
			       json_object_new_string(cc));
	json_object_object_add(o, "dmabuf_supported",
			       gd_tristate(g->dmabuf_supported));
	json_object_object_add(o, "gpudirect_rdma_supported",
			       gd_tristate(g->gdr_supported));
	json_object_object_add(
		o, "total_memory_MiB",
		json_object_new_int64((int64_t)(g->total_mem_bytes >> 20)));
	json_object_object_add(
		o, "gpudirect_rdma_writes_ordering",
		g->writes_ordering < 0
			? NULL
			: json_object_new_string(
				  gd_cuda_ordering_name(g->writes_ordering)));
	/* The NVIDIA proc files do not give BAR1; the PCI resource does. */
	json_object_object_add(
		o, "bar1_MiB",
		bar1 ? json_object_new_int64((int64_t)(bar1 >> 20)) : NULL);
	json_object_object_add(
		o, "bar1_source",
		json_object_new_string(
			bar1 ? "/sys/bus/pci/devices/BDF/resource (BAR 1)"
			     : "unknown (no PCI resource file for this GPU)"));
	return o;
}

static void gd_gpu_devices(struct gd_doctor_ctx *ctx, struct json_object *gpu,
			   struct json_object *driver)
{
	struct json_object *gpus = json_object_new_array();
	bool was_set = gd_err_is_set();
	struct gd_gpu_info info;
	int ret, i, count = 0;
	char msg[GD_ERR_MSG_MAX];

	json_object_object_add(gpu, "gpus", gpus);
	ctx->gpus = gpus;
	ret = gd_cuda_try_load(msg, sizeof(msg));
	if (!ret) {
		ret = gd_cuda_device_count(&count);
		if (ret)
			gd_doctor_take_error(was_set, ret, msg, sizeof(msg));
	}
	if (ret) {
		json_object_object_add(driver, "loaded",
				       json_object_new_boolean(false));
		json_object_object_add(driver, "error",
				       json_object_new_string(msg));
		gd_doctor_finding(
			ctx, GD_SEV_WARNING, "cuda-driver-missing", "host",
			"install the NVIDIA driver, or pass the GPUs into the container (--gpus); GPU phases cannot run here",
			"%s", msg);
		return;
	}
	json_object_object_add(driver, "loaded", json_object_new_boolean(true));
	json_object_object_add(driver, "error", NULL);
	for (i = 0; i < count; i++) {
		if (gd_cuda_gpu_info(i, &info)) {
			gd_doctor_take_error(was_set, -EIO, msg, sizeof(msg));
			gd_doctor_finding(
				ctx, GD_SEV_WARNING, "gpu-query-failed", "host",
				"nvidia-smi -q shows whether the GPU is healthy",
				"GPU %d: %s", i, msg);
			continue;
		}
		if (!i)
			json_object_object_add(
				driver, "cuda_driver_version",
				json_object_new_int(info.driver_version));
		json_object_array_add(gpus, gd_gpu_one(ctx, &info));
	}
	if (!count)
		gd_doctor_finding(
			ctx, GD_SEV_WARNING, "no-gpu-visible", "host",
			"check CUDA_VISIBLE_DEVICES and the container's GPU assignment",
			"the CUDA driver loaded but reports no GPU to this process");
}

int gd_doctor_gpu(struct gd_doctor_ctx *ctx, struct json_object *gpu)
{
	struct json_object *driver = json_object_new_object();

	json_object_object_add(gpu, "driver", driver);
	gd_gpu_kernel_module(ctx, gpu);
	gd_gpu_peer_memory(ctx, gpu);
	if (ctx->opts->flags & GD_ENVELOPE_NO_GPU) {
		json_object_object_add(driver, "loaded", NULL);
		json_object_object_add(
			driver, "error",
			json_object_new_string("not probed (quick envelope)"));
		json_object_object_add(gpu, "gpus", NULL);
		return 0;
	}
	gd_gpu_devices(ctx, gpu, driver);
	return 0;
}
