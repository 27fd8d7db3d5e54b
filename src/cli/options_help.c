/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --help: the usage text of one test, drawn from the option table, within
 * 80 columns: the comparison's options first, then only the options that
 * apply to the test, by group, each with its range and the test's own
 * default, then the test's examples. --help=all adds the options that have
 * no effect and perftest's options gdperf refuses.
 */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/options_priv.h"
#include "util/exit.h"
#include "util/opt.h"

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

/* The comparison gdperf adds to perftest: these lead --help, in this
 * order, before the groups (which then leave them out). */
static const char *const gd_help_lead[] = {
	"mem", "phases", "reverse", "repeat", "expect-ratio", "json",
};
#define GD_NLEAD (sizeof(gd_help_lead) / sizeof(gd_help_lead[0]))

static bool gd_help_is_lead(const struct gd_opt_def *d)
{
	for (size_t i = 0; i < GD_NLEAD; i++)
		if (!strcmp(d->long_name, gd_help_lead[i]))
			return true;
	return false;
}

/* One option's line, in the layout of every program (util/opt.h). */
static void gd_opt_line(const struct gd_test *test, const struct gd_opt_def *d,
			FILE *out)
{
	char meta[64], range[80], dflt[160], text[640];
	const char *arg = d->arg;
	size_t n;

	if (d->type == GD_T_CONN) {
		gd_conn_meta(test, meta, sizeof(meta));
		arg = meta;
	}
	gd_opt_range_text(d, range, sizeof(range));
	gd_opt_default_text(test, d, dflt, sizeof(dflt));
	n = (size_t)snprintf(text, sizeof(text), "%s", d->help);
	if ((range[0] || dflt[0]) && n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, " (%s%s%s%s)", range,
			 range[0] && dflt[0] ? "; " : "",
			 dflt[0] ? "default " : "", dflt);
	gd_opt_help_line(out, d->short_name, d->long_name,
			 !arg			    ? GD_OPT_NOARG
			 : (d->flags & GD_F_OPTARG) ? GD_OPT_OPTARG
						    : GD_OPT_ARG,
			 arg, text);
}

/* The paragraph that says what @test measures, wrapped. */
static void gd_usage_head(const struct gd_test *test, FILE *out)
{
	const struct gd_verb_desc *v = test->verb;
	char conns[32], what[512];
	size_t n;

	gd_conn_meta(test, conns, sizeof(conns));
	fprintf(out,
		"Usage: %s [options]            start a server\n"
		"       %s [options] HOST       start a client and connect to HOST\n"
		"       %s [options] --loopback both ends in one invocation\n\n",
		test->name, test->name, test->name);
	n = (size_t)snprintf(
		what, sizeof(what),
		"%s measures RDMA %s %s with host buffers and, when --mem names device memory, with device buffers, the phases interleaved size by size. ",
		test->name, v->name,
		test->measure == GD_MEASURE_BW ? "bandwidth" : "latency");
	if (n < sizeof(what) && test->measure == GD_MEASURE_BW)
		n += (size_t)snprintf(
			what + n, sizeof(what) - n,
			"The initiator keeps up to -t requests in flight on each QP.");
	else if (n < sizeof(what))
		n += (size_t)snprintf(what + n, sizeof(what) - n,
				      "Latency is %s.", v->lat_means);
	gd_opt_help_wrap(out, what, 0, 0);
	fprintf(out, "Connection types: %s. See gdperf(7).\n", conns);
}

/* Is option @d on this --help: it applies to @test, and it has an effect
 * unless @all asks for everything. */
static bool gd_help_shows(const struct gd_test *test,
			  const struct gd_opt_def *d, bool all)
{
	return gd_opt_applies(test, d) && (all || !(d->flags & GD_F_NOOP));
}

static void gd_usage_lead(const struct gd_test *test, FILE *out)
{
	fprintf(out, "\nComparing host and device memory:\n");
	for (size_t k = 0; k < GD_NLEAD; k++) {
		int i = gd_opt_find(gd_help_lead[k], strlen(gd_help_lead[k]));

		if (i >= 0 && gd_opt_applies(test, &gd_opt_table[i]))
			gd_opt_line(test, &gd_opt_table[i], out);
	}
}

static void gd_usage_group(const struct gd_test *test, enum gd_opt_group g,
			   bool all, FILE *out)
{
	bool any = false;

	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		if (d->group != g || gd_help_is_lead(d) ||
		    !gd_help_shows(test, d, all))
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

/* --help=all: perftest's options of this test's ib_ counterpart that
 * gdperf refuses; given, each stops the run and says why. */
static void gd_usage_refused(const struct gd_test *test, FILE *out)
{
	const char *name, *what;
	int c;
	bool any = false;

	for (size_t i = 0; i < gd_opts_perftest_refused_count(); i++) {
		if (!gd_perftest_refused_entry(test, i, &name, &c, &what))
			continue;
		if (!any)
			fprintf(out,
				"\nperftest's options gdperf refuses (each says why when given):\n");
		any = true;
		gd_opt_help_line(out, c, name, GD_OPT_NOARG, NULL, what);
	}
}

/* What plain --help leaves out, and how to see it. */
static void gd_usage_hidden(const struct gd_test *test, FILE *out)
{
	size_t noop = 0;

	for (size_t i = 0; i < GD_NOPTS; i++)
		noop += gd_opt_applies(test, &gd_opt_table[i]) &&
			(gd_opt_table[i].flags & GD_F_NOOP);
	fprintf(out, "\n");
	gd_opt_help_wrap(
		out,
		noop ? "Not shown: perftest's options that have no effect here and those gdperf refuses; --help=all lists them."
		     : "Not shown: perftest's options gdperf refuses; --help=all lists them.",
		0, 0);
}

void gd_opts_usage(const struct gd_test *test, bool all, FILE *out)
{
	char line[512];

	gd_usage_head(test, out);
	gd_usage_lead(test, out);
	for (int g = 0; g < GD_G_COUNT; g++)
		gd_usage_group(test, (enum gd_opt_group)g, all, out);
	if (all)
		gd_usage_refused(test, out);
	else
		gd_usage_hidden(test, out);
	fprintf(out, "\nExamples:\n");
	for (int e = 0; e < GD_MAX_EXAMPLES && test->examples[e].cmd; e++) {
		fprintf(out, "  %s\n      ", test->examples[e].cmd);
		gd_opt_help_wrap(out, test->examples[e].what, 6, 6);
	}
	gd_exit_help(GD_EXIT_ALL, line, sizeof(line));
	fprintf(out, "\n%s\n", line);
}

void gd_opts_list_long(FILE *out)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		fprintf(out, "%s\n", gd_opt_table[i].long_name);
}
