/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The registration route record: per device of every device backend, which
 * route (DMA-BUF or peer-memory) is intended and why, its evidence, and the
 * stop condition when no supported combination exists. The backend writes
 * each record with the decision code its registration runs.
 */
#include <config.h>

#include <json-c/json.h>

#include "envelope/doctor.h"
#include "mem/mem.h"

static void gd_route_backend(const struct gd_doctor_devices *d,
			     const struct gd_mem_probe *p,
			     struct json_object *routes)
{
	size_t i, n = d->list ? json_object_array_length(d->list) : 0;
	struct json_object *dev, *idx, *bdf;

	/* Without a device the record still says what blocks one. */
	if (!n) {
		json_object_array_add(routes,
				      d->ops->route_record(p, -1, NULL));
		return;
	}
	for (i = 0; i < n; i++) {
		dev = json_object_array_get_idx(d->list, i);
		json_object_object_get_ex(dev, "index", &idx);
		json_object_object_get_ex(dev, "pci_bus_id", &bdf);
		json_object_array_add(
			routes,
			d->ops->route_record(p, json_object_get_int(idx),
					     json_object_get_string(bdf)));
	}
}

int gd_doctor_route(struct gd_doctor_ctx *ctx, struct json_object *routes)
{
	struct gd_mem_probe p;

	gd_doctor_devices_probe(ctx, &p);
	for (unsigned int i = 0; i < ctx->ndevices; i++)
		gd_route_backend(&ctx->devices[i], &p, routes);
	return 0;
}
