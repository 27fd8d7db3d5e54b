/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gnuplot script for the curves of every phase of a run document, and the
 * optional run of gnuplot itself. The data travel inline (datablocks) so
 * the script alone reproduces the picture on another machine.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report/compare_priv.h"
#include "util/error.h"
#include "report/plot.h"
#include "util/stats.h"

extern char **environ;

/* Single-quoted gnuplot string: a quote is written twice. */
static void gd_plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* Phase labels come from the document: keep them inert in the script. */
static void gd_plot_label(char *buf, size_t len, struct json_object *ph)
{
	size_t i;

	snprintf(buf, len, "%s %s", gd_phase_placement(ph),
		 gd_phase_direction(ph));
	for (i = 0; buf[i]; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -+/.",
			    buf[i]))
			buf[i] = '_';
}

static void gd_plot_header(FILE *f, struct json_object *doc,
			   const char *svg_path, bool lat, bool gbits)
{
	const char *tool = gd_json_str(doc, "tool");

	fprintf(f,
		"# gdperf plot script: run 'gnuplot THIS_FILE' to draw the SVG\n");
	fprintf(f,
		"set terminal svg size 960,%d dynamic enhanced font 'sans,11'\nset output ",
		gd_json_path(doc, "comparison", NULL) ? 900 : 600);
	gd_plot_quote(f, svg_path);
	fprintf(f, "\nset title ");
	gd_plot_quote(f, tool ? tool : "gdperf");
	fprintf(f, " noenhanced\nset xlabel 'message size [bytes]'\n");
	fprintf(f,
		"set logscale x 2\nset format x '2^{%%L}'\nset grid\nset key top left\n");
	if (lat)
		fprintf(f,
			"set ylabel 'latency [usec] (solid: typical, dashed: p99)'\nset logscale y 10\n");
	else
		fprintf(f, "set ylabel 'BW average [%s]'\n",
			gbits ? "Gb/sec" : "MiB/sec");
}

/* --repeat: rows carry "spread"; their blocks gain min and max columns. */
static bool gd_plot_has_spread(struct json_object *ph)
{
	struct json_object *res = gd_json_path(ph, "results", NULL);

	return res && gd_json_len(res) &&
	       gd_json_path(gd_json_idx(res, 0), "spread", NULL);
}

static void gd_plot_range(FILE *f, struct json_object *r, double y,
			  double scale, bool spread)
{
	struct json_object *sp = gd_json_path(r, "spread", NULL);
	double lo = y, hi = y;

	if (spread) {
		gd_json_num(sp, "min", &lo);
		gd_json_num(sp, "max", &hi);
		fprintf(f, " %.4f %.4f", lo * scale, hi * scale);
	}
	fputc('\n', f);
}

/* One datablock per phase with results; returns how many were written. */
static unsigned int gd_plot_data(FILE *f, struct json_object *phases, bool lat,
				 double scale)
{
	unsigned int nblocks = 0;

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);
		struct json_object *res = gd_json_path(ph, "results", NULL);
		size_t nr = res ? gd_json_len(res) : 0;

		bool spread = gd_plot_has_spread(ph);

		if (!gd_phase_ok(ph) || !nr)
			continue;
		fprintf(f, "$d%zu << EOD\n", i);
		for (size_t k = 0; k < nr; k++) {
			struct json_object *r = gd_json_idx(res, k);
			double s, y, p99 = 0;

			if (!gd_json_num(r, "size_bytes", &s) ||
			    !gd_json_num(
				    r, lat ? "lat_typical_us" : "bw_avg_MiBps",
				    &y))
				continue;
			if (lat && !gd_json_num(r, "lat_p99_us", &p99))
				p99 = y;
			if (lat)
				fprintf(f, "%.0f %.4f %.4f", s, y, p99);
			else
				fprintf(f, "%.0f %.4f", s, y * scale);
			gd_plot_range(f, r, y, lat ? 1 : scale, spread);
		}
		fprintf(f, "EOD\n");
		nblocks++;
	}
	return nblocks;
}

static void gd_plot_curves(FILE *f, struct json_object *phases, bool lat)
{
	const char *sep = "plot ";
	char label[64];

	for (size_t i = 0; i < gd_json_len(phases); i++) {
		struct json_object *ph = gd_json_idx(phases, i);
		struct json_object *res = gd_json_path(ph, "results", NULL);

		if (!gd_phase_ok(ph) || !res || !gd_json_len(res))
			continue;
		gd_plot_label(label, sizeof(label), ph);
		fprintf(f,
			"%s$d%zu using 1:2 with linespoints lw 2 lc %zu title '%s'",
			sep, i, i + 1, label);
		if (lat)
			fprintf(f,
				", \\\n     $d%zu using 1:3 with lines dt 2 lc %zu title '%s p99'",
				i, i + 1, label);
		if (gd_plot_has_spread(ph))
			fprintf(f,
				", \\\n     $d%zu using 1:2:%d:%d with yerrorbars lc %zu notitle",
				i, lat ? 4 : 3, lat ? 5 : 4, i + 1);
		sep = ", \\\n     ";
	}
	fprintf(f, "\n");
}

#define GD_PLOT_MAX_RATIOS 16

/* The comparison's ratio series: one per label ("DD/HH") and direction. */
struct gd_plot_ratios {
	char key[GD_PLOT_MAX_RATIOS][48]; /* "DD/HH forward" */
	unsigned int n;
	bool intervals; /* some row has ratio_intervals (--repeat) */
};

static void gd_plot_ratio_keys(struct json_object *cmp,
			       struct gd_plot_ratios *rs)
{
	for (size_t i = 0; i < gd_json_len(cmp); i++) {
		struct json_object *row = gd_json_idx(cmp, i);
		const char *dir = gd_json_str(row, "direction");

		rs->intervals |=
			gd_json_path(row, "ratio_intervals", NULL) != NULL;
		json_object_object_foreach(gd_json_path(row, "ratios", NULL),
					   label, val)
		{
			char key[48];
			unsigned int k;

			(void)val;
			snprintf(key, sizeof(key), "%s %s", label, dir ?: "");
			for (k = 0; k < rs->n && strcmp(rs->key[k], key); k++)
				;
			if (k == rs->n && rs->n < GD_PLOT_MAX_RATIOS)
				snprintf(rs->key[rs->n++], sizeof(rs->key[0]),
					 "%s", key);
		}
	}
}

/* Block $r<k>: size, ratio, and its interval's ends (the ratio itself
 * where the row has no interval). */
static void gd_plot_ratio_block(FILE *f, struct json_object *cmp,
				const char *key, unsigned int k)
{
	size_t llen = strcspn(key, " ");

	fprintf(f, "$r%u << EOD\n", k);
	for (size_t i = 0; i < gd_json_len(cmp); i++) {
		struct json_object *row = gd_json_idx(cmp, i);
		char label[48];
		double size = 0, r, lo, hi;
		struct json_object *iv;

		snprintf(label, sizeof(label), "%.*s", (int)llen, key);
		if (strcmp(gd_json_str(row, "direction") ?: "",
			   key + llen + 1) ||
		    !gd_json_num(gd_json_path(row, "ratios", NULL), label,
				 &r) ||
		    !gd_json_num(row, "size_bytes", &size))
			continue;
		iv = gd_json_path(gd_json_path(row, "ratio_intervals", NULL),
				  label, NULL);
		if (!gd_json_num(iv, "low", &lo) ||
		    !gd_json_num(iv, "high", &hi))
			lo = hi = r;
		fprintf(f, "%.0f %.4f %.4f %.4f\n", size, r, lo, hi);
	}
	fprintf(f, "EOD\n");
}

/*
 * The lower panel: each device phase's ratio to HH per size (latency:
 * device/HH as the comparison writes it), with the 95% interval of its
 * rounds as error bars when there are rounds, and the expected ratio.
 */
static void gd_plot_ratio_panel(FILE *f, struct json_object *doc, bool lat)
{
	struct json_object *cmp = gd_json_path(doc, "comparison", NULL);
	struct gd_plot_ratios rs = { .n = 0 };
	const char *sep = "plot ";
	double floor = 0;

	if (!cmp || !json_object_is_type(cmp, json_type_array))
		return;
	gd_plot_ratio_keys(cmp, &rs);
	if (!rs.n)
		return;
	for (unsigned int k = 0; k < rs.n; k++)
		gd_plot_ratio_block(f, cmp, rs.key[k], k);
	gd_json_num(
		gd_json_idx(gd_json_path(gd_json_path(doc, "statistics", NULL),
					 "assessments", NULL),
			    0),
		"floor", &floor);
	fprintf(f, "set ylabel '%s%s'\nunset logscale y\nset key top left\n",
		lat ? "latency ratio device/HH" : "BW ratio device/HH",
		rs.intervals ? " (bars: 95% interval over rounds)" : "");
	for (unsigned int k = 0; k < rs.n; k++) {
		fprintf(f, "%s$r%u using 1:2 with linespoints lc %u title '%s'",
			sep, k, k + 1, rs.key[k]);
		if (rs.intervals)
			fprintf(f,
				", \\\n     $r%u using 1:2:3:4 with yerrorbars lc %u notitle",
				k, k + 1);
		sep = ", \\\n     ";
	}
	fprintf(f, ", \\\n     1 with lines lc 'black' dt 3 title 'equal'");
	if (floor > 0 && !lat)
		fprintf(f,
			", \\\n     %.3f with lines lc 'red' dt 2 title 'expected ratio %.2f'",
			floor, floor);
	else if (floor > 0)
		fprintf(f,
			", \\\n     %.3f with lines lc 'red' dt 2 title 'expected ratio %.2f (HH/device)'",
			1 / floor, floor);
	fprintf(f, "\n");
}

/* Absolute path of gnuplot on PATH, or false. */
static bool gd_find_gnuplot(char *buf, size_t len)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		if (n &&
		    (size_t)snprintf(buf, len, "%.*s/gnuplot", (int)n, path) <
			    len &&
		    !access(buf, X_OK))
			return true;
		path = end ? end + 1 : NULL;
	}
	return false;
}

static int gd_run_gnuplot(const char *prog, const char *script)
{
	char *argv[] = { (char *)"gnuplot", (char *)script, NULL };
	int status, ret;
	pid_t pid;

	ret = posix_spawn(&pid, prog, NULL, NULL, argv, environ);
	if (ret)
		return gd_err(
			-ret,
			"plot: could not start %s: %s; run gnuplot %s by hand",
			prog, strerror(ret), script);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return gd_err(-errno,
				      "plot: lost track of gnuplot on %s",
				      script);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return gd_err(
			-EIO,
			"plot: gnuplot failed on %s (status %d): run gnuplot %s to see why",
			script, status, script);
	return 0;
}

static void gd_script_path(char *buf, size_t len, const char *svg_path)
{
	size_t n = strlen(svg_path);

	if (n > 4 && !strcmp(svg_path + n - 4, ".svg"))
		n -= 4;
	snprintf(buf, len, "%.*s.gp", (int)n, svg_path);
}

int gd_plot_write(struct json_object *doc, const char *svg_path, char *note,
		  size_t note_len)
{
	struct json_object *phases = gd_json_path(doc, "phases", NULL);
	const char *bw_unit =
		gd_json_str(gd_json_path(doc, "units", NULL), "bw");
	bool gbits = bw_unit && !strcmp(bw_unit, "Gb/s");
	bool lat = gd_doc_is_lat(doc);
	char script[PATH_MAX], prog[PATH_MAX];
	unsigned int nblocks;
	FILE *f;

	if (note && note_len)
		note[0] = '\0';
	if (!svg_path || !svg_path[0] || !phases)
		return gd_err(
			-EINVAL,
			"plot: need an output path and a document with phases[]");
	gd_script_path(script, sizeof(script), svg_path);
	f = fopen(script, "w");
	if (!f)
		return gd_err(
			-errno,
			"plot: cannot write gnuplot script %s: %s; check the directory of --plot",
			script, strerror(errno));
	gd_plot_header(f, doc, svg_path, lat, gbits);
	nblocks = gd_plot_data(f, phases, lat,
			       gbits ? gd_MiBps_to_Gbps(1.0) : 1.0);
	if (nblocks && gd_json_path(doc, "comparison", NULL)) {
		fprintf(f, "set multiplot layout 2,1\n");
		gd_plot_curves(f, phases, lat);
		gd_plot_ratio_panel(f, doc, lat);
		fprintf(f, "unset multiplot\n");
	} else if (nblocks) {
		gd_plot_curves(f, phases, lat);
	}
	if (fclose(f))
		return gd_err(-EIO, "plot: writing %s failed; check free space",
			      script);
	if (!nblocks)
		return gd_err(
			-ENODATA,
			"plot: no phase produced results, nothing to draw in %s",
			svg_path);
	if (!gd_find_gnuplot(prog, sizeof(prog))) {
		if (note && note_len)
			snprintf(
				note, note_len,
				"gnuplot not installed: wrote script %s; run gnuplot %s",
				script, script);
		return GD_PLOT_NO_GNUPLOT;
	}
	return gd_run_gnuplot(prog, script);
}
