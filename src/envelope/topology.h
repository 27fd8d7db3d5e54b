/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * hwloc side of the GPU-to-NIC map: loading the topology, finding GPUs and
 * RDMA NICs, and classifying the PCIe path between two devices.
 */
#ifndef GD_DOCTOR_TOPOLOGY_H
#define GD_DOCTOR_TOPOLOGY_H

#include <hwloc.h>

/* Ordered best to worst, as nvidia-smi topo -m defines them. */
enum gd_path {
	GD_PATH_PIX,  /* at most one PCIe switch (or bridge) between */
	GD_PATH_PXB,  /* several switches, no host bridge */
	GD_PATH_PHB,  /* through one PCIe host bridge */
	GD_PATH_NODE, /* across host bridges within one NUMA node */
	GD_PATH_SYS,  /* across NUMA nodes / the inter-socket link */
};

#define GD_TOPO_MAX_BRIDGES 32
#define GD_TOPO_MAX_DEVS 64

struct gd_topo_path {
	hwloc_obj_t bridges[GD_TOPO_MAX_BRIDGES]; /* PCI bridges on the path */
	int nbridges;
};

struct gd_topo_devs {
	hwloc_obj_t gpus[GD_TOPO_MAX_DEVS];
	int ngpus;
	hwloc_obj_t nic_pci[GD_TOPO_MAX_DEVS];
	const char *nic_names[GD_TOPO_MAX_DEVS];
	int nnics;
};

const char *gd_path_name(enum gd_path p);
int gd_topo_load(const char *xml, hwloc_topology_t *out);
int gd_topo_devices(hwloc_topology_t topo, struct gd_topo_devs *devs);
enum gd_path gd_topo_classify(hwloc_topology_t topo, hwloc_obj_t a,
			      hwloc_obj_t b, struct gd_topo_path *path);
int gd_topo_numa(hwloc_topology_t topo, hwloc_obj_t o);
void gd_topo_bdf(hwloc_obj_t pci, char *buf, size_t len);

#endif
