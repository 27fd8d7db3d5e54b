/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's latency tails. The repeats of a series are separate runs;
 * laid out as the rounds of one document (each result's "samples", one per
 * repeat) they go through the run's own report/tails.c, so gd_report and
 * the run say the same thing in the same words. Only latency series are
 * read again, one document at a time per repeat.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"
#include "report/tails.h"
#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_index.h"
#include "tools/cluster/fleet_tails.h"

/* report/tails.c reads at most this many replicates */
#define GD_FLEET_TAILS_REPEATS 64

static const char *const gd_fleet_tail_keys[] = {
	"size_bytes",	       "lat_typical_us",  "lat_p99_us",
	"lat_typical_us_ci95", "lat_p99_us_ci95",
};

static struct json_object *tail_figures(struct json_object *row)
{
	struct json_object *o = json_object_new_object(), *v;

	for (size_t i = 0;
	     i < sizeof(gd_fleet_tail_keys) / sizeof(gd_fleet_tail_keys[0]);
	     i++)
		if (json_object_object_get_ex(row, gd_fleet_tail_keys[i], &v))
			json_object_object_add(o, gd_fleet_tail_keys[i],
					       json_object_get(v));
	return o;
}

static struct json_object *same_phase(struct json_object *doc,
				      struct json_object *ph)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *p = gd_json_idx(phases, i);

		if (!strcmp(gd_phase_placement(p), gd_phase_placement(ph)) &&
		    !strcmp(gd_phase_direction(p), gd_phase_direction(ph)))
			return gd_phase_ok(p) ? p : NULL;
	}
	return NULL;
}

/* Result @row of the first repeat with every repeat's figures at its size
 * as "samples"; a repeat without that phase or size is left out. */
static struct json_object *repeat_row(struct json_object **docs, size_t n,
				      struct json_object *ph,
				      struct json_object *row)
{
	struct json_object *o = tail_figures(row), *samples;
	double size = 0;

	if (n < 2)
		return o;
	gd_json_num(row, "size_bytes", &size);
	samples = json_object_new_array();
	for (size_t k = 0; k < n && k < GD_FLEET_TAILS_REPEATS; k++) {
		struct json_object *r =
			gd_tails_result(same_phase(docs[k], ph), size);
		struct json_object *s;

		if (!r)
			continue;
		s = tail_figures(r);
		json_object_object_add(s, "repeat",
				       json_object_new_int((int)k + 1));
		json_object_array_add(samples, s);
	}
	json_object_object_add(o, "samples", samples);
	return o;
}

/* The repeats as one latency document's phases (those of the first). */
static struct json_object *repeats_doc(struct json_object **docs, size_t n)
{
	struct json_object *doc = json_object_new_object(), *t, *phases;
	struct json_object *base = gd_json_path(docs[0], "phases", NULL);

	t = json_object_new_object();
	json_object_object_add(t, "measure", json_object_new_string("lat"));
	json_object_object_add(doc, "test", t);
	phases = json_object_new_array();
	for (size_t i = 0; i < gd_json_len(base); i++) {
		struct json_object *ph = gd_json_idx(base, i), *p, *res, *rows;

		if (!gd_phase_ok(ph))
			continue;
		p = json_object_new_object();
		json_object_object_add(
			p, "placement",
			json_object_new_string(gd_phase_placement(ph)));
		json_object_object_add(
			p, "direction",
			json_object_new_string(gd_phase_direction(ph)));
		json_object_object_add(p, "status",
				       json_object_new_string("ok"));
		res = gd_json_path(ph, "results", NULL);
		rows = json_object_new_array();
		for (size_t j = 0; j < gd_json_len(res); j++)
			json_object_array_add(
				rows,
				repeat_row(docs, n, ph, gd_json_idx(res, j)));
		json_object_object_add(p, "results", rows);
		json_object_array_add(phases, p);
	}
	json_object_object_add(doc, "phases", phases);
	return doc;
}

struct json_object *gd_fleet_tails_docs(struct json_object **docs, size_t n,
					const char *id)
{
	struct json_object *doc, *out;

	if (!n)
		return json_object_new_array();
	doc = repeats_doc(docs, n);
	out = gd_tails_build_over(doc, "repeats");
	json_object_put(doc);
	for (size_t i = 0; i < gd_json_len(out); i++) {
		struct json_object *e = gd_json_idx(out, i);
		char buf[GD_SBUF_LEN + 80];

		snprintf(buf, sizeof(buf), "%s: %s", id,
			 gd_json_str(e, "text") ?: "");
		json_object_object_add(e, "series", json_object_new_string(id));
		json_object_object_add(e, "text", json_object_new_string(buf));
	}
	return out;
}

/* One latency series: its ok repeats' documents, read again. */
static void series_tails(const struct gd_fleet *fl, const uint32_t *runs,
			 size_t n, struct json_object *out)
{
	struct json_object *docs[GD_FLEET_TAILS_REPEATS], *e;
	const char *id = NULL;
	size_t m = 0;

	for (size_t k = 0; k < n && m < GD_FLEET_TAILS_REPEATS; k++) {
		const struct gd_fleet_run *r = &fl->runs[runs[k]];

		if (!r->have_measure || !r->ok || !r->lat || !r->file[0] ||
		    !(docs[m] = json_object_from_file(r->file)))
			continue;
		if (!m++)
			id = r->id;
	}
	if (!m)
		return;
	e = gd_fleet_tails_docs(docs, m, id);
	for (size_t i = 0; i < gd_json_len(e); i++)
		json_object_array_add(out, json_object_get(gd_json_idx(e, i)));
	json_object_put(e);
	for (size_t k = 0; k < m; k++)
		json_object_put(docs[k]);
}

struct json_object *gd_fleet_tails_json(const struct gd_fleet *fl)
{
	struct json_object *out = json_object_new_array();
	const uint32_t *runs;

	for (size_t s = 0; fl->ix && s < fl->ix->n_series; s++) {
		size_t n = gd_fleet_index_series(fl->ix, s, &runs);

		series_tails(fl, runs, n, out);
	}
	if (gd_json_len(out))
		return out;
	json_object_put(out);
	return NULL;
}
