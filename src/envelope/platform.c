/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Platform checks: whether an IOMMU is on, how it treats each RDMA device
 * (passthrough or translated DMA), and what the kernel command line asked
 * for. ACS per bridge is read with the GPU-to-NIC map (topology.c).
 */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "envelope/doctor.h"

static int gd_dir_entries(const struct gd_doctor_ctx *ctx, const char *rel)
{
	char path[4096];
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (gd_doctor_path(ctx, path, sizeof(path), "%s", rel))
		return 0;
	d = opendir(path);
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static struct json_object *gd_iommu_cmdline(struct gd_doctor_ctx *ctx)
{
	struct json_object *arr = json_object_new_array();
	char line[4096], *tok, *save = NULL;

	if (gd_doctor_read(ctx, line, sizeof(line), "/proc/cmdline") <= 0)
		return arr;
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strncmp(tok, "iommu=", 6) ||
		    !strncmp(tok, "intel_iommu=", 12) ||
		    !strncmp(tok, "amd_iommu=", 10) ||
		    !strncmp(tok, "iommu.", 6))
			json_object_array_add(arr, json_object_new_string(tok));
	return arr;
}

/* The default domain type of the device's IOMMU group: "identity" is
 * passthrough; "DMA"/"DMA-FQ" translate every DMA, peer traffic included. */
static struct json_object *gd_iommu_devices(struct gd_doctor_ctx *ctx)
{
	struct json_object *arr = json_object_new_array();
	size_t i, n = ctx->rdma_devices
			      ? json_object_array_length(ctx->rdma_devices)
			      : 0;

	for (i = 0; i < n; i++) {
		struct json_object *d =
			json_object_array_get_idx(ctx->rdma_devices, i);
		struct json_object *name, *o;
		const char *dev, *mode;
		char type[64];

		json_object_object_get_ex(d, "name", &name);
		dev = json_object_get_string(name);
		if (gd_doctor_read(
			    ctx, type, sizeof(type),
			    "/sys/class/infiniband/%s/device/iommu_group/type",
			    dev) <= 0)
			continue;
		mode = !strcmp(type, "identity")  ? "passthrough"
		       : !strncmp(type, "DMA", 3) ? "translated"
						  : type;
		o = json_object_new_object();
		json_object_object_add(o, "device",
				       json_object_new_string(dev));
		json_object_object_add(o, "group_type",
				       json_object_new_string(type));
		json_object_object_add(o, "mode", json_object_new_string(mode));
		json_object_array_add(arr, o);
		if (!strcmp(mode, "translated"))
			gd_doctor_finding(
				ctx, GD_SEV_WARNING, "iommu-translated", dev,
				"on bare metal boot with iommu=pt (or the IOMMU off); in a VM confirm ATS is enabled on the NIC",
				"the IOMMU translates DMA for %s (group type %s); GPUDirect RDMA peer traffic may fail or slow down",
				dev, type);
	}
	return arr;
}

int gd_doctor_platform(struct gd_doctor_ctx *ctx, struct json_object *platform)
{
	struct json_object *iommu = json_object_new_object();
	int units = gd_dir_entries(ctx, "/sys/class/iommu");
	int groups = gd_dir_entries(ctx, "/sys/kernel/iommu_groups");

	json_object_object_add(iommu, "enabled",
			       json_object_new_boolean(units || groups));
	json_object_object_add(iommu, "units", json_object_new_int(units));
	json_object_object_add(iommu, "groups", json_object_new_int(groups));
	json_object_object_add(iommu, "cmdline", gd_iommu_cmdline(ctx));
	json_object_object_add(iommu, "devices", gd_iommu_devices(ctx));
	json_object_object_add(platform, "iommu", iommu);
	return 0;
}
