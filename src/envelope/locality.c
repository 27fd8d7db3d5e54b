/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Device memory chosen by its place (--mem=BACKEND:near, :far): from the
 * envelope's GPU-to-NIC map, the device nearest to the NIC in use, or the
 * least local one that still has a registration route, with the path class
 * (PIX, PXB, PHB, NODE, SYS) and why it was chosen.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "envelope/locality.h"
#include "util/error.h"
#include "util/json_get.h"

static const char *const gd_classes[] = { "PIX", "PXB", "PHB", "NODE", "SYS" };

/* 0 (PIX) .. 4 (SYS), or -1 for an unknown name. */
static int gd_class_rank(const char *name)
{
	for (int i = 0; name && i < 5; i++)
		if (!strcmp(name, gd_classes[i]))
			return i;
	return -1;
}

/* Does the route record hold a possible route for device @index? A device
 * the record does not mention is not excluded (the record may be absent). */
static bool gd_has_route(struct json_object *routes, int index, bool *known)
{
	*known = false;
	for (size_t i = 0; routes && i < json_object_array_length(routes);
	     i++) {
		struct json_object *r = json_object_array_get_idx(routes, i),
				   *v;

		if (gd_json_int(r, "gpu", -1) != index ||
		    !json_object_object_get_ex(r, "possible", &v))
			continue;
		*known = true;
		return json_object_get_boolean(v);
	}
	return true;
}

struct gd_pick_scan {
	int best[2];	   /* map row of the nearest and of the farthest */
	int rank[2];	   /* their path class ranks */
	unsigned int seen; /* devices with an ordinal and a path to the NIC */
	unsigned int without_route;
};

static void gd_pick_scan(struct json_object *rows, struct json_object *routes,
			 const char *index_key, const char *nic,
			 struct gd_pick_scan *sc)
{
	sc->best[0] = sc->best[1] = -1;
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		int idx = (int)gd_json_int(row, index_key, -1);
		int rank = gd_class_rank(
			gd_json_str(gd_json_path(row, "paths", NULL), nic));
		bool known;

		if (idx < 0 || rank < 0)
			continue;
		sc->seen++;
		if (!gd_has_route(routes, idx, &known)) {
			sc->without_route++;
			continue;
		}
		if (sc->best[0] < 0 || rank < sc->rank[0])
			sc->best[0] = (int)i, sc->rank[0] = rank;
		if (sc->best[1] < 0 || rank > sc->rank[1])
			sc->best[1] = (int)i, sc->rank[1] = rank;
	}
}

static void gd_pick_fill(struct json_object *row, const char *index_key,
			 int rank, struct gd_device_pick *out)
{
	out->index = (int)gd_json_int(row, index_key, -1);
	snprintf(out->pci_bus_id, sizeof(out->pci_bus_id), "%s",
		 gd_json_str(row, "pci_bus_id") ?: "");
	snprintf(out->path_class, sizeof(out->path_class), "%s",
		 gd_classes[rank]);
}

int gd_envelope_pick_device(struct json_object *env, const char *index_key,
			    const char *nic, enum gd_locality which,
			    struct gd_device_pick *out)
{
	struct json_object *rows =
		gd_json_path(gd_json_path(env, "topology", NULL), "map", NULL);
	struct json_object *routes =
		gd_json_path(env, "registration_route", NULL);
	const char *word = which == GD_LOCALITY_NEAR ? "near" : "far";
	struct gd_pick_scan sc = { .seen = 0 };
	int k = which == GD_LOCALITY_NEAR ? 0 : 1;

	memset(out, 0, sizeof(*out));
	if (!rows || !json_object_is_type(rows, json_type_array))
		return gd_err(
			-ENODATA,
			"--mem=...:%s needs the GPU-to-NIC map, and this host has none (%s); check gd_doctor's topology section, or name the device by its index",
			word,
			gd_json_str(gd_json_path(env, "topology", NULL),
				    "error")
				?: "no hwloc topology");
	gd_pick_scan(rows, routes, index_key, nic, &sc);
	if (sc.best[k] < 0)
		return gd_err(
			-ENODEV,
			"--mem=...:%s: no device in the GPU-to-NIC map has both an ordinal and a path to %s (%u seen, %u without a registration route); check gd_doctor's map and registration route",
			word, nic, sc.seen, sc.without_route);
	if (which == GD_LOCALITY_FAR && sc.rank[1] == sc.rank[0])
		return gd_err(
			-ENODEV,
			"--mem=...:far: every usable device is %s to %s, so none is less local than the nearest; compare two devices by index instead",
			gd_classes[sc.rank[0]], nic);
	gd_pick_fill(json_object_array_get_idx(rows, (size_t)sc.best[k]),
		     index_key, sc.rank[k], out);
	if (which == GD_LOCALITY_NEAR)
		snprintf(
			out->why, sizeof(out->why),
			"device %d (%s) is %s to %s, the nearest of %u device(s) with a registration route",
			out->index, out->pci_bus_id, out->path_class, nic,
			sc.seen - sc.without_route);
	else
		snprintf(
			out->why, sizeof(out->why),
			"device %d (%s) is %s to %s, the least local of %u device(s) with a registration route (the nearest is %s)",
			out->index, out->pci_bus_id, out->path_class, nic,
			sc.seen - sc.without_route, gd_classes[sc.rank[0]]);
	return 0;
}
