/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The registration route record: per GPU, which route (DMA-BUF or
 * peer-memory) is intended and why, its evidence, and the stop condition
 * when no supported combination exists. The decision itself is route.c's,
 * the same code the cuda memory backend runs.
 */
#include <config.h>

#include <stdio.h>

#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "envelope/doctor.h"
#include "util/error.h"
#include "mem/mem.h"
#include "mem/route.h"

/* GPUs not probed (a run without GPU memory): say what was checked. */
static void gd_route_unprobed(struct gd_route_facts *f)
{
	if (gd_cuda_library_present())
		snprintf(
			f->cuda_status, sizeof(f->cuda_status),
			"CUDA driver %.100s present; GPUs not probed (this run uses no GPU memory)",
			gd_cuda_library_name());
	else
		snprintf(f->cuda_status, sizeof(f->cuda_status),
			 "no CUDA driver (%.100s not found), not probed",
			 gd_cuda_library_name());
}

/* @probe_gpu is the ordinal the probe asks CUDA about; @gpu the one the
 * record names (-1: no GPU, but the probe still learns why not). */
static struct json_object *gd_route_one(struct gd_doctor_ctx *ctx, int gpu,
					int probe_gpu, const char *bdf)
{
	bool was_set = gd_err_is_set();
	struct gd_route_decision d = { 0 };
	struct gd_route_facts f = { 0 };
	struct json_object *rec = json_object_new_object();
	char msg[GD_ERR_MSG_MAX];
	int ret;

	ret = gd_route_probe(ctx->root, probe_gpu, &f);
	if (ret)
		gd_doctor_take_error(was_set, ret, msg, sizeof(msg));
	if (probe_gpu < 0)
		gd_route_unprobed(&f);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	json_object_object_add(rec, "gpu",
			       gpu < 0 ? NULL : json_object_new_int(gpu));
	json_object_object_add(rec, "pci_bus_id", gd_json_str_or_null(bdf));
	json_object_object_add(rec, "possible",
			       json_object_new_boolean(d.possible));
	json_object_object_add(
		rec, "intended",
		d.possible ? json_object_new_string(gd_mem_route_name(d.route))
			   : NULL);
	json_object_object_add(rec, "why", gd_json_str_or_null(d.why));
	json_object_object_add(
		rec, "stop_condition",
		gd_json_str_or_null(d.possible ? NULL : d.stop_condition));
	json_object_object_add(rec, "probe_error",
			       ret ? json_object_new_string(msg) : NULL);
	json_object_object_add(rec, "evidence", gd_route_evidence(&f, &d));
	if (!d.possible && gpu >= 0)
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "no-registration-route", bdf,
			"see the route record's evidence; fix the stop condition before testing GPU memory",
			"GPU %d (%s): %s", gpu, bdf, d.stop_condition);
	return rec;
}

int gd_doctor_route(struct gd_doctor_ctx *ctx, struct json_object *routes)
{
	size_t i, n = ctx->gpus ? json_object_array_length(ctx->gpus) : 0;
	struct json_object *g, *idx, *bdf;

	/* Without a GPU the record still says what blocks the GPU phases:
	 * probing ordinal 0 puts the driver's own complaint in the facts. */
	if (!n) {
		json_object_array_add(routes, gd_route_one(ctx, -1,
							   (ctx->opts->flags &
							    GD_ENVELOPE_NO_GPU)
								   ? -1
								   : 0,
							   NULL));
		return 0;
	}
	for (i = 0; i < n; i++) {
		g = json_object_array_get_idx(ctx->gpus, i);
		json_object_object_get_ex(g, "index", &idx);
		json_object_object_get_ex(g, "pci_bus_id", &bdf);
		json_object_array_add(
			routes, gd_route_one(ctx, json_object_get_int(idx),
					     json_object_get_int(idx),
					     json_object_get_string(bdf)));
	}
	return 0;
}
