/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A campaign's ratio decision (fleet_decide.h): a series' repeats as
 * clusters of their rounds into the run's rule (gd_assess), the
 * Benjamini-Hochberg threshold of the campaign's list of slow series, and
 * the words that say so, written from the constants that decide.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/cluster/fleet_decide.h"
#include "util/infer.h"

/* Each repeat's mean log ratio per size (NAN: no figure in it): one row
 * per repeat into @out. */
static void cluster_means(const double *d, const unsigned int *rows,
			  unsigned int reps, unsigned int sizes, double *out)
{
	const double *rep = d;

	for (unsigned int k = 0; k < reps; k++) {
		for (unsigned int z = 0; z < sizes; z++) {
			double sum = 0;
			unsigned int n = 0;

			for (unsigned int r = 0; r < rows[k]; r++) {
				double v = rep[r * sizes + z];

				if (isnan(v))
					continue;
				sum += v;
				n++;
			}
			out[k * sizes + z] = n ? sum / n : NAN;
		}
		rep += (size_t)rows[k] * sizes;
	}
}

int gd_fleet_series_assess(const double *d, const unsigned int *rows,
			   unsigned int reps, unsigned int sizes,
			   const double *size_bytes, double floor,
			   unsigned int looks, struct gd_assessment *a)
{
	double *m;
	int ret;

	if (!reps || !sizes)
		return -EINVAL;
	if (reps == 1)
		return gd_assess_seq(d, size_bytes, rows[0], sizes, floor,
				     looks ? looks : 1, a, NULL);
	m = malloc(sizeof(*m) * reps * sizes);
	if (!m)
		return -ENOMEM;
	cluster_means(d, rows, reps, sizes, m);
	ret = gd_assess(m, size_bytes, reps, sizes, floor, a, NULL);
	free(m);
	return ret;
}

double gd_fleet_p_slower(const struct gd_assessment *a)
{
	double p = a->p_slower_run * (a->looks ? a->looks : 1);

	return p > 1 ? 1 : p;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double gd_fleet_fdr_threshold(double *p, size_t n, size_t m, double q)
{
	double t = -1;

	if (!m)
		return -1;
	qsort(p, n, sizeof(*p), cmp_double);
	for (size_t k = 1; k <= n; k++)
		if (p[k - 1] <= q * (double)k / (double)m)
			t = q * (double)k / (double)m;
	return t;
}

const char *gd_fleet_ratio_rule(char *buf, size_t len)
{
	char small[32], large[32];

	gd_assess_bytes_str(GD_ASSESS_SMALL_BYTES, small, sizeof(small));
	gd_assess_bytes_str(GD_ASSESS_LARGE_BYTES, large, sizeof(large));
	snprintf(
		buf, len,
		"per series (the repeats of one execution: same round, step, "
		"pair, GPU and direction, labels repeat=1..N), each device "
		"phase against HH of its direction by the run's own rule "
		"(gd_assess, gdperf(7) STATISTICS) over the judged sizes: with "
		"one repeat its rounds, as its run judged them; with two or "
		"more, each repeat a cluster of its rounds (its mean "
		"log(device/HH) per size one replicate, so that the spread "
		"between launches is the spread judged and rounds of "
		"different launches are never taken as independent); not "
		"below when every judged size's own %.0f%% lower bound clears "
		"R; slower when a band (at most %s, %s-%s, at least %s), a "
		"size or a run of sizes lies below R at the Holm-adjusted "
		"%.1f%% level across the series' device phases; else "
		"undecided, with the repeats or rounds that would settle it. "
		"The campaign passes when every series is not below (an "
		"intersection-union test: no correction); its list of slow "
		"series is Benjamini-Hochberg over all series judged at "
		"%.1f%%, the run's level, which holds the false discovery "
		"rate within %.0f%%; each listed series names where its curves "
		"part",
		GD_INFER_CONFIDENCE * 100, small, small, large, large,
		GD_ASSESS_ALPHA * 100, GD_FLEET_FDR_LEVEL * 100,
		GD_FLEET_FDR_STATED * 100);
	return buf;
}
