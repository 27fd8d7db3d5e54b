/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_compare: hold saved run documents against each other (today's run
 * against a golden one, node A against node B) or one document against
 * another floor, judged by the same code as the run, with the run's
 * verdict lines and exit statuses.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/metrics.h"
#include "report/plot.h"
#include "tools/compare/compare_tool.h"
#include "util/error.h"
#include "util/exit.h"
#include "util/json_get.h"
#include "util/opt.h"
#include "util/output.h"
#include "util/parse.h"

enum {
	OPT_RATIO = 256,
	OPT_GATE_FROM,
	OPT_PHASE,
	OPT_DIRECTION,
	OPT_JSON,
	OPT_UNDECIDED,
	OPT_PLOT,
	OPT_JUNIT,
	OPT_METRICS,
	OPT_PROM,
};

/* The options, in the table form of every program (util/opt.h). */
static const struct gd_opt gd_compare_opts[] = {
	{ "expect-ratio", 0, GD_OPT_ARG, "R",
	  "floor: candidate at least R x baseline (latency: baseline at least R x candidate's); default the baseline run's --expect-ratio, else 0.8",
	  OPT_RATIO, 0 },
	{ "gate-from", 0, GD_OPT_ARG, "BYTES",
	  "judge sizes from BYTES up, K/M/G suffixes; default the baseline run's --gate-from",
	  OPT_GATE_FROM, 0 },
	{ "phase", 0, GD_OPT_ARG, "NAME",
	  "phase compared across documents (default HH; DD, HD, DH or any placement both hold)",
	  OPT_PHASE, 0 },
	{ "direction", 0, GD_OPT_ARG, "forward|reverse|bidir",
	  "the phase's direction (default forward)", OPT_DIRECTION, 0 },
	{ "gate-undecided", 0, GD_OPT_ARG, "fail|pass",
	  "not enough evidence: exit 4 (fail, default) or 0", OPT_UNDECIDED,
	  0 },
	{ "json", 0, GD_OPT_ARG, "FILE",
	  "write a gdperf.compare/1 document ('-': stdout, the text then goes to stderr)",
	  OPT_JSON, 0 },
	{ "plot", 0, GD_OPT_ARG, "FILE.svg",
	  "each comparison's curves and ratio with its interval, as a run's --plot draws them (the second candidate's in FILE-2.svg, ...); HH is the baseline, DD the candidate",
	  OPT_PLOT, 0 },
	{ "junit", 0, GD_OPT_ARG, "FILE",
	  "the gates as JUnit XML for a CI system: a testsuite per comparison, a failed gate a failure with its evidence line",
	  OPT_JUNIT, 0 },
	{ "openmetrics", 0, GD_OPT_ARG, "FILE",
	  "each comparison's ratios, verdicts and gates as OpenMetrics gauges, as the run's --openmetrics",
	  OPT_METRICS, 0 },
	{ "prom-textfile", 0, GD_OPT_ARG, "FILE",
	  "the same as Prometheus text, for node_exporter's textfile collector (FILE.prom)",
	  OPT_PROM, 0 },
	{ "quiet", 'q', GD_OPT_NOARG, NULL,
	  "no report text, only errors and the exit status", 'q', 0 },
	{ "help", 'h', GD_OPT_NOARG, NULL, "this help", GD_OPT_ID_HELP, 0 },
	{ "version", 'V', GD_OPT_NOARG, NULL, "print the version",
	  GD_OPT_ID_VERSION, 0 },
};
#define GD_COMPARE_NOPTS (sizeof(gd_compare_opts) / sizeof(gd_compare_opts[0]))

static const struct gd_opt_prog gd_compare_prog = {
	.name = "gd_compare",
	.usage =
		"Usage: gd_compare [options] BASELINE.json CANDIDATE.json...\n"
		"       gd_compare [options] RUN.json\n"
		"Judge saved gdperf.run/4 (or /3, /2) documents with the run's own statistics:\n"
		"each candidate's phase against the baseline's (candidate/baseline),\n"
		"or one document's device phases against its HH again.\n"
		"Two runs' verdicts: GD_REGRESSION (exit status 3), GD_NO_REGRESSION (0),\n"
		"GD_UNDECIDED (4); one document keeps the run's verdicts.",
	.opts = gd_compare_opts,
	.n = GD_COMPARE_NOPTS,
	.exits = GD_EXIT_ALL,
};

static int parse_ratio(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v <= 0 || v > 1000)
		return gd_err(
			-EINVAL,
			"--expect-ratio: '%s' is not a number above 0 and "
			"at most 1000",
			s);
	*out = v;
	return 0;
}

static int parse_word(const char *opt, const char *s, const char *const *ok,
		      const char **out)
{
	for (size_t i = 0; ok[i]; i++)
		if (!strcmp(s, ok[i])) {
			*out = ok[i];
			return 0;
		}
	return gd_err(
		-EINVAL,
		"--%s: '%s' is not one of the values %s accepts; see gd_compare --help",
		opt, s, opt);
}

/* Placements a run names: HH, DD, HD, DH, and D1..D9 of several GPUs. */
static int parse_phase(const char *s, const char **out)
{
	size_t n = strlen(s);

	if (!n || n > 8 || strspn(s, "HD123456789") != n)
		return gd_err(-EINVAL,
			      "--phase: '%s' is not a phase placement (HH, DD, "
			      "HD, DH, D2D2, ...)",
			      s);
	*out = s;
	return 0;
}

static int parse_opt(void *ctx, const struct gd_opt *opt, const char *optarg)
{
	struct gd_cmp_opts *o = ctx;
	static const char *const dirs[] = { "forward", "reverse", "bidir",
					    NULL };
	static const char *const pol[] = { "fail", "pass", NULL };
	const char *p = NULL;
	int ret;

	switch (opt->id) {
	case OPT_RATIO:
		return parse_ratio(optarg, &o->expect_ratio);
	case OPT_GATE_FROM:
		o->have_gate_from = true;
		return gd_parse_u64(optarg, "--gate-from", true, 0, 1ULL << 32,
				    &o->gate_from);
	case OPT_PHASE:
		return parse_phase(optarg, &o->phase);
	case OPT_DIRECTION:
		return parse_word("direction", optarg, dirs, &o->direction);
	case OPT_JSON:
		o->json_path = optarg;
		return 0;
	case OPT_JUNIT:
		o->junit_path = optarg;
		return 0;
	case OPT_METRICS:
		o->metrics_path = optarg;
		return 0;
	case OPT_PROM:
		o->prom_path = optarg;
		return 0;
	case OPT_PLOT:
		if (!*optarg)
			return gd_err(-EINVAL,
				      "--plot: give the SVG file to write");
		o->plot_path = optarg;
		return 0;
	case OPT_UNDECIDED:
		ret = parse_word("gate-undecided", optarg, pol, &p);
		o->undecided_pass = !ret && !strcmp(p, "pass");
		return ret;
	default: /* 'q' */
		o->quiet = true;
		return 0;
	}
}

/* 0 to run, 1 after --help/--version, -EINVAL on a bad command line;
 * the documents from argv[*first] on. */
static int parse_args(int argc, char **argv, struct gd_cmp_opts *o, int *first)
{
	int ret =
		gd_opt_parse(&gd_compare_prog, argc, argv, parse_opt, o, first);

	if (!ret && *first >= argc)
		return gd_err(-EINVAL,
			      "give a baseline run document and the candidates "
			      "(or one document); see gd_compare --help");
	/* one candidate twice is one comparison written twice, whose metric
	 * series collide in a collector (the baseline as a candidate is a
	 * comparison of a run with itself, and fine) */
	for (int i = *first + 2; !ret && i < argc; i++)
		for (int j = *first + 1; j < i; j++)
			if (!strcmp(argv[i], argv[j]))
				return gd_err(
					-EINVAL,
					"candidate '%s' is given twice: its comparison would be written twice and its metric series would collide; give each candidate once",
					argv[i]);
	return ret;
}

/* A run's option by its gdperf.run/3 and /4 key, or the option name a /2
 * document used for it. */
static bool run_option(struct json_object *opts, const char *key,
		       const char *key_v2, double *v)
{
	return gd_json_num(opts, key, v) || gd_json_num(opts, key_v2, v);
}

/* Floor and judged sizes: the command line's, else the baseline run's. */
static void resolve_gates(struct gd_cmp_opts *o, struct json_object *base)
{
	struct json_object *opts = gd_json_path(base, "options", NULL);
	double v;

	if (o->expect_ratio <= 0)
		o->expect_ratio =
			run_option(opts, "expect_ratio", "expect-ratio", &v) &&
					v > 0
				? v
				: GD_COMPARE_SLOW_RATIO;
	if (!o->have_gate_from &&
	    run_option(opts, "gate_from", "gate-from", &v) && v >= 0)
		o->gate_from = (uint64_t)v;
	if (o->have_gate_from)
		o->judge_from = o->gate_from;
	else if (gd_json_num(
			 gd_json_path(
				 gd_json_idx(gd_json_path(base, "statistics",
							  "assessments"),
					     0),
				 "judged", NULL),
			 "from_bytes", &v) &&
		 v >= 0)
		o->judge_from = (uint64_t)v;
}

/* The worse of two exit statuses: a refused input, a failed comparison
 * or output, then slower, then undecided. */
static int worse(int a, int b)
{
	static const int rank[] = { [GD_CMPX_OK] = 0,
				    [GD_CMPX_FAIL] = 3,
				    [GD_CMPX_USAGE] = 4,
				    [GD_CMPX_SLOWER] = 2,
				    [GD_CMPX_UNDECIDED] = 1 };

	return rank[b] > rank[a] ? b : a;
}

static int write_json(const char *path, struct json_object *out)
{
	const int fl = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE;

	if (!strcmp(path, "-")) {
		if (gd_out_put(stdout, json_object_to_json_string_ext(out, fl),
			       "--json", "-"))
			return -EIO;
		return gd_out_put(stdout, "\n", "--json", "-");
	}
	return gd_out_file("--json", path,
			   json_object_to_json_string_ext(out, fl));
}

static struct json_object *out_doc(const struct gd_cmp_opts *o, int argc,
				   char **argv, struct json_object *errors)
{
	struct json_object *d = json_object_new_object();
	struct json_object *cl = json_object_new_array(), *op;

	json_object_object_add(d, "schema",
			       json_object_new_string("gdperf.compare/1"));
	json_object_object_add(d, "tool", json_object_new_string("gd_compare"));
	json_object_object_add(d, "version",
			       json_object_new_string(PACKAGE_VERSION));
	for (int i = 0; i < argc; i++)
		json_object_array_add(cl, json_object_new_string(argv[i]));
	json_object_object_add(d, "command_line", cl);
	op = json_object_new_object();
	json_object_object_add(op, "expect_ratio",
			       json_object_new_double(o->expect_ratio));
	/* the sizes judged from here up: the gates look at the same ones */
	json_object_object_add(op, "gate_from_bytes",
			       json_object_new_int64((int64_t)o->judge_from));
	json_object_object_add(op, "phase", json_object_new_string(o->phase));
	json_object_object_add(op, "direction",
			       json_object_new_string(o->direction));
	json_object_object_add(
		op, "gate_undecided",
		json_object_new_string(o->undecided_pass ? "pass" : "fail"));
	json_object_object_add(d, "options", op);
	json_object_object_add(d, "comparisons", json_object_new_array());
	json_object_object_add(d, "errors", errors);
	return d;
}

/* A refusal: on stderr, and in the document's errors[] with the input it
 * concerns and the stage, so that a CI lab that archives only the
 * document still sees why a comparison is missing. Clears the error. */
static void note_error(struct json_object *errors, const char *path,
		       const char *stage)
{
	struct json_object *e = json_object_new_object();

	gd_err_print("gd_compare");
	json_object_object_add(e, "input", json_object_new_string(path));
	json_object_object_add(e, "stage", json_object_new_string(stage));
	json_object_object_add(e, "message",
			       json_object_new_string(gd_err_msg()));
	json_object_array_add(errors, e);
	gd_err_clear();
}

/* --plot for comparison @k (1, 2, ...): FILE.svg, then FILE-2.svg and on;
 * @doc is the judged run-shaped document, @rec its record (comparison and
 * statistics, which the plot's ratio panel reads). */
static int plot_one(const struct gd_cmp_opts *o, unsigned int k,
		    const struct gd_cmp_input *base,
		    const struct gd_cmp_input *cand, struct json_object *doc,
		    struct json_object *rec)
{
	const char *dot = strrchr(o->plot_path, '.');
	size_t stem = dot && !strcmp(dot, ".svg") ? (size_t)(dot - o->plot_path)
						  : strlen(o->plot_path);
	char path[4096], note[512] = "";
	int ret;

	if (k == 1)
		snprintf(path, sizeof(path), "%s", o->plot_path);
	else
		snprintf(path, sizeof(path), "%.*s-%u.svg", (int)stem,
			 o->plot_path, k);
	json_object_object_add(
		doc, "comparison",
		json_object_get(json_object_object_get(rec, "comparison")));
	/* the plot's title: which curve is which run */
	if (base != cand) {
		char title[1024];

		snprintf(title, sizeof(title),
			 "gd_compare: HH = baseline %s, DD = candidate %s",
			 base->path, cand->path);
		json_object_object_add(doc, "tool",
				       json_object_new_string(title));
	}
	ret = gd_plot_write(doc, path, note, sizeof(note));
	if (ret == GD_PLOT_NO_GNUPLOT)
		fprintf(stderr, "gd_compare: warning: %s\n", note);
	return ret < 0 ? ret : 0;
}

/* Judge @cand against @base (the same input: one document), recording
 * it in @res; returns its exit status. */
static int compare_one(const struct gd_cmp_opts *o,
		       const struct gd_cmp_input *base,
		       const struct gd_cmp_input *cand, unsigned int k,
		       struct json_object *res)
{
	struct json_object *doc = NULL, *rec = NULL;
	int status = GD_CMPX_FAIL;
	int ret = base == cand ? gd_cmp_self_doc(base, &doc)
			       : gd_cmp_pair_doc(o, base, cand, &doc);
	const char *stage = "pair";

	/* a document that cannot be compared as asked is refused input */
	if (ret)
		status = GD_CMPX_USAGE;
	if (!ret) {
		/* --json - owns stdout; the text goes to stderr, as the run's
		 */
		FILE *text = o->json_path && !strcmp(o->json_path, "-")
				     ? stderr
				     : stdout;

		stage = "judge";
		rec = gd_cmp_judge(o, base, cand, doc, o->quiet ? NULL : text,
				   &status);
		if (rec)
			json_object_array_add(
				json_object_object_get(res, "comparisons"),
				rec);
		if (rec && o->plot_path &&
		    plot_one(o, k, base, cand, doc, rec)) {
			stage = "plot";
			status = GD_CMPX_FAIL;
		}
	}
	if (status == GD_CMPX_FAIL || status == GD_CMPX_USAGE)
		note_error(json_object_object_get(res, "errors"), cand->path,
			   stage);
	json_object_put(doc);
	return status;
}

int main(int argc, char **argv)
{
	struct gd_cmp_opts o = { .gate_from = 65536,
				 .phase = "HH",
				 .direction = "forward" };
	struct gd_cmp_input *in = NULL;
	struct json_object *res = NULL, *errors;
	int ret, n, first, status = GD_CMPX_OK;

	ret = parse_args(argc, argv, &o, &first);
	if (ret) {
		if (ret < 0)
			gd_err_print("gd_compare");
		return gd_out_exit("gd_compare",
				   ret > 0 ? GD_CMPX_OK : GD_CMPX_USAGE);
	}
	n = argc - first;
	in = calloc((size_t)n, sizeof(*in));
	if (!in) {
		gd_err(-ENOMEM, "out of memory");
		gd_err_print("gd_compare");
		return GD_CMPX_FAIL;
	}
	/* Every input is read, and every one that loads is compared: a
	 * refused candidate costs its own comparison, not the others'. */
	errors = json_object_new_array();
	for (int i = 0; i < n; i++) {
		in[i].path = argv[first + i];
		if (gd_cmp_load(in[i].path, &in[i].doc)) {
			note_error(errors, in[i].path, "load");
			status = GD_CMPX_USAGE;
		}
	}
	/* without a baseline, the options as given (or the defaults) */
	resolve_gates(&o, in[0].doc);
	res = out_doc(&o, argc, argv, errors);
	for (int i = n > 1 ? 1 : 0; in[0].doc && i < n; i++)
		if (in[i].doc)
			status =
				worse(status,
				      compare_one(&o, &in[0], &in[i],
						  (unsigned int)(n > 1 ? i : 1),
						  res));
	json_object_object_add(res, "exit_status", json_object_new_int(status));
	if (o.json_path && write_json(o.json_path, res)) {
		gd_err_print("gd_compare");
		status = GD_CMPX_FAIL;
	}
	if (o.junit_path &&
	    gd_cmp_write_junit(o.junit_path, res, o.json_path)) {
		gd_err_print("gd_compare");
		status = GD_CMPX_FAIL;
	}
	if ((o.metrics_path &&
	     gd_cmp_write_metrics(o.metrics_path, GD_METRICS_OPENMETRICS,
				  res)) ||
	    (o.prom_path &&
	     gd_cmp_write_metrics(o.prom_path, GD_METRICS_PROM, res))) {
		gd_err_print("gd_compare");
		status = GD_CMPX_FAIL;
	}
	json_object_put(res);
	for (int i = 0; i < n; i++)
		json_object_put(in[i].doc);
	free(in);
	return gd_out_exit("gd_compare", status);
}
