/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's reporting modes that look at one step: every latency sample
 * sorted (-H) or as measured (-U), the figures in clock cycles (-C), and the
 * deltas of the counters -W names. Text where the tables go; the samples
 * also in the document's "latency_samples" section.
 */
#ifndef GD_PERFTEST_MODES_H
#define GD_PERFTEST_MODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gd_report;
struct json_object;

struct gd_lat_modes {
	bool histogram; /* -H: every sample, sorted */
	bool unsorted;	/* -U: every sample, in the order measured */
	bool cycles;	/* -C: in clock ticks instead of usec */
};

/* What the samples are and how they were taken. */
struct gd_lat_step {
	const char *phase; /* "HH", "DD:rev", ... */
	uint64_t size_bytes;
	const uint64_t *ticks; /* @n samples, clock ticks, round trips */
	size_t n;
	unsigned int divisor; /* 2: a ping-pong's round trip, one-way */
	double ns_per_tick;
	bool tsc; /* the ticks are TSC cycles (else nanoseconds) */
};

/*
 * Appends {"phase", "size_bytes", "unit": "usec"|"cycles"|"ns",
 * "one_way_divisor", "samples_sorted": [...] (-H),
 * "samples_measured": [...] (-U), "cycles": {"min", "typical", "avg",
 * "max", "p99", "p999", "mhz"} (-C)} to "latency_samples" and prints the
 * same, perftest's "#, usec" listing first. -ENOMEM (recorded).
 */
int gd_report_lat_samples(struct gd_report *rep, const struct gd_lat_step *st,
			  const struct gd_lat_modes *m);

/*
 * -W: one line with the delta of each counter of @list ("hw_counters/NAME,
 * counters/NAME", checked by the options) in @local and @remote (delta
 * objects as counters.h writes them; NULL: not known on this side).
 */
void gd_report_counters_named(struct gd_report *rep, const char *phase,
			      uint64_t size_bytes, const char *list,
			      struct json_object *local,
			      struct json_object *remote);

#endif
