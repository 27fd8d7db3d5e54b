/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Side-by-side text report of a paired run: one figure table per
 * direction with ratio columns, the counter table of both ends, the
 * app-vs-port cross-check, each phase's memory and route, the verdicts.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/compare_priv.h"
#include "report/tails.h"
#include "util/stats.h"

#define GD_RULE                                                                \
	"---------------------------------------------------------------------------------------\n"

static const char *gd_cell(char *buf, size_t len, struct json_object *fig,
			   const char *key, double scale)
{
	const char *st = gd_json_str(fig, "status");
	double x;

	if (gd_json_num(fig, key, &x))
		snprintf(buf, len, "%.2f", x * scale);
	else
		snprintf(buf, len, "%s", st && strcmp(st, "ok") ? st : "-");
	return buf;
}

static const char *gd_num_cell(char *buf, size_t len, struct json_object *obj,
			       const char *key)
{
	double x;

	if (gd_json_num(obj, key, &x))
		snprintf(buf, len, "%.2f", x);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* The assessment of ratio @lab in direction @dir, with its per-size
 * figures (two rounds or more), or NULL. */
static struct json_object *gd_judged_sizes(struct json_object *doc,
					   const char *lab, const char *dir)
{
	struct json_object *as = gd_json_path(doc, "statistics", "assessments");

	for (size_t i = 0; i < gd_json_len(as); i++) {
		struct json_object *a = gd_json_idx(as, i);

		if (!strcmp(gd_json_str(a, "comparison") ?: "", lab) &&
		    !strcmp(gd_json_str(a, "direction") ?: "", dir ?: ""))
			return gd_json_path(a, "per_size", "sizes");
	}
	return NULL;
}

/* The bound the verdict judged @size by (per_size.low: its spread pooled
 * with sizes of like noise, widened for correlated rounds; every judged
 * size's must clear the floor for "not below"), on the table's scale: a
 * lower bound of the bandwidth ratio X/HH, or for latency, whose table
 * shows X/HH of the latencies, the upper bound 1/low of that ratio. False
 * where the size was not judged. */
static bool gd_judged_bound(struct json_object *sizes, double size, bool lat,
			    double *bound)
{
	for (size_t i = 0; i < gd_json_len(sizes); i++) {
		struct json_object *e = gd_json_idx(sizes, i);
		double z = -1, lo;

		if (!gd_json_num(e, "size_bytes", &z) || z != size)
			continue;
		if (!gd_json_num(e, "low", &lo) || !(lo > 0))
			return false;
		*bound = lat ? 1 / lo : lo;
		return true;
	}
	return false;
}

/* The judged bound's column: "low" for bandwidth, "high" for latency. */
static const char *gd_bound_word(struct json_object *doc)
{
	return gd_doc_is_lat(doc) ? "high" : "low";
}

/* Under a table with such columns: which interval decided, and (@ci)
 * what the 95% CI column beside it is. */
static void gd_print_bound_legend(FILE *out, struct json_object *doc, bool ci)
{
	bool lat = gd_doc_is_lat(doc);

	/* the row's ratio is of the medians shown, the bound of the paired
	 * rounds: a reader must not take a ratio below "low" for an error */
	fprintf(out,
		" %s: the %s bound the verdict judged the size by (its spread pooled\n"
		" with sizes of like noise, widened for correlated rounds)%s; - not judged;\n"
		" it bounds the mean of the rounds' paired ratios, the ratio column is\n"
		" of the medians shown: the two part where a phase's rounds spread\n",
		lat ? "high" : "low", lat ? "upper" : "lower",
		ci ? ";\n 95% CI: the size's own rounds alone, which the verdict does not use"
		   : "");
}

/* --repeat: a "DD/HH 95% CI" column per ratio, when the direction's first
 * row has them (an adaptive run's sizes not judged have one round), and a
 * "DD/HH low" column where the ratio was judged size by size. */
static void gd_print_ci_head(FILE *out, struct json_object *doc,
			     struct json_object *row)
{
	const char *dir = gd_json_str(row, "direction");
	struct json_object *ratios = gd_json_path(row, "ratios", NULL);
	bool ci = gd_json_path(row, "ratio_intervals", NULL) != NULL;
	/* one ratio: its columns follow it and need not repeat its name,
	 * which keeps the table within 80 columns */
	bool named = json_object_object_length(ratios) > 1;
	char col[48];

	json_object_object_foreach(ratios, lab, r)
	{
		(void)r;
		snprintf(col, sizeof(col), "%s%s95%% CI", named ? lab : "",
			 named ? " " : "");
		if (ci)
			fprintf(out, " %-14s", col);
		if (!gd_judged_sizes(doc, lab, dir))
			continue;
		snprintf(col, sizeof(col), "%s%s%s", named ? lab : "",
			 named ? " " : "", gd_bound_word(doc));
		fprintf(out, " %-10s", col);
	}
}

static void gd_print_ci_cells(FILE *out, struct json_object *doc,
			      struct json_object *head, struct json_object *row)
{
	struct json_object *ri = gd_json_path(row, "ratio_intervals", NULL);
	const char *dir = gd_json_str(head, "direction");
	bool ci = gd_json_path(head, "ratio_intervals", NULL) != NULL;
	double size = -1;
	char buf[48];

	gd_json_num(row, "size_bytes", &size);
	json_object_object_foreach(gd_json_path(head, "ratios", NULL), lab, r)
	{
		struct json_object *own = gd_json_path(ri, lab, NULL);
		struct json_object *judged = gd_judged_sizes(doc, lab, dir);
		double lo, hi;

		(void)r;
		if (gd_json_num(own, "low", &lo) &&
		    gd_json_num(own, "high", &hi))
			snprintf(buf, sizeof(buf), "%.2f..%.2f", lo, hi);
		else
			snprintf(buf, sizeof(buf), "-");
		if (ci)
			fprintf(out, " %-14s", buf);
		if (!judged)
			continue;
		if (gd_judged_bound(judged, size, gd_doc_is_lat(doc), &lo))
			snprintf(buf, sizeof(buf), "%.2f", lo);
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(out, " %-10s", buf);
	}
}

/* Any "low" column in the direction that @head starts. */
static bool gd_has_low(struct json_object *doc, struct json_object *head)
{
	const char *dir = gd_json_str(head, "direction");

	json_object_object_foreach(gd_json_path(head, "ratios", NULL), lab, r)
	{
		(void)r;
		if (gd_judged_sizes(doc, lab, dir))
			return true;
	}
	return false;
}

static void gd_print_bw_head(FILE *out, struct json_object *doc,
			     struct json_object *row, bool gbits)
{
	char col[48];

	fprintf(out, " %-10s", "#bytes");
	json_object_object_foreach(gd_json_path(row, "phases", NULL), pl, fig)
	{
		(void)fig;
		snprintf(col, sizeof(col), "%s BW average[%s]", pl,
			 gbits ? "Gb/sec" : "MiB/sec");
		fprintf(out, " %-24s", col);
	}
	json_object_object_foreach(gd_json_path(row, "ratios", NULL), lab, r)
	{
		(void)r;
		fprintf(out, " %-8s", lab);
	}
	gd_print_ci_head(out, doc, row);
	fputc('\n', out);
}

static void gd_print_bw_row(FILE *out, struct json_object *doc,
			    struct json_object *head, struct json_object *row,
			    bool gbits)
{
	struct json_object *figs = gd_json_path(row, "phases", NULL);
	struct json_object *ratios = gd_json_path(row, "ratios", NULL);
	double scale = gbits ? gd_MiBps_to_Gbps(1.0) : 1.0, size = 0;
	char buf[32];

	gd_json_num(row, "size_bytes", &size);
	fprintf(out, " %-10.0f", size);
	json_object_object_foreach(gd_json_path(head, "phases", NULL), pl, hf)
	{
		(void)hf;
		fprintf(out, " %-24s",
			gd_cell(buf, sizeof(buf), gd_json_path(figs, pl, NULL),
				"bw_avg_MiBps", scale));
	}
	json_object_object_foreach(gd_json_path(head, "ratios", NULL), lab, hr)
	{
		(void)hr;
		fprintf(out, " %-8s",
			gd_num_cell(buf, sizeof(buf), ratios, lab));
	}
	gd_print_ci_cells(out, doc, head, row);
	fputc('\n', out);
}

static void gd_print_lat_head(FILE *out, struct json_object *doc,
			      struct json_object *row)
{
	static const char *const cols[][2] = {
		{ "t_typical[usec]", "diff_typical_us" },
		{ "t_99%[usec]", "diff_p99_us" },
	};
	char col[48];

	fprintf(out, " %-10s", "#bytes");
	for (int k = 0; k < 2; k++) {
		json_object_object_foreach(gd_json_path(row, "phases", NULL),
					   pl, f)
		{
			(void)f;
			snprintf(col, sizeof(col), "%s %s", pl, cols[k][0]);
			fprintf(out, " %-19s", col);
		}
		json_object_object_foreach(gd_json_path(row, cols[k][1], NULL),
					   lab, d)
		{
			(void)d;
			snprintf(col, sizeof(col), "%s%s[usec]", lab,
				 k ? " p99" : "");
			fprintf(out, " %-16s", col);
		}
	}
	json_object_object_foreach(gd_json_path(row, "ratios", NULL), rl, r)
	{
		(void)r;
		fprintf(out, " %-8s", rl);
	}
	gd_print_ci_head(out, doc, row);
	fputc('\n', out);
}

static void gd_print_lat_row(FILE *out, struct json_object *doc,
			     struct json_object *head, struct json_object *row)
{
	static const char *const keys[][2] = {
		{ "lat_typical_us", "diff_typical_us" },
		{ "lat_p99_us", "diff_p99_us" },
	};
	struct json_object *figs = gd_json_path(row, "phases", NULL);
	double size = 0;
	char buf[32];

	gd_json_num(row, "size_bytes", &size);
	fprintf(out, " %-10.0f", size);
	for (int k = 0; k < 2; k++) {
		struct json_object *diffs = gd_json_path(row, keys[k][1], NULL);

		json_object_object_foreach(gd_json_path(head, "phases", NULL),
					   pl, f)
		{
			(void)f;
			fprintf(out, " %-19s",
				gd_cell(buf, sizeof(buf),
					gd_json_path(figs, pl, NULL),
					keys[k][0], 1.0));
		}
		json_object_object_foreach(gd_json_path(head, keys[k][1], NULL),
					   lab, d)
		{
			(void)d;
			fprintf(out, " %-16s",
				gd_num_cell(buf, sizeof(buf), diffs, lab));
		}
	}
	json_object_object_foreach(gd_json_path(head, "ratios", NULL), rl, r)
	{
		(void)r;
		fprintf(out, " %-8s",
			gd_num_cell(buf, sizeof(buf),
				    gd_json_path(row, "ratios", NULL), rl));
	}
	gd_print_ci_cells(out, doc, head, row);
	fputc('\n', out);
}

static void gd_print_figures(FILE *out, struct json_object *doc,
			     struct json_object *comparison)
{
	const char *bw_unit =
		gd_json_str(gd_json_path(doc, "units", NULL), "bw");
	bool gbits = bw_unit && !strcmp(bw_unit, "Gb/s");
	bool lat = gd_doc_is_lat(doc);
	struct json_object *head = NULL;
	const char *dir = NULL;
	bool low = false, ci = false;

	for (size_t i = 0; i < gd_json_len(comparison); i++) {
		struct json_object *row = gd_json_idx(comparison, i);
		const char *d = gd_json_str(row, "direction");

		if (!dir || strcmp(dir, d)) {
			dir = d;
			head = row;
			fprintf(out, GD_RULE " Direction: %s%s\n", d,
				!strcmp(d, "bidir")
					? " (sum of both directions)"
					: "");
			if (lat)
				gd_print_lat_head(out, doc, row);
			else
				gd_print_bw_head(out, doc, row, gbits);
			low |= gd_has_low(doc, row);
			ci |= gd_json_path(row, "ratio_intervals", NULL) !=
			      NULL;
		}
		if (lat)
			gd_print_lat_row(out, doc, head, row);
		else
			gd_print_bw_row(out, doc, head, row, gbits);
	}
	if (low)
		gd_print_bound_legend(out, doc, ci);
}

static void gd_phase_label(char *buf, size_t len, struct json_object *ph)
{
	const char *dir = gd_phase_direction(ph);

	snprintf(buf, len, "%s%s", gd_phase_placement(ph),
		 !strcmp(dir, "reverse") ? "-rev"
		 : !strcmp(dir, "bidir") ? "-bi"
					 : "");
}

/* Counter entry of one side, or NULL; also tells whether it moved. */
static struct json_object *gd_side_counter(struct json_object *ph,
					   const char *side, const char *name)
{
	struct json_object *list = gd_json_path(ph, "counters", side);

	list = gd_json_path(list, "counters", NULL);
	for (size_t i = 0; list && i < gd_json_len(list); i++) {
		struct json_object *c = gd_json_idx(list, i);

		if (!strcmp(gd_json_str(c, "name") ?: "", name))
			return c;
	}
	return NULL;
}

static void gd_counter_cell(FILE *out, struct json_object *c)
{
	const char *cls = gd_json_str(c, "class");
	char buf[32];
	double d;

	if (!gd_json_num(c, "delta", &d)) {
		fprintf(out, " %-14s", "-");
		return;
	}
	snprintf(buf, sizeof(buf), "%.0f%s", d,
		 d > 0 && cls && !strcmp(cls, "error")	      ? "!"
		 : d > 0 && cls && !strcmp(cls, "congestion") ? "~"
							      : "");
	fprintf(out, " %-14s", buf);
}

/* Union of counter names over phases and sides, keeping first-seen order;
 * only counters that moved somewhere are kept. */
static struct json_object *gd_moved_counters(struct json_object *phases,
					     unsigned int *still)
{
	static const char *const sides[] = { "local", "remote" };
	struct json_object *all = json_object_new_object();
	struct json_object *moved = json_object_new_object();

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		for (int s = 0; s < 2; s++) {
			struct json_object *list = gd_json_path(
				gd_json_idx(phases, i), "counters", sides[s]);

			list = gd_json_path(list, "counters", NULL);
			for (size_t k = 0; list && k < gd_json_len(list); k++) {
				struct json_object *c = gd_json_idx(list, k);
				const char *name = gd_json_str(c, "name");
				double d = 0;

				if (!name)
					continue;
				json_object_object_add(all, name, NULL);
				if (gd_json_num(c, "delta", &d) && d > 0 &&
				    !json_object_object_get_ex(moved, name,
							       NULL))
					json_object_object_add(
						moved, name,
						json_object_new_string(
							gd_json_str(c, "unit")
								?: ""));
			}
		}
	}
	*still = (unsigned int)(json_object_object_length(all) -
				json_object_object_length(moved));
	json_object_put(all);
	return moved;
}

static void gd_print_counters(FILE *out, struct json_object *phases)
{
	static const char *const sides[] = { "local", "remote" };
	unsigned int still = 0;
	struct json_object *moved = gd_moved_counters(phases, &still);
	size_t np = gd_json_len(phases);
	char lab[48];

	if (!json_object_object_length(moved) && !still) {
		json_object_put(moved);
		return;
	}
	fprintf(out, GD_RULE
		" Counters: delta over the measured windows (! error counter moved, ~ congestion)\n");
	fprintf(out, " %-32s %-8s", "counter", "unit");
	for (size_t i = 0; i < np; i++) {
		for (int s = 0; s < 2; s++) {
			char col[64];

			gd_phase_label(lab, sizeof(lab),
				       gd_json_idx(phases, i));
			snprintf(col, sizeof(col), "%s %s", lab, sides[s]);
			fprintf(out, " %-14s", col);
		}
	}
	fputc('\n', out);
	json_object_object_foreach(moved, name, unit)
	{
		fprintf(out, " %-32s %-8s", name, json_object_get_string(unit));
		for (size_t i = 0; i < np; i++)
			for (int s = 0; s < 2; s++)
				gd_counter_cell(
					out,
					gd_side_counter(gd_json_idx(phases, i),
							sides[s], name));
		fputc('\n', out);
	}
	if (still)
		fprintf(out, " (%u more counters did not move)\n", still);
	json_object_put(moved);
}

static void gd_print_port_check(FILE *out, struct json_object *phases)
{
	bool header = false;
	char lab[48];

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);
		struct json_object *pc = gd_json_path(ph, "port_check", NULL);
		double app = 0, port, r, exp;

		if (!pc)
			continue;
		if (!header)
			fprintf(out,
				" Port cross-check (bytes the application moved vs what the sending port counted):\n");
		header = true;
		gd_phase_label(lab, sizeof(lab), ph);
		gd_json_num(pc, "app_bytes", &app);
		fprintf(out, "  %-8s app %.0f bytes; sender %s:", lab, app,
			gd_json_str(pc, "sender") ?: "?");
		if (gd_json_num(pc, "port_bytes", &port))
			fprintf(out, " port %.0f bytes", port);
		if (gd_json_num(pc, "bytes_ratio", &r))
			fprintf(out, " (ratio %.3f)", r);
		if (gd_json_num(pc, "port_packets", &port) &&
		    gd_json_num(pc, "expected_packets", &exp))
			fprintf(out,
				" port %.0f packets vs >= %.0f expected at the MTU",
				port, exp);
		if (gd_json_num(pc, "packets_ratio", &r))
			fprintf(out, " (ratio %.3f)", r);
		if (!gd_json_num(pc, "port_bytes", &port) &&
		    !gd_json_num(pc, "port_packets", &port))
			fprintf(out,
				" no byte or packet counters on that side");
		fputc('\n', out);
	}
}

static void gd_print_mem_side(FILE *out, struct json_object *m,
			      const char *side)
{
	const char *kind = gd_json_str(m, "kind");
	const char *dev = gd_json_str(m, "device");
	const char *route = gd_json_str(m, "route");

	fprintf(out, "%s %s%s%s%s%s%s", side, kind ? kind : "unknown",
		dev ? " " : "", dev ? dev : "", route ? " (" : "",
		route ? route : "", route ? ")" : "");
}

static void gd_print_memory(FILE *out, struct json_object *phases)
{
	char lab[48];

	fprintf(out, " Memory and registration route per phase:\n");
	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);

		gd_phase_label(lab, sizeof(lab), ph);
		fprintf(out, "  %-8s %-7s", lab,
			gd_json_str(ph, "status") ?: "?");
		if (gd_json_str(ph, "compared_from"))
			fprintf(out, " %s:", gd_json_str(ph, "compared_from"));
		gd_print_mem_side(out, gd_json_path(ph, "memory", "local"),
				  " local");
		gd_print_mem_side(out, gd_json_path(ph, "memory", "remote"),
				  "; remote");
		if (!gd_phase_ok(ph) &&
		    gd_json_str(gd_json_path(ph, "error", NULL), "message"))
			fprintf(out, "; error: %s",
				gd_json_str(gd_json_path(ph, "error", NULL),
					    "message"));
		fputc('\n', out);
	}
}

static void gd_print_verdicts(FILE *out, struct json_object *verdicts)
{
	fprintf(out, GD_RULE " Verdict:\n");
	for (size_t i = 0; i < gd_json_len(verdicts); i++) {
		struct json_object *v = gd_json_idx(verdicts, i);
		struct json_object *ev = gd_json_path(v, "evidence", NULL);

		fprintf(out, "  [%s] %s: %s\n",
			gd_json_str(v, "severity") ?: "?",
			gd_json_str(v, "code") ?: "?",
			gd_json_str(v, "summary") ?: "");
		for (size_t k = 0; ev && k < gd_json_len(ev); k++)
			fprintf(out, "      evidence: %s\n",
				json_object_get_string(gd_json_idx(ev, k)));
		fprintf(out, "      next: %s\n",
			gd_json_str(v, "next_check") ?: "");
	}
}

void gd_compare_print(FILE *out, struct json_object *doc,
		      struct json_object *comparison,
		      struct json_object *verdicts)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);

	if (!out || !phases)
		return;
	if (comparison)
		gd_print_figures(out, doc, comparison);
	gd_print_counters(out, phases);
	gd_print_port_check(out, phases);
	fprintf(out, GD_RULE);
	gd_print_memory(out, phases);
	if (verdicts)
		gd_print_verdicts(out, verdicts);
	gd_tails_print(out, doc);
	/* the run report's closing rule ends this block too */
}

/* --brief: the directions in the comparison's order (at most three). */
static size_t gd_brief_dirs(struct json_object *cmp, const char **dirs)
{
	size_t n = 0;

	for (size_t i = 0; i < gd_json_len(cmp); i++) {
		const char *d = gd_json_str(gd_json_idx(cmp, i), "direction");
		size_t k = 0;

		while (d && k < n && strcmp(dirs[k], d))
			k++;
		if (d && k == n && n < 3)
			dirs[n++] = d;
	}
	return n;
}

static struct json_object *gd_brief_row(struct json_object *cmp,
					const char *dir, double size)
{
	for (size_t i = 0; i < gd_json_len(cmp); i++) {
		struct json_object *row = gd_json_idx(cmp, i);
		const char *d = gd_json_str(row, "direction");
		double z = -1;

		if (d && !strcmp(d, dir) &&
		    gd_json_num(row, "size_bytes", &z) && z == size)
			return row;
	}
	return NULL;
}

static const char *gd_dir_short(const char *dir)
{
	return !strcmp(dir, "forward")	 ? "fwd"
	       : !strcmp(dir, "reverse") ? "rev"
					 : dir;
}

/* A direction's cells: its first phase's figure, then each ratio (with
 * the lower bound the verdict judged it by, else its 95% interval when
 * the rounds gave one); the header when @row is NULL, from @head. */
static void gd_brief_cells(FILE *out, struct json_object *doc,
			   struct json_object *head, struct json_object *row,
			   const char *dir, const char *unit, bool lat,
			   double scale)
{
	struct json_object *figs = gd_json_path(head, "phases", NULL);
	const char *ref = NULL;
	char buf[64], ratio[32];
	double lo, hi, size;

	json_object_object_foreach(figs, pl, f)
	{
		(void)f;
		ref = ref ? ref : pl;
	}
	if (!row)
		snprintf(buf, sizeof(buf), "%s %s[%s]", ref ? ref : "-",
			 gd_dir_short(dir), unit);
	else
		gd_cell(buf, sizeof(buf),
			gd_json_path(row, "phases", ref ? ref : ""),
			lat ? "lat_typical_us" : "bw_avg_MiBps", scale);
	fprintf(out, " %-16s", buf);
	json_object_object_foreach(gd_json_path(head, "ratios", NULL), lab, r)
	{
		struct json_object *ci =
			gd_json_path(row, "ratio_intervals", lab);

		(void)r;
		if (!row)
			snprintf(buf, sizeof(buf), "%s %s", lab,
				 gd_dir_short(dir));
		else if (gd_json_num(row, "size_bytes", &size) &&
			 gd_judged_bound(gd_judged_sizes(doc, lab, dir), size,
					 lat, &lo))
			snprintf(buf, sizeof(buf), "%s %s %.2f",
				 gd_num_cell(ratio, sizeof(ratio),
					     gd_json_path(row, "ratios", NULL),
					     lab),
				 gd_bound_word(doc), lo);
		else if (gd_json_num(ci, "low", &lo) &&
			 gd_json_num(ci, "high", &hi))
			snprintf(buf, sizeof(buf), "%s %.2f..%.2f",
				 gd_num_cell(ratio, sizeof(ratio),
					     gd_json_path(row, "ratios", NULL),
					     lab),
				 lo, hi);
		else
			gd_num_cell(buf, sizeof(buf),
				    gd_json_path(row, "ratios", NULL), lab);
		fprintf(out, " %-18s", buf);
	}
}

/* One line per size, the directions side by side, so that -a with
 * --reverse fits a screen: the reference figure and the ratios only (the
 * full table has every phase's figure). */
static void gd_print_brief_table(FILE *out, struct json_object *doc,
				 struct json_object *cmp)
{
	const char *bw_unit =
		gd_json_str(gd_json_path(doc, "units", NULL), "bw");
	bool gbits = bw_unit && !strcmp(bw_unit, "Gb/s"),
	     lat = gd_doc_is_lat(doc);
	const char *unit = lat ? "usec" : gbits ? "Gb/s" : "MiB/s";
	double scale = gbits ? gd_MiBps_to_Gbps(1.0) : 1.0, size = 0;
	const char *dirs[3];
	struct json_object *heads[3];
	size_t nd = gd_brief_dirs(cmp, dirs);

	if (!nd)
		return;
	for (size_t i = 0, k = 0; i < gd_json_len(cmp) && k < nd; i++)
		if (!strcmp(gd_json_str(gd_json_idx(cmp, i), "direction") ?: "",
			    dirs[k]))
			heads[k++] = gd_json_idx(cmp, i);
	fprintf(out, GD_RULE " Side by side (%s: %s%s)\n",
		lat ? "typical latency" : "average bandwidth", unit,
		gd_has_low(doc, heads[0])
			? (lat ? "; high: the upper bound the verdict judged"
			       : "; low: the lower bound the verdict judged")
			: "");
	fprintf(out, " %-10s", "#bytes");
	for (size_t k = 0; k < nd; k++)
		gd_brief_cells(out, doc, heads[k], NULL, dirs[k], unit, lat,
			       scale);
	fputc('\n', out);
	for (size_t i = 0; i < gd_json_len(cmp); i++) {
		struct json_object *row = gd_json_idx(cmp, i);

		if (strcmp(gd_json_str(row, "direction") ?: "", dirs[0]) ||
		    !gd_json_num(row, "size_bytes", &size))
			continue;
		fprintf(out, " %-10.0f", size);
		for (size_t k = 0; k < nd; k++)
			gd_brief_cells(out, doc, heads[k],
				       gd_brief_row(cmp, dirs[k], size) ?: row,
				       dirs[k], unit, lat, scale);
		fputc('\n', out);
	}
}

/* A counter's delta summed over every phase and side, and its class. */
static double gd_counter_sum(struct json_object *phases, const char *name,
			     const char **cls)
{
	static const char *const sides[] = { "local", "remote" };
	double d, sum = 0;

	*cls = NULL;
	for (size_t i = 0; i < gd_json_len(phases); i++)
		for (int s = 0; s < 2; s++) {
			struct json_object *c = gd_side_counter(
				gd_json_idx(phases, i), sides[s], name);

			if (gd_json_num(c, "delta", &d))
				sum += d;
			*cls = *cls ?: gd_json_str(c, "class");
		}
	return sum;
}

/* --brief: the error and congestion counters that moved, one line each
 * (they are what a reader must see); the traffic ones on one line, as
 * many as fit 80 columns. Sums over every phase and side. */
static void gd_print_brief_counters(FILE *out, struct json_object *phases)
{
	unsigned int still = 0, more = 0;
	struct json_object *moved = gd_moved_counters(phases, &still);
	char traffic[80] = "";
	size_t used = 0;
	const char *cls;

	if (json_object_object_length(moved))
		fprintf(out, GD_RULE
			" Counters that moved (sums over phases and sides; ! error, ~ congestion)\n");
	json_object_object_foreach(moved, name, unit)
	{
		double sum = gd_counter_sum(phases, name, &cls);
		bool err = cls && !strcmp(cls, "error");
		char cell[96];
		int n;

		if (err || (cls && !strcmp(cls, "congestion"))) {
			fprintf(out, " %-32s %.0f %s %s\n", name, sum,
				json_object_get_string(unit), err ? "!" : "~");
			continue;
		}
		n = snprintf(cell, sizeof(cell), "%s%s %.0f %s",
			     used ? ", " : " ", name, sum,
			     json_object_get_string(unit));
		if (n > 0 && used + (size_t)n < sizeof(traffic) - 12) {
			memcpy(traffic + used, cell, (size_t)n + 1);
			used += (size_t)n;
		} else {
			more++;
		}
	}
	if (used)
		fprintf(out, "%s%s\n", traffic, more ? ", ..." : "");
	json_object_put(moved);
}

void gd_compare_print_brief(FILE *out, struct json_object *doc,
			    struct json_object *comparison,
			    struct json_object *verdicts)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);

	if (!out || !phases)
		return;
	gd_print_brief_table(out, doc, comparison);
	gd_print_brief_counters(out, phases);
	fprintf(out, GD_RULE
		" Verdict (evidence: the full report or the JSON document):\n");
	for (size_t i = 0; i < gd_json_len(verdicts); i++) {
		struct json_object *v = gd_json_idx(verdicts, i);

		fprintf(out, "  [%s] %s: %s\n",
			gd_json_str(v, "severity") ?: "?",
			gd_json_str(v, "code") ?: "?",
			gd_json_str(v, "summary") ?: "");
		fprintf(out, "      next: %s\n",
			gd_json_str(v, "next_check") ?: "");
	}
}
