/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Clock, per-iteration samples, percentiles and bandwidth arithmetic.
 * Units: MiB = 2^20 bytes, Gb = 10^9 bits, us = 10^-6 s.
 */
#ifndef GD_STATS_H
#define GD_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a test measures, and so which summary below its rows carry. */
enum gd_measure { GD_MEASURE_BW, GD_MEASURE_LAT };

/*
 * Nanoseconds from an arbitrary origin. The TSC calibrated once against
 * CLOCK_MONOTONIC_RAW when it runs at a steady rate (no system call in the
 * hot loop even where clock_gettime is one, e.g. an HPET clocksource),
 * else CLOCK_MONOTONIC_RAW. GD_CLOCK=monotonic forces the latter.
 */
uint64_t gd_now_ns(void);
/*
 * Raw clock ticks for hot loops: an integer read with no arithmetic (under
 * emulation even a floating-point multiply per sample shows in a latency).
 * Convert differences with gd_clock_ns_per_tick() after the loop.
 */
uint64_t gd_clock_ticks(void);
double gd_clock_ns_per_tick(void);
/* Choose and calibrate the clock; called once before measuring (gd_now_ns
 * calls it on first use otherwise). */
void gd_clock_init(void);
/* "tsc (2100.0 MHz, calibrated against CLOCK_MONOTONIC_RAW)" or
 * "CLOCK_MONOTONIC_RAW (...)", for the report header. */
const char *gd_clock_describe(void);
/* Measured cost of one gd_now_ns() call, in ns; calibrated once per run. */
double gd_clock_overhead_ns(void);

struct gd_lat_summary {
	uint64_t samples;
	double min_us, max_us;
	double typical_us; /* median (nearest rank) */
	double avg_us;
	double stdev_us; /* population stdev, double precision */
	double p99_us;	 /* nearest-rank percentile */
	double p999_us;
	/* 95% distribution-free intervals of typical_us and p99_us from the
	 * same samples (engine/lat_tail.c), in the document as
	 * "lat_typical_us_ci95" and "lat_p99_us_ci95"; a side too few samples
	 * bound is 0 (null there). Absent unless has_ci. */
	bool has_ci;
	double typical_ci_us[2];
	double p99_ci_us[2];
};

/*
 * Summarise @n per-iteration samples in ns (sorted in place). Warm-up
 * samples must already be excluded by the caller. -EINVAL if n == 0.
 * @divisor: 2 for ping-pong round trips reported as one-way, else 1.
 */
int gd_lat_summarize(uint64_t *samples_ns, size_t n, unsigned int divisor,
		     struct gd_lat_summary *out);

/* Nearest-rank percentile of a sorted array: value at ceil(p/100*n)-1. */
uint64_t gd_percentile_sorted(const uint64_t *sorted, size_t n, double pct);

struct gd_bw_summary {
	uint64_t size_bytes;
	uint64_t iters;
	double elapsed_s;
	double peak_MiBps;    /* best completion batch */
	double avg_MiBps;     /* all bytes / whole window */
	double msg_rate_Mpps; /* messages / whole window / 1e6 */
};

/*
 * @elapsed_ns: first post to last completion. @best_batch_ns and
 * @batch_msgs: the fastest completion batch and how many messages it held
 * (peak); pass 0 to make peak equal to average.
 */
int gd_bw_summarize(uint64_t size_bytes, uint64_t iters, uint64_t elapsed_ns,
		    uint64_t best_batch_ns, uint64_t batch_msgs,
		    struct gd_bw_summary *out);

static inline double gd_MiBps_to_Gbps(double MiBps)
{
	return MiBps * 1048576.0 * 8.0 / 1e9;
}

/* Summaries as JSON (stats_json.c): the report rows and the results the
 * server sends use these; from_json is strict (-EPROTO, recorded). */
struct json_object;
struct json_object *gd_bw_summary_json(const struct gd_bw_summary *bw);
int gd_bw_summary_from_json(struct json_object *j, struct gd_bw_summary *bw);
struct json_object *gd_lat_summary_json(const struct gd_lat_summary *lat);
int gd_lat_summary_from_json(struct json_object *j, struct gd_lat_summary *lat);

/* CPU utilisation over a window, from /proc/stat (--cpu_util). */
struct gd_cpu_sample {
	uint64_t busy_ticks, total_ticks;
};
int gd_cpu_sample(struct gd_cpu_sample *s);
/* Parse /proc/stat's first line; -EPROTO if malformed. */
int gd_cpu_parse_stat_line(const char *line, struct gd_cpu_sample *s);
double gd_cpu_util_pct(const struct gd_cpu_sample *a,
		       const struct gd_cpu_sample *b);

#endif
