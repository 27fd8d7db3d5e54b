/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_main: the whole life of one gd_* invocation from the command line:
 * parse it (--help and --version end there), then hand the options to the
 * engine, which runs and reports.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/main.h"
#include "cli/options.h"
#include "engine/engine.h"
#include "report/report.h"
#include "util/error.h"
#include "util/output.h"

/* Bad input still leaves the one JSON document a CI lab expects (and its
 * JUnit and OpenMetrics files), when their paths were parsed before the
 * error. */
static void gd_usage_document(const struct gd_test *test,
			      const struct gd_opts *o, int argc, char **argv)
{
	bool json = o->json_path && strcmp(o->json_path, "-");
	struct gd_report_cfg cfg = { .tool = test->name,
				     .version = PACKAGE_VERSION,
				     .measure = test->measure,
				     .json_path = json ? o->json_path : NULL,
				     .metrics_path = o->metrics_path,
				     .metrics_sizes = o->metrics_sizes,
				     .junit_path = o->junit_path };
	struct gd_report *rep;

	if (!json && !o->metrics_path && !o->junit_path)
		return;
	rep = gd_report_new(&cfg, argc, argv);
	if (!rep)
		return;
	gd_report_set_error(rep, gd_err_code(), gd_err_msg());
	gd_report_finish(rep, GD_EXIT_USAGE);
	gd_report_free(rep);
}

int gd_main(const struct gd_test *test, int argc, char **argv)
{
	struct gd_opts o;
	int ret;

	ret = gd_opts_parse(test, argc, argv, &o, stdout);
	if (ret) {
		if (ret < 0) {
			gd_report_error(NULL, test->name, ret, gd_err_msg());
			gd_usage_document(test, &o, argc, argv);
		}
		gd_opts_free(&o);
		return gd_out_exit(test->name,
				   ret > 0 ? GD_EXIT_OK : GD_EXIT_USAGE);
	}
	ret = gd_engine_run(test, &o, argc, argv);
	gd_opts_free(&o);
	return gd_out_exit(test->name, ret);
}
