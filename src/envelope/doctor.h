/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Internal interface between the envelope collectors (host, rdma, devices,
 * platform, topology, route) and the findings list. Every collector reads
 * files relative to a root directory so the tests can point it at fixtures.
 */
#ifndef GD_DOCTOR_H
#define GD_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>

#include "envelope/envelope.h"
#include "mem/mem.h"

struct json_object;

/* One device backend's part of the envelope (gd_mem_envelope()). */
struct gd_doctor_devices {
	const struct gd_mem_envelope_ops *ops;
	struct json_object *section; /* its section, owned by the envelope */
	struct json_object *list; /* borrowed: its devices; NULL: not probed */
};

struct gd_doctor_ctx {
	const struct gd_envelope_opts *opts;
	const char *root; /* never NULL; "/" on the live system */
	bool live;	  /* root is "/": live-only sources allowed */
	struct json_object *findings;	  /* array, owned by the envelope */
	struct json_object *rdma_devices; /* borrowed: rdma.devices */
	struct gd_doctor_devices devices[GD_MEM_KIND_COUNT];
	unsigned int ndevices; /* device backends, in table order */
};

/* Append a finding: @id is a stable key for scripts, @subject the device,
 * GPU or "host" it is about, @next_check what to look at next. */
void gd_doctor_finding(struct gd_doctor_ctx *ctx, enum gd_severity sev,
		       const char *id, const char *subject,
		       const char *next_check, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Build "<root>/<relative path>" into @out. -ENAMETOOLONG if it does not fit.
 */
int gd_doctor_path(const struct gd_doctor_ctx *ctx, char *out, size_t len,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Read a small file below the root, first line only, trailing whitespace
 * stripped. Returns the length or -errno; @buf is "" on failure. */
int gd_doctor_read(const struct gd_doctor_ctx *ctx, char *buf, size_t len,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool gd_doctor_exists(const struct gd_doctor_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Library wrappers (GPU drivers, hwloc) record failures with gd_err(); for the
 * doctor such a failure is an observation. Copy the message out and leave
 * the first-error slot as it was before the call (@was_set), so a gd_* run's
 * own error is never overwritten or cleared.
 */
void gd_doctor_take_error(bool was_set, int ret, char *msg, size_t len);
/* PCI addresses equal regardless of case and domain width. */
bool gd_bdf_equal(const char *a, const char *b);

/* JSON helpers: a string, or null when @s is NULL or empty. */
struct json_object *gd_json_str_or_null(const char *s);

/* The collectors; each fills its section object and adds findings. They
 * return -errno only for allocation failures or unreadable input files.
 * gd_doctor_devices fills every device backend's section (ctx->devices). */
int gd_doctor_host(struct gd_doctor_ctx *ctx, struct json_object *host);
int gd_doctor_rdma(struct gd_doctor_ctx *ctx, struct json_object *rdma);
int gd_doctor_devices(struct gd_doctor_ctx *ctx);
/* What a device backend's envelope hooks are given: the root, whether to
 * start drivers, and the findings of @ctx as their sink. */
void gd_doctor_devices_probe(struct gd_doctor_ctx *ctx, struct gd_mem_probe *p);
int gd_doctor_platform(struct gd_doctor_ctx *ctx, struct json_object *platform);
int gd_doctor_topology(struct gd_doctor_ctx *ctx, struct json_object *topo);
int gd_doctor_route(struct gd_doctor_ctx *ctx, struct json_object *routes);
/* bootstrap.c: route and TCP reachability of @peer ("HOST[:PORT]") as the
 * envelope's "bootstrap" section and one finding; -EINVAL on bad syntax. */
int gd_doctor_bootstrap(struct gd_doctor_ctx *ctx, const char *peer,
			int timeout_ms, struct json_object *out);

/* PCIe link rate in GT/s from sysfs text ("16.0 GT/s PCIe"); 0 if unknown. */
double gd_doctor_link_gts(const char *text);

/* ACS control register (PCIe ACS extended capability, offset 6) decoded
 * into a JSON object; the redirect bits are what hurts GPU peer traffic. */
struct json_object *gd_doctor_acs_decode(unsigned int ctl);
bool gd_doctor_acs_redirects(unsigned int ctl);
/* ACS state of the bridge at @bdf ("0000:12:00.0") read through libpci;
 * never NULL: an object with "state" saying why it is unknown. */
struct json_object *gd_doctor_acs_read(const struct gd_doctor_ctx *ctx,
				       unsigned int domain, unsigned int bus,
				       unsigned int dev, unsigned int func);

#endif
