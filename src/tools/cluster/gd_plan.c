/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_plan: the coverage worksheet and the three schedules of a cluster
 * acceptance campaign (four with the locality round), written as JSON, CSV
 * and launch files for Slurm or pdsh/clush/ssh. It plans only; the
 * cluster's own launcher runs the tests.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/cluster/plan.h"
#include "util/error.h"
#include "util/exit.h"
#include "util/opt.h"
#include "util/output.h"

enum {
	OPT_CONFIG = 256,
	OPT_HOSTS,
	OPT_OUT_DIR,
	OPT_JSON,
	OPT_CSV,
	OPT_SLURM,
	OPT_COMMANDS,
	OPT_QUIET,
	OPT_LOCALITY,
	OPT_SET
};

/* The options, in the table form of every program (util/opt.h); the
 * OPT_SET ones are plan settings, also --config keys. */
static const struct gd_opt gd_plan_opts[] = {
	{ NULL, 0, GD_OPT_NOARG, NULL, "Cluster", 0, 0 },
	{ "servers", 0, GD_OPT_ARG, "N", "servers in the cluster (at least 2)",
	  OPT_SET, 0 },
	{ "gpus-per-server", 0, GD_OPT_ARG, "N", "GPUs per server", OPT_SET,
	  0 },
	{ "rails", 0, GD_OPT_ARG, "N",
	  "rails (NICs) per server; must divide the GPUs", OPT_SET, 0 },
	{ "nic-gbps", 0, GD_OPT_ARG, "R", "NIC line rate in Gb/s (10^9 bit/s)",
	  OPT_SET, 0 },
	{ "campaign-repeats", 0, GD_OPT_ARG, "N",
	  "planned repeats of every round-1 execution, each its own run labelled repeat=1..N (default 3)",
	  OPT_SET, 0 },
	{ "repeats", 0, GD_OPT_ARG, "N",
	  "deprecated alias of --campaign-repeats (not the rounds inside a run: that is --repeat)",
	  OPT_SET, GD_OPT_DEPRECATED },
	{ "seconds", 0, GD_OPT_ARG, "S",
	  "seconds per execution (default 30), written as each run's -D: S / (sizes x phases x rounds), whole seconds; --tool-args' own -D or -n wins",
	  OPT_SET, 0 },
	{ "seconds-from", 0, GD_OPT_ARG, "RUN.json",
	  "seconds per execution from a run of the same job: its time account's wall time",
	  OPT_SET, 0 },
	{ "hosts", 0, GD_OPT_ARG, "FILE",
	  "host list: NAME [rack=RACK] [GPU:NIC:RAIL ...]", OPT_HOSTS, 0 },
	{ "host-prefix", 0, GD_OPT_ARG, "P",
	  "generated host names P01.. (default node)", OPT_SET, 0 },
	{ "nic-prefix", 0, GD_OPT_ARG, "P",
	  "generated NIC names P<rail> (default mlx5_)", OPT_SET, 0 },
	{ "config", 0, GD_OPT_ARG, "FILE",
	  "'key = value' lines, keys are these long options", OPT_CONFIG, 0 },
	{ NULL, 0, GD_OPT_NOARG, NULL, "Runs", 0, 0 },
	{ "tool", 0, GD_OPT_ARG, "NAME",
	  "benchmark binary (default gd_write_bw)", OPT_SET, 0 },
	{ "tool-args", 0, GD_OPT_ARG, "ARGS",
	  "extra arguments for every run (e.g. '-a -n 200')", OPT_SET, 0 },
	{ "repeat", 0, GD_OPT_ARG, "N",
	  "--repeat=N in every run: rounds inside one run, for the spread and the ratio's interval (default 3; 1 leaves it out)",
	  OPT_SET, 0 },
	{ "run-limit", 0, GD_OPT_ARG, "S",
	  "stop a run after S seconds (timeout -k 10 S), so a partner that never connects cannot stall the campaign (default 300 + 10 x --seconds; 0: none)",
	  OPT_SET, 0 },
	{ "gpu-mem", 0, GD_OPT_ARG, "SPEC",
	  "cuda (--mem=cuda:GPU), none (host only) or a --mem spec; anything but none adds --phases=HH,DD",
	  OPT_SET, 0 },
	{ "locality-round", 0, GD_OPT_NOARG, NULL,
	  "add round 4: each server against its round-1 partner on GPU 0's NIC, both directions, with --mem=DEV:near,DEV:far --phases=HH,D1D1,D2D2 (DEV: --gpu-mem's device backend; config: yes or no)",
	  OPT_LOCALITY, 0 },
	{ "gid-index", 0, GD_OPT_ARG, "N", "-x for every run", OPT_SET, 0 },
	{ "base-port", 0, GD_OPT_ARG, "N", "first TCP port (default 18515)",
	  OPT_SET, 0 },
	{ "auth-key", 0, GD_OPT_ARG, "PATH",
	  "--auth-key=PATH in every run: the absolute path of the key file, which you put on every node",
	  OPT_SET, 0 },
	{ "loopback-host", 0, GD_OPT_ARG, "NAME",
	  "map every server to NAME and use --loopback runs", OPT_SET, 0 },
	{ "launcher", 0, GD_OPT_ARG, "L",
	  "command file: ssh, pdsh, clush or local (run the same file on every node; each runs its own side)",
	  OPT_SET, 0 },
	{ "results-dir", 0, GD_OPT_ARG, "DIR",
	  "default $RESULTS in the launch files (results)", OPT_SET, 0 },
	{ "name", 0, GD_OPT_ARG, "NAME",
	  "plan name, also the 'plan' label (default plan)", OPT_SET, 0 },
	{ NULL, 0, GD_OPT_NOARG, NULL,
	  "Outputs (the worksheet always goes to stdout unless --quiet)", 0,
	  0 },
	{ "out-dir", 0, GD_OPT_ARG, "DIR",
	  "write DIR/plan.json plan.csv plan.sbatch plan.steps plan.cmds",
	  OPT_OUT_DIR, 0 },
	{ "json", 0, GD_OPT_ARG, "FILE", "the plan as JSON (gdperf.plan/1)",
	  OPT_JSON, 0 },
	{ "csv", 0, GD_OPT_ARG, "FILE", "one row per execution as CSV", OPT_CSV,
	  0 },
	{ "commands", 0, GD_OPT_ARG, "FILE",
	  "the command file of --launcher (one line per side of each execution)",
	  OPT_COMMANDS, 0 },
	{ "slurm", 0, GD_OPT_ARG, "FILE",
	  "batch script FILE and its steps file next to it (FILE.sbatch -> FILE.steps): one line per side of each execution, ROUND STEP NODE_A NODE_B MODE HOST ROLE COMMAND; keep both at one path every node reads",
	  OPT_SLURM, 0 },
	{ "quiet", 0, GD_OPT_NOARG, NULL, "no worksheet on stdout", OPT_QUIET,
	  0 },
	{ "help", 'h', GD_OPT_NOARG, NULL, "this help", GD_OPT_ID_HELP, 0 },
	{ "version", 'V', GD_OPT_NOARG, NULL, "print the version",
	  GD_OPT_ID_VERSION, 0 },
};
#define GD_PLAN_NOPTS (sizeof(gd_plan_opts) / sizeof(gd_plan_opts[0]))

static const struct gd_opt_prog gd_plan_prog = {
	.name = "gd_plan",
	.usage =
		"Usage: gd_plan --servers N --gpus-per-server N --rails N --nic-gbps R [options]\n"
		"Plan a GPU/NIC pair-test campaign: worksheet, schedules and launch files.",
	.opts = gd_plan_opts,
	.n = GD_PLAN_NOPTS,
	.exits = GD_EXIT_BIT(GD_EXIT_OK) | GD_EXIT_BIT(GD_EXIT_FAIL) |
		 GD_EXIT_BIT(GD_EXIT_USAGE),
};

struct outputs {
	const char *json, *csv, *slurm, *commands, *out_dir, *hosts, *config;
	bool quiet;
};

struct parse_ctx {
	struct gd_plan_cfg *cfg;
	struct outputs *o;
};

static int parse_opt(void *ctx, const struct gd_opt *opt, const char *arg)
{
	struct gd_plan_cfg *cfg = ((struct parse_ctx *)ctx)->cfg;
	struct outputs *o = ((struct parse_ctx *)ctx)->o;

	switch (opt->id) {
	case OPT_SET:
		return gd_plan_cfg_set(cfg, opt->long_name, arg);
	case OPT_CONFIG:
		return gd_plan_cfg_load(cfg, arg);
	case OPT_LOCALITY:
		return gd_plan_cfg_set(cfg, "locality-round", "yes");
	case OPT_HOSTS:
		o->hosts = arg;
		return 0;
	case OPT_OUT_DIR:
		o->out_dir = arg;
		return 0;
	case OPT_JSON:
		o->json = arg;
		return 0;
	case OPT_CSV:
		o->csv = arg;
		return 0;
	case OPT_SLURM:
		o->slurm = arg;
		return 0;
	case OPT_COMMANDS:
		o->commands = arg;
		return 0;
	default: /* OPT_QUIET */
		o->quiet = true;
		return 0;
	}
}

static int parse_args(int argc, char **argv, struct gd_plan_cfg *cfg,
		      struct outputs *o)
{
	struct parse_ctx ctx = { cfg, o };
	int first, ret;

	ret = gd_opt_parse(&gd_plan_prog, argc, argv, parse_opt, &ctx, &first);
	if (!ret && first < argc)
		ret = gd_err(-EINVAL,
			     "unexpected argument '%s'; see gd_plan --help",
			     argv[first]);
	return ret;
}

/* Every folder above @path (or @path itself when @self), as mkdir -p, so
 * that --slurm s3/camp.sbatch or --out-dir a/b need no mkdir first. */
static int make_dirs(const char *opt, const char *path, bool self)
{
	char dir[4096];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return gd_err(-ENAMETOOLONG, "--%s: '%s' is too long", opt,
			      path);
	if (!self) {
		p = strrchr(dir, '/');
		if (!p)
			return 0;
		*p = '\0';
	}
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) && errno != EEXIST)
			return gd_err(-errno, "--%s: cannot create '%s': %s",
				      opt, dir, strerror(errno));
		*p = '/';
	}
	if (dir[0] && mkdir(dir, 0777) && errno != EEXIST)
		return gd_err(-errno, "--%s: cannot create '%s': %s", opt, dir,
			      strerror(errno));
	return 0;
}

static int write_one(const struct gd_plan *plan, const char *dir,
		     const char *path, const char *opt, const char *base,
		     int (*fn)(const struct gd_plan *, const char *))
{
	char buf[4096];

	int ret;

	if (!path && !dir)
		return 0;
	if (!path) {
		snprintf(buf, sizeof(buf), "%s/%s", dir, base);
		path = buf;
	}
	ret = make_dirs(opt, path, false);
	return ret ? ret : fn(plan, path);
}

static int write_outputs(const struct gd_plan *plan, const struct outputs *o)
{
	int ret;

	if (o->out_dir && (ret = make_dirs("out-dir", o->out_dir, true)))
		return ret;
	ret = write_one(plan, o->out_dir, o->json, "json", "plan.json",
			gd_plan_write_json);
	if (!ret)
		ret = write_one(plan, o->out_dir, o->csv, "csv", "plan.csv",
				gd_plan_write_csv);
	if (!ret)
		ret = write_one(plan, o->out_dir, o->slurm, "slurm",
				"plan.sbatch", gd_plan_write_slurm);
	if (!ret)
		ret = write_one(plan, o->out_dir, o->commands, "commands",
				"plan.cmds", gd_plan_write_commands);
	return ret;
}

int main(int argc, char **argv)
{
	struct gd_plan plan = { 0 };
	struct outputs o = { 0 };
	int ret, status = 2;

	gd_plan_cfg_defaults(&plan.cfg);
	ret = parse_args(argc, argv, &plan.cfg, &o);
	if (ret > 0)
		return gd_out_exit("gd_plan", 0);
	if (!ret && plan.cfg.repeats_alias)
		fprintf(stderr,
			"gd_plan: warning: --repeats is the deprecated alias of "
			"--campaign-repeats (%ld runs of each round-1 "
			"execution); the rounds inside one run are --repeat "
			"(now %ld)\n",
			plan.cfg.repeats, plan.cfg.tool_repeat);
	if (!ret && o.hosts)
		ret = gd_plan_hosts_load(&plan, o.hosts);
	else if (!ret)
		ret = gd_plan_cfg_check(&plan.cfg);
	if (!ret && !o.hosts)
		ret = gd_plan_hosts_default(&plan);
	if (!ret)
		ret = gd_plan_seconds_resolve(&plan.cfg);
	if (!ret)
		ret = gd_plan_build(&plan);
	/* before anything is printed: a plan whose runs would all be
	 * refused is refused itself */
	if (!ret)
		ret = gd_plan_check_runs(&plan);
	if (ret)
		goto out;
	status = 1;
	if (!o.quiet)
		gd_plan_print_worksheet(&plan, stdout);
	ret = write_outputs(&plan, &o);
	if (!ret)
		status = 0;
out:
	if (ret)
		gd_err_print("gd_plan");
	gd_plan_free(&plan);
	return gd_out_exit("gd_plan", status);
}
