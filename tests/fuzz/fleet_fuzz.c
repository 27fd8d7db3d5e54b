/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for what gd_report reads: up to eight JSON documents
 * separated by NUL bytes. The first is tried as the --plan (gdperf.plan/1);
 * the others (and the first, when it is no plan) go into the results
 * directory as gd_* run documents and gd_doctor envelopes. Then the whole
 * report: analysis, classification, the document, Markdown and plots.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
#include "util/error.h"
#include "fuzz_util.h"

static void gd_fuzz_report(struct gd_fleet *fl, const char *dir)
{
	struct json_object *doc;
	char path[512], note[512];

	if (gd_fleet_ingest_dir(fl, dir) || gd_fleet_analyze(fl) ||
	    gd_fleet_classify(fl))
		return;
	doc = gd_fleet_document(fl);
	if (!doc)
		return;
	gd_fleet_write_markdown(doc, "/dev/null");
	snprintf(path, sizeof(path), "%s/report.json", gd_fuzz_scratch());
	gd_fleet_write_json(doc, path);
	json_object_put(doc);
	snprintf(path, sizeof(path), "%s/plots", gd_fuzz_scratch());
	gd_fleet_plot(fl, path, note, sizeof(note));
}

static void gd_fuzz_fleet_init(struct gd_fleet *fl)
{
	memset(fl, 0, sizeof(*fl));
	/* gd_report's defaults. */
	fl->opt.mad_k = 3.5;
	fl->opt.min_dev = 0.10;
	fl->opt.max_cv = 0.05;
	fl->opt.expect_ratio = 0.9;
	fl->opt.gate_from_bytes = 65536;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char results[512];
	struct gd_fuzz_chunk c[GD_FUZZ_MAX_CHUNKS];
	size_t i, n = gd_fuzz_split(data, size, c, GD_FUZZ_MAX_CHUNKS);
	char path[512], name[32];
	struct gd_fleet fl;
	size_t first = 1;

	if (!results[0]) {
		/* Plots: the .gp scripts only, never a gnuplot per input. */
		setenv("PATH", "/nonexistent", 1);
		snprintf(results, sizeof(results), "%s/results",
			 gd_fuzz_scratch());
	}
	gd_fuzz_clean_dir(gd_fuzz_scratch());
	if (mkdir(results, 0700))
		abort();
	gd_err_clear();
	gd_fuzz_fleet_init(&fl);
	gd_fuzz_write("plan.json", &c[0], path, sizeof(path));
	if (gd_fleet_load_plan(&fl, path)) {
		gd_fleet_free(&fl);
		gd_fuzz_fleet_init(&fl);
		gd_err_clear();
		first = 0;
	}
	for (i = first; i < n; i++) {
		snprintf(name, sizeof(name), "results/doc%zu.json", i);
		gd_fuzz_write(name, &c[i], path, sizeof(path));
	}
	gd_fuzz_report(&fl, results);
	gd_fleet_free(&fl);
	return 0;
}
