/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The document gd_compare hands to the run's judgement: the baseline's
 * phase in the host (HH) slot and the candidate's in the device (DD)
 * slot, so every ratio, interval, assessment and gate is candidate over
 * baseline, computed by the code that judged the runs themselves. Refuses
 * pairs that would compare different things.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"
#include "tools/compare/compare_tool.h"
#include "util/error.h"
#include "util/json_get.h"

/* The judgement a saved document carries is recomputed, never trusted. */
static const char *const gd_cmp_judged_keys[] = { "comparison", "verdicts",
						  "statistics", "gates" };

static struct json_object *gd_cmp_find_phase(struct json_object *doc,
					     const char *pl, const char *dir)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);

		if (!strcmp(gd_phase_placement(ph), pl) &&
		    !strcmp(gd_phase_direction(ph), dir))
			return ph;
	}
	return NULL;
}

static void gd_cmp_phase_list(struct json_object *doc, struct gd_sbuf *sb)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);

		gd_sb_add(sb, "%s%s %s", i ? ", " : "", gd_phase_placement(ph),
			  gd_phase_direction(ph));
	}
}

static int gd_cmp_usable_phase(const struct gd_cmp_opts *o,
			       const struct gd_cmp_input *in,
			       struct json_object **ph)
{
	struct gd_sbuf sb = { .len = 0 };

	*ph = gd_cmp_find_phase(in->doc, o->phase, o->direction);
	if (!*ph) {
		gd_cmp_phase_list(in->doc, &sb);
		return gd_err(-EINVAL,
			      "%s: no phase %s %s to compare (it holds: %s); "
			      "choose one with --phase and --direction",
			      in->path, o->phase, o->direction, sb.buf);
	}
	if (!gd_phase_ok(*ph))
		return gd_err(-EINVAL,
			      "%s: phase %s %s is %s, so it has no figures to "
			      "compare; read that run's verdict (GD_*_FAIL) "
			      "and compare a run where it passed",
			      in->path, o->phase, o->direction,
			      gd_json_str(*ph, "status") ?: "not ok");
	return 0;
}

/* Same benchmark (verb and measure) on both sides, else no ratio means
 * anything. */
static int gd_cmp_same_test(const struct gd_cmp_input *base,
			    const struct gd_cmp_input *cand)
{
	const char *bt = gd_json_str(base->doc, "tool") ?: "?";
	const char *ct = gd_json_str(cand->doc, "tool") ?: "?";
	const char *bv =
		gd_json_str(gd_json_path(base->doc, "test", NULL), "verb");
	const char *cv =
		gd_json_str(gd_json_path(cand->doc, "test", NULL), "verb");

	if (strcmp(bt, ct) || (bv && cv && strcmp(bv, cv)) ||
	    gd_doc_is_lat(base->doc) != gd_doc_is_lat(cand->doc))
		return gd_err(-EINVAL,
			      "%s (%s) and %s (%s) ran different tests: "
			      "compare documents of the same gd_* benchmark",
			      base->path, bt, cand->path, ct);
	return 0;
}

static bool gd_cmp_has_size(struct json_object *ph, double size)
{
	struct json_object *res = gd_json_path(ph, "results", NULL);
	double s;

	for (size_t i = 0; i < gd_json_len(res); i++)
		if (gd_json_num(gd_json_idx(res, i), "size_bytes", &s) &&
		    s == size)
			return true;
	return false;
}

/* Keep only the results whose size the other phase has too; returns how
 * many are left. */
static size_t gd_cmp_keep_common(struct json_object *ph,
				 struct json_object *other)
{
	struct json_object *res = gd_json_path(ph, "results", NULL);
	struct json_object *kept = json_object_new_array();
	double s;

	for (size_t i = 0; i < gd_json_len(res); i++) {
		struct json_object *r = gd_json_idx(res, i);

		if (gd_json_num(r, "size_bytes", &s) &&
		    gd_cmp_has_size(other, s))
			json_object_array_add(kept, json_object_get(r));
	}
	json_object_object_add(ph, "results", kept);
	return json_object_array_length(kept);
}

static void gd_cmp_size_range(struct json_object *ph, struct gd_sbuf *sb)
{
	struct json_object *res = gd_json_path(ph, "results", NULL);
	double s, lo = 0, hi = 0;
	size_t n = 0;

	for (size_t i = 0; i < gd_json_len(res); i++) {
		if (!gd_json_num(gd_json_idx(res, i), "size_bytes", &s))
			continue;
		lo = n && lo < s ? lo : s;
		hi = n && hi > s ? hi : s;
		n++;
	}
	if (n)
		gd_sb_add(sb, "%zu sizes, %.0f..%.0f B", n, lo, hi);
	else
		gd_sb_add(sb, "no sizes");
}

/* A deep copy of @ph in the @slot placement; "compared_from" keeps what it
 * was (@who's phase), since the slot's name is not the memory it used. */
static struct json_object *gd_cmp_slot(struct json_object *ph, const char *slot,
				       const char *who)
{
	struct json_object *c = NULL;
	char from[64];

	if (json_object_deep_copy(ph, &c, NULL) || !c)
		return NULL;
	snprintf(from, sizeof(from), "%s's %s %s", who, gd_phase_placement(ph),
		 gd_phase_direction(ph));
	json_object_object_add(c, "name", json_object_new_string(slot));
	json_object_object_add(c, "placement", json_object_new_string(slot));
	json_object_object_add(c, "compared_from",
			       json_object_new_string(from));
	json_object_object_del(c, "port_check");
	return c;
}

static void gd_cmp_copy_key(struct json_object *to, struct json_object *from,
			    const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(from, key, &v) && v)
		json_object_object_add(to, key, json_object_get(v));
}

static struct json_object *gd_cmp_shell(struct json_object *base)
{
	static const char *const keys[] = { "schema", "tool",	"version",
					    "test",   "header", "units" };
	struct json_object *doc = json_object_new_object();

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		gd_cmp_copy_key(doc, base, keys[i]);
	return doc;
}

int gd_cmp_pair_doc(const struct gd_cmp_opts *o,
		    const struct gd_cmp_input *base,
		    const struct gd_cmp_input *cand, struct json_object **out)
{
	struct json_object *bp, *cp, *hh, *dd, *doc, *phases;
	struct gd_sbuf sb = { .len = 0 };
	int ret;

	ret = gd_cmp_same_test(base, cand);
	if (!ret)
		ret = gd_cmp_usable_phase(o, base, &bp);
	if (!ret)
		ret = gd_cmp_usable_phase(o, cand, &cp);
	if (ret)
		return ret;
	hh = gd_cmp_slot(bp, "HH", "baseline");
	dd = gd_cmp_slot(cp, "DD", "candidate");
	if (!hh || !dd) {
		json_object_put(hh);
		json_object_put(dd);
		return gd_err(-ENOMEM, "out of memory copying the phases");
	}
	if (!gd_cmp_keep_common(hh, cp) || !gd_cmp_keep_common(dd, bp)) {
		gd_sb_add(&sb, "%s has ", base->path);
		gd_cmp_size_range(bp, &sb);
		gd_sb_add(&sb, ", %s has ", cand->path);
		gd_cmp_size_range(cp, &sb);
		json_object_put(hh);
		json_object_put(dd);
		return gd_err(-EINVAL,
			      "phase %s %s: no size in both documents (%s); "
			      "rerun one with the other's -s/-a sizes",
			      o->phase, o->direction, sb.buf);
	}
	doc = gd_cmp_shell(base->doc);
	phases = json_object_new_array();
	json_object_array_add(phases, hh);
	json_object_array_add(phases, dd);
	json_object_object_add(doc, "phases", phases);
	*out = doc;
	return 0;
}

int gd_cmp_self_doc(const struct gd_cmp_input *in, struct json_object **out)
{
	struct json_object *phases = gd_json_path(in->doc, "phases", NULL);
	struct json_object *doc = NULL;
	bool hh = false, dev = false;

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);

		if (!gd_phase_ok(ph))
			return gd_err(-EINVAL,
				      "%s: phase %s %s is %s: there is no "
				      "figure to judge again; read that run's "
				      "verdict (GD_*_FAIL) first",
				      in->path, gd_phase_placement(ph),
				      gd_phase_direction(ph),
				      gd_json_str(ph, "status") ?: "not ok");
		hh |= !strcmp(gd_phase_placement(ph), "HH");
		dev |= gd_phase_has_device(ph);
	}
	if (!hh || !dev)
		return gd_err(-EINVAL,
			      "%s: one document is judged as its device "
			      "phases against its HH, and it lacks %s; give "
			      "a second document to compare runs instead",
			      in->path, hh ? "a device (D) phase" : "HH");
	if (json_object_deep_copy(in->doc, &doc, NULL) || !doc)
		return gd_err(-ENOMEM, "out of memory copying %s", in->path);
	for (size_t i = 0;
	     i < sizeof(gd_cmp_judged_keys) / sizeof(gd_cmp_judged_keys[0]);
	     i++)
		json_object_object_del(doc, gd_cmp_judged_keys[i]);
	/* the run's own -w/-y limits were judged in the run; here only the
	 * ratio gate is asked again */
	json_object_object_del(doc, "options");
	*out = doc;
	return 0;
}
