/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's latency tails: the p50 and p99 ratio of each device phase to
 * HH over a series' repeats, by the run tool's own code (report/tails.c).
 */
#ifndef GD_CLUSTER_FLEET_TAILS_H
#define GD_CLUSTER_FLEET_TAILS_H

#include <stddef.h>

struct gd_fleet;
struct json_object;

/*
 * The .statistics.tails entries (report/tails.h) of the @n repeat
 * documents @docs of series @id, each repeat's figures standing for one
 * replicate ("replicates": "repeats"; with one repeat, within it), with
 * "series": @id and @id before each text. A new array, maybe empty.
 */
struct json_object *gd_fleet_tails_docs(struct json_object **docs, size_t n,
					const char *id);

/* Every latency series' entries, its measuring documents read again (the
 * fleet keeps their typical figures only); NULL when there are none. */
struct json_object *gd_fleet_tails_json(const struct gd_fleet *fl);

#endif
