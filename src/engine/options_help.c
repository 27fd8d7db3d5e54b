/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --help: the usage text of one test, drawn from the option table.
 */
#include <config.h>

#include <stdio.h>

#include "engine/options.h"
#include "engine/options_priv.h"

void gd_opts_usage(const struct gd_test *test, FILE *out)
{
	fprintf(out,
		"Usage: %s [options]          start a server\n"
		"       %s [options] HOST     start a client and connect to HOST\n"
		"       %s [options] --loopback   both ends in one invocation\n\n"
		"%s measures RDMA %s %s, first with host buffers and then with\n"
		"device buffers when --mem names a GPU. See %s(1).\n\nOptions:\n",
		test->name, test->name, test->name, test->name,
		test->verb->name,
		test->measure == GD_MEASURE_BW ? "bandwidth" : "latency",
		test->name);
	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];
		char left[64];

		snprintf(left, sizeof(left), "%c%c%s--%s%s%s%s",
			 d->short_name ? '-' : ' ',
			 d->short_name ? d->short_name : ' ',
			 d->short_name ? ", " : "  ", d->long_name,
			 d->arg ? ((d->flags & GD_F_OPTARG) ? "[=" : "=") : "",
			 d->arg ? d->arg : "",
			 (d->flags & GD_F_OPTARG) ? "]" : "");
		fprintf(out, "  %-30s %s\n", left, d->help);
	}
	fprintf(out,
		"\nExit status: 0 success, 1 test failed or runtime error, 2 usage or bad input, 3 a gate failed.\n");
}

void gd_opts_list_long(FILE *out)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		fprintf(out, "%s\n", gd_opt_table[i].long_name);
}
