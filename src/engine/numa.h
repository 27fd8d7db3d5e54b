/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's --numa_node: run on one NUMA node, its CPUs and its memory,
 * from the kernel's own description (sysfs) and system calls
 * (sched_setaffinity, set_mempolicy), with the policy read back.
 */
#ifndef GD_NUMA_H
#define GD_NUMA_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#define GD_NUMA_NODE_MAX 1023

/* The CPUs of node @node under @root ("/" live, else a fixture holding
 * sys/devices/system/node): 0, or -ENOENT/-EINVAL recorded with what
 * exists (the online nodes) and what to check. */
int gd_numa_node_cpus(const char *root, int64_t node, cpu_set_t *cpus);
/* Bind this process to @node: its CPUs (sched_setaffinity) and its future
 * memory (set_mempolicy MPOL_BIND), then read the policy back into
 * @record ("bind 0", for the header); -errno recorded on failure. */
int gd_numa_bind(int64_t node, char *record, size_t len);

#endif
