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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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

/* One log ratio's noise: HH's and the device's figure each noisy with
 * coefficient of variation @cv, log-normal or (@t3) t with 3 degrees of
 * freedom scaled to the same spread. */
static inline double synth_draw(bool t3, double cv)
{
	return t3 ? log_sd(cv) * t3_draw() / sqrt(3) : log_sd(cv) * gauss();
}

/* The eight-size simulations' truth and noise (tests/assess_sim_test.c,
 * tests/assess_segment_sim_test.c). */
struct synth8 {
	unsigned int sizes, rounds, slow_mask;
	double slow_ratio, slow_cv, rest_ratio, rest_cv;
	bool t3;
	bool round_ar; /* a 5% drift a round's sizes share, AR(1) 0.5 */
	bool size_ar;  /* each size's noise AR(1) 0.5 from round to round */
	/* with round_ar: the drift's log stdev instead of 5%'s, and 0 for
	 * AR(1) 0.5 or true for a drift drawn afresh each round */
	double drift_sd;
	bool drift_iid;
};

/* Eight sizes, @mask of them at @slow_ratio with @slow_cv, the rest at
 * @rest_ratio with @rest_cv, independent rounds of log-normal noise. */
static inline struct synth8 synth8_case(unsigned int rounds, unsigned int mask,
					double slow_ratio, double slow_cv,
					double rest_ratio, double rest_cv)
{
	return (struct synth8){ .sizes = 8,
				.rounds = rounds,
				.slow_mask = mask,
				.slow_ratio = slow_ratio,
				.slow_cv = slow_cv,
				.rest_ratio = rest_ratio,
				.rest_cv = rest_cv };
}

/* @c->rounds rows of @c->sizes (at most 64) log ratios into @d, drawn in
 * one order (the drift of a round first, then its sizes, two draws each)
 * so that a seed gives both tests the figures their tables print. */
static inline void synth_fill8(const struct synth8 *c, double *d)
{
	double shift = 0, prev[64] = { 0 };

	for (unsigned int r = 0; r < c->rounds; r++) {
		double sd = c->drift_sd > 0 ? c->drift_sd : log_sd(0.05);

		if (c->round_ar && c->drift_iid)
			shift = sd * gauss();
		else if (c->round_ar)
			shift = r ? 0.5 * shift + sqrt(0.75) * sd * gauss()
				  : sd * gauss();
		for (unsigned int z = 0; z < c->sizes && z < 64; z++) {
			bool slow = c->slow_mask >> z & 1;
			double cv = slow ? c->slow_cv : c->rest_cv;
			double ratio = slow ? c->slow_ratio : c->rest_ratio;
			double e =
				synth_draw(c->t3, cv) - synth_draw(c->t3, cv);

			if (c->size_ar)
				e = prev[z] =
					r ? 0.5 * prev[z] + sqrt(0.75) * e : e;
			d[r * c->sizes + z] = log(ratio) + e + shift;
		}
	}
}

/* Wilson's 95% interval of @k in @n, in percent: the spread a measured
 * rate's table row states. */
static inline void wilson(unsigned int k, unsigned int n, double *lo,
			  double *hi)
{
	double z = 1.959964, p = (double)k / n, den = 1 + z * z / n;
	double mid = (p + z * z / (2.0 * n)) / den;
	double half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / den;

	*lo = 100 * (mid - half < 0 ? 0 : mid - half);
	*hi = 100 * (mid + half > 1 ? 1 : mid + half);
}

/* gdperf(7) as one string (NULL when the page is not found under
 * $srcdir/man), for the tests whose tables the page quotes; the caller
 * frees it. */
static inline char *sim_man_page(void)
{
	const char *top = getenv("srcdir");
	char path[4096], *page = NULL;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/man/gdperf.7", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		page = calloc(1, (size_t)len + 1);
		if (page && fread(page, 1, (size_t)len, f) != (size_t)len)
			page[0] = '\0';
	}
	fclose(f);
	return page;
}

#endif
