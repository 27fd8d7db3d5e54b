/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Bandwidth and latency summaries as JSON, one field table each: the report
 * rows and the server's results on the side channel use the same keys, so
 * they cannot drift apart. Keys carry their unit.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>

#include <json-c/json.h>

#include "util/error.h"
#include "util/stats.h"

struct gd_num_field {
	const char *key;
	size_t offset;
};

static const struct gd_num_field gd_bw_fields[] = {
	{ "elapsed_s", offsetof(struct gd_bw_summary, elapsed_s) },
	{ "bw_peak_MiBps", offsetof(struct gd_bw_summary, peak_MiBps) },
	{ "bw_avg_MiBps", offsetof(struct gd_bw_summary, avg_MiBps) },
	{ "msg_rate_Mpps", offsetof(struct gd_bw_summary, msg_rate_Mpps) },
};

static const struct gd_num_field gd_lat_fields[] = {
	{ "lat_min_us", offsetof(struct gd_lat_summary, min_us) },
	{ "lat_max_us", offsetof(struct gd_lat_summary, max_us) },
	{ "lat_typical_us", offsetof(struct gd_lat_summary, typical_us) },
	{ "lat_avg_us", offsetof(struct gd_lat_summary, avg_us) },
	{ "lat_stdev_us", offsetof(struct gd_lat_summary, stdev_us) },
	{ "lat_p99_us", offsetof(struct gd_lat_summary, p99_us) },
	{ "lat_p999_us", offsetof(struct gd_lat_summary, p999_us) },
};

#define GD_NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

static void gd_put_fields(struct json_object *j, const void *base,
			  const struct gd_num_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_object_add(
			j, f[i].key,
			json_object_new_double(
				*(const double *)((const char *)base +
						  f[i].offset)));
}

/* Every field must be present, numeric, finite and not negative: a short
 * result is an error, and a NaN or an infinity (json-c reads both) would
 * make the run's own document invalid JSON. */
static int gd_get_fields(struct json_object *j, void *base,
			 const struct gd_num_field *f, size_t n)
{
	struct json_object *x;
	double v;

	for (size_t i = 0; i < n; i++) {
		if (!json_object_object_get_ex(j, f[i].key, &x) ||
		    !(json_object_is_type(x, json_type_double) ||
		      json_object_is_type(x, json_type_int)))
			return gd_err(-EPROTO,
				      "peer's result lacks a number for '%s'",
				      f[i].key);
		v = json_object_get_double(x);
		if (!isfinite(v) || v < 0)
			return gd_err(-EPROTO,
				      "peer's result has %g for '%s', not a "
				      "finite, non-negative number",
				      v, f[i].key);
		*(double *)((char *)base + f[i].offset) = v;
	}
	return 0;
}

static int gd_get_u64(struct json_object *j, const char *key, uint64_t *out)
{
	struct json_object *x;

	if (!json_object_object_get_ex(j, key, &x) ||
	    !json_object_is_type(x, json_type_int) ||
	    json_object_get_int64(x) < 0)
		return gd_err(-EPROTO, "peer's result lacks a count for '%s'",
			      key);
	*out = (uint64_t)json_object_get_int64(x);
	return 0;
}

struct json_object *gd_bw_summary_json(const struct gd_bw_summary *bw)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "size_bytes",
			       json_object_new_int64((int64_t)bw->size_bytes));
	json_object_object_add(j, "iterations",
			       json_object_new_int64((int64_t)bw->iters));
	gd_put_fields(j, bw, gd_bw_fields, GD_NFIELDS(gd_bw_fields));
	json_object_object_add(
		j, "bw_peak_Gbps",
		json_object_new_double(gd_MiBps_to_Gbps(bw->peak_MiBps)));
	json_object_object_add(
		j, "bw_avg_Gbps",
		json_object_new_double(gd_MiBps_to_Gbps(bw->avg_MiBps)));
	return j;
}

int gd_bw_summary_from_json(struct json_object *j, struct gd_bw_summary *bw)
{
	if (gd_get_u64(j, "size_bytes", &bw->size_bytes) ||
	    gd_get_u64(j, "iterations", &bw->iters) ||
	    gd_get_fields(j, bw, gd_bw_fields, GD_NFIELDS(gd_bw_fields)))
		return gd_err_code();
	return bw->iters
		       ? 0
		       : gd_err(-EPROTO, "peer sent an empty bandwidth result");
}

/* [low, high] with null for a side the samples could not bound (0). */
static struct json_object *gd_ci_json(const double ci[2])
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < 2; i++)
		json_object_array_add(
			a, ci[i] > 0 ? json_object_new_double(ci[i]) : NULL);
	return a;
}

struct json_object *gd_lat_summary_json(const struct gd_lat_summary *lat)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "samples",
			       json_object_new_int64((int64_t)lat->samples));
	gd_put_fields(j, lat, gd_lat_fields, GD_NFIELDS(gd_lat_fields));
	if (lat->has_ci) {
		json_object_object_add(j, "lat_typical_us_ci95",
				       gd_ci_json(lat->typical_ci_us));
		json_object_object_add(j, "lat_p99_us_ci95",
				       gd_ci_json(lat->p99_ci_us));
	}
	return j;
}

/* Optional (a peer before them sends none); when sent, two finite,
 * non-negative numbers or nulls. */
static int gd_get_ci(struct json_object *j, const char *key, double ci[2],
		     bool *has)
{
	struct json_object *a, *x;

	ci[0] = ci[1] = 0;
	if (!json_object_object_get_ex(j, key, &a))
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != 2)
		return gd_err(-EPROTO,
			      "peer's result has '%s' but not as [low, high]",
			      key);
	for (size_t i = 0; i < 2; i++) {
		x = json_object_array_get_idx(a, i);
		if (!x)
			continue;
		if (!(json_object_is_type(x, json_type_double) ||
		      json_object_is_type(x, json_type_int)) ||
		    !isfinite(json_object_get_double(x)) ||
		    json_object_get_double(x) < 0)
			return gd_err(
				-EPROTO,
				"peer's result has a bound of '%s' that is not a finite, non-negative number",
				key);
		ci[i] = json_object_get_double(x);
	}
	*has = true;
	return 0;
}

int gd_lat_summary_from_json(struct json_object *j, struct gd_lat_summary *lat)
{
	lat->has_ci = false;
	if (gd_get_u64(j, "samples", &lat->samples) ||
	    gd_get_fields(j, lat, gd_lat_fields, GD_NFIELDS(gd_lat_fields)) ||
	    gd_get_ci(j, "lat_typical_us_ci95", lat->typical_ci_us,
		      &lat->has_ci) ||
	    gd_get_ci(j, "lat_p99_us_ci95", lat->p99_ci_us, &lat->has_ci))
		return gd_err_code();
	return lat->samples
		       ? 0
		       : gd_err(-EPROTO, "peer sent an empty latency result");
}
