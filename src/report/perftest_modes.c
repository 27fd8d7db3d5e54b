/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's -H, -U and -C over one step's latency samples: the listing in
 * perftest's "#, usec" form where the tables go, and the same numbers in
 * the document's "latency_samples" section, one entry per step; and -W's
 * line of named counter deltas after each step.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "util/stats.h"
#include "report/perftest_modes.h"
#include "report/report.h"

#define GD_LISTING_CHUNK 65536

static int gd_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One sample in the listing's unit: usec, or ticks (cycles). */
static double gd_sample_value(const struct gd_lat_step *st, bool cycles,
			      uint64_t t)
{
	double v = (double)t / st->divisor;

	return cycles ? v : v * st->ns_per_tick / 1000.0;
}

static const char *gd_unit(const struct gd_lat_step *st, bool cycles)
{
	return !cycles ? "usec" : st->tsc ? "cycles" : "ns";
}

/* perftest's listing, "#, usec" then "N, value" per sample, printed in
 * chunks where the tables go; the values into @arr. */
static int gd_listing(struct gd_report *rep, const struct gd_lat_step *st,
		      const uint64_t *v, bool cycles, const char *order,
		      struct json_object *arr)
{
	char *buf = malloc(GD_LISTING_CHUNK);
	size_t off;

	if (!buf)
		return gd_err(-ENOMEM,
			      "out of memory listing %zu latency samples",
			      st->n);
	off = (size_t)snprintf(
		buf, GD_LISTING_CHUNK,
		" Latency samples of phase %s, %" PRIu64
		" bytes: %zu, %s, one-way (round trip / %u), in %s\n#, %s",
		st->phase, st->size_bytes, st->n, order, st->divisor,
		gd_unit(st, cycles), gd_unit(st, cycles));
	for (size_t i = 0; i < st->n; i++) {
		double x = gd_sample_value(st, cycles, v[i]);

		json_object_array_add(arr, json_object_new_double(x));
		if (off > GD_LISTING_CHUNK - 64) {
			gd_report_section_text(rep, NULL, NULL, buf);
			off = 0;
			buf[0] = '\0';
		}
		off += (size_t)snprintf(buf + off, GD_LISTING_CHUNK - off,
					"%s%zu, %g", off ? "\n" : "", i + 1, x);
	}
	gd_report_section_text(rep, NULL, NULL, buf);
	free(buf);
	return 0;
}

/* -C: the table's figures in ticks, from the sorted samples. */
static struct json_object *gd_cycles(struct gd_report *rep,
				     const struct gd_lat_step *st,
				     const uint64_t *sorted)
{
	struct json_object *c = json_object_new_object();
	double div = st->divisor, sum = 0, f[6];
	static const char *const keys[] = { "min", "typical", "avg",
					    "max", "p99",     "p999" };
	char line[512];

	for (size_t i = 0; i < st->n; i++)
		sum += (double)sorted[i];
	f[0] = (double)sorted[0] / div;
	f[1] = (double)gd_percentile_sorted(sorted, st->n, 50) / div;
	f[2] = sum / (double)st->n / div;
	f[3] = (double)sorted[st->n - 1] / div;
	f[4] = (double)gd_percentile_sorted(sorted, st->n, 99) / div;
	f[5] = (double)gd_percentile_sorted(sorted, st->n, 99.9) / div;
	for (int i = 0; i < 6; i++)
		json_object_object_add(c, keys[i],
				       json_object_new_double(f[i]));
	json_object_object_add(
		c, "mhz", json_object_new_double(1000.0 / st->ns_per_tick));
	snprintf(
		line, sizeof(line),
		" Phase %s, %" PRIu64
		" bytes in %s (%s, %.1f MHz): t_min %.0f t_max %.0f t_typical %.0f t_avg %.1f 99%% %.0f 99.9%% %.0f",
		st->phase, st->size_bytes, gd_unit(st, true),
		st->tsc ? "TSC" : "CLOCK_MONOTONIC_RAW, no steady TSC",
		1000.0 / st->ns_per_tick, f[0], f[3], f[1], f[2], f[4], f[5]);
	gd_report_section_text(rep, NULL, NULL, line);
	return c;
}

/* The document's "latency_samples" array, created on first use. */
static struct json_object *gd_samples_section(struct gd_report *rep)
{
	struct json_object *root = gd_report_root(rep), *arr;

	if (json_object_object_get_ex(root, "latency_samples", &arr))
		return arr;
	arr = json_object_new_array();
	gd_report_set_section(rep, "latency_samples", arr);
	return arr;
}

int gd_report_lat_samples(struct gd_report *rep, const struct gd_lat_step *st,
			  const struct gd_lat_modes *m)
{
	struct json_object *e, *arr;
	uint64_t *sorted;
	int ret = 0;

	if (!rep || !st->n || !(m->histogram || m->unsorted || m->cycles))
		return 0;
	sorted = malloc(st->n * sizeof(*sorted));
	if (!sorted)
		return gd_err(-ENOMEM,
			      "out of memory sorting %zu latency samples",
			      st->n);
	memcpy(sorted, st->ticks, st->n * sizeof(*sorted));
	qsort(sorted, st->n, sizeof(*sorted), gd_u64_cmp);
	e = json_object_new_object();
	json_object_object_add(e, "phase", json_object_new_string(st->phase));
	json_object_object_add(e, "size_bytes",
			       json_object_new_int64((int64_t)st->size_bytes));
	json_object_object_add(e, "unit",
			       json_object_new_string(gd_unit(st, m->cycles)));
	json_object_object_add(e, "one_way_divisor",
			       json_object_new_int((int)st->divisor));
	json_object_object_add(e, "samples",
			       json_object_new_int64((int64_t)st->n));
	/* perftest prints the unsorted listing before the sorted one */
	if (m->unsorted) {
		arr = json_object_new_array();
		json_object_object_add(e, "samples_measured", arr);
		ret = gd_listing(rep, st, st->ticks, m->cycles, "as measured",
				 arr);
	}
	if (!ret && m->histogram) {
		arr = json_object_new_array();
		json_object_object_add(e, "samples_sorted", arr);
		ret = gd_listing(rep, st, sorted, m->cycles, "sorted", arr);
	}
	if (!ret && m->cycles)
		json_object_object_add(e, "cycles", gd_cycles(rep, st, sorted));
	json_object_array_add(gd_samples_section(rep), e);
	free(sorted);
	return ret;
}

/* " local +131500" or " local absent": @name's delta in @delta. */
static size_t gd_counter_delta_text(struct json_object *delta, const char *side,
				    const char *group, const char *name,
				    char *buf, size_t len)
{
	struct json_object *arr = json_object_object_get(delta, "counters");

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		struct json_object *c = json_object_array_get_idx(arr, i);
		const char *n = json_object_get_string(
			json_object_object_get(c, "name"));
		const char *g = json_object_get_string(
			json_object_object_get(c, "group"));
		struct json_object *d = json_object_object_get(c, "delta");

		if (!n || !g || strcmp(n, name) || strcmp(g, group))
			continue;
		return (size_t)snprintf(buf, len, " %s %s%" PRId64, side,
					d ? "+" : "",
					d ? json_object_get_int64(d) : 0);
	}
	return (size_t)snprintf(buf, len, " %s %s", side,
				delta ? "absent" : "unknown");
}

void gd_report_counters_named(struct gd_report *rep, const char *phase,
			      uint64_t size_bytes, const char *list,
			      struct json_object *local,
			      struct json_object *remote)
{
	char line[2048], group[32], name[96];
	const char *p = list;
	bool first = true;
	size_t off;

	if (!rep || !list)
		return;
	off = (size_t)snprintf(
		line, sizeof(line),
		" Counters of phase %s, %" PRIu64 " bytes:", phase, size_bytes);
	while (*p && off < sizeof(line)) {
		size_t n = strcspn(p, ","), g = strcspn(p, "/");

		if (g >= n || g >= sizeof(group) || n - g - 1 >= sizeof(name))
			break;
		snprintf(group, sizeof(group), "%.*s", (int)g, p);
		snprintf(name, sizeof(name), "%.*s", (int)(n - g - 1),
			 p + g + 1);
		off += (size_t)snprintf(line + off, sizeof(line) - off,
					"%s %s/%s", first ? "" : ";", group,
					name);
		first = false;
		if (off < sizeof(line))
			off += gd_counter_delta_text(local, "local", group,
						     name, line + off,
						     sizeof(line) - off);
		if (off < sizeof(line) && remote)
			off += gd_counter_delta_text(remote, "remote", group,
						     name, line + off,
						     sizeof(line) - off);
		p += n + (p[n] == ',');
	}
	gd_report_section_text(rep, NULL, NULL, line);
}
