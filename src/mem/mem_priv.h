/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the memory backends share among themselves and with mem.c, not with
 * the rest of the program: their ops tables, the table lookup, the words
 * of the --mem grammar that more than one backend may use (mem_syntax.c),
 * the plain registration used by host and hugepage, and the seed of a
 * fresh buffer's initial pattern.
 */
#ifndef GD_MEM_PRIV_H
#define GD_MEM_PRIV_H

#include "mem/mem.h"

/* Seed of the pattern a fresh buffer holds before any test writes it. */
#define GD_MEM_INIT_SEED 0u

/* Highest device index a spec may name. */
#define GD_MEM_DEVICE_INDEX_MAX 1023

extern const struct gd_mem_ops gd_mem_host_ops;
extern const struct gd_mem_ops gd_mem_hugepage_ops;
extern const struct gd_mem_ops gd_mem_cuda_ops;
extern const struct gd_mem_ops gd_mem_mmap_ops;
/* The cuda backend's envelope side (mem_cuda_envelope.c). */
extern const struct gd_mem_envelope_ops gd_mem_cuda_envelope_ops;
/* mem_cuda_p2p.c: the "peer_access" section of the GPU envelope for the
 * devices in @gpus (two or more). */
void gd_cuda_peer_matrix(const struct gd_mem_probe *p, struct json_object *gpu,
			 struct json_object *gpus);

/* The backend of @kind, NULL when out of range (mem_spec.c). */
const struct gd_mem_ops *gd_mem_backend(enum gd_mem_kind kind);

/* mem_syntax.c, below the table so that backends may call it. */
/* A route a user names: auto, dmabuf or peermem (plain is implied by CPU
 * memory, never written). 0 or -EINVAL, nothing recorded. */
int gd_mem_route_parse(const char *text, enum gd_mem_route *route);
/* A device by index (0..GD_MEM_DEVICE_INDEX_MAX) or PCI address
 * ("DDDD:BB:DD.F" or "BB:DD.F", stored lower case with the domain). */
bool gd_mem_parse_device_ref(const char *text, struct gd_mem_spec *spec);
/* @spec as text through @ops (its format hook, else its name; "unknown"
 * without ops): what messages inside the backends use. */
void gd_mem_ops_format(const struct gd_mem_ops *ops,
		       const struct gd_mem_spec *spec, char *buf, size_t len);

/* memcpy in and out of CPU memory (mem_host.c): host, hugepage, mmap. */
int gd_mem_cpu_copy_in(struct gd_mem_buf *buf, size_t off, const void *src,
		       size_t len);
int gd_mem_cpu_copy_out(struct gd_mem_buf *buf, size_t off, void *dst,
			size_t len);

/* The locked-memory limit of this process as advice for a registration
 * of @need_bytes that ran out of memory (mem_regerr.c): the soft and hard
 * limits, what is locked already and how to raise it. Returns false when
 * the limit is unlimited, so cannot be the cause (@out says so). */
bool gd_mem_memlock_text(size_t need_bytes, char *out, size_t len);

/* Whether this process holds CAP_IPC_LOCK, from <@root>/proc/self/status
 * (CapEff, bit 14; @root "/" normally, tests pass a fixture): 1 held, 0
 * not, -1 unknown. ib_umem_get skips the locked-memory limit when held. */
int gd_mem_cap_ipc_lock(const char *root);

/* ibv_reg_mr on CPU memory, with decoded failures and plain-route evidence. */
int gd_mem_reg_plain(struct gd_mem_buf *buf, struct ibv_pd *pd, int access);

#endif
