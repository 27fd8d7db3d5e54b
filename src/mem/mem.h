/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Memory backends: an enum-indexed static const table of ops (host first,
 * then hugepage, then cuda). A backend allocates, registers with a PD
 * through a route (plain, peer-memory or DMA-BUF), copies in/out for
 * initialisation and verification, and describes itself (JSON) including
 * the route decision and its evidence.
 */
#ifndef GD_MEM_H
#define GD_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ibv_pd;
struct ibv_mr;
struct json_object;

enum gd_mem_kind {
	GD_MEM_HOST,
	GD_MEM_HUGEPAGE,
	GD_MEM_CUDA,
	GD_MEM_KIND_COUNT
};

enum gd_mem_route {
	GD_ROUTE_AUTO,	  /* cuda: DMA-BUF if supported, else peer-memory */
	GD_ROUTE_PLAIN,	  /* host/hugepage: ibv_reg_mr on CPU memory */
	GD_ROUTE_PEERMEM, /* ibv_reg_mr on a device pointer (nvidia-peermem) */
	GD_ROUTE_DMABUF, /* cuMemGetHandleForAddressRange + ibv_reg_dmabuf_mr */
};

#define GD_MEM_SPEC_MAX 64

struct gd_mem_spec {
	enum gd_mem_kind kind;
	int gpu_index;	     /* -1 when selected by bus id */
	char gpu_bus_id[32]; /* "0000:17:00.0" or "" */
	enum gd_mem_route route;
	bool dmabuf_pcie; /* --use_cuda_pcie_mapping: ask for the BAR1 path */
};

/* "host" | "hugepage" | "cuda:N[:route]" | "cuda:BDF[:route]",
 * route in auto|dmabuf|peermem. -EINVAL with a recorded message. */
int gd_mem_spec_parse(const char *text, struct gd_mem_spec *spec);
/* Canonical text form of a spec, for messages and the peer. */
void gd_mem_spec_format(const struct gd_mem_spec *spec, char *buf, size_t len);
const char *gd_mem_kind_name(enum gd_mem_kind kind);
const char *gd_mem_route_name(enum gd_mem_route route);

struct gd_mem_buf {
	const struct gd_mem_ops *ops;
	struct gd_mem_spec spec;
	void *addr; /* CPU address, or device address for cuda */
	size_t len_bytes;
	struct ibv_mr *mr;
	enum gd_mem_route route_used;
	struct json_object
		*evidence; /* route decision: used + why others not */
	void *priv;	   /* backend private state */
};

struct gd_mem_ops {
	const char *name;
	bool cpu_accessible; /* may the CPU load/store addr directly? */
	/* Allocate @len bytes, page-aligned, initialised to a known pattern. */
	int (*alloc)(struct gd_mem_buf *buf, size_t len_bytes);
	void (*free)(struct gd_mem_buf *buf);
	/* Register with @pd using @access flags; fills buf->mr, route_used,
	 * evidence. Failures are decoded into next checks (gd_err). */
	int (*reg)(struct gd_mem_buf *buf, struct ibv_pd *pd, int access);
	int (*copy_in)(struct gd_mem_buf *buf, size_t off, const void *src,
		       size_t len);
	int (*copy_out)(struct gd_mem_buf *buf, size_t off, void *dst,
			size_t len);
	/* Optional: add backend facts (GPU name, bus id...) to @obj. */
	void (*describe)(const struct gd_mem_buf *buf, struct json_object *obj);
	/* Optional: why registering this memory can run out (ENOMEM) when
	 * the locked-memory limit is not the reason (GPU memory: BAR1). */
	void (*enomem_hint)(const struct gd_mem_buf *buf, char *out,
			    size_t len);
};

int gd_mem_alloc(struct gd_mem_buf *buf, const struct gd_mem_spec *spec,
		 size_t len_bytes);
int gd_mem_register(struct gd_mem_buf *buf, struct ibv_pd *pd, int access);
/* Deregister (if registered) and free; safe on a zeroed or failed buf. */
void gd_mem_free(struct gd_mem_buf *buf);
/* JSON description: kind, device (GPU name/bus id), route, evidence. */
struct json_object *gd_mem_describe(const struct gd_mem_buf *buf);

/* Verification pattern: byte i of pattern @seed is a cheap hash of
 * (seed, i), distinct per seed. Fill writes through copy_in; check reads
 * through copy_out and reports the first mismatch (offset, expected, found)
 * with gd_err and -EILSEQ. */
int gd_mem_fill_pattern(struct gd_mem_buf *buf, size_t off, size_t len,
			uint32_t seed);
int gd_mem_check_pattern(struct gd_mem_buf *buf, size_t off, size_t len,
			 uint32_t seed);
uint8_t gd_pattern_byte(uint32_t seed, size_t index);

/*
 * Decode a registration failure into a message with the next check:
 * ENOMEM -> RLIMIT_MEMLOCK of this process (printed) vs bytes needed, or
 * for GPU memory (not charged to that limit) the GPU's BAR1 space;
 * EFAULT/EINVAL on a device pointer -> peer-memory route not in place;
 * EOPNOTSUPP from ibv_reg_dmabuf_mr -> no DMA-BUF support in driver/device.
 * Records with gd_err and returns @err (negative errno).
 */
int gd_mem_decode_reg_error(int err, const struct gd_mem_buf *buf,
			    const char *device_name, const char *call);

/*
 * Explain a failed huge-page mapping of @len_bytes from a meminfo file
 * ("/proc/meminfo"; tests pass a fixture): records with gd_err the free
 * count, the page size and how to reserve more; returns @err.
 */
int gd_mem_hugepage_explain(int err, const char *meminfo_path,
			    size_t len_bytes);

#endif
