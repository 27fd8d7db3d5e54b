/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --help: the usage text of one test, drawn from the option table: only the
 * options that apply to the test, by group, each with its range and the
 * test's own default, then the test's examples.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/options_priv.h"

static const char *const gd_group_titles[GD_G_COUNT] = {
	[GD_G_PERFTEST] = "perftest's options (the letters and meanings of ib_",
	[GD_G_SHAPE] = "gdperf's run shape",
	[GD_G_MEMORY] = "Memory and GPU",
	[GD_G_PAIRED] = "Paired runs (phases, rounds, statistics)",
	[GD_G_GATES] =
		"Gates (exit status 3 when one fails, 4 when one is undecided)",
	[GD_G_OUTPUT] = "Output",
};

/* 65536 -> "64K": the largest of K/M/G that divides @v exactly. */
static void gd_size_text(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "KMG";
	int k = -1;

	while (k < 2 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		k++;
	}
	if (k < 0)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[k]);
}

/* "1..256" for numbers; "" when the type has no range worth saying. */
static void gd_opt_range_text(const struct gd_opt_def *d, char *buf, size_t len)
{
	char lo[24], hi[24];

	buf[0] = '\0';
	switch (d->type) {
	case GD_T_U64:
	case GD_T_I64:
		snprintf(buf, len, "%" PRId64 "..%" PRId64, d->min, d->max);
		return;
	case GD_T_SIZE:
		gd_size_text((uint64_t)d->min, lo, sizeof(lo));
		gd_size_text((uint64_t)d->max, hi, sizeof(hi));
		snprintf(buf, len, "%s..%s", lo, hi);
		return;
	case GD_T_DBL:
		if (d->max < 1000000)
			snprintf(buf, len, "%" PRId64 "..%" PRId64, d->min,
				 d->max);
		return;
	default:
		return;
	}
}

void gd_opt_default_text(const struct gd_test *test, const struct gd_opt_def *d,
			 char *buf, size_t len)
{
	struct gd_opts o;
	const char *base;

	buf[0] = '\0';
	if (d->dflt) {
		snprintf(buf, len, "%s", d->dflt);
		return;
	}
	gd_opts_defaults(test, &o);
	base = (const char *)&o + d->offset;
	switch (d->type) {
	case GD_T_U64:
	case GD_T_SIZE:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)base);
		return;
	case GD_T_I64:
		snprintf(buf, len, "%" PRId64, *(const int64_t *)base);
		return;
	case GD_T_DBL:
		snprintf(buf, len, "%g", *(const double *)base);
		return;
	default:
		return;
	}
}

/* "RC|UC": the connection types of @test, as -c's metavariable. */
static void gd_conn_meta(const struct gd_test *test, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < 3 && off < len; c++)
		if (test->conn_mask & GD_CONN_BIT(c))
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
						off ? "|" : "",
						gd_conn_names[c]);
}

static void gd_opt_line(const struct gd_test *test, const struct gd_opt_def *d,
			FILE *out)
{
	char left[96], meta[64], range[80], dflt[160], tail[320] = "";
	const char *arg = d->arg;

	if (d->type == GD_T_CONN) {
		gd_conn_meta(test, meta, sizeof(meta));
		arg = meta;
	}
	snprintf(left, sizeof(left), "%c%c%s--%s%s%s%s",
		 d->short_name ? '-' : ' ', d->short_name ? d->short_name : ' ',
		 d->short_name ? ", " : "  ", d->long_name,
		 arg ? ((d->flags & GD_F_OPTARG) ? "[=" : "=") : "",
		 arg ? arg : "", (d->flags & GD_F_OPTARG) ? "]" : "");
	gd_opt_range_text(d, range, sizeof(range));
	gd_opt_default_text(test, d, dflt, sizeof(dflt));
	if (range[0] || dflt[0])
		snprintf(tail, sizeof(tail), " (%s%s%s%s)", range,
			 range[0] && dflt[0] ? "; " : "",
			 dflt[0] ? "default " : "", dflt);
	/* two blanks at least between the columns: completion reads the
	 * option column up to them */
	fprintf(out, "  %-30s %s%s%s\n", left, strlen(left) >= 30 ? " " : "",
		d->help, tail);
}

static void gd_usage_head(const struct gd_test *test, FILE *out)
{
	const struct gd_verb_desc *v = test->verb;
	char conns[32];

	gd_conn_meta(test, conns, sizeof(conns));
	fprintf(out,
		"Usage: %s [options]            start a server\n"
		"       %s [options] HOST       start a client and connect to HOST\n"
		"       %s [options] --loopback both ends in one invocation\n\n",
		test->name, test->name, test->name);
	fprintf(out,
		"%s measures RDMA %s %s, first with host buffers and then with\n"
		"device buffers when --mem names a GPU. ",
		test->name, v->name,
		test->measure == GD_MEASURE_BW ? "bandwidth" : "latency");
	if (test->measure == GD_MEASURE_BW)
		fprintf(out,
			"The initiator keeps up to -t requests\nin flight on each QP.");
	else
		fprintf(out, "Latency is %s.", v->lat_means);
	fprintf(out, "\nConnection types: %s. See gdperf(7).\n", conns);
}

void gd_opts_usage(const struct gd_test *test, FILE *out)
{
	gd_usage_head(test, out);
	for (int g = 0; g < GD_G_COUNT; g++) {
		bool any = false;

		for (size_t i = 0; i < GD_NOPTS; i++) {
			const struct gd_opt_def *d = &gd_opt_table[i];

			if (d->group != (enum gd_opt_group)g ||
			    !gd_opt_applies(test, d))
				continue;
			if (!any && g == GD_G_PERFTEST)
				fprintf(out, "\n%s%s):\n", gd_group_titles[g],
					test->name + 3);
			else if (!any)
				fprintf(out, "\n%s:\n", gd_group_titles[g]);
			any = true;
			gd_opt_line(test, d, out);
		}
	}
	fprintf(out, "\nExamples:\n");
	for (int e = 0; e < GD_MAX_EXAMPLES && test->examples[e].cmd; e++)
		fprintf(out, "  %s\n      %s\n", test->examples[e].cmd,
			test->examples[e].what);
	fprintf(out,
		"\nExit status: 0 success, 1 test failed or runtime error, 2 usage or bad input, 3 a gate failed, 4 not enough evidence to decide a gate.\n");
}

void gd_opts_list_long(FILE *out)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		fprintf(out, "%s\n", gd_opt_table[i].long_name);
}
