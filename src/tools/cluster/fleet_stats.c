/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Robust statistics for fleet comparisons: median, median absolute
 * deviation and the coefficient of variation across repeats. Outliers are
 * judged by median and MAD so one bad unit cannot hide by shifting a mean.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet.h"

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

double gd_fleet_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double gd_fleet_mad(const double *v, size_t n)
{
	double med = gd_fleet_median(v, n), *d, mad;
	size_t i;

	if (!n)
		return NAN;
	d = malloc(n * sizeof(*d));
	if (!d)
		return NAN;
	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	mad = gd_fleet_median(d, n);
	free(d);
	return mad;
}

double gd_fleet_cv(const double *v, size_t n)
{
	double sum = 0, sq = 0, mean;
	size_t i;

	if (!n)
		return NAN;
	if (n == 1)
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	return mean ? sqrt(sq / (n - 1)) / fabs(mean) : NAN;
}

/* 1.4826 scales a MAD to a standard deviation for normal data. The
 * relative floor keeps a tight group (MAD near 0) from flagging noise. */
bool gd_fleet_is_outlier(double x, double median, double mad, bool higher_bad,
			 double k, double min_dev)
{
	double dev = higher_bad ? x - median : median - x;

	if (isnan(x) || isnan(median) || median == 0)
		return false;
	return dev > k * 1.4826 * mad && dev > min_dev * fabs(median);
}
