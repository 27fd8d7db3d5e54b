/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The segment of an assessment in the evidence line and in
 * .statistics.assessments[].segment: the contiguous sizes where the
 * device curve lies below the floor, named by where they start and end.
 */
#include <config.h>

#include <math.h>

#include "report/evidence_segment.h"
#include "util/infer.h"

/* "from 2 MiB up", "up to 256 KiB", "from 256 KiB to 2 MiB", "at 1 MiB":
 * "up" when the segment reaches the largest judged size. */
static void gd_ev_seg_where(const struct gd_assessment *a,
			    const struct gd_assess_segment *s,
			    struct gd_sbuf *sb)
{
	char lo[32], hi[32];

	gd_assess_bytes_str(s->lo_bytes, lo, sizeof(lo));
	gd_assess_bytes_str(s->hi_bytes, hi, sizeof(hi));
	if (s->sizes == 1 && s->to != (int)a->sizes - 1)
		gd_sb_add(sb, "at %s", lo);
	else if (s->to == (int)a->sizes - 1)
		gd_sb_add(sb, "from %s up", lo);
	else if (s->from == 0)
		gd_sb_add(sb, "up to %s", hi);
	else
		gd_sb_add(sb, "from %s to %s", lo, hi);
}

/* One segment's words after its "below 0.80 ": where, figure, p. */
static void gd_ev_seg_words(const struct gd_assessment *a,
			    const struct gd_assess_segment *s,
			    struct gd_sbuf *sb)
{
	gd_ev_seg_where(a, s, sb);
	gd_sb_add(sb, ": %.2f (%.2f..%.2f), %u size%s (adjusted p=%.2g",
		  s->ratio, s->lo, s->hi, s->sizes, s->sizes == 1 ? "" : "s",
		  s->p_run);
}

void gd_ev_text_segment(const struct gd_assessment *a, struct gd_sbuf *sb)
{
	if (!a->seg.found)
		return;
	gd_sb_add(sb, "below %.2f ", a->floor);
	gd_ev_seg_words(a, &a->seg, sb);
	gd_sb_add(sb, ", %u segments scanned); ", a->seg.tested);
	for (unsigned int n = 0; n < a->nseg_also; n++)
		if (a->seg_also[n].found) {
			gd_sb_add(sb, "also below %.2f ", a->floor);
			gd_ev_seg_words(a, &a->seg_also[n], sb);
			gd_sb_add(sb, "); ");
		}
}

static struct json_object *gd_ev_seg_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

/* The fields every named segment has. */
static struct json_object *gd_ev_seg_fields(const struct gd_assess_segment *s)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "from_bytes",
			       json_object_new_int64((int64_t)s->lo_bytes));
	json_object_object_add(j, "to_bytes",
			       json_object_new_int64((int64_t)s->hi_bytes));
	json_object_object_add(j, "sizes", json_object_new_int((int)s->sizes));
	json_object_object_add(j, "ratio", gd_ev_seg_num(s->ratio));
	json_object_object_add(j, "low", gd_ev_seg_num(s->lo));
	json_object_object_add(j, "high", gd_ev_seg_num(s->hi));
	json_object_object_add(j, "df", json_object_new_int((int)s->df));
	json_object_object_add(j, "p", json_object_new_double(s->p));
	json_object_object_add(j, "p_adjusted",
			       json_object_new_double(s->p_run));
	return j;
}

struct json_object *gd_ev_segment_json(const struct gd_assessment *a)
{
	const struct gd_assess_segment *s = &a->seg;
	struct json_object *j, *also;

	if (!s->tested)
		return NULL;
	j = gd_ev_seg_fields(s);
	json_object_object_add(j, "found", json_object_new_boolean(s->found));
	json_object_object_add(j, "confidence",
			       json_object_new_double(GD_INFER_CONFIDENCE));
	json_object_object_add(j, "segments_tested",
			       json_object_new_int((int)s->tested));
	json_object_object_add(j, "within_round_correlation",
			       json_object_new_double(s->rho));
	json_object_object_add(j, "rounds_correlation_widen",
			       json_object_new_double(s->widen));
	also = json_object_new_array();
	for (unsigned int n = 0; n < a->nseg_also; n++)
		if (a->seg_also[n].found)
			json_object_array_add(
				also, gd_ev_seg_fields(&a->seg_also[n]));
	json_object_object_add(j, "also", also);
	return j;
}
