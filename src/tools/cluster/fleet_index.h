/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's indexes over the executions it read, built once by the
 * analysis so that no question asked per execution, host, GPU, rail or size
 * scans every execution: the median and MAD of every comparison group
 * (class of round, rail, phase, size), the repeats of every series, the
 * executions touching every host, and the coverage of every association.
 */
#ifndef GD_CLUSTER_FLEET_INDEX_H
#define GD_CLUSTER_FLEET_INDEX_H

#include "tools/cluster/fleet.h"

/* The figures of ok measured runs of one class, rail, phase and size. */
struct gd_fleet_group {
	int cls, rail;
	uint32_t name, size; /* interned */
	size_t n;
	double median, mad;
};

/* Coverage of one association in one round (see gd_fleet_coverage). */
struct gd_fleet_cov {
	int round, host, gpu;
	int planned, tested, bad, passed;
};

struct gd_fleet_index {
	char (*names)[8];
	size_t n_names, names_cap;
	double *sizes;
	size_t n_sizes, sizes_cap;
	struct gd_fleet_group *groups;
	size_t n_groups, groups_cap;
	struct gd_fleet_hash name_h, size_h, group_h;
	/* series (same round, step, pair, GPU and direction: the repeats of
	 * one execution), numbered in the order of their first run */
	size_t n_series;
	size_t *series_start; /* n_series + 1 */
	uint32_t *series_runs;
	/* runs with the host at either end, in run order */
	size_t n_hosts;
	size_t *host_start; /* n_hosts + 1 */
	uint32_t *host_runs;
	struct gd_fleet_cov *cov;
	size_t n_cov, cov_cap;
	struct gd_fleet_hash cov_h;
};

/* Groups, series and host lists of @fl's runs into fl->ix. */
int gd_fleet_index_build(struct gd_fleet *fl);
/* Coverage counts, once the analysis has said which runs are bad. */
int gd_fleet_index_coverage(struct gd_fleet *fl);
void gd_fleet_index_free(struct gd_fleet_index *ix);

/* The group of @cls, @rail, @phase and @size; NULL when it has no figure. */
const struct gd_fleet_group *
gd_fleet_index_group(const struct gd_fleet_index *ix, int cls, int rail,
		     const char *phase, double size);
/* Indices of the runs of @series / touching @host; their count. */
size_t gd_fleet_index_series(const struct gd_fleet_index *ix, size_t series,
			     const uint32_t **runs);
size_t gd_fleet_index_host(const struct gd_fleet_index *ix, int host,
			   const uint32_t **runs);
const struct gd_fleet_cov *gd_fleet_index_cov(const struct gd_fleet_index *ix,
					      int round, int host, int gpu);

#endif
