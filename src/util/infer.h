/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Inference over repeated measurements: spread of a handful of figures,
 * the t-interval of a mean of logarithms (ratios), and the exact sign and
 * longest-run tests used to tell a consistent shift across sizes from noise.
 * Pure arithmetic: no JSON, no I/O.
 */
#ifndef GD_INFER_H
#define GD_INFER_H

#include <stdbool.h>
#include <stddef.h>

/* Confidence level of every interval gdperf reports (two-sided). */
#define GD_INFER_CONFIDENCE 0.95
/* Family-wise level of the across-size tests (sign and run, Bonferroni). */
#define GD_INFER_ALPHA 0.01
/* A coefficient of variation above this marks a size's spread as high. */
#define GD_SPREAD_HIGH_PCT 10.0

struct gd_spread {
	size_t n;
	double median; /* lower median for even n */
	double min, max;
	double mean;
	double cv_pct; /* sample stdev / mean x 100; 0 when n < 2 */
};

/* Spread of @n figures (not modified). -EINVAL when n == 0. */
int gd_spread_of(const double *v, size_t n, struct gd_spread *out);
/* Index of the lower-median element of @v (ties: the first). */
size_t gd_median_index(const double *v, size_t n);

/* Student's t distribution: P(T <= t) with @df degrees of freedom. */
double gd_t_cdf(double t, unsigned int df);
/* Two-sided quantile: the t with P(|T| <= t) = @conf (0 < conf < 1). */
double gd_t_quantile(double conf, unsigned int df);

/* Fisher's F distribution: P(F <= @f) with @d1 and @d2 degrees of
 * freedom (a ratio of two variances). */
double gd_f_cdf(double f, unsigned int d1, unsigned int d2);

/* P(X >= k) for X ~ Binomial(n, p). */
double gd_binom_tail(unsigned int n, unsigned int k, double p);
/* P(longest run of successes >= @len) in @n Bernoulli(p) trials. */
double gd_longest_run_tail(unsigned int n, unsigned int len, double p);

/*
 * Mean of @n logarithms with its t-interval at @conf: the geometric mean
 * of the ratios they came from and its interval. With n < 2 there is no
 * interval (lo = hi = NAN, df = 0).
 */
struct gd_log_ci {
	size_t n;
	unsigned int df;
	double mean_log, sd_log; /* sd_log: sample stdev, 0 when n < 2 */
	double ratio;		 /* exp(mean_log) */
	double lo, hi;		 /* exp(mean_log -/+ t * sd_log / sqrt(n)) */
};
int gd_log_ci(const double *logs, size_t n, double conf, struct gd_log_ci *out);

/*
 * Repeats that would bring the interval's half-width (in log units) down
 * to |mean_log - log(@floor)|, from this spread; capped at @cap. 0 when
 * nothing is known (sd 0 or the mean on the floor).
 */
unsigned int gd_repeats_needed(const struct gd_log_ci *ci, double floor,
			       unsigned int cap);

#endif
