/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The device backends' sections of the envelope (GPUs and their drivers,
 * kernel modules, peer-memory modules): each backend with an envelope side
 * fills its own section and says what it saw, which becomes findings here.
 */
#include <config.h>

#include <json-c/json.h>

#include "envelope/doctor.h"
#include "mem/mem.h"

_Static_assert((int)GD_MEM_SEV_INFO == (int)GD_SEV_INFO &&
		       (int)GD_MEM_SEV_WARNING == (int)GD_SEV_WARNING &&
		       (int)GD_MEM_SEV_ERROR == (int)GD_SEV_ERROR,
	       "a backend's severities are the envelope's");

static void gd_devices_finding(void *arg, enum gd_mem_severity sev,
			       const char *id, const char *subject,
			       const char *next_check, const char *message)
{
	gd_doctor_finding(arg, (enum gd_severity)sev, id, subject, next_check,
			  "%s", message);
}

void gd_doctor_devices_probe(struct gd_doctor_ctx *ctx, struct gd_mem_probe *p)
{
	*p = (struct gd_mem_probe){
		.root = ctx->root,
		.devices = !(ctx->opts->flags & GD_ENVELOPE_NO_GPU),
		.finding = gd_devices_finding,
		.arg = ctx,
	};
}

int gd_doctor_devices(struct gd_doctor_ctx *ctx)
{
	struct gd_mem_probe p;

	gd_doctor_devices_probe(ctx, &p);
	for (unsigned int i = 0; i < ctx->ndevices; i++) {
		struct gd_doctor_devices *d = &ctx->devices[i];

		d->list = d->ops->inventory(&p, d->section);
	}
	return 0;
}
