/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Seeded synthetic measurements for the tests that measure the verdicts'
 * error rates (tests/evidence_test.c, tests/cluster/test_cluster.c): a fixed
 * xorshift64* generator, so every machine draws the same figures, and
 * log-normal noise of a given coefficient of variation.
 */
#ifndef GD_TESTS_SYNTH_UTIL_H
#define GD_TESTS_SYNTH_UTIL_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state;

static inline double uniform01(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

static inline double gauss(void)
{
	double u = uniform01(), v = uniform01();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* @mean times log-normal noise with coefficient of variation @cv (the
 * log's stdev is sqrt(log(1 + cv^2)), its mean keeps E = mean). */
static inline double noisy(double mean, double cv)
{
	double s = sqrt(log(1 + cv * cv));

	return mean * exp(s * gauss() - s * s / 2);
}

#endif
