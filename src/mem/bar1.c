/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The size of a GPU's BAR1 aperture, through which RDMA registrations of
 * its memory are mapped: from NVML (libnvidia-ml.so.1 loaded at run time,
 * which also says how much is in use) when present, else from the PCI
 * resource file in sysfs.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/route.h"

#define GD_NVML_DEFAULT_LIBRARY "libnvidia-ml.so.1"

/* Linux's IORESOURCE_MEM and IORESOURCE_MEM_64, as the resource file
 * prints a region's flags. */
#define GD_PCI_RES_MEM 0x00000200ull
#define GD_PCI_RES_MEM_64 0x00100000ull

/* nvml.h's nvmlBAR1Memory_t; the header is not needed to build gdperf. */
struct gd_nvml_bar1 {
	unsigned long long total, free, used;
};

typedef int (*gd_nvml_init_fn)(void);
typedef int (*gd_nvml_by_bus_fn)(const char *bus, void **dev);
typedef int (*gd_nvml_bar1_fn)(void *dev, struct gd_nvml_bar1 *mem);

/* NVML speaks for the live machine only: a fixture root (tests, gd_doctor
 * on a saved tree) is read from its files unless GD_NVML_LIBRARY names a
 * library to ask (tests point it at the fake driver). */
static const char *gd_nvml_library(const char *root)
{
	const char *lib = getenv("GD_NVML_LIBRARY");

	if (lib && *lib)
		return lib;
	return strcmp(root, "/") ? NULL : GD_NVML_DEFAULT_LIBRARY;
}

static int gd_bar1_nvml(const char *lib, const char *bdf, struct gd_bar1 *out)
{
	struct gd_nvml_bar1 mem;
	gd_nvml_by_bus_fn by_bus;
	gd_nvml_init_fn init, shutdown;
	gd_nvml_bar1_fn bar1;
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL), *dev = NULL;
	int ret = -ENOENT;

	if (!h)
		return -ENOENT;
	*(void **)&init = dlsym(h, "nvmlInit_v2");
	*(void **)&shutdown = dlsym(h, "nvmlShutdown");
	*(void **)&by_bus = dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&bar1 = dlsym(h, "nvmlDeviceGetBAR1MemoryInfo");
	if (!init || !shutdown || !by_bus || !bar1 || init())
		goto out_close;
	if (!by_bus(bdf, &dev) && !bar1(dev, &mem) && mem.total) {
		out->total_bytes = mem.total;
		out->used_bytes = mem.used;
		out->free_bytes = mem.free;
		out->has_usage = true;
		snprintf(out->source, sizeof(out->source), "NVML");
		ret = 0;
	}
	shutdown();
out_close:
	dlclose(h);
	return ret;
}

/*
 * BAR0 is region 0; NVIDIA's BAR1 is the next memory region, one line on
 * when BAR0 is 32-bit (A100: region 1), two when it is 64-bit and its
 * upper half takes a line of its own (H100/H200: regions 0, 2, 4).
 */
static int gd_bar1_sysfs(const char *root, const char *bdf, struct gd_bar1 *out)
{
	unsigned long long start[6] = { 0 }, end[6] = { 0 }, flags[6] = { 0 };
	unsigned int n = 0, want;
	char path[512], line[160];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/%s/resource", root,
		 bdf);
	fp = fopen(path, "r");
	if (!fp)
		return -ENOENT;
	while (n < 6 && fgets(line, sizeof(line), fp) &&
	       sscanf(line, "%llx %llx %llx", &start[n], &end[n], &flags[n]) ==
		       3)
		n++;
	fclose(fp);
	if (!n || !(flags[0] & GD_PCI_RES_MEM))
		return -ENOENT;
	want = flags[0] & GD_PCI_RES_MEM_64 ? 2 : 1;
	if (want >= n || !(flags[want] & GD_PCI_RES_MEM) ||
	    end[want] <= start[want])
		return -ENOENT;
	out->total_bytes = end[want] - start[want] + 1;
	snprintf(out->source, sizeof(out->source),
		 "PCI sysfs resource, region %u", want);
	return 0;
}

int gd_bar1_read(const char *sysfs_root, const char *bdf, struct gd_bar1 *out)
{
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/";
	const char *lib = gd_nvml_library(root);

	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "unknown");
	if (!bdf || !*bdf)
		return -ENOENT;
	if (lib && !gd_bar1_nvml(lib, bdf, out))
		return 0;
	return gd_bar1_sysfs(root, bdf, out);
}

unsigned long long gd_route_bar1_bytes(const char *sysfs_root, const char *bdf)
{
	struct gd_bar1 b;

	return gd_bar1_read(sysfs_root, bdf, &b) ? 0 : b.total_bytes;
}
