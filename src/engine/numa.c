/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --numa_node: the node's CPUs from sysfs (nodeN/cpulist, read with the
 * envelope's reader and parsed by hwloc), the process
 * bound to them and its memory policy set to the node, so the buffers
 * allocated after it (host and huge pages) are the node's. No libnuma:
 * two system calls do it, and the policy is read back with get_mempolicy
 * so the header says what the kernel holds, not what was asked.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/mempolicy.h>

#include <hwloc.h>

#include "util/error.h"
#include "engine/numa.h"
#include "envelope/doctor.h"

#define GD_NODE_DIR "sys/devices/system/node"

/* "0-3,8,10-11" into @cpus, with hwloc's parser of the kernel's list
 * format; false on anything else or a CPU beyond cpu_set_t. */
static bool gd_parse_cpulist(const char *text, cpu_set_t *cpus)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	/* weight -1: an open range ("3-"), which no node has */
	bool ok = set && !hwloc_bitmap_list_sscanf(set, text) &&
		  hwloc_bitmap_weight(set) > 0 &&
		  hwloc_bitmap_last(set) < CPU_SETSIZE;
	int c;

	CPU_ZERO(cpus);
	if (ok) {
		hwloc_bitmap_foreach_begin(c, set)
		{
			CPU_SET(c, cpus);
		}
		hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(set);
	return ok;
}

int gd_numa_node_cpus(const char *root, int64_t node, cpu_set_t *cpus)
{
	/* the envelope's reader: files below a root, so tests use fixtures */
	const struct gd_doctor_ctx ctx = { .root = root,
					   .live = !strcmp(root, "/") };
	char path[512], online[256], list[1024];

	snprintf(path, sizeof(path), "%s/" GD_NODE_DIR "/online", root);
	gd_doctor_read(&ctx, online, sizeof(online), "/" GD_NODE_DIR "/online");
	if (!online[0])
		return gd_err(
			-ENOENT,
			"--numa_node %" PRId64
			": this system describes no NUMA nodes (no %s); run without --numa_node, or pin with --cpu",
			node, path);
	snprintf(path, sizeof(path),
		 "%s/" GD_NODE_DIR "/node%" PRId64 "/cpulist", root, node);
	if (access(path, R_OK))
		return gd_err(-ENOENT,
			      "--numa_node %" PRId64
			      ": no such NUMA node (online nodes: %s)",
			      node, online);
	gd_doctor_read(&ctx, list, sizeof(list),
		       "/" GD_NODE_DIR "/node%" PRId64 "/cpulist", node);
	if (!list[0])
		return gd_err(
			-EINVAL,
			"--numa_node %" PRId64
			": the node has no CPUs (memory only, %s is empty); give a node with CPUs (online nodes: %s)",
			node, path, online);
	if (!gd_parse_cpulist(list, cpus))
		return gd_err(-EINVAL,
			      "--numa_node %" PRId64
			      ": cannot read the CPU list '%s' of %s",
			      node, list, path);
	return 0;
}

int gd_numa_bind(int64_t node, char *record, size_t len)
{
	unsigned long mask[(GD_NUMA_NODE_MAX + 1) / (8 * sizeof(long))] = { 0 };
	unsigned long got[sizeof(mask) / sizeof(mask[0])] = { 0 };
	const unsigned long bits = 8 * sizeof(long);
	cpu_set_t cpus;
	int mode = -1;

	if (gd_numa_node_cpus("/", node, &cpus))
		return gd_err_code();
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return gd_err(
			-errno,
			"--numa_node %" PRId64
			": cannot run on the node's CPUs: %s; check the CPUs this process may use (taskset -p $$, cgroup cpuset)",
			node, strerror(errno));
	mask[node / bits] = 1UL << (node % bits);
	/* maxnode counts one more bit than the kernel reads */
	if (syscall(SYS_set_mempolicy, MPOL_BIND, mask, 8 * sizeof(mask) + 1))
		return gd_err(
			-errno,
			"--numa_node %" PRId64
			": cannot bind memory to the node (set_mempolicy MPOL_BIND): %s; check the cgroup's cpuset.mems",
			node, strerror(errno));
	if (syscall(SYS_get_mempolicy, &mode, got, 8 * sizeof(got) + 1, NULL,
		    0L))
		return gd_err(
			-errno,
			"--numa_node %" PRId64
			": cannot read the memory policy back (get_mempolicy): %s",
			node, strerror(errno));
	if (mode != MPOL_BIND || memcmp(got, mask, sizeof(mask)))
		return gd_err(
			-EIO,
			"--numa_node %" PRId64
			": the kernel holds memory policy %d, not MPOL_BIND to the node",
			node, mode);
	snprintf(record, len, "node %" PRId64 ", memory bound (MPOL_BIND)",
		 node);
	return 0;
}
