/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The size of a GPU's BAR1 aperture, through which RDMA registrations of
 * its memory are mapped: from NVML (libnvidia-ml.so.1 loaded at run time,
 * which also says how much is in use) when present, else from the PCI
 * resource file in sysfs. NVML is loaded and started once per process
 * and kept: its start-up alone can take seconds on a node without
 * persistence mode.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
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

/* The process's NVML: the library last asked for (tests switch it), its
 * handle once nvmlInit_v2 succeeded (NULL when it did not: not retried). */
static struct {
	pthread_mutex_t lock;
	char lib[512];
	void *h;
	gd_nvml_init_fn shutdown;
	gd_nvml_by_bus_fn by_bus;
	gd_nvml_bar1_fn bar1;
} gd_nvml = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Caller holds gd_nvml.lock. */
static void gd_nvml_close(void)
{
	if (gd_nvml.h) {
		gd_nvml.shutdown();
		dlclose(gd_nvml.h);
	}
	gd_nvml.h = NULL;
	gd_nvml.lib[0] = '\0';
}

/* NVML from @lib, started once; caller holds gd_nvml.lock. */
static bool gd_nvml_open(const char *lib)
{
	gd_nvml_init_fn init;

	if (gd_nvml.lib[0] && !strcmp(gd_nvml.lib, lib))
		return gd_nvml.h != NULL;
	gd_nvml_close();
	snprintf(gd_nvml.lib, sizeof(gd_nvml.lib), "%s", lib);
	gd_nvml.h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!gd_nvml.h)
		return false;
	*(void **)&init = dlsym(gd_nvml.h, "nvmlInit_v2");
	*(void **)&gd_nvml.shutdown = dlsym(gd_nvml.h, "nvmlShutdown");
	*(void **)&gd_nvml.by_bus =
		dlsym(gd_nvml.h, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&gd_nvml.bar1 =
		dlsym(gd_nvml.h, "nvmlDeviceGetBAR1MemoryInfo");
	if (init && gd_nvml.shutdown && gd_nvml.by_bus && gd_nvml.bar1 &&
	    !init())
		return true;
	dlclose(gd_nvml.h);
	gd_nvml.h = NULL;
	return false;
}

static int gd_bar1_nvml(const char *lib, const char *bdf, struct gd_bar1 *out)
{
	struct gd_nvml_bar1 mem;
	void *dev = NULL;
	int ret = -ENOENT;

	pthread_mutex_lock(&gd_nvml.lock);
	if (gd_nvml_open(lib) && !gd_nvml.by_bus(bdf, &dev) &&
	    !gd_nvml.bar1(dev, &mem) && mem.total) {
		out->total_bytes = mem.total;
		out->used_bytes = mem.used;
		out->free_bytes = mem.free;
		out->has_usage = true;
		snprintf(out->source, sizeof(out->source), "NVML");
		ret = 0;
	}
	pthread_mutex_unlock(&gd_nvml.lock);
	return ret;
}

void gd_bar1_forget(void)
{
	pthread_mutex_lock(&gd_nvml.lock);
	gd_nvml_close();
	pthread_mutex_unlock(&gd_nvml.lock);
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
