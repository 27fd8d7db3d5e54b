/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Clock, latency summaries (nearest-rank percentiles), bandwidth arithmetic
 * and /proc/stat CPU sampling. Everything here is pure arithmetic except the
 * /proc/stat read, so the unit tests use hand-computed values. The clock
 * lives in clock.c.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "util/stats.h"

#define GD_NS_PER_S 1e9
#define GD_NS_PER_US 1e3
#define GD_BYTES_PER_MiB 1048576.0

static int gd_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t gd_percentile_sorted(const uint64_t *sorted, size_t n, double pct)
{
	double rank;
	size_t idx;

	if (!n)
		return 0;
	/*
	 * pct * n is computed before dividing by 100 and nudged down by a tiny
	 * epsilon so 99.9% of 1000 lands on rank 999, not on 1000 through
	 * binary rounding of 0.999.
	 */
	rank = ceil(pct * (double)n / 100.0 - 1e-9);
	if (rank < 1.0)
		rank = 1.0;
	if (rank > (double)n)
		rank = (double)n;
	idx = (size_t)rank - 1;
	return sorted[idx];
}

static void gd_mean_stdev(const uint64_t *s, size_t n, double *mean,
			  double *stdev)
{
	double sum = 0.0, sq = 0.0, d;
	size_t i;

	/* Two passes: the sum of squared deviations keeps its precision
	 * where the sum-of-squares shortcut would cancel catastrophically. */
	for (i = 0; i < n; i++)
		sum += (double)s[i];
	*mean = sum / (double)n;
	for (i = 0; i < n; i++) {
		d = (double)s[i] - *mean;
		sq += d * d;
	}
	*stdev = sqrt(sq / (double)n);
}

int gd_lat_summarize(uint64_t *samples_ns, size_t n, unsigned int divisor,
		     struct gd_lat_summary *out)
{
	double scale, mean_ns, stdev_ns;

	if (!n || !samples_ns || !out)
		return gd_err(
			-EINVAL,
			"latency summary of %zu samples requested; check that the iteration count exceeds the warm-up count",
			n);
	if (!divisor)
		divisor = 1;

	qsort(samples_ns, n, sizeof(*samples_ns), gd_cmp_u64);
	gd_mean_stdev(samples_ns, n, &mean_ns, &stdev_ns);

	scale = 1.0 / (GD_NS_PER_US * (double)divisor);
	/* every field, the intervals' too: they are set (has_ci) only by
	 * the engine's order statistics, after this summary */
	memset(out, 0, sizeof(*out));
	out->samples = n;
	out->min_us = (double)samples_ns[0] * scale;
	out->max_us = (double)samples_ns[n - 1] * scale;
	out->typical_us =
		(double)gd_percentile_sorted(samples_ns, n, 50.0) * scale;
	out->avg_us = mean_ns * scale;
	out->stdev_us = stdev_ns * scale;
	out->p99_us = (double)gd_percentile_sorted(samples_ns, n, 99.0) * scale;
	out->p999_us =
		(double)gd_percentile_sorted(samples_ns, n, 99.9) * scale;
	return 0;
}

int gd_bw_summarize(uint64_t size_bytes, uint64_t iters, uint64_t elapsed_ns,
		    uint64_t best_batch_ns, uint64_t batch_msgs,
		    struct gd_bw_summary *out)
{
	double elapsed_s, batch_s;

	if (!out || !elapsed_ns)
		return gd_err(
			-EINVAL,
			"bandwidth summary over an empty window (%" PRIu64
			" ns, %" PRIu64
			" iterations); check that completions were polled",
			elapsed_ns, iters);

	elapsed_s = (double)elapsed_ns / GD_NS_PER_S;
	out->size_bytes = size_bytes;
	out->iters = iters;
	out->elapsed_s = elapsed_s;
	out->avg_MiBps = (double)size_bytes * (double)iters / GD_BYTES_PER_MiB /
			 elapsed_s;
	out->msg_rate_Mpps = (double)iters / elapsed_s / 1e6;

	/* No clamping to the average: a peak below it exposes a batch bug. */
	if (!best_batch_ns || !batch_msgs) {
		out->peak_MiBps = out->avg_MiBps;
	} else {
		batch_s = (double)best_batch_ns / GD_NS_PER_S;
		out->peak_MiBps = (double)size_bytes * (double)batch_msgs /
				  GD_BYTES_PER_MiB / batch_s;
	}
	return 0;
}

int gd_cpu_parse_stat_line(const char *line, struct gd_cpu_sample *s)
{
	uint64_t v[8] = { 0 };
	uint64_t total = 0;
	int i, got;

	/* guest and guest_nice are already inside user and nice: not summed. */
	got = sscanf(line,
		     "cpu %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		     " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		     &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (got < 4)
		return -EPROTO;
	for (i = 0; i < 8; i++)
		total += v[i];
	s->total_ticks = total;
	s->busy_ticks = total - v[3] - v[4];
	return 0;
}

int gd_cpu_sample(struct gd_cpu_sample *s)
{
	char line[512];
	FILE *f;
	int ret;

	f = fopen("/proc/stat", "re");
	if (!f)
		return gd_err(
			-errno,
			"cannot open /proc/stat for --cpu_util: %s; check that /proc is mounted",
			strerror(errno));
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return gd_err(
			-EIO,
			"cannot read /proc/stat for --cpu_util; check that /proc is mounted");
	}
	fclose(f);
	ret = gd_cpu_parse_stat_line(line, s);
	if (ret)
		return gd_err(
			ret,
			"unexpected first line in /proc/stat: \"%.64s\"; --cpu_util needs a Linux /proc",
			line);
	return 0;
}

double gd_cpu_util_pct(const struct gd_cpu_sample *a,
		       const struct gd_cpu_sample *b)
{
	uint64_t total = b->total_ticks - a->total_ticks;

	if (!total || b->total_ticks < a->total_ticks)
		return 0.0;
	return 100.0 * (double)(b->busy_ticks - a->busy_ticks) / (double)total;
}
