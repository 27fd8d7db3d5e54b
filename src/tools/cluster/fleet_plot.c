/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Pictures for gd_report: the median curve of every rail and phase, and a
 * heat map of the association matrix (each association's value at the
 * largest size relative to its rail's median). Data and gnuplot scripts are
 * always written; SVGs appear when gnuplot is in PATH.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cluster/fleet.h"
#include "util/error.h"

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (n && !access(buf, X_OK))
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

static int run_gnuplot(const char *dir, const char *script)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (chdir(dir))
			_exit(127);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

/* The largest size grid among measured runs, and whether it is latency. */
static const struct gd_fleet_phase *size_grid(const struct gd_fleet *fl,
					      bool *lat)
{
	const struct gd_fleet_phase *best = NULL;
	size_t i;
	int p;

	for (i = 0; i < fl->n_runs; i++)
		for (p = 0;
		     fl->runs[i].have_measure && p < fl->runs[i].n_phases; p++)
			if (!best || fl->runs[i].phases[p].n > best->n) {
				best = &fl->runs[i].phases[p];
				*lat = fl->runs[i].lat;
			}
	return best;
}

static int write_rails(const struct gd_fleet *fl,
		       const struct gd_fleet_phase *grid, bool lat,
		       const char *dir)
{
	static const char *const phases[] = { "HH", "DD" };
	FILE *d = open_in(dir, "rails.dat"), *g = open_in(dir, "rails.gp");
	int rail, i, p;

	if (!d || !g)
		goto fail;
	fprintf(d, "bytes");
	for (rail = 0; rail < fl->rails; rail++)
		for (p = 0; p < 2; p++)
			fprintf(d, " rail%d-%s", rail, phases[p]);
	fprintf(d, "\n");
	for (i = 0; i < grid->n; i++) {
		fprintf(d, "%.0f", grid->size_bytes[i]);
		for (rail = 0; rail < fl->rails; rail++)
			for (p = 0; p < 2; p++) {
				double v = gd_fleet_rail_value(
					fl, rail, phases[p],
					grid->size_bytes[i]);

				fprintf(d, isnan(v) ? " NaN" : " %.3f", v);
			}
		fprintf(d, "\n");
	}
	fprintf(g,
		"set terminal svg size 900,600\nset output 'rails.svg'\n"
		"set logscale x 2\nset key outside right\nset datafile "
		"missing 'NaN'\nset xlabel 'message size [bytes]'\n"
		"set ylabel '%s'\nset title 'median per rail (HH solid, DD "
		"dashed)'\nplot",
		lat ? "typical latency [usec]" : "average bandwidth [MiB/s]");
	for (i = 2; i <= 1 + 2 * fl->rails; i++)
		fprintf(g,
			"%s 'rails.dat' using 1:%d with linespoints lc %d "
			"dt %d title columnheader(%d)",
			i > 2 ? "," : "", i, i / 2, i % 2 ? 2 : 1, i);
	fprintf(g, "\n");
	if (fclose(d) | fclose(g))
		return -EIO;
	return 0;
fail:
	if (d)
		fclose(d);
	if (g)
		fclose(g);
	return -errno;
}

static int write_heat(const struct gd_fleet *fl, double ref, const char *dir)
{
	FILE *d = open_in(dir, "associations.dat");
	FILE *g = open_in(dir, "associations.gp");
	const char *phase = "DD";
	int gpu;
	size_t h;

	if (!d || !g)
		goto fail;
	if (isnan(gd_fleet_rail_value(fl, 0, "DD", ref)))
		phase = "HH";
	for (h = 0; h < fl->n_hosts; h++) {
		for (gpu = 0; gpu < fl->gpus_per_server; gpu++) {
			int rail = fl->hosts[h].gpu_rail
					   ? fl->hosts[h].gpu_rail[gpu]
					   : gpu;
			double v = gd_fleet_assoc_value(fl, (int)h, gpu, phase,
							ref) /
				   gd_fleet_rail_value(fl, rail, phase, ref);

			if (isnan(v))
				fprintf(d, "%d %zu NaN\n", gpu, h);
			else
				fprintf(d, "%d %zu %.3f\n", gpu, h, v);
		}
		fprintf(d, "\n");
	}
	fprintf(g,
		"set terminal svg size 900,%zu\nset output "
		"'associations.svg'\nset title '%s at %.0f bytes relative to "
		"the rail median (1 = typical, blank = untested)'\n"
		"set xlabel 'GPU'\nset cbrange [0.5:1.1]\nset palette "
		"defined (0.5 'red', 0.9 'yellow', 1 'white')\nset datafile "
		"missing 'NaN'\nset ytics (",
		200 + 20 * fl->n_hosts, phase, ref);
	for (h = 0; h < fl->n_hosts; h++)
		fprintf(g, "%s'%s' %zu", h ? ", " : "", fl->hosts[h].name, h);
	fprintf(g, ")\nplot 'associations.dat' using 1:2:3 with image "
		   "notitle\n");
	if (fclose(d) | fclose(g))
		return -EIO;
	return 0;
fail:
	if (d)
		fclose(d);
	if (g)
		fclose(g);
	return -errno;
}

int gd_fleet_plot(const struct gd_fleet *fl, const char *dir, char *note,
		  size_t note_len)
{
	bool lat = false;
	const struct gd_fleet_phase *grid = size_grid(fl, &lat);
	int ret;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return gd_err(-errno, "--plots: cannot create '%s': %s", dir,
			      strerror(errno));
	/* A measured run may list phases without a single size row. */
	if (!grid || !grid->n) {
		snprintf(note, note_len, "no measured run: nothing to plot");
		return 0;
	}
	ret = write_rails(fl, grid, lat, dir);
	if (!ret)
		ret = write_heat(fl, grid->size_bytes[grid->n - 1], dir);
	if (ret)
		return gd_err(ret,
			      "--plots: cannot write the plot data in "
			      "'%s'",
			      dir);
	if (!in_path("gnuplot")) {
		snprintf(note, note_len,
			 "gnuplot is not in PATH: wrote "
			 "%s/rails.gp and %s/associations.gp; run gnuplot on "
			 "them to get the SVGs",
			 dir, dir);
		return 0;
	}
	if (run_gnuplot(dir, "rails.gp") || run_gnuplot(dir, "associations.gp"))
		return gd_err(-EIO,
			      "--plots: gnuplot failed on the scripts in "
			      "'%s'; run it by hand to see why",
			      dir);
	snprintf(note, note_len, "wrote %s/rails.svg and %s/associations.svg",
		 dir, dir);
	return 0;
}
