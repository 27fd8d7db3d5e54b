/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the memory backends share among themselves and with mem.c, not with
 * the rest of the program: their ops tables, the plain registration used by
 * host and hugepage, and the seed of a fresh buffer's initial pattern.
 */
#ifndef GD_MEM_PRIV_H
#define GD_MEM_PRIV_H

#include "mem/mem.h"

/* Seed of the pattern a fresh buffer holds before any test writes it. */
#define GD_MEM_INIT_SEED 0u

extern const struct gd_mem_ops gd_mem_host_ops;
extern const struct gd_mem_ops gd_mem_hugepage_ops;
extern const struct gd_mem_ops gd_mem_cuda_ops;

/* ibv_reg_mr on CPU memory, with decoded failures and plain-route evidence. */
int gd_mem_reg_plain(struct gd_mem_buf *buf, struct ibv_pd *pd, int access);

#endif
