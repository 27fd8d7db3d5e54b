/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Seeded synthetic measurements for the tests that measure the verdicts'
 * error rates (tests/evidence_test.c, tests/cluster/test_cluster.c): a fixed
 * xorshift64* generator, so every machine draws the same figures,
 * log-normal noise of a given coefficient of variation, Student's t with 3
 * degrees of freedom for heavy tails, and the simulation tests' trial count.
 */
#ifndef GD_TESTS_SYNTH_UTIL_H
#define GD_TESTS_SYNTH_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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

/* The log's stdev of log-normal noise with coefficient of variation @cv. */
static inline double log_sd(double cv)
{
	return sqrt(log(1 + cv * cv));
}

/* Student's t with 3 degrees of freedom (variance 3): heavy tails. */
static inline double t3_draw(void)
{
	double c = 0;

	for (int i = 0; i < 3; i++) {
		double g = gauss();

		c += g * g;
	}
	return gauss() / sqrt(c / 3);
}

/* Trials per simulated case: GD_SIM_TRIALS, else 2000 (the figures the
 * pages print), or @asan_trials under ASan, which runs them several times
 * slower. */
static inline unsigned int sim_trials_asan(unsigned int asan_trials)
{
	const char *e = getenv("GD_SIM_TRIALS");
	long n = e ? strtol(e, NULL, 10) : 0;

#if defined(__SANITIZE_ADDRESS__)
	return n > 0 ? (unsigned int)n : asan_trials;
#else
	return n > 0 ? (unsigned int)n : 2000;
#endif
}

static inline unsigned int sim_trials(void)
{
	return sim_trials_asan(400);
}

#endif
