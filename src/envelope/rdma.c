/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * RDMA inventory from /sys/class/infiniband: rdma-core version, providers,
 * every device (firmware, GUID, PCI address, NUMA node, PCIe link) and
 * every port (state, rate, link layer, active MTU, GID table).
 */
#include <config.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "envelope/doctor.h"

/* rdma-core installs libibverbs as "libibverbs.so.1.<abi>.<major>.<minor>"
 * (libibverbs.so.1.14.44.0 is rdma-core 44.0): the release is the last two
 * fields, present only in that full name. NULL for any other name, e.g. a
 * copy named after the soname alone ("libibverbs.so.1"). */
static bool gd_rdma_core_from_soname(const char *base, char *ver, size_t len)
{
	unsigned int abi, major, minor;
	char tail;

	if (sscanf(base, "libibverbs.so.1.%u.%u.%u%c", &abi, &major, &minor,
		   &tail) != 3)
		return false;
	snprintf(ver, len, "%u.%u", major, minor);
	return true;
}

static void gd_rdma_core_version(struct gd_doctor_ctx *ctx,
				 struct json_object *rdma)
{
	char real[PATH_MAX], ver[64] = "";
	const char *base = NULL, *source = "unknown";
	Dl_info info;

	if (dladdr((void *)ibv_get_device_list, &info) && info.dli_fname &&
	    realpath(info.dli_fname, real)) {
		base = strrchr(real, '/');
		base = base ? base + 1 : real;
	}
	/* Only the library's own name: a package database is the package
	 * manager's to read (and not every rdma-core comes from one). */
	if (base && gd_rdma_core_from_soname(base, ver, sizeof(ver)))
		source = "libibverbs file name";
	else
		ver[0] = '\0';
	json_object_object_add(rdma, "libibverbs", gd_json_str_or_null(base));
	json_object_object_add(rdma, "rdma_core_version",
			       gd_json_str_or_null(ver));
	json_object_object_add(rdma, "rdma_core_version_source",
			       json_object_new_string(source));
}

static int gd_name_sort(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int gd_no_dots(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Sorted directory listing below the root; returns the count (0 on error). */
static int gd_doctor_list(struct gd_doctor_ctx *ctx, struct dirent ***out,
			  const char *rel)
{
	char path[4096];
	int n;

	*out = NULL;
	if (gd_doctor_path(ctx, path, sizeof(path), "%s", rel))
		return 0;
	n = scandir(path, out, gd_no_dots, gd_name_sort);
	return n < 0 ? 0 : n;
}

static void gd_free_list(struct dirent **list, int n)
{
	while (n-- > 0)
		free(list[n]);
	free(list);
}

static void gd_rdma_providers(struct gd_doctor_ctx *ctx,
			      struct json_object *rdma)
{
	struct json_object *arr = json_object_new_array();
	struct dirent **list;
	char line[128], name[64];
	int i, n;

	n = gd_doctor_list(ctx, &list, "/etc/libibverbs.d");
	for (i = 0; i < n; i++) {
		size_t len = strlen(list[i]->d_name);

		if (len < 8 || strcmp(list[i]->d_name + len - 7, ".driver"))
			continue;
		if (gd_doctor_read(ctx, line, sizeof(line),
				   "/etc/libibverbs.d/%s",
				   list[i]->d_name) > 0 &&
		    sscanf(line, "driver %63s", name) == 1)
			json_object_array_add(arr,
					      json_object_new_string(name));
	}
	gd_free_list(list, n);
	json_object_object_add(rdma, "providers", arr);
}

/* "4: ACTIVE" -> "ACTIVE" */
static struct json_object *gd_sysfs_enum(const char *text)
{
	const char *p = strchr(text, ':');

	return gd_json_str_or_null(p ? p + 1 + (p[1] == ' ') : text);
}

static bool gd_gid_is_empty(const char *gid)
{
	return !strcmp(gid, "0000:0000:0000:0000:0000:0000:0000:0000") ||
	       !strcmp(gid, "fe80:0000:0000:0000:0000:0000:0000:0000");
}

static struct json_object *gd_rdma_gids(struct gd_doctor_ctx *ctx,
					const char *dev, const char *port)
{
	struct json_object *arr = json_object_new_array();
	char rel[512], gid[64], type[64], ndev[64];
	struct dirent **list;
	int i, n;

	snprintf(rel, sizeof(rel), "/sys/class/infiniband/%s/ports/%s/gids",
		 dev, port);
	n = gd_doctor_list(ctx, &list, rel);
	for (i = 0; i < n; i++) {
		struct json_object *g;
		const char *idx = list[i]->d_name;

		if (gd_doctor_read(ctx, gid, sizeof(gid), "%s/%s", rel, idx) <=
			    0 ||
		    gd_gid_is_empty(gid))
			continue;
		gd_doctor_read(
			ctx, type, sizeof(type),
			"/sys/class/infiniband/%s/ports/%s/gid_attrs/types/%s",
			dev, port, idx);
		gd_doctor_read(
			ctx, ndev, sizeof(ndev),
			"/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/%s",
			dev, port, idx);
		g = json_object_new_object();
		json_object_object_add(g, "index",
				       json_object_new_int(atoi(idx)));
		json_object_object_add(g, "gid", json_object_new_string(gid));
		json_object_object_add(g, "type", gd_json_str_or_null(type));
		json_object_object_add(g, "netdev", gd_json_str_or_null(ndev));
		json_object_array_add(arr, g);
	}
	gd_free_list(list, n);
	return arr;
}

/* Active MTU is not in sysfs; only the verbs query answers it (live only). */
static struct ibv_context *gd_rdma_open(struct ibv_device **devs,
					const char *dev)
{
	int i;

	for (i = 0; devs && devs[i]; i++)
		if (!strcmp(ibv_get_device_name(devs[i]), dev))
			return ibv_open_device(devs[i]);
	return NULL;
}

static struct json_object *gd_rdma_active_mtu(struct ibv_context *c, int port)
{
	struct ibv_port_attr attr;

	if (!c || ibv_query_port(c, (uint8_t)port, &attr) ||
	    attr.active_mtu < IBV_MTU_256 || attr.active_mtu > IBV_MTU_4096)
		return NULL;
	return json_object_new_int(128 << attr.active_mtu);
}

/* "400 Gb/sec (4X NDR)" -> rate 400, width "4X" */
static void gd_rdma_rate(const char *text, struct json_object *port)
{
	char width[16] = "";
	double gbps;

	if (sscanf(text, "%lf Gb/sec (%15[0-9xX]", &gbps, width) >= 1)
		json_object_object_add(port, "rate_Gbps",
				       json_object_new_double(gbps));
	else
		json_object_object_add(port, "rate_Gbps", NULL);
	json_object_object_add(port, "width", gd_json_str_or_null(width));
}

static struct json_object *gd_rdma_port(struct gd_doctor_ctx *ctx,
					const char *dev, const char *num,
					struct ibv_context *verbs)
{
	struct json_object *p = json_object_new_object();
	char state[64], phys[64], rate[64], ll[64];
	const char *base = "/sys/class/infiniband";

	gd_doctor_read(ctx, state, sizeof(state), "%s/%s/ports/%s/state", base,
		       dev, num);
	gd_doctor_read(ctx, phys, sizeof(phys), "%s/%s/ports/%s/phys_state",
		       base, dev, num);
	gd_doctor_read(ctx, rate, sizeof(rate), "%s/%s/ports/%s/rate", base,
		       dev, num);
	gd_doctor_read(ctx, ll, sizeof(ll), "%s/%s/ports/%s/link_layer", base,
		       dev, num);
	json_object_object_add(p, "port", json_object_new_int(atoi(num)));
	json_object_object_add(p, "state", gd_sysfs_enum(state));
	json_object_object_add(p, "phys_state", gd_sysfs_enum(phys));
	json_object_object_add(p, "rate", gd_json_str_or_null(rate));
	gd_rdma_rate(rate, p);
	json_object_object_add(p, "link_layer", gd_json_str_or_null(ll));
	json_object_object_add(p, "active_mtu_bytes",
			       gd_rdma_active_mtu(verbs, atoi(num)));
	json_object_object_add(p, "gids", gd_rdma_gids(ctx, dev, num));
	if (*state && !strstr(state, "ACTIVE"))
		gd_doctor_finding(
			ctx, GD_SEV_WARNING, "port-not-active", dev,
			"check the cable and switch port; 'rdma link show' and 'ibstat' show the state",
			"%s port %s is %s (physical state %s); tests on it will fail",
			dev, num,
			json_object_get_string(
				json_object_object_get(p, "state")),
			*phys ? json_object_get_string(
					json_object_object_get(p, "phys_state"))
			      : "unknown");
	return p;
}

/* PCIe link of the device's PCI function; flags a downgrade. */
static void gd_rdma_pcie(struct gd_doctor_ctx *ctx, const char *dev,
			 const char *bdf, struct json_object *d)
{
	struct json_object *l = json_object_new_object();
	char cs[64], cw[16], ms[64], mw[16];
	double cur, max;
	int curw, maxw;
	const char *rel = "/sys/class/infiniband";

	gd_doctor_read(ctx, cs, sizeof(cs), "%s/%s/device/current_link_speed",
		       rel, dev);
	gd_doctor_read(ctx, cw, sizeof(cw), "%s/%s/device/current_link_width",
		       rel, dev);
	gd_doctor_read(ctx, ms, sizeof(ms), "%s/%s/device/max_link_speed", rel,
		       dev);
	gd_doctor_read(ctx, mw, sizeof(mw), "%s/%s/device/max_link_width", rel,
		       dev);
	cur = gd_doctor_link_gts(cs);
	max = gd_doctor_link_gts(ms);
	curw = atoi(cw + (cw[0] == 'x'));
	maxw = atoi(mw + (mw[0] == 'x'));
	json_object_object_add(l, "current_speed_GTps",
			       cur ? json_object_new_double(cur) : NULL);
	json_object_object_add(l, "current_width",
			       curw ? json_object_new_int(curw) : NULL);
	json_object_object_add(l, "max_speed_GTps",
			       max ? json_object_new_double(max) : NULL);
	json_object_object_add(l, "max_width",
			       maxw ? json_object_new_int(maxw) : NULL);
	if (!cur || !max || !curw || !maxw) {
		json_object_object_add(l, "downgraded", NULL);
		json_object_object_add(d, "pcie", l);
		return;
	}
	json_object_object_add(
		l, "downgraded",
		json_object_new_boolean(cur < max || curw < maxw));
	json_object_object_add(d, "pcie", l);
	if (cur < max || curw < maxw)
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "pcie-link-downgraded", dev,
			"reseat the card or check the slot, riser and BIOS link settings; 'lspci -vv' shows LnkSta against LnkCap",
			"PCIe link of %s (%s) runs at %g GT/s x%d, the device supports %g GT/s x%d; bandwidth results would be capped",
			dev, bdf, cur, curw, max, maxw);
}

/* PCI_SLOT_NAME from device/uevent: works whether "device" is the usual
 * symlink or, in the test fixtures, a plain directory. */
static void gd_rdma_bdf(struct gd_doctor_ctx *ctx, const char *dev, char *bdf,
			size_t len)
{
	char path[4096], line[256];
	FILE *f = NULL;

	bdf[0] = '\0';
	if (!gd_doctor_path(ctx, path, sizeof(path),
			    "/sys/class/infiniband/%s/device/uevent", dev))
		f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "PCI_SLOT_NAME=", 14)) {
			size_t n = strcspn(line + 14, "\n");

			n = n < len ? n : len - 1;
			memcpy(bdf, line + 14, n);
			bdf[n] = '\0';
		}
	if (f)
		fclose(f);
}

static struct json_object *gd_rdma_device(struct gd_doctor_ctx *ctx,
					  const char *dev,
					  struct ibv_device **verbs_devs)
{
	struct json_object *d = json_object_new_object();
	struct json_object *ports = json_object_new_array();
	char buf[128], bdf[32], rel[512];
	struct ibv_context *verbs = gd_rdma_open(verbs_devs, dev);
	struct dirent **list;
	int i, n, numa;

	json_object_object_add(d, "name", json_object_new_string(dev));
	gd_doctor_read(ctx, buf, sizeof(buf),
		       "/sys/class/infiniband/%s/node_type", dev);
	json_object_object_add(d, "node_type", gd_sysfs_enum(buf));
	gd_doctor_read(ctx, buf, sizeof(buf), "/sys/class/infiniband/%s/fw_ver",
		       dev);
	json_object_object_add(d, "fw_ver", gd_json_str_or_null(buf));
	gd_doctor_read(ctx, buf, sizeof(buf),
		       "/sys/class/infiniband/%s/node_guid", dev);
	json_object_object_add(d, "node_guid", gd_json_str_or_null(buf));
	gd_doctor_read(ctx, buf, sizeof(buf), "/sys/class/infiniband/%s/parent",
		       dev);
	json_object_object_add(d, "parent_netdev", gd_json_str_or_null(buf));
	gd_rdma_bdf(ctx, dev, bdf, sizeof(bdf));
	json_object_object_add(d, "pci_bus_id", gd_json_str_or_null(bdf));
	numa = -1;
	if (gd_doctor_read(ctx, buf, sizeof(buf),
			   "/sys/class/infiniband/%s/device/numa_node",
			   dev) > 0)
		numa = atoi(buf);
	json_object_object_add(d, "numa_node",
			       numa >= 0 ? json_object_new_int(numa) : NULL);
	if (*bdf)
		gd_rdma_pcie(ctx, dev, bdf, d);
	else
		json_object_object_add(d, "pcie", NULL);
	snprintf(rel, sizeof(rel), "/sys/class/infiniband/%s/ports", dev);
	n = gd_doctor_list(ctx, &list, rel);
	for (i = 0; i < n; i++)
		json_object_array_add(
			ports, gd_rdma_port(ctx, dev, list[i]->d_name, verbs));
	gd_free_list(list, n);
	json_object_object_add(d, "ports", ports);
	if (verbs)
		ibv_close_device(verbs);
	return d;
}

int gd_doctor_rdma(struct gd_doctor_ctx *ctx, struct json_object *rdma)
{
	struct json_object *devs = json_object_new_array();
	struct ibv_device **verbs_devs = NULL;
	struct dirent **list;
	int i, n;

	gd_rdma_core_version(ctx, rdma);
	gd_rdma_providers(ctx, rdma);
	if (ctx->live)
		verbs_devs = ibv_get_device_list(NULL);
	n = gd_doctor_list(ctx, &list, "/sys/class/infiniband");
	for (i = 0; i < n; i++)
		json_object_array_add(
			devs, gd_rdma_device(ctx, list[i]->d_name, verbs_devs));
	gd_free_list(list, n);
	if (verbs_devs)
		ibv_free_device_list(verbs_devs);
	json_object_object_add(rdma, "devices", devs);
	ctx->rdma_devices = devs;
	if (!n)
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "no-rdma-device", "host",
			"load the driver (mlx5_ib, or rdma_rxe + 'rdma link add'); in a container pass /dev/infiniband and mount /sys/class/infiniband",
			"no RDMA device under %s/sys/class/infiniband",
			strcmp(ctx->root, "/") ? ctx->root : "");
	return 0;
}
