/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A small open-addressing hash from a key to the index of the array
 * element holding it (runs by id, hosts by name, groups, series): the
 * caller owns the keys and says how to compare them, the table keeps only
 * the hash and the index. Linear probing, at most half full.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include "tools/cluster/fleet.h"

struct gd_fleet_slot {
	uint32_t hash;
	uint32_t idx1; /* index + 1; 0 is an empty slot */
};

/* FNV-1a with a final mix, so that keys differing in one byte spread
 * over the whole table. */
uint32_t gd_fleet_hash_bytes(const void *p, size_t n, uint32_t seed)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u ^ seed;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	return h;
}

long gd_fleet_hash_find(const struct gd_fleet_hash *h, uint32_t hv,
			bool (*same)(const void *ctx, uint32_t idx,
				     const void *key),
			const void *ctx, const void *key)
{
	size_t i, mask = h->cap - 1;

	if (!h->cap)
		return -1;
	for (i = hv & mask; h->slot[i].idx1; i = (i + 1) & mask)
		if (h->slot[i].hash == hv &&
		    same(ctx, h->slot[i].idx1 - 1, key))
			return (long)(h->slot[i].idx1 - 1);
	return -1;
}

static void put(struct gd_fleet_slot *slot, size_t cap, uint32_t hv,
		uint32_t idx1)
{
	size_t i, mask = cap - 1;

	for (i = hv & mask; slot[i].idx1; i = (i + 1) & mask)
		;
	slot[i].hash = hv;
	slot[i].idx1 = idx1;
}

static int rehash(struct gd_fleet_hash *h, size_t cap)
{
	struct gd_fleet_slot *slot = calloc(cap, sizeof(*slot));
	size_t i;

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < h->cap; i++)
		if (h->slot[i].idx1)
			put(slot, cap, h->slot[i].hash, h->slot[i].idx1);
	free(h->slot);
	h->slot = slot;
	h->cap = cap;
	return 0;
}

int gd_fleet_hash_add(struct gd_fleet_hash *h, uint32_t hv, uint32_t idx)
{
	if (idx == UINT32_MAX)
		return -ERANGE;
	if ((h->n + 1) * 2 > h->cap && rehash(h, h->cap ? h->cap * 2 : 64))
		return -ENOMEM;
	put(h->slot, h->cap, hv, idx + 1);
	h->n++;
	return 0;
}

void gd_fleet_hash_free(struct gd_fleet_hash *h)
{
	free(h->slot);
	h->slot = NULL;
	h->cap = h->n = 0;
}
