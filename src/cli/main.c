/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_main: the whole life of one gd_* invocation from the command line:
 * parse it (--help and --version end there), then hand the options to the
 * engine, which runs and reports.
 */
#include <config.h>

#include <inttypes.h>
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

/* --dry-run writes nothing, also when the command line it checks is
 * refused before the option itself was read. */
static bool gd_argv_dry_run(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--dry-run"))
			return true;
	return false;
}

/*
 * --dry-run of a client is checked against a server started with no
 * options but the limits this command line gives (--max-memory,
 * --max-time, --max-qps, --max-memories stand for the server's); with
 * --loopback the server half runs these options themselves.
 */
static int gd_dry_run(const struct gd_test *test, struct gd_opts *o,
		      char **argv)
{
	char *sargv[] = { argv[0], NULL };
	char who[160] = "a server started with default limits";
	size_t used = strlen("a server started with");
	struct gd_opts so;
	int ret;

	if (o->loopback || !o->server_host)
		return gd_engine_dry_run(test, o, NULL, NULL);
	ret = gd_opts_parse(test, 1, sargv, &so, stdout);
	if (ret) {
		gd_report_error(NULL, test->name, ret, gd_err_msg());
		gd_opts_free(&so);
		return GD_EXIT_FAIL;
	}
	const struct {
		const char *name;
		uint64_t value;
	} limits[] = { { "max-memory", o->max_memory_bytes },
		       { "max-time", o->max_time_s },
		       { "max-qps", o->max_qps },
		       { "max-memories", o->max_memories } };
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (gd_opts_given(o, limits[i].name))
			used += (size_t)snprintf(who + used, sizeof(who) - used,
						 " --%s=%" PRIu64,
						 limits[i].name,
						 limits[i].value);
	so.max_memory_bytes = o->max_memory_bytes;
	so.max_time_s = o->max_time_s;
	so.max_qps = o->max_qps;
	so.max_memories = o->max_memories;
	ret = gd_engine_dry_run(test, o, &so, who);
	gd_opts_free(&so);
	return ret;
}

int gd_main(const struct gd_test *test, int argc, char **argv)
{
	struct gd_opts o;
	int ret;

	ret = gd_opts_parse(test, argc, argv, &o, stdout);
	/* what the options alone show cannot run is a usage error, before
	 * anything opens */
	if (!ret)
		ret = gd_opts_phases_here_check(&o);
	if (ret) {
		if (ret < 0) {
			gd_report_error(NULL, test->name, ret, gd_err_msg());
			if (!gd_argv_dry_run(argc, argv))
				gd_usage_document(test, &o, argc, argv);
		}
		gd_opts_free(&o);
		return gd_out_exit(test->name,
				   ret > 0 ? GD_EXIT_OK : GD_EXIT_USAGE);
	}
	ret = o.dry_run ? gd_dry_run(test, &o, argv)
			: gd_engine_run(test, &o, argc, argv);
	gd_opts_free(&o);
	return gd_out_exit(test->name, ret);
}
