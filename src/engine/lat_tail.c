/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Distribution-free intervals of a latency step's median and p99 from
 * order statistics: the number of samples below the true q-quantile is
 * Binomial(n, q), so the ranks that bracket it with 95% probability follow
 * from that distribution alone, whatever shape the latencies have.
 *
 * Why order statistics and not a bootstrap: the samples are already
 * sorted (gd_lat_summarize), so the interval costs only lgamma() calls
 * over 28 standard deviations of the binomial (0.4 ms for 10^6 samples,
 * far less than their sort) and no random numbers; a bootstrap of a p99
 * is poor (it only returns observed values near the tail); and the two
 * phases of a ratio are never in memory together (each step overwrites
 * the last one's samples), so the report combines the two per-phase
 * intervals instead (report/tails.c).
 */
#include <config.h>

#include <math.h>

#include "engine/lat_tail.h"

/* Terms of the binomial beyond this many standard deviations from its
 * mean add less than 1e-30 to either tail: they are not summed. */
#define GD_TAIL_SD_SPAN 14.0

/* lgamma_r: lgamma() writes the global signgam, a race between the
 * sessions' threads */
static double gd_lgamma(double x)
{
	int sign;

	return lgamma_r(x, &sign);
}

static double gd_binom_log_pmf(size_t n, size_t k, double lq, double l1q)
{
	return gd_lgamma((double)n + 1) - gd_lgamma((double)k + 1) -
	       gd_lgamma((double)(n - k) + 1) + (double)k * lq +
	       (double)(n - k) * l1q;
}

void gd_lat_tail_ranks(size_t n, double q, double conf, size_t *lo, size_t *hi)
{
	double half = (1.0 - conf) / 2, mean = (double)n * q;
	double sd = sqrt((double)n * q * (1 - q));
	double lq = log(q), l1q = log1p(-q), cdf = 0, from;
	size_t k, k0, k1;

	*lo = *hi = 0;
	if (!n || !(q > 0 && q < 1) || !(conf > 0 && conf < 1))
		return;
	from = mean - GD_TAIL_SD_SPAN * sd - 1;
	k0 = from > 0 ? (size_t)from : 0;
	k1 = (size_t)fmin((double)n, mean + GD_TAIL_SD_SPAN * sd + 1);
	/* X(l) <= x_q <= X(u) fails when fewer than l samples lie below
	 * x_q (P(B <= l-1)) or u or more do (P(B >= u)): each at most
	 * half of 1 - conf */
	for (k = k0; k <= k1; k++) {
		cdf += exp(gd_binom_log_pmf(n, k, lq, l1q));
		if (cdf <= half)
			*lo = k + 1;
		if (cdf >= 1 - half) {
			*hi = k + 1 <= n ? k + 1 : 0;
			return;
		}
	}
}

static void gd_lat_tail_one(const uint64_t *sorted_ns, size_t n, double q,
			    double scale, double ci_us[2])
{
	size_t lo, hi;

	gd_lat_tail_ranks(n, q, 0.95, &lo, &hi);
	ci_us[0] = lo ? (double)sorted_ns[lo - 1] * scale : 0;
	ci_us[1] = hi ? (double)sorted_ns[hi - 1] * scale : 0;
}

void gd_lat_tail_ci(const uint64_t *sorted_ns, size_t n, unsigned int divisor,
		    struct gd_lat_summary *lat)
{
	double scale = 1.0 / (1e3 * (double)(divisor ? divisor : 1));

	if (!sorted_ns || !n || !lat)
		return;
	gd_lat_tail_one(sorted_ns, n, 0.5, scale, lat->typical_ci_us);
	gd_lat_tail_one(sorted_ns, n, 0.99, scale, lat->p99_ci_us);
	lat->has_ci = true;
}
