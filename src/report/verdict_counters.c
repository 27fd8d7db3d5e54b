/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verdicts' view of moved counters: which error, retry or congestion
 * counters moved in which phase, side and sizes, by how much, and whether
 * they moved alike in HH and in the device phase of the same direction
 * (per byte sent), which says whether the device path is to blame.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare_priv.h"

#define GD_MOVED_MAX_SIZES 64
/* Within this factor per byte sent, two phases' counters moved alike:
 * retries under load scatter, a path that causes them differs by more. */
#define GD_MOVED_ALIKE_FACTOR 2.0

static const char *const gd_moved_sides[] = { "local", "remote" };

int64_t gd_counter_delta(struct json_object *delta, const char *name)
{
	struct json_object *list = gd_json_path(delta, "counters", NULL);

	for (size_t i = 0; list && i < gd_json_len(list); i++) {
		struct json_object *c = gd_json_idx(list, i);
		const char *n = gd_json_str(c, "name");
		double d;

		/* a document's number, not trusted to fit */
		if (n && !strcmp(n, name) && gd_json_num(c, "delta", &d))
			return d >= 0 && d < 9e18 ? (int64_t)d : -1;
	}
	return -1;
}

/* 2381 -> "2,381": counts of thousands read at a glance. */
static void gd_count_text(int64_t n, char *buf, size_t len)
{
	char raw[32];
	size_t k = 0, digits;

	snprintf(raw, sizeof(raw), "%" PRId64, n < 0 ? -n : n);
	digits = strlen(raw);
	if (n < 0 && k + 1 < len)
		buf[k++] = '-';
	for (size_t i = 0; i < digits && k + 2 < len; i++) {
		if (i && (digits - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = raw[i];
	}
	buf[k] = '\0';
}

/* 1048576 -> "1 MiB", 65536 -> "64 KiB", 3000 -> "3000 B". */
static void gd_bytes_text(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	int u = 0;

	while (u < 3 && b >= 1024 && b % 1024 == 0) {
		b /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", b, unit[u]);
}

/* A step's size_bytes, when it is a size at all. */
static bool gd_step_size(struct json_object *st, uint64_t *size)
{
	double v;

	if (!gd_json_num(st, "size_bytes", &v) || !(v >= 0 && v < 1.8e19))
		return false;
	*size = (uint64_t)v;
	return true;
}

static int gd_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool gd_list_has(struct json_object *list, const char *name)
{
	for (size_t i = 0; i < gd_json_len(list); i++)
		if (!strcmp(json_object_get_string(gd_json_idx(list, i)) ?: "",
			    name))
			return true;
	return false;
}

/* The sizes of @ph's steps at which counter list @key of @side named
 * @name (any name when NULL), ascending, each once; the count. */
static size_t gd_moved_sizes(struct json_object *ph, const char *side,
			     const char *key, const char *name, uint64_t *out)
{
	struct json_object *steps = gd_json_path(ph, "steps", NULL);
	char field[32];
	size_t n = 0;

	snprintf(field, sizeof(field), "counters_%s", side);
	for (size_t i = 0; i < gd_json_len(steps); i++) {
		struct json_object *st = gd_json_idx(steps, i);
		struct json_object *moved = gd_json_path(st, field, key);
		uint64_t size;
		size_t k;

		if (!gd_json_len(moved) || !gd_step_size(st, &size))
			continue;
		if (name && !gd_list_has(moved, name))
			continue;
		for (k = 0; k < n && out[k] != size; k++)
			;
		if (k == n && n < GD_MOVED_MAX_SIZES)
			out[n++] = size;
	}
	qsort(out, n, sizeof(out[0]), gd_u64_cmp);
	return n;
}

static struct json_object *gd_sizes_json(const uint64_t *s, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)s[i]));
	return a;
}

/* " at 1 MiB..8 MiB (4 of 23 sizes)", " at 64 KiB" */
static void gd_sizes_text(struct gd_sbuf *sb, const uint64_t *s, size_t n,
			  size_t of)
{
	char lo[32], hi[32];

	if (!n)
		return;
	gd_bytes_text(s[0], lo, sizeof(lo));
	gd_bytes_text(s[n - 1], hi, sizeof(hi));
	if (n == 1)
		gd_sb_add(sb, " at %s", lo);
	else
		gd_sb_add(sb, " at %s..%s", lo, hi);
	if (of > 1)
		gd_sb_add(sb, " (%zu of %zu sizes)", n, of);
}

/* How many sizes the phase measured (its steps' distinct sizes). */
static size_t gd_phase_sizes(struct json_object *ph)
{
	struct json_object *steps = gd_json_path(ph, "steps", NULL);
	uint64_t seen[GD_MOVED_MAX_SIZES];
	size_t n = 0;

	for (size_t i = 0; i < gd_json_len(steps); i++) {
		uint64_t size;
		size_t k;

		if (!gd_step_size(gd_json_idx(steps, i), &size))
			continue;
		for (k = 0; k < n && seen[k] != size; k++)
			;
		if (k == n && n < GD_MOVED_MAX_SIZES)
			seen[n++] = size;
	}
	return n;
}

/* One phase and side: the evidence line and its record; the events
 * (sum of the moved counters' deltas). */
static int64_t gd_moved_side(struct gd_moved *m, struct json_object *ph,
			     const char *side, const char *key)
{
	struct json_object *delta = gd_json_path(ph, "counters", side);
	struct json_object *moved = gd_json_path(delta, key, NULL);
	struct json_object *rec, *counts;
	struct gd_sbuf sb = { .len = 0 };
	uint64_t sizes[GD_MOVED_MAX_SIZES];
	size_t nm = gd_json_len(moved), ns;
	int64_t events = 0;

	if (!nm)
		return 0;
	rec = json_object_new_object();
	counts = json_object_new_object();
	gd_sb_add(&sb, "%s %s %s:", gd_phase_placement(ph),
		  gd_phase_direction(ph), side);
	for (size_t k = 0; k < nm; k++) {
		const char *name =
			json_object_get_string(gd_json_idx(moved, k));
		int64_t d = gd_counter_delta(delta, name ?: "");
		char num[40];

		if (!name)
			continue;
		gd_count_text(d, num, sizeof(num));
		gd_sb_add(&sb, "%s %s +%s", k ? "," : "", name, num);
		json_object_object_add(counts, name, json_object_new_int64(d));
		if (d > 0)
			events =
				d > INT64_MAX - events ? INT64_MAX : events + d;
	}
	ns = gd_moved_sizes(ph, side, key, NULL, sizes);
	gd_sizes_text(&sb, sizes, ns, gd_phase_sizes(ph));
	json_object_object_add(rec, "phase",
			       json_object_new_string(gd_phase_placement(ph)));
	json_object_object_add(rec, "direction",
			       json_object_new_string(gd_phase_direction(ph)));
	json_object_object_add(rec, "side", json_object_new_string(side));
	json_object_object_add(rec, "counts", counts);
	json_object_object_add(rec, "sizes_bytes", gd_sizes_json(sizes, ns));
	if (!m->evidence) {
		m->evidence = json_object_new_array();
		m->moved = json_object_new_array();
	}
	json_object_array_add(m->evidence, json_object_new_string(sb.buf));
	json_object_array_add(m->moved, rec);
	return events;
}

static int64_t gd_phase_events(struct gd_moved *m, struct json_object *ph,
			       const char *key)
{
	int64_t e = 0;

	for (int s = 0; s < 2; s++)
		e += gd_moved_side(m, ph, gd_moved_sides[s], key);
	return e;
}

/* Events per GiB of payload sent, or -1 when the phase has no bytes. */
static double gd_per_gib(struct json_object *ph, int64_t events)
{
	double bytes = 0;

	if (!gd_json_num(ph, "app_bytes", &bytes) || bytes <= 0)
		return -1;
	return (double)events / (bytes / (1024.0 * 1024 * 1024));
}

static const char *gd_moved_finding(int64_t eh, int64_t ed, double q)
{
	if (eh && !ed)
		return "host_only";
	if (!eh && ed)
		return "device_only";
	if (q < 0)
		return "alike"; /* no bytes to scale by: both moved */
	if (q > GD_MOVED_ALIKE_FACTOR)
		return "device_more";
	if (q < 1 / GD_MOVED_ALIKE_FACTOR)
		return "host_more";
	return "alike";
}

/* 14536.8 -> "14537", 2.345 -> "2.35": rates as people read them. */
static const char *gd_rate_text(double r, char *buf, size_t len)
{
	snprintf(buf, len, r >= 100 ? "%.0f" : "%.3g", r);
	return buf;
}

/* The line that says what the HH/device pair shows. */
static void gd_moved_pair_text(struct gd_sbuf *sb, const char *finding,
			       const char *dev, const char *dir, double rh,
			       double rd)
{
	char h[32], d[32];

	gd_rate_text(rh, h, sizeof(h));
	gd_rate_text(rd, d, sizeof(d));
	if (!strcmp(finding, "alike") && (rh < 0 || rd < 0))
		gd_sb_add(
			sb,
			"in both HH and %s %s (no byte count to scale by): the device path is not the cause",
			dev, dir);
	else if (!strcmp(finding, "alike"))
		gd_sb_add(
			sb,
			"alike in HH and %s %s (%s and %s per GiB sent, within a factor of %g): the device path is not the cause",
			dev, dir, h, d, GD_MOVED_ALIKE_FACTOR);
	else if (!strcmp(finding, "device_more"))
		gd_sb_add(
			sb,
			"%s %s moved %.3g times as often per GiB sent as HH (%s against %s): evidence against the device path",
			dev, dir, rd / rh, d, h);
	else if (!strcmp(finding, "host_more"))
		gd_sb_add(
			sb,
			"HH %s moved more per GiB sent than %s (%s against %s): not the device path",
			dir, dev, h, d);
	else if (!strcmp(finding, "device_only"))
		gd_sb_add(
			sb,
			"only in %s %s, not in HH (%s per GiB sent): evidence against the device path",
			dev, dir, d);
	else
		gd_sb_add(sb, "only in HH %s, not in %s: not the device path",
			  dir, dev);
}

/* Each device phase against the HH phase of its direction. */
static void gd_moved_pairs(struct gd_moved *m, struct json_object *phases,
			   const char *key)
{
	struct gd_moved scratch = { 0 };

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i), *hh = NULL, *p;
		const char *dir = gd_phase_direction(ph), *finding;
		struct gd_sbuf sb = { .len = 0 };
		int64_t eh, ed;
		double rh, rd;

		if (!gd_phase_has_device(ph))
			continue;
		for (size_t j = 0; j < gd_json_len(phases) && !hh; j++) {
			struct json_object *c = gd_json_idx(phases, j);

			if (!strcmp(gd_phase_placement(c), "HH") &&
			    !strcmp(gd_phase_direction(c), dir))
				hh = c;
		}
		if (!hh)
			continue;
		/* the events again, into a scratch record: only the sums */
		eh = gd_phase_events(&scratch, hh, key);
		ed = gd_phase_events(&scratch, ph, key);
		if (!eh && !ed)
			continue;
		rh = gd_per_gib(hh, eh);
		rd = gd_per_gib(ph, ed);
		finding = gd_moved_finding(eh, ed,
					   rh > 0 && rd >= 0 ? rd / rh : -1);
		m->against_device |= !strcmp(finding, "device_only") ||
				     !strcmp(finding, "device_more");
		gd_moved_pair_text(&sb, finding, gd_phase_placement(ph), dir,
				   rh, rd);
		json_object_array_add(m->evidence,
				      json_object_new_string(sb.buf));
		p = json_object_new_object();
		json_object_object_add(p, "direction",
				       json_object_new_string(dir));
		json_object_object_add(
			p, "device_phase",
			json_object_new_string(gd_phase_placement(ph)));
		json_object_object_add(p, "hh_events",
				       json_object_new_int64(eh));
		json_object_object_add(p, "device_events",
				       json_object_new_int64(ed));
		json_object_object_add(p, "hh_per_GiB",
				       rh >= 0 ? json_object_new_double(rh)
					       : NULL);
		json_object_object_add(p, "device_per_GiB",
				       rd >= 0 ? json_object_new_double(rd)
					       : NULL);
		json_object_object_add(p, "finding",
				       json_object_new_string(finding));
		if (!m->pairs)
			m->pairs = json_object_new_array();
		json_object_array_add(m->pairs, p);
	}
	gd_moved_free(&scratch);
}

void gd_moved_collect(struct json_object *phases, const char *key,
		      struct gd_moved *m)
{
	*m = (struct gd_moved){ 0 };
	for (size_t i = 0; i < gd_json_len(phases); i++)
		gd_phase_events(m, gd_json_idx(phases, i), key);
	if (m->evidence)
		gd_moved_pairs(m, phases, key);
}

void gd_moved_free(struct gd_moved *m)
{
	json_object_put(m->evidence);
	json_object_put(m->moved);
	json_object_put(m->pairs);
	*m = (struct gd_moved){ 0 };
}
