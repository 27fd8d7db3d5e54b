/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The fleet model's memory: an arena for what lives as long as the model
 * (ids, paths, error texts, curves), so half a million executions cost a
 * few hundred bytes each and one free; and geometric growth for the arrays
 * the model indexes, so reading N documents copies O(N) bytes, not O(N^2).
 */
#include <config.h>

#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet.h"

#define GD_POOL_CHUNK (1u << 20)

struct gd_fleet_chunk {
	struct gd_fleet_chunk *next;
	alignas(max_align_t) unsigned char data[];
};

static size_t round_up(size_t n)
{
	return (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
}

/* A chunk of its own for a large block, kept behind the head so the head's
 * free room is not lost. */
static void *alloc_big(struct gd_fleet_pool *p, size_t n)
{
	struct gd_fleet_chunk *c = calloc(1, sizeof(*c) + n);

	if (!c)
		return NULL;
	if (p->head) {
		c->next = p->head->next;
		p->head->next = c;
	} else {
		c->next = NULL;
		p->head = c;
		p->used = p->cap = 0;
	}
	return c->data;
}

void *gd_fleet_pool_alloc(struct gd_fleet_pool *p, size_t n)
{
	struct gd_fleet_chunk *c;
	void *out;

	n = round_up(n ? n : 1);
	if (n > GD_POOL_CHUNK / 4)
		return alloc_big(p, n);
	if (!p->head || p->cap - p->used < n) {
		c = calloc(1, sizeof(*c) + GD_POOL_CHUNK);
		if (!c)
			return NULL;
		c->next = p->head;
		p->head = c;
		p->used = 0;
		p->cap = GD_POOL_CHUNK;
	}
	out = p->head->data + p->used;
	p->used += n;
	return out;
}

char *gd_fleet_pool_str(struct gd_fleet_pool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	char *out = gd_fleet_pool_alloc(p, n);

	if (out)
		memcpy(out, s, n);
	return out;
}

void gd_fleet_pool_free(struct gd_fleet_pool *p)
{
	while (p->head) {
		struct gd_fleet_chunk *next = p->head->next;

		free(p->head);
		p->head = next;
	}
	p->used = p->cap = 0;
}

void *gd_fleet_grow(void *arr, size_t *cap, size_t n, size_t elem)
{
	void *grown;
	size_t want;

	if (n < *cap)
		return arr;
	want = *cap ? *cap * 2 : 16;
	if (want <= n)
		want = n + 1;
	if (want > (size_t)-1 / elem)
		return NULL;
	grown = realloc(arr, want * elem);
	if (grown)
		*cap = want;
	return grown;
}
