/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report: aggregate a directory of gd_* result documents and gd_doctor
 * envelopes into a fleet report (coverage, curves, outliers, failure
 * domains, acceptance checklist) in Markdown and JSON, with SVG plots.
 * Exit status for CI (util/exit.h): 0 every gate passes, 3 one failed, 4
 * none failed and the ratio gate is undecided (--gate-undecided), 2 bad
 * input, 1 a report not written.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_ci.h"
#include "util/error.h"
#include "util/exit.h"
#include "util/opt.h"
#include "util/output.h"

enum {
	OPT_PLAN = 256,
	OPT_MD,
	OPT_JSON,
	OPT_PLOTS,
	OPT_MAD_K,
	OPT_MIN_DEV,
	OPT_MAX_CV,
	OPT_RATIO,
	OPT_GATE_FROM,
	OPT_JUNIT,
	OPT_METRICS,
	OPT_PROM,
	OPT_UNDECIDED
};

/* The options, in the table form of every program (util/opt.h). */
static const struct gd_opt gd_report_opts[] = {
	{ "plan", 0, GD_OPT_ARG, "FILE",
	  "the gd_plan JSON: what was intended (coverage)", OPT_PLAN, 0 },
	{ "markdown", 0, GD_OPT_ARG, "FILE",
	  "Markdown report (default stdout; '-' stdout)", OPT_MD, 0 },
	{ "json", 0, GD_OPT_ARG, "FILE",
	  "the same as one JSON document (gdperf.fleet/1)", OPT_JSON, 0 },
	{ "junit", 0, GD_OPT_ARG, "FILE",
	  "the gates and campaign requirements as JUnit XML (one testsuite; open requirements are skipped)",
	  OPT_JUNIT, 0 },
	{ "openmetrics", 0, GD_OPT_ARG, "FILE",
	  "the gates and counts as OpenMetrics gauges", OPT_METRICS, 0 },
	{ "prom-textfile", 0, GD_OPT_ARG, "FILE",
	  "the same as Prometheus text, for node_exporter's textfile collector (FILE.prom)",
	  OPT_PROM, 0 },
	{ "plots", 0, GD_OPT_ARG, "DIR",
	  "rails.svg and associations.svg via gnuplot (the .gp scripts and data are written either way)",
	  OPT_PLOTS, 0 },
	{ "mad-k", 0, GD_OPT_ARG, "K",
	  "outlier threshold in scaled MADs (default 3.5)", OPT_MAD_K, 0 },
	{ "min-deviation", 0, GD_OPT_ARG, "F",
	  "and at least this relative deviation (default 0.10)", OPT_MIN_DEV,
	  0 },
	{ "max-cv", 0, GD_OPT_ARG, "F",
	  "repeatability gate: coefficient of variation across repeats, as a fraction (default 0.05 = 5%)",
	  OPT_MAX_CV, 0 },
	{ "expect-ratio", 0, GD_OPT_ARG, "R",
	  "gate: every D phase at least R x HH bandwidth, each series judged from every round of its repeats by the run's rule (see gdperf(7))",
	  OPT_RATIO, 0 },
	{ "gate-from", 0, GD_OPT_ARG, "SIZE",
	  "judge sizes from SIZE bytes up, K/M/G suffixes (default 64K; a shorter curve: its largest size)",
	  OPT_GATE_FROM, 0 },
	{ "gate-undecided", 0, GD_OPT_ARG, "fail|pass|undecided",
	  "a ratio gate the evidence cannot decide: exit 4 as a failed gate (fail, default) or as undecided, or pass",
	  OPT_UNDECIDED, 0 },
	{ "help", 'h', GD_OPT_NOARG, NULL, "this help", GD_OPT_ID_HELP, 0 },
	{ "version", 'V', GD_OPT_NOARG, NULL, "print the version",
	  GD_OPT_ID_VERSION, 0 },
};
#define GD_REPORT_NOPTS (sizeof(gd_report_opts) / sizeof(gd_report_opts[0]))

static const struct gd_opt_prog gd_report_prog = {
	.name = "gd_report",
	.usage =
		"Usage: gd_report [options] DIR\n"
		"Aggregate run documents (gdperf.run/1 to /4) and gd_doctor documents\n"
		"(gdperf.doctor/1) under DIR; another version of either is refused.",
	.opts = gd_report_opts,
	.n = GD_REPORT_NOPTS,
	.exits = GD_EXIT_ALL,
};

static int parse_frac(const char *opt, const char *s, double min, double max,
		      double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < min || v > max)
		return gd_err(-EINVAL,
			      "--%s: '%s' is not a number from %g to "
			      "%g",
			      opt, s, min, max);
	*out = v;
	return 0;
}

static int parse_size(const char *s, double *out)
{
	char *end;
	unsigned long long v;
	double mult = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		mult = 1024.0, end++;
	else if (*end == 'M' || *end == 'm')
		mult = 1024.0 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		mult = 1024.0 * 1024 * 1024, end++;
	if (!*s || *s == '-' || *end || errno)
		return gd_err(-EINVAL,
			      "--gate-from: '%s' is not a size in "
			      "bytes (K, M, G suffixes are 2^10, 2^20, 2^30)",
			      s);
	*out = (double)v * mult;
	return 0;
}

/* --gate-undecided takes a policy word, exactly. */
static int parse_undecided(const char *s, enum gd_fleet_undecided *out)
{
	static const enum gd_fleet_undecided all[] = {
		GD_FLEET_UNDECIDED_FAIL,
		GD_FLEET_UNDECIDED_PASS,
		GD_FLEET_UNDECIDED_KEEP,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, gd_fleet_undecided_name(all[i]))) {
			*out = all[i];
			return 0;
		}
	return gd_err(-EINVAL,
		      "--gate-undecided: '%s' is not one of the accepted "
		      "values fail, pass, undecided",
		      s);
}

struct args {
	const char *plan, *markdown, *json, *plots, *dir, *junit, *metrics;
	const char *prom;
	/* every .json file under dir was skipped, some as unreadable: the
	 * reports still name them, and the status is 2, bad input */
	bool unreadable_only;
};

struct parse_ctx {
	struct gd_fleet_opts *o;
	struct args *a;
};

static int parse_opt(void *ctx, const struct gd_opt *opt, const char *arg)
{
	struct gd_fleet_opts *o = ((struct parse_ctx *)ctx)->o;
	struct args *a = ((struct parse_ctx *)ctx)->a;

	switch (opt->id) {
	case OPT_PLAN:
		a->plan = arg;
		return 0;
	case OPT_MD:
		a->markdown = arg;
		return 0;
	case OPT_JSON:
		a->json = arg;
		return 0;
	case OPT_JUNIT:
		a->junit = arg;
		return 0;
	case OPT_METRICS:
		a->metrics = arg;
		return 0;
	case OPT_PROM:
		a->prom = arg;
		return 0;
	case OPT_PLOTS:
		a->plots = arg;
		return 0;
	case OPT_MAD_K:
		return parse_frac("mad-k", arg, 0, 100, &o->mad_k);
	case OPT_MIN_DEV:
		return parse_frac("min-deviation", arg, 0, 1, &o->min_dev);
	case OPT_MAX_CV:
		return parse_frac("max-cv", arg, 0, 10, &o->max_cv);
	case OPT_RATIO:
		return parse_frac("expect-ratio", arg, 0, 10, &o->expect_ratio);
	case OPT_GATE_FROM:
		return parse_size(arg, &o->gate_from_bytes);
	default: /* OPT_UNDECIDED */
		return parse_undecided(arg, &o->undecided);
	}
}

static int parse_args(int argc, char **argv, struct gd_fleet_opts *o,
		      struct args *a)
{
	struct parse_ctx ctx = { o, a };
	int first, ret;

	ret = gd_opt_parse(&gd_report_prog, argc, argv, parse_opt, &ctx,
			   &first);
	if (ret)
		return ret;
	if (first != argc - 1)
		return gd_err(-EINVAL, "give exactly one results directory; "
				       "see gd_report --help");
	a->dir = argv[first];
	return 0;
}

/* Exit status 3 or 4 says why on stderr, one line per gate that did not
 * pass, since the Markdown may be in a file nobody opens; only once every
 * output is written, since one that is not makes the status 1. */
static void say_failed_gates(struct json_object *doc, const struct args *a)
{
	struct json_object *acc, *gates = NULL, *g, *v;
	int status =
		json_object_get_int(json_object_object_get(doc, "exit_status"));
	size_t i, n;

	if (json_object_object_get_ex(doc, "acceptance", &acc))
		json_object_object_get_ex(acc, "gates", &gates);
	n = json_object_is_type(gates, json_type_array)
		    ? json_object_array_length(gates)
		    : 0;
	for (i = 0; i < n; i++) {
		const char *st;

		g = json_object_array_get_idx(gates, i);
		if (json_object_object_get_ex(g, "pass", &v) &&
		    json_object_get_boolean(v))
			continue;
		st = json_object_get_string(json_object_object_get(g, "state"));
		fprintf(stderr, "gd_report: %s (exit %d): gate %s: %s\n",
			st && !strcmp(st, "undecided") ? "UNDECIDED" : "FAIL",
			status,
			json_object_get_string(
				json_object_object_get(g, "name")),
			json_object_get_string(
				json_object_object_get(g, "detail")));
	}
	fprintf(stderr, "gd_report: the report: %s\n",
		a->markdown && strcmp(a->markdown, "-") ? a->markdown
							: "stdout");
}

/* One document, built once: the Markdown is rendered from it, the JSON is
 * it, and the exit status is its verdict. */
static int report(struct gd_fleet *fl, const struct args *a, int *status)
{
	struct json_object *doc = gd_fleet_document(fl), *p;
	char note[512] = "";
	int ret;

	if (!doc)
		return gd_err_code();
	*status = json_object_object_get_ex(doc, "exit_status", &p)
			  ? json_object_get_int(p)
			  : GD_EXIT_GATE_FAILED;
	ret = gd_fleet_write_markdown(doc, a->markdown ? a->markdown : "-");
	if (!ret && a->json)
		ret = gd_fleet_write_json(doc, a->json);
	if (!ret && a->junit)
		ret = gd_fleet_write_junit(doc, a->junit, a->dir, a->json);
	if (!ret && a->metrics)
		ret = gd_fleet_write_metrics(doc, a->metrics,
					     GD_METRICS_OPENMETRICS);
	if (!ret && a->prom)
		ret = gd_fleet_write_metrics(doc, a->prom, GD_METRICS_PROM);
	if (!ret && a->plots)
		ret = gd_fleet_plot(fl, a->plots, note, sizeof(note));
	if (note[0])
		fprintf(stderr, "gd_report: plots: %s\n", note);
	/* stdout too: the Markdown may sit in its buffer */
	if (!ret && *status && !a->unreadable_only && !fflush(stdout) &&
	    !ferror(stdout))
		say_failed_gates(doc, a);
	json_object_put(doc);
	return ret;
}

int main(int argc, char **argv)
{
	struct gd_fleet fl = { .opt = { .mad_k = 3.5,
					.min_dev = 0.10,
					.max_cv = 0.05,
					.gate_from_bytes = 65536 } };
	struct args a = { 0 };
	int ret, status = GD_EXIT_USAGE, gates = GD_EXIT_GATE_FAILED;

	ret = parse_args(argc, argv, &fl.opt, &a);
	if (ret > 0)
		return gd_out_exit("gd_report", GD_EXIT_OK);
	if (!ret && a.plan)
		ret = gd_fleet_load_plan(&fl, a.plan);
	if (!ret)
		ret = gd_fleet_ingest_dir(&fl, a.dir);
	if (ret)
		goto out;
	a.unreadable_only = fl.n_unreadable && fl.n_skipped == fl.n_docs;
	status = GD_EXIT_FAIL;
	ret = gd_fleet_analyze(&fl);
	if (!ret)
		ret = gd_fleet_classify(&fl);
	if (!ret)
		ret = report(&fl, &a, &gates);
	if (!ret)
		status = gates;
	/* nothing to report but unreadable files: bad input, not a gate */
	if (!ret && a.unreadable_only) {
		ret = gd_err(-EINVAL,
			     "'%s' holds no run or gd_doctor document: %zu of "
			     "its %zu .json file(s) could not be read (named "
			     "above); check the directory the runs' --json "
			     "wrote to",
			     a.dir, fl.n_unreadable, fl.n_docs);
		status = GD_EXIT_USAGE;
	}
out:
	if (ret)
		gd_err_print("gd_report");
	gd_fleet_free(&fl);
	return gd_out_exit("gd_report", status);
}
