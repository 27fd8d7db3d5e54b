/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The cuda backend's side of the test envelope: the GPU inventory through
 * the CUDA driver loaded at run time (a missing driver is a finding, not a
 * failure), the NVIDIA kernel module flavour, the peer-memory modules, and
 * per GPU the registration route record, decided by route.c as the backend
 * decides it when it registers.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"
#include "mem/route.h"
#include "util/error.h"

static struct json_object *gd_str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static struct json_object *gd_tristate(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

/* <root>@rel; a root of "/" must not turn "/sys" into "//sys". */
static void gd_root_path(const struct gd_mem_probe *p, const char *rel,
			 char *out, size_t len)
{
	snprintf(out, len, "%s%s", strcmp(p->root, "/") ? p->root : "", rel);
}

static bool gd_root_exists(const struct gd_mem_probe *p, const char *rel)
{
	char path[4096];
	struct stat st;

	gd_root_path(p, rel, path, sizeof(path));
	return stat(path, &st) == 0;
}

/* The first line of <root>@rel, trailing whitespace stripped; "" if none. */
static bool gd_root_line(const struct gd_mem_probe *p, const char *rel,
			 char *buf, size_t len)
{
	char path[4096];
	size_t n;
	FILE *f;

	buf[0] = '\0';
	gd_root_path(p, rel, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n &&
	       (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return n > 0;
}

/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14 ..." */
static void gd_cuda_kernel_module(const struct gd_mem_probe *p,
				  struct json_object *gpu)
{
	struct json_object *km = json_object_new_object();
	char line[512], ver[32] = "";
	const char *flavour = NULL, *c;

	if (gd_root_line(p, "/proc/driver/nvidia/version", line,
			 sizeof(line))) {
		flavour = strstr(line, "Open Kernel Module") ? "open"
							     : "proprietary";
		for (c = line; *c; c++)
			if (isdigit((unsigned char)*c) && c > line &&
			    c[-1] == ' ' && sscanf(c, "%31[0-9.]", ver) == 1 &&
			    strchr(ver, '.'))
				break;
		if (!*c)
			ver[0] = '\0';
	}
	json_object_object_add(km, "version", gd_str_or_null(ver));
	json_object_object_add(km, "flavour", gd_str_or_null(flavour));
	json_object_object_add(km, "proc_version",
			       gd_str_or_null(flavour ? line : NULL));
	json_object_object_add(gpu, "kernel_module", km);
}

static void gd_cuda_peer_memory(const struct gd_mem_probe *p,
				struct json_object *gpu)
{
	struct json_object *pm = json_object_new_object();
	bool peermem = gd_root_exists(p, "/sys/module/nvidia_peermem");
	bool legacy = gd_root_exists(p, "/sys/module/nv_peer_mem");

	json_object_object_add(pm, "nvidia_peermem",
			       json_object_new_boolean(peermem));
	json_object_object_add(pm, "nv_peer_mem",
			       json_object_new_boolean(legacy));
	json_object_object_add(gpu, "peer_memory", pm);
	if (peermem && legacy)
		p->finding(
			p->arg, GD_MEM_SEV_ERROR, "peermem-conflict", "host",
			"unload the legacy module ('rmmod nv_peer_mem') and keep nvidia-peermem, which ships with the driver",
			"both nvidia_peermem and the legacy nv_peer_mem are loaded; only one peer-memory client may be active");
}

static struct json_object *gd_cuda_gpu_one(const struct gd_mem_probe *p,
					   const struct gd_gpu_info *g)
{
	struct json_object *o = json_object_new_object();
	struct gd_bar1 bar1;
	bool have_bar1 = !gd_bar1_read(p->root, g->pci_bus_id, &bar1);
	char cc[16];

	snprintf(cc, sizeof(cc), "%d.%d", g->compute_major, g->compute_minor);
	json_object_object_add(o, "index", json_object_new_int(g->index));
	json_object_object_add(o, "name", gd_str_or_null(g->name));
	json_object_object_add(o, "uuid", gd_str_or_null(g->uuid));
	json_object_object_add(o, "pci_bus_id", gd_str_or_null(g->pci_bus_id));
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
	/* The NVIDIA proc files do not give BAR1; NVML or the PCI resource
	 * file does. */
	json_object_object_add(
		o, "bar1_MiB",
		have_bar1 ? json_object_new_int64(
				    (int64_t)(bar1.total_bytes >> 20))
			  : NULL);
	if (have_bar1 && bar1.has_usage)
		json_object_object_add(
			o, "bar1_used_MiB",
			json_object_new_int64(
				(int64_t)(bar1.used_bytes >> 20)));
	json_object_object_add(
		o, "bar1_source",
		json_object_new_string(
			have_bar1
				? bar1.source
				: "unknown (neither NVML nor the PCI resource file gave it)"));
	return o;
}

static void gd_cuda_devices(const struct gd_mem_probe *p,
			    struct json_object *gpus,
			    struct json_object *driver)
{
	bool was_set = gd_err_is_set();
	struct gd_gpu_info info;
	int ret, i, count = 0;
	char msg[GD_ERR_MSG_MAX];

	ret = gd_cuda_try_load(msg, sizeof(msg));
	if (!ret) {
		ret = gd_cuda_device_count(&count);
		if (ret)
			gd_err_take(was_set, ret, msg, sizeof(msg));
	}
	if (ret) {
		json_object_object_add(driver, "loaded",
				       json_object_new_boolean(false));
		json_object_object_add(driver, "error",
				       json_object_new_string(msg));
		p->finding(
			p->arg, GD_MEM_SEV_WARNING, "cuda-driver-missing",
			"host",
			"install the NVIDIA driver, or pass the GPUs into the container (--gpus); GPU phases cannot run here",
			msg);
		return;
	}
	json_object_object_add(driver, "loaded", json_object_new_boolean(true));
	json_object_object_add(driver, "error", NULL);
	for (i = 0; i < count; i++) {
		if (gd_cuda_gpu_info(i, &info)) {
			char line[GD_ERR_MSG_MAX + 16];

			gd_err_take(was_set, -EIO, msg, sizeof(msg));
			snprintf(line, sizeof(line), "GPU %d: %s", i, msg);
			p->finding(
				p->arg, GD_MEM_SEV_WARNING, "gpu-query-failed",
				"host",
				"nvidia-smi -q shows whether the GPU is healthy",
				line);
			continue;
		}
		if (!i)
			json_object_object_add(
				driver, "cuda_driver_version",
				json_object_new_int(info.driver_version));
		json_object_array_add(gpus, gd_cuda_gpu_one(p, &info));
	}
	if (!count)
		p->finding(
			p->arg, GD_MEM_SEV_WARNING, "no-gpu-visible", "host",
			"check CUDA_VISIBLE_DEVICES and the container's GPU assignment",
			"the CUDA driver loaded but reports no GPU to this process");
}

static struct json_object *gd_cuda_inventory(const struct gd_mem_probe *p,
					     struct json_object *gpu)
{
	struct json_object *driver = json_object_new_object(), *gpus;

	json_object_object_add(gpu, "driver", driver);
	gd_cuda_kernel_module(p, gpu);
	gd_cuda_peer_memory(p, gpu);
	if (!p->devices) {
		json_object_object_add(driver, "loaded", NULL);
		json_object_object_add(
			driver, "error",
			json_object_new_string("not probed (quick envelope)"));
		json_object_object_add(gpu, "gpus", NULL);
		return NULL;
	}
	gpus = json_object_new_array();
	json_object_object_add(gpu, "gpus", gpus);
	gd_cuda_devices(p, gpus, driver);
	gd_cuda_peer_matrix(p, gpu, gpus);
	return gpus;
}

/* GPUs not probed (a run without GPU memory): say what was checked. */
static void gd_cuda_route_unprobed(struct gd_route_facts *f)
{
	if (gd_cuda_library_present())
		snprintf(
			f->cuda_status, sizeof(f->cuda_status),
			"CUDA driver %.100s present; GPUs not probed (this run uses no GPU memory)",
			gd_cuda_library_name());
	else
		snprintf(f->cuda_status, sizeof(f->cuda_status),
			 "no CUDA driver (%.100s not found), not probed",
			 gd_cuda_library_name());
}

static void gd_cuda_route_fill(struct json_object *rec, int gpu,
			       const char *bdf,
			       const struct gd_route_decision *d)
{
	json_object_object_add(rec, "gpu",
			       gpu < 0 ? NULL : json_object_new_int(gpu));
	json_object_object_add(rec, "pci_bus_id", gd_str_or_null(bdf));
	json_object_object_add(rec, "possible",
			       json_object_new_boolean(d->possible));
	json_object_object_add(
		rec, "intended",
		d->possible
			? json_object_new_string(gd_mem_route_name(d->route))
			: NULL);
	json_object_object_add(rec, "why", gd_str_or_null(d->why));
	json_object_object_add(
		rec, "stop_condition",
		gd_str_or_null(d->possible ? NULL : d->stop_condition));
}

/* Without a GPU the record still says what blocks the GPU phases: probing
 * ordinal 0 puts the driver's own complaint in the facts. */
static struct json_object *gd_cuda_route_record(const struct gd_mem_probe *p,
						int gpu, const char *bdf)
{
	int probe_gpu = gpu >= 0 ? gpu : p->devices ? 0 : -1;
	bool was_set = gd_err_is_set();
	struct gd_route_decision d = { 0 };
	struct gd_route_facts f = { 0 };
	struct json_object *rec = json_object_new_object();
	char msg[GD_ERR_MSG_MAX], line[GD_ERR_MSG_MAX];
	int ret;

	ret = gd_route_probe(p->root, probe_gpu, &f);
	if (ret)
		gd_err_take(was_set, ret, msg, sizeof(msg));
	if (probe_gpu < 0)
		gd_cuda_route_unprobed(&f);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	gd_cuda_route_fill(rec, gpu, bdf, &d);
	json_object_object_add(rec, "probe_error",
			       ret ? json_object_new_string(msg) : NULL);
	json_object_object_add(rec, "evidence", gd_route_evidence(&f, &d));
	if (!d.possible && gpu >= 0) {
		snprintf(line, sizeof(line), "GPU %d (%s): %s", gpu, bdf,
			 d.stop_condition);
		p->finding(
			p->arg, GD_MEM_SEV_ERROR, "no-registration-route", bdf,
			"see the route record's evidence; fix the stop condition before testing GPU memory",
			line);
	}
	return rec;
}

const struct gd_mem_envelope_ops gd_mem_cuda_envelope_ops = {
	.section = "gpu",
	.map_index_key = "cuda_index",
	.inventory = gd_cuda_inventory,
	.route_record = gd_cuda_route_record,
};
