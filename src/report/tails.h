/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Latency tails: the p50 and p99 ratio of each device phase to HH with a
 * 95% interval, per size and over the sizes. Informational: no verdict,
 * gate or exit status reads them.
 */
#ifndef GD_REPORT_TAILS_H
#define GD_REPORT_TAILS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/infer.h"

struct json_object;

/*
 * The document's .statistics.tails[] for a latency run: per device phase,
 * direction and percentile (50, 99),
 *  {"comparison": "DD/HH", "direction", "percentile", "figure",
 *   "replicates": "rounds"|"within_round"|"none", "rounds", "sizes",
 *   "size_min_bytes", "size_max_bytes", "ratio",
 *   "interval": {"confidence", "low", "high"},
 *   "per_size": [{"size_bytes", "ratio", "low", "high"}], "text"}.
 * The ratio is X/HH of the latency (above 1: the device phase is slower).
 * NULL for a bandwidth document.
 */
struct json_object *gd_tails_build(struct json_object *doc);
/* The same, with each result's "samples" standing for @unit ("repeats":
 * gd_report's campaign repeats of one execution) instead of rounds. */
struct json_object *gd_tails_build_over(struct json_object *doc,
					const char *unit);

/* The entries' "text" lines, under a heading; nothing when there are none. */
void gd_tails_print(FILE *out, struct json_object *doc);

/*
 * Over rounds: @d holds log(X/HH) as @rounds rows of @nsz sizes (NAN
 * where missing). @per (nsz entries, may be NULL): each size's t-interval
 * over its rounds. Returns the t-interval of the per-round means over the
 * rounds in which every size has a figure (n < 2: no interval).
 */
void gd_tails_over_rounds(const double *d, unsigned int rounds,
			  unsigned int nsz, struct gd_log_ci *overall,
			  struct gd_log_ci *per);

/*
 * One round: the log ratio of @x to @h and its standard error from each
 * figure's own 95% interval ([low, high]; 0 for a side not bounded), as
 * independent errors added in quadrature on the log scale. -ERANGE when
 * either interval is open or a figure is not positive.
 */
int gd_tails_within(double x, const double x_ci[2], double h,
		    const double h_ci[2], double *log_ratio, double *se_log);

/* The result row of phase @ph at @size bytes, or NULL. */
struct json_object *gd_tails_result(struct json_object *ph, double size);

/* "2 B", "4 KiB", "8 MiB", else the bytes. */
void gd_tails_size(char *buf, size_t len, uint64_t bytes);

#endif
