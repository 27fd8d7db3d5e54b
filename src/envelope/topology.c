/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU-to-NIC map from the hwloc topology (live or from XML): for every
 * GPU the path class to every RDMA NIC, with the meaning nvidia-smi topo -m
 * gives them, the nearest NIC(s), NUMA nodes, ACS on the path and the rail.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hwloc.h>
#include <json-c/json.h>

#include "envelope/doctor.h"
#include "envelope/topology.h"
#include "util/error.h"

static const char *const gd_path_names[] = {
	[GD_PATH_PIX] = "PIX",	 [GD_PATH_PXB] = "PXB", [GD_PATH_PHB] = "PHB",
	[GD_PATH_NODE] = "NODE", [GD_PATH_SYS] = "SYS",
};

const char *gd_path_name(enum gd_path p)
{
	return gd_path_names[p];
}

static bool gd_is_pci_bridge(hwloc_obj_t o)
{
	return o && o->type == HWLOC_OBJ_BRIDGE &&
	       o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI;
}

/*
 * A PCIe switch is an upstream port and the downstream ports below it.
 * Under a host bridge, bridge levels alternate: root port (1), switch
 * upstream port (2), downstream port (3), next upstream port (4), ... so a
 * bridge at an odd level > 1 belongs to the switch of its parent.
 */
static hwloc_obj_t gd_switch_of(hwloc_obj_t bridge)
{
	hwloc_obj_t o;
	int level = 0;

	for (o = bridge; gd_is_pci_bridge(o); o = o->parent)
		level++;
	return (level > 1 && (level & 1)) ? bridge->parent : bridge;
}

/* Add the PCI bridges from @o up to (not including) @stop to @path. */
static void gd_path_collect(hwloc_obj_t o, hwloc_obj_t stop,
			    struct gd_topo_path *path)
{
	for (o = o->parent; o && o != stop; o = o->parent)
		if (gd_is_pci_bridge(o) && path->nbridges < GD_TOPO_MAX_BRIDGES)
			path->bridges[path->nbridges++] = o;
}

static int gd_count_switches(const struct gd_topo_path *path)
{
	hwloc_obj_t seen[GD_TOPO_MAX_BRIDGES];
	int i, j, n = 0;

	for (i = 0; i < path->nbridges; i++) {
		hwloc_obj_t s = gd_switch_of(path->bridges[i]);

		for (j = 0; j < n && seen[j] != s; j++)
			;
		if (j == n)
			seen[n++] = s;
	}
	return n;
}

/* hwloc_get_common_ancestor_obj() compares depths, and I/O objects all
 * share negative virtual depths, so walk the parent chains instead. */
static hwloc_obj_t gd_common_ancestor(hwloc_obj_t a, hwloc_obj_t b)
{
	hwloc_obj_t x, y;

	for (x = a; x; x = x->parent)
		for (y = b; y; y = y->parent)
			if (x == y)
				return x;
	return NULL;
}

enum gd_path gd_topo_classify(hwloc_topology_t topo, hwloc_obj_t a,
			      hwloc_obj_t b, struct gd_topo_path *path)
{
	hwloc_obj_t ca = gd_common_ancestor(a, b);
	hwloc_obj_t na, nb;

	path->nbridges = 0;
	if (!ca)
		return GD_PATH_SYS;
	gd_path_collect(a, ca, path);
	gd_path_collect(b, ca, path);
	if (gd_is_pci_bridge(ca) && path->nbridges < GD_TOPO_MAX_BRIDGES)
		path->bridges[path->nbridges++] = ca;
	if (ca->type == HWLOC_OBJ_PCI_DEVICE || gd_is_pci_bridge(ca))
		return gd_count_switches(path) <= 1 ? GD_PATH_PIX : GD_PATH_PXB;
	if (ca->type == HWLOC_OBJ_BRIDGE)
		return GD_PATH_PHB;
	/* Above the host bridges: same NUMA node or across the SMP link. */
	na = hwloc_get_non_io_ancestor_obj(topo, a);
	nb = hwloc_get_non_io_ancestor_obj(topo, b);
	if (na && nb && na->nodeset && nb->nodeset &&
	    hwloc_bitmap_isequal(na->nodeset, nb->nodeset))
		return GD_PATH_NODE;
	return GD_PATH_SYS;
}

int gd_topo_numa(hwloc_topology_t topo, hwloc_obj_t o)
{
	hwloc_obj_t n = hwloc_get_non_io_ancestor_obj(topo, o);

	if (!n || !n->nodeset || hwloc_bitmap_weight(n->nodeset) != 1)
		return -1;
	return hwloc_bitmap_first(n->nodeset);
}

void gd_topo_bdf(hwloc_obj_t pci, char *buf, size_t len)
{
	const struct hwloc_pcidev_attr_s *p =
		pci->type == HWLOC_OBJ_BRIDGE ? &pci->attr->bridge.upstream.pci
					      : &pci->attr->pcidev;

	snprintf(buf, len, "%04x:%02x:%02x.%x", p->domain, p->bus, p->dev,
		 p->func);
}

static bool gd_is_gpu(hwloc_obj_t o)
{
	return o->attr->pcidev.vendor_id == 0x10de &&
	       (o->attr->pcidev.class_id == 0x0302 ||
		o->attr->pcidev.class_id == 0x0300);
}

/* GPUs in PCI order, NICs as OpenFabrics OS devices with their PCI function. */
int gd_topo_devices(hwloc_topology_t topo, struct gd_topo_devs *devs)
{
	hwloc_obj_t o = NULL;

	devs->ngpus = devs->nnics = 0;
	while ((o = hwloc_get_next_pcidev(topo, o)))
		if (gd_is_gpu(o) && devs->ngpus < GD_TOPO_MAX_DEVS)
			devs->gpus[devs->ngpus++] = o;
	o = NULL;
	while ((o = hwloc_get_next_osdev(topo, o))) {
		hwloc_obj_t p = o->parent;

		if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS ||
		    !o->name)
			continue;
		while (p && p->type != HWLOC_OBJ_PCI_DEVICE)
			p = p->parent;
		if (p && devs->nnics < GD_TOPO_MAX_DEVS) {
			devs->nic_pci[devs->nnics] = p;
			devs->nic_names[devs->nnics++] = o->name;
		}
	}
	return 0;
}

/*
 * libhwloc 2.9's XML reader crashes (SIGSEGV in hwloc_bitmap_compare_first)
 * on some damaged files instead of refusing them; fuzzing found it. A
 * child process loads the file first, so that a bad --topology-xml is an
 * error message rather than a crash of gd_doctor or of the gd_* run that
 * embeds the envelope. 0 when the child loaded it or could not tell.
 */
static int gd_topo_xml_probe(const char *xml)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	hwloc_topology_t topo;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		/* Die of the signal itself, without a sanitizer's report. */
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		if (hwloc_topology_init(&topo))
			_exit(1);
		hwloc_topology_set_io_types_filter(topo,
						   HWLOC_TYPE_FILTER_KEEP_ALL);
		_exit(hwloc_topology_set_xml(topo, xml) ||
		      hwloc_topology_load(topo));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (!WIFSIGNALED(status))
		return 0;
	return gd_err(
		-EIO,
		"hwloc crashed (%s) reading the topology XML %s: the file is damaged; export it again with lstopo --of xml",
		strsignal(WTERMSIG(status)), xml);
}

int gd_topo_load(const char *xml, hwloc_topology_t *out)
{
	hwloc_topology_t topo;
	int ret = xml ? gd_topo_xml_probe(xml) : 0;

	if (ret)
		return ret;
	if (hwloc_topology_init(&topo))
		return gd_err(-ENOMEM, "hwloc: cannot initialise a topology");
	/* Bridges are what the path classes are made of: keep all of them. */
	hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (xml && hwloc_topology_set_xml(topo, xml)) {
		hwloc_topology_destroy(topo);
		return gd_err(
			-EINVAL,
			"hwloc cannot read topology XML '%s'; check the file exists and was written by lstopo --of xml",
			xml);
	}
	if (hwloc_topology_load(topo)) {
		hwloc_topology_destroy(topo);
		/* hwloc's built-in XML reader handles only what lstopo
		 * writes (no comments); the libxml2 reader is a plugin. */
		if (xml)
			return gd_err(
				-EIO,
				"hwloc could not load the XML topology %s; export it again with lstopo --of xml, or install libhwloc-plugins (its libxml2 reader accepts XML comments)",
				xml);
		return gd_err(
			-EIO,
			"hwloc could not load the live topology; check that /sys is mounted and readable (lstopo shows the same)");
	}
	*out = topo;
	return 0;
}
