/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the engine derives from the parsed options itself: the sizes the
 * sweep runs and the largest of them, which the buffers must hold.
 */
#include <config.h>

#include <errno.h>
#include <string.h>

#include "engine/opts.h"
#include "util/error.h"

int gd_opts_sizes(const struct gd_opts *o, uint64_t *sizes, unsigned int max,
		  unsigned int *n)
{
	*n = 0;
	if (o->num_size_list) {
		if (o->num_size_list > max)
			return gd_err(-E2BIG, "--sizes: at most %u sizes", max);
		memcpy(sizes, o->size_list, o->num_size_list * sizeof(*sizes));
		*n = o->num_size_list;
		return 0;
	}
	if (!o->all_sizes) {
		sizes[(*n)++] = o->size_bytes;
		return 0;
	}
	for (uint64_t sz = o->min_size_bytes; sz <= o->max_size_bytes;
	     sz *= 2) {
		if (*n == max)
			return gd_err(-E2BIG, "too many sizes in the -a sweep");
		sizes[(*n)++] = sz;
	}
	return 0;
}

uint64_t gd_opts_max_size(const struct gd_opts *o)
{
	if (o->num_size_list)
		return o->size_list[o->num_size_list - 1];
	return o->all_sizes ? o->max_size_bytes : o->size_bytes;
}
