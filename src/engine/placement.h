/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Where a phase puts the buffers: host memory (H) or one of the device
 * memories --mem lists (D, or D1..D4 with a list), client side first, as
 * --phases spells it ("HH", "DD", "HD2", "D1D1").
 */
#ifndef GD_PLACEMENT_H
#define GD_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#define GD_MAX_DEVMEM 4 /* device memories one side may list in --mem */
/* 0 is host memory; k = 1..GD_MAX_DEVMEM is device memory D<k>. */
#define GD_PLACE_HOST 0u
#define GD_PLACE_DEV 1u
#define GD_PLACE_COUNT (1u + GD_MAX_DEVMEM)

/* The @len bytes of @tok as two places (client, server). 0 or -EINVAL
 * (message recorded). */
int gd_placement_parse(const char *tok, size_t len, unsigned int *client,
		       unsigned int *server);
/* Does a --phases list number its device memories (D1, D2, ...)? Then
 * every name does, and a bare D is D1. */
bool gd_placement_numbered(const char *list);
/* "HH", "DD" or, numbered, "D1D1", "HD2". */
void gd_placement_name(unsigned int client, unsigned int server, bool numbered,
		       char *buf, size_t len);
/* "HH,D1D1,D2D2,..." for @n device memories (n >= 2), "HH,DD" for one. */
void gd_placement_default(unsigned int n, char *buf, size_t len);

#endif
