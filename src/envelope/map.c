/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The "topology" section of the envelope: one row per GPU with its path
 * class to every NIC, the nearest NIC(s) and their port, NUMA nodes, ACS on
 * the path to the nearest NIC, and the rail from --rails.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "envelope/doctor.h"
#include "envelope/rails.h"
#include "envelope/topology.h"
#include "util/error.h"

struct gd_map {
	struct gd_doctor_ctx *ctx;
	hwloc_topology_t topo;
	struct gd_topo_devs devs;
	struct gd_rails rails;
};

static struct json_object *gd_int_or_null(int v)
{
	return v < 0 ? NULL : json_object_new_int(v);
}

/* The first ACTIVE port of @dev in the RDMA inventory, else its first port. */
static int gd_map_port(struct gd_doctor_ctx *ctx, const char *dev)
{
	size_t i, j,
		n = ctx->rdma_devices
			    ? json_object_array_length(ctx->rdma_devices)
			    : 0;
	struct json_object *d, *v, *ports, *p, *state;
	int first = -1;

	for (i = 0; i < n; i++) {
		d = json_object_array_get_idx(ctx->rdma_devices, i);
		if (!json_object_object_get_ex(d, "name", &v) ||
		    strcmp(json_object_get_string(v), dev) ||
		    !json_object_object_get_ex(d, "ports", &ports))
			continue;
		for (j = 0; j < json_object_array_length(ports); j++) {
			p = json_object_array_get_idx(ports, j);
			json_object_object_get_ex(p, "port", &v);
			if (first < 0)
				first = json_object_get_int(v);
			if (json_object_object_get_ex(p, "state", &state) &&
			    !strcmp(json_object_get_string(state), "ACTIVE"))
				return json_object_get_int(v);
		}
	}
	return first;
}

/* The device object of backend @d with PCI address @bdf, or NULL. */
static struct json_object *gd_map_device(const struct gd_doctor_devices *d,
					 const char *bdf)
{
	size_t i, n = d->list ? json_object_array_length(d->list) : 0;
	struct json_object *g, *v;

	for (i = 0; i < n; i++) {
		g = json_object_array_get_idx(d->list, i);
		if (json_object_object_get_ex(g, "pci_bus_id", &v) &&
		    gd_bdf_equal(json_object_get_string(v), bdf))
			return g;
	}
	return NULL;
}

/* Each device backend's ordinal of the GPU at @bdf (null where it has
 * none); returns the first backend's device object found, or NULL. */
static struct json_object *
gd_map_ordinals(struct gd_map *m, struct json_object *row, const char *bdf)
{
	struct json_object *found = NULL, *dev, *v;

	for (unsigned int i = 0; i < m->ctx->ndevices; i++) {
		const struct gd_doctor_devices *d = &m->ctx->devices[i];

		dev = gd_map_device(d, bdf);
		json_object_object_add(
			row, d->ops->map_index_key,
			dev && json_object_object_get_ex(dev, "index", &v)
				? json_object_get(v)
				: NULL);
		if (!found)
			found = dev;
	}
	return found;
}

static struct json_object *gd_map_nic(struct gd_map *m, int i)
{
	struct json_object *o = json_object_new_object();
	const char *name = m->devs.nic_names[i];
	char bdf[32];

	gd_topo_bdf(m->devs.nic_pci[i], bdf, sizeof(bdf));
	json_object_object_add(o, "device", json_object_new_string(name));
	json_object_object_add(o, "port",
			       gd_int_or_null(gd_map_port(m->ctx, name)));
	json_object_object_add(o, "pci_bus_id", json_object_new_string(bdf));
	json_object_object_add(
		o, "numa_node",
		gd_int_or_null(gd_topo_numa(m->topo, m->devs.nic_pci[i])));
	json_object_object_add(
		o, "rail", gd_json_str_or_null(gd_rails_find(&m->rails, name)));
	return o;
}

/* ACS of every PCI bridge between the GPU and NIC @nic; flags redirects. */
static struct json_object *gd_map_acs(struct gd_map *m, hwloc_obj_t gpu,
				      int nic, const char *gpu_bdf)
{
	struct json_object *arr = json_object_new_array();
	struct gd_topo_path path;
	int i;

	gd_topo_classify(m->topo, gpu, m->devs.nic_pci[nic], &path);
	for (i = 0; i < path.nbridges; i++) {
		const struct hwloc_pcidev_attr_s *p =
			&path.bridges[i]->attr->bridge.upstream.pci;
		struct json_object *a, *redir;
		char bdf[32];

		gd_topo_bdf(path.bridges[i], bdf, sizeof(bdf));
		a = gd_doctor_acs_read(m->ctx, p->domain, p->bus, p->dev,
				       p->func);
		json_object_object_add(a, "bridge",
				       json_object_new_string(bdf));
		json_object_array_add(arr, a);
		if (json_object_object_get_ex(a, "redirects_peer_traffic",
					      &redir) &&
		    json_object_get_boolean(redir))
			gd_doctor_finding(
				m->ctx, GD_SEV_WARNING, "acs-redirect", gpu_bdf,
				"on bare metal disable ACS redirect on this bridge (BIOS or setpci); VMs need ACS and rely on ATS instead",
				"ACS on bridge %s redirects peer traffic between GPU %s and %s to the root complex",
				bdf, gpu_bdf, m->devs.nic_names[nic]);
	}
	return arr;
}

static void gd_map_rail(struct gd_map *m, struct json_object *row,
			const char *bdf, struct json_object *dev,
			struct json_object *nearest)
{
	const char *gpu_rail = gd_rails_find(&m->rails, bdf), *nic_rail = NULL;
	struct json_object *v;

	if (!gpu_rail && dev && json_object_object_get_ex(dev, "uuid", &v))
		gpu_rail = gd_rails_find(&m->rails, json_object_get_string(v));
	if (json_object_array_length(nearest) &&
	    json_object_object_get_ex(json_object_array_get_idx(nearest, 0),
				      "rail", &v))
		nic_rail = json_object_get_string(v);
	json_object_object_add(
		row, "rail",
		gd_json_str_or_null(gpu_rail ? gpu_rail : nic_rail));
	if (gpu_rail && nic_rail && strcmp(gpu_rail, nic_rail))
		gd_doctor_finding(
			m->ctx, GD_SEV_WARNING, "rail-mismatch", bdf,
			"check the --rails file against the cabling; the GPU's traffic will cross rails",
			"GPU %s is mapped to rail %s but its nearest NIC is on rail %s",
			bdf, gpu_rail, nic_rail);
}

static void gd_map_far(struct gd_map *m, const char *bdf, enum gd_path best)
{
	if (best <= GD_PATH_PXB)
		return;
	gd_doctor_finding(
		m->ctx, GD_SEV_WARNING, "gpu-nic-far", bdf,
		"GPUDirect RDMA wants PIX or PXB; check which NIC this GPU's rank uses (NCCL_IB_HCA) and expect lower GPU bandwidth",
		"the nearest NIC of GPU %s is %s away", bdf,
		gd_path_name(best));
}

static struct json_object *gd_map_row(struct gd_map *m, int g)
{
	struct json_object *row = json_object_new_object();
	struct json_object *paths = json_object_new_object();
	struct json_object *nearest = json_object_new_array(), *dev, *v;
	enum gd_path cls[GD_TOPO_MAX_DEVS], best = GD_PATH_SYS;
	hwloc_obj_t gpu = m->devs.gpus[g];
	struct gd_topo_path path;
	int i, first = -1;
	char bdf[32];

	gd_topo_bdf(gpu, bdf, sizeof(bdf));
	for (i = 0; i < m->devs.nnics; i++) {
		cls[i] = gd_topo_classify(m->topo, gpu, m->devs.nic_pci[i],
					  &path);
		if (cls[i] < best)
			best = cls[i];
		json_object_object_add(
			paths, m->devs.nic_names[i],
			json_object_new_string(gd_path_name(cls[i])));
	}
	for (i = 0; i < m->devs.nnics; i++)
		if (cls[i] == best) {
			json_object_array_add(nearest, gd_map_nic(m, i));
			first = first < 0 ? i : first;
		}
	json_object_object_add(row, "pci_order", json_object_new_int(g));
	dev = gd_map_ordinals(m, row, bdf);
	json_object_object_add(row, "uuid",
			       dev && json_object_object_get_ex(dev, "uuid", &v)
				       ? json_object_get(v)
				       : NULL);
	json_object_object_add(row, "pci_bus_id", json_object_new_string(bdf));
	json_object_object_add(row, "numa_node",
			       gd_int_or_null(gd_topo_numa(m->topo, gpu)));
	json_object_object_add(
		row, "path_class",
		first < 0 ? NULL : json_object_new_string(gd_path_name(best)));
	json_object_object_add(row, "nearest", nearest);
	json_object_object_add(row, "acs_path",
			       first < 0 ? NULL
					 : gd_map_acs(m, gpu, first, bdf));
	gd_map_rail(m, row, bdf, dev, nearest);
	json_object_object_add(row, "paths", paths);
	if (first >= 0)
		gd_map_far(m, bdf, best);
	return row;
}

static int gd_map_fill(struct gd_map *m, struct json_object *out)
{
	struct json_object *nics = json_object_new_array();
	struct json_object *rows = json_object_new_array();
	int i;

	gd_topo_devices(m->topo, &m->devs);
	for (i = 0; i < m->devs.nnics; i++)
		json_object_array_add(nics, gd_map_nic(m, i));
	for (i = 0; i < m->devs.ngpus; i++)
		json_object_array_add(rows, gd_map_row(m, i));
	json_object_object_add(out, "nics", nics);
	json_object_object_add(out, "map", rows);
	if (m->devs.ngpus && !m->devs.nnics)
		gd_doctor_finding(
			m->ctx, GD_SEV_WARNING, "no-nic-in-topology", "host",
			"hwloc sees no OpenFabrics device: is the RDMA driver loaded and /sys/class/infiniband visible?",
			"%d GPU(s) but no RDMA NIC in the topology",
			m->devs.ngpus);
	return 0;
}

int gd_doctor_topology(struct gd_doctor_ctx *ctx, struct json_object *out)
{
	const char *xml = ctx->opts->topology_xml;
	bool was_set = gd_err_is_set();
	char msg[GD_ERR_MSG_MAX];
	struct gd_map *m;
	int ret;

	m = calloc(1, sizeof(*m));
	if (!m)
		return gd_err(-ENOMEM,
			      "out of memory building the GPU-to-NIC map");
	m->ctx = ctx;
	json_object_object_add(out, "source",
			       json_object_new_string(xml ? "xml" : "live"));
	json_object_object_add(out, "xml", gd_json_str_or_null(xml));
	ret = gd_rails_load(ctx->opts->rails_path, &m->rails);
	if (ret)
		goto out_free;
	ret = gd_topo_load(xml, &m->topo);
	if (ret && !xml) {
		/* The live topology is inventory like any other: its absence
		 * is reported, not fatal. A bad --topology-xml is the user's.
		 */
		gd_doctor_take_error(was_set, ret, msg, sizeof(msg));
		gd_doctor_finding(
			ctx, GD_SEV_WARNING, "topology-unavailable", "host",
			"check that /sys/bus/pci is readable in this context",
			"%s", msg);
		ret = 0;
		goto out_free;
	}
	if (!ret) {
		ret = gd_map_fill(m, out);
		hwloc_topology_destroy(m->topo);
	}
out_free:
	free(m);
	return ret;
}
