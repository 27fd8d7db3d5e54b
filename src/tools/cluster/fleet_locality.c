/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The locality round (gd_plan --locality-round, round 4) in gd_report: what
 * each execution's client document chose as its near (D1) and far (D2)
 * device, with their path classes, and the run's own D2D2/D1D1 assessment,
 * reported per server with findings. Never coverage, outliers or a gate.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
#include "util/error.h"
#include "util/json_get.h"

#define LOC_COMPARISON "D2D2/D1D1"

/* "PXB by the GPU-to-NIC map: device 3 (0000:1a:00.0) is PXB to mlx5_0,
 * ..." (the run tool's header.memory_choice): the class and the device. */
static void choice_read(const char *text, char *cls, size_t len, int *device)
{
	const char *dev = text ? strstr(text, ": device ") : NULL;
	char *end;
	long v;

	cls[0] = '\0';
	*device = -1;
	if (!text)
		return;
	snprintf(cls, len, "%.*s", (int)strcspn(text, " "), text);
	if (!dev)
		return;
	v = strtol(dev + 9, &end, 10);
	if (end != dev + 9 && v >= 0 && v < 1024 && *end == ' ')
		*device = (int)v;
}

static double num_or_nan(struct json_object *o, const char *key)
{
	double v;

	return gd_json_num(o, key, &v) ? v : NAN;
}

/* The run's first D2D2/D1D1 assessment (its first direction). */
static void assessment_read(struct gd_fleet_locality *l,
			    struct json_object *doc)
{
	struct json_object *as = gd_json_path(doc, "statistics", "assessments");
	size_t i, n = gd_json_len(as);

	l->ratio = l->low = l->high = NAN;
	for (i = 0; i < n; i++) {
		struct json_object *a = gd_json_idx(as, i);
		const char *cmp = gd_json_str(a, "comparison");
		struct json_object *ci = gd_json_path(a, "interval", NULL);

		if (!cmp || strcmp(cmp, LOC_COMPARISON))
			continue;
		snprintf(l->decision, sizeof(l->decision), "%s",
			 gd_json_str(a, "decision") ? gd_json_str(a, "decision")
						    : "");
		l->ratio = num_or_nan(a, "ratio");
		l->low = num_or_nan(ci, "low");
		l->high = num_or_nan(ci, "high");
		l->repeats_needed = (int)gd_json_int(a, "repeats_needed", 0);
		return;
	}
}

static void phase_error_read(struct gd_fleet_locality *l,
			     struct json_object *doc)
{
	struct json_object *ph = gd_json_path(doc, "phases", NULL);
	size_t i, n = gd_json_len(ph);

	for (i = 0; i < n; i++) {
		struct json_object *p = gd_json_idx(ph, i);
		const char *st = gd_json_str(p, "status");
		const char *msg =
			gd_json_str(gd_json_path(p, "error", NULL), "message");

		if (st && !strcmp(st, "ok"))
			continue;
		snprintf(l->phase_error, sizeof(l->phase_error), "%s %s%s%s",
			 gd_json_str(p, "name") ? gd_json_str(p, "name") : "?",
			 st ? st : "without a status", msg ? ": " : "",
			 msg ? msg : "");
		return;
	}
}

int gd_fleet_locality_read(struct gd_fleet *fl, struct gd_fleet_run *r,
			   struct json_object *doc)
{
	struct json_object *hdr = gd_json_path(doc, "header", NULL);
	struct gd_fleet_locality *l = r->loc;

	if (!l)
		l = gd_fleet_pool_alloc(&fl->pool, sizeof(*l));
	if (!l)
		return -ENOMEM;
	memset(l, 0, sizeof(*l));
	r->loc = l;
	snprintf(l->nic, sizeof(l->nic), "%s",
		 gd_json_str(hdr, "device") ? gd_json_str(hdr, "device") : "");
	choice_read(gd_json_str(hdr, "memory_choice"), l->path_class[0],
		    sizeof(l->path_class[0]), &l->device[0]);
	choice_read(gd_json_str(hdr, "d2_memory_choice"), l->path_class[1],
		    sizeof(l->path_class[1]), &l->device[1]);
	assessment_read(l, doc);
	phase_error_read(l, doc);
	return 0;
}

static const char *host_name(const struct gd_fleet *fl, int h)
{
	return h >= 0 && (size_t)h < fl->n_hosts ? fl->hosts[h].name : "?";
}

static struct json_object *jdbl(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *jstr_or_null(const char *s)
{
	return s[0] ? json_object_new_string(s) : NULL;
}

static struct json_object *choice_json(const struct gd_fleet_locality *l, int k)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "device",
			       l && l->device[k] >= 0
				       ? json_object_new_int(l->device[k])
				       : NULL);
	json_object_object_add(o, "path_class",
			       l ? jstr_or_null(l->path_class[k]) : NULL);
	return o;
}

__attribute__((format(printf, 2, 3))) static void
finding(struct json_object *arr, const char *fmt, ...)
{
	char buf[GD_FLEET_TEXT_MAX * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(arr, json_object_new_string(buf));
}

/* GPUDirect RDMA wants the GPU behind the NIC's own PCIe switch. */
static bool near_local(const char *cls)
{
	return !strcmp(cls, "PIX") || !strcmp(cls, "PXB");
}

static void near_findings(const struct gd_fleet_locality *l, bool ok,
			  struct json_object *arr)
{
	if (!l->path_class[0][0]) {
		if (ok)
			finding(arr, "the document records no near device "
				     "(header.memory_choice): was the run "
				     "started with --mem=DEV:near,DEV:far?");
		return;
	}
	if (!near_local(l->path_class[0]))
		finding(arr,
			"the near device %d is %s to %s: no GPU shares a PCIe "
			"switch with this NIC (PIX or PXB), so GPU memory "
			"reaches it through the host bridge or the CPU; check "
			"the GPU/NIC placement in gd_doctor's map",
			l->device[0], l->path_class[0],
			l->nic[0] ? l->nic : "the NIC");
}

/* The far device should be slower than the near one or the same. */
static void far_findings(const struct gd_fleet_locality *l,
			 struct json_object *arr)
{
	if (!l->decision[0]) {
		finding(arr, "no " LOC_COMPARISON " assessment in the run "
			     "document's statistics: rerun with a gdperf that "
			     "compares the two memories");
		return;
	}
	if (isfinite(l->low) && l->low > 1)
		finding(arr,
			"the far device %d (%s) is faster than the near device "
			"%d (%s): " LOC_COMPARISON " %.2f, interval %.2f..%.2f "
			"above 1; the path classes do not match what the "
			"transfers show: check the NIC in use and the map",
			l->device[1], l->path_class[1], l->device[0],
			l->path_class[0], l->ratio, l->low, l->high);
	else if (!strcmp(l->decision, "inconclusive"))
		finding(arr,
			LOC_COMPARISON " %.2f is inconclusive: neither slower "
				       "nor the same; about %d repeats "
				       "(--repeat) would settle it",
			l->ratio, l->repeats_needed);
	else if (strcmp(l->decision, "slower") &&
		 strcmp(l->decision, "not_below") &&
		 strcmp(l->decision, "no_difference"))
		finding(arr,
			LOC_COMPARISON " decision '%s' is none of "
				       "slower, not_below, no_difference",
			l->decision);
}

static const char *loc_status(const struct gd_fleet_run *r)
{
	return !gd_fleet_run_tested(r) ? "untested"
	       : !r->ok		       ? "failed"
				       : "pass";
}

/* The run's reason: its error, with the first failed phase's own. */
static void loc_reason(const struct gd_fleet_run *r, char *dst, size_t len)
{
	const struct gd_fleet_locality *l = r->loc;

	dst[0] = '\0';
	if (!gd_fleet_run_tested(r))
		snprintf(dst, len, "no document%s",
			 r->planned ? "; the planned execution did not run "
				      "or wrote nowhere gd_report looked"
				    : "");
	else if (!r->ok && l && l->phase_error[0])
		snprintf(dst, len, "%s (phase %s)", r->error, l->phase_error);
	else if (!r->ok)
		snprintf(dst, len, "%s", r->error);
}

static struct json_object *loc_row(const struct gd_fleet *fl,
				   const struct gd_fleet_run *r, size_t *n_find)
{
	const struct gd_fleet_locality *l = r->loc;
	struct json_object *o = json_object_new_object();
	struct json_object *find = json_object_new_array();
	char why[GD_FLEET_TEXT_MAX * 2];

	json_object_object_add(
		o, "server",
		json_object_new_string(host_name(fl, r->b_to_a ? r->b : r->a)));
	json_object_object_add(
		o, "partner",
		json_object_new_string(host_name(fl, r->b_to_a ? r->a : r->b)));
	json_object_object_add(o, "execution", json_object_new_string(r->id));
	json_object_object_add(o, "status",
			       json_object_new_string(loc_status(r)));
	loc_reason(r, why, sizeof(why));
	json_object_object_add(o, "reason", json_object_new_string(why));
	json_object_object_add(o, "nic", l ? jstr_or_null(l->nic) : NULL);
	json_object_object_add(o, "near", choice_json(l, 0));
	json_object_object_add(o, "far", choice_json(l, 1));
	json_object_object_add(o, "ratio", l ? jdbl(l->ratio) : NULL);
	json_object_object_add(o, "low", l ? jdbl(l->low) : NULL);
	json_object_object_add(o, "high", l ? jdbl(l->high) : NULL);
	json_object_object_add(o, "decision",
			       l ? jstr_or_null(l->decision) : NULL);
	json_object_object_add(o, "repeats_needed",
			       l && l->decision[0]
				       ? json_object_new_int(l->repeats_needed)
				       : NULL);
	if (l)
		near_findings(l, r->ok, find);
	if (l && r->ok)
		far_findings(l, find);
	*n_find += json_object_array_length(find);
	json_object_object_add(o, "findings", find);
	return o;
}

struct json_object *gd_fleet_locality_json(const struct gd_fleet *fl)
{
	struct json_object *o, *rows;
	size_t i, planned = 0, tested = 0, n_find = 0;

	if (!fl->n_loc_runs)
		return NULL;
	o = json_object_new_object();
	rows = json_object_new_array();
	for (i = 0; i < fl->n_loc_runs; i++) {
		const struct gd_fleet_run *r = &fl->loc_runs[i];

		planned += r->planned;
		tested += gd_fleet_run_tested(r);
		json_object_array_add(rows, loc_row(fl, r, &n_find));
	}
	json_object_object_add(o, "round",
			       json_object_new_int(GD_FLEET_ROUND_LOCALITY));
	json_object_object_add(o, "comparison",
			       json_object_new_string(LOC_COMPARISON));
	json_object_object_add(
		o, "method",
		json_object_new_string(
			"each row is one execution, named by the server that "
			"ran its client: that server's near (D1) and far (D2) "
			"device for the NIC it used (header.memory_choice, "
			"header.d2_memory_choice) and the run's own D2D2/D1D1 "
			"assessment (statistics.assessments, its first "
			"direction); not coverage, not an outlier group, not a "
			"gate"));
	json_object_object_add(o, "planned",
			       json_object_new_int64((int64_t)planned));
	json_object_object_add(o, "tested",
			       json_object_new_int64((int64_t)tested));
	json_object_object_add(o, "findings",
			       json_object_new_int64((int64_t)n_find));
	json_object_object_add(o, "executions", rows);
	return o;
}
