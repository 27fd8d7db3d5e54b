/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The measurement clock. perftest reads the TSC; clock_gettime is as cheap
 * where the vDSO serves it, but under some clocksources (HPET, as in the
 * Soft-RoCE guest) it is a system call costing microseconds per read. So the
 * TSC is used when two calibration windows agree on its rate, and
 * CLOCK_MONOTONIC_RAW otherwise.
 */
#include <config.h>

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define GD_HAVE_TSC 1
#endif

#include "util/stats.h"

#define GD_CALIBRATION_NS 20000000ULL /* one window: 20 ms */
#define GD_TSC_AGREEMENT 0.002	      /* windows must agree within 0.2% */
#define GD_OVERHEAD_CALLS 10000

static pthread_once_t gd_clock_once = PTHREAD_ONCE_INIT;
static bool gd_use_tsc;
static double gd_ns_per_tick;
static uint64_t gd_tsc_origin;
static char gd_clock_text[128] = "CLOCK_MONOTONIC_RAW";
static double gd_overhead_ns;

static uint64_t gd_raw_ns(void)
{
	struct timespec ts;

	/* RAW: immune to NTP slewing, which would bend a measurement window. */
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#ifdef GD_HAVE_TSC
/* Ticks per ns over one window against CLOCK_MONOTONIC_RAW. */
static double gd_tsc_window(void)
{
	uint64_t t0 = gd_raw_ns(), c0 = __rdtsc(), t1, c1;

	do
		t1 = gd_raw_ns();
	while (t1 - t0 < GD_CALIBRATION_NS);
	c1 = __rdtsc();
	return c1 > c0 ? (double)(c1 - c0) / (double)(t1 - t0) : 0;
}
#endif

static void gd_clock_choose(void)
{
	const char *force = getenv("GD_CLOCK");
	uint64_t start, end;
	volatile uint64_t sink = 0;

#ifdef GD_HAVE_TSC
	if (!force || strcmp(force, "monotonic")) {
		double a = gd_tsc_window(), b = gd_tsc_window();

		if (a > 0 && b > 0 && fabs(a - b) / a < GD_TSC_AGREEMENT) {
			gd_ns_per_tick = 2.0 / (a + b);
			gd_tsc_origin = __rdtsc();
			gd_use_tsc = true;
			snprintf(
				gd_clock_text, sizeof(gd_clock_text),
				"TSC at %.1f MHz, calibrated against CLOCK_MONOTONIC_RAW",
				(a + b) / 2 * 1000.0);
		} else {
			snprintf(
				gd_clock_text, sizeof(gd_clock_text),
				"CLOCK_MONOTONIC_RAW (TSC rate unsteady: %.4f vs %.4f ticks/ns)",
				a, b);
		}
	}
#endif
	(void)force;
	start = gd_now_ns();
	for (int i = 0; i < GD_OVERHEAD_CALLS; i++)
		sink += gd_now_ns();
	end = gd_now_ns();
	(void)sink;
	gd_overhead_ns = (double)(end - start) / GD_OVERHEAD_CALLS;
}

void gd_clock_init(void)
{
	pthread_once(&gd_clock_once, gd_clock_choose);
}

uint64_t gd_clock_ticks(void)
{
#ifdef GD_HAVE_TSC
	if (gd_use_tsc)
		return __rdtsc();
#endif
	return gd_raw_ns();
}

double gd_clock_ns_per_tick(void)
{
	gd_clock_init();
	return gd_use_tsc ? gd_ns_per_tick : 1.0;
}

uint64_t gd_now_ns(void)
{
#ifdef GD_HAVE_TSC
	if (gd_use_tsc)
		return (uint64_t)((double)(__rdtsc() - gd_tsc_origin) *
				  gd_ns_per_tick);
#endif
	return gd_raw_ns();
}

const char *gd_clock_describe(void)
{
	gd_clock_init();
	return gd_clock_text;
}

double gd_clock_overhead_ns(void)
{
	gd_clock_init();
	return gd_overhead_ns;
}
