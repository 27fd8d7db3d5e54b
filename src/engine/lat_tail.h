/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Within-round intervals of a latency step's median and p99, from its
 * sorted samples: what lets a run of one round still put an interval on
 * the device/HH tail ratio (report/tails.c).
 */
#ifndef GD_ENGINE_LAT_TAIL_H
#define GD_ENGINE_LAT_TAIL_H

#include <stddef.h>
#include <stdint.h>

#include "util/stats.h"

/*
 * 1-based ranks of the order statistics X(lo)..X(hi) that hold the @q
 * quantile (0 < q < 1) of the population with probability at least @conf,
 * for @n samples. A side that @n samples cannot bound is 0.
 */
void gd_lat_tail_ranks(size_t n, double q, double conf, size_t *lo, size_t *hi);

/* The 95% intervals of @lat's median and p99 from the same @sorted_ns
 * samples gd_lat_summarize() summarised (ascending), with its @divisor. */
void gd_lat_tail_ci(const uint64_t *sorted_ns, size_t n, unsigned int divisor,
		    struct gd_lat_summary *lat);

#endif
