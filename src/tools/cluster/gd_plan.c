/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_plan: the coverage worksheet and the three schedules of a cluster
 * acceptance campaign (four with the locality round), written as JSON, CSV
 * and launch files for Slurm or pdsh/clush/ssh. It plans only; the
 * cluster's own launcher runs the tests.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/cluster/plan.h"
#include "util/error.h"
#include "util/exit.h"
#include "util/output.h"
#include "util/version.h"

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

static const struct option long_opts[] = {
	{ "servers", required_argument, NULL, OPT_SET },
	{ "gpus-per-server", required_argument, NULL, OPT_SET },
	{ "rails", required_argument, NULL, OPT_SET },
	{ "nic-gbps", required_argument, NULL, OPT_SET },
	{ "campaign-repeats", required_argument, NULL, OPT_SET },
	{ "repeats", required_argument, NULL, OPT_SET }, /* deprecated */
	{ "repeat", required_argument, NULL, OPT_SET },
	{ "run-limit", required_argument, NULL, OPT_SET },
	{ "seconds", required_argument, NULL, OPT_SET },
	{ "seconds-from", required_argument, NULL, OPT_SET },
	{ "name", required_argument, NULL, OPT_SET },
	{ "host-prefix", required_argument, NULL, OPT_SET },
	{ "nic-prefix", required_argument, NULL, OPT_SET },
	{ "tool", required_argument, NULL, OPT_SET },
	{ "gpu-mem", required_argument, NULL, OPT_SET },
	{ "tool-args", required_argument, NULL, OPT_SET },
	{ "results-dir", required_argument, NULL, OPT_SET },
	{ "loopback-host", required_argument, NULL, OPT_SET },
	{ "launcher", required_argument, NULL, OPT_SET },
	{ "gid-index", required_argument, NULL, OPT_SET },
	{ "base-port", required_argument, NULL, OPT_SET },
	{ "auth-key", required_argument, NULL, OPT_SET },
	{ "locality-round", no_argument, NULL, OPT_LOCALITY },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "hosts", required_argument, NULL, OPT_HOSTS },
	{ "out-dir", required_argument, NULL, OPT_OUT_DIR },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "slurm", required_argument, NULL, OPT_SLURM },
	{ "commands", required_argument, NULL, OPT_COMMANDS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	char line[512];

	fprintf(f,
		"Usage: gd_plan --servers N --gpus-per-server N --rails N --nic-gbps R [options]\n"
		"Plan a GPU/NIC pair-test campaign: worksheet, schedules and launch files.\n\n"
		"Cluster:\n"
		"  --servers N            servers in the cluster (at least 2)\n"
		"  --gpus-per-server N    GPUs per server\n"
		"  --rails N              rails (NICs) per server; must divide the GPUs\n"
		"  --nic-gbps R           NIC line rate in Gb/s (10^9 bit/s)\n"
		"  --campaign-repeats N   planned repeats of every round-1 execution, each its\n"
		"                         own run labelled repeat=1..N (default 3)\n"
		"  --repeats N            deprecated alias of --campaign-repeats (not the\n"
		"                         rounds inside a run: that is --repeat)\n"
		"  --seconds S            seconds per execution (default 30), written as\n"
		"                         each run's -D: S / (sizes x phases x rounds),\n"
		"                         whole seconds; --tool-args' own -D or -n wins\n"
		"  --seconds-from RUN.json  seconds per execution from a run of the\n"
		"                         same job: its time account's wall time\n"
		"  --hosts FILE           host list: NAME [rack=RACK] [GPU:NIC:RAIL ...]\n"
		"  --host-prefix P        generated host names P01.. (default node)\n"
		"  --nic-prefix P         generated NIC names P<rail> (default mlx5_)\n"
		"  --config FILE          'key = value' lines, keys are these long options\n"
		"Runs:\n"
		"  --tool NAME            benchmark binary (default gd_write_bw)\n"
		"  --tool-args 'ARGS'     extra arguments for every run (e.g. '-a -n 200')\n"
		"  --repeat N             --repeat=N in every run: rounds inside one run,\n"
		"                         for the spread and the ratio's interval (default 3;\n"
		"                         1 leaves it out)\n"
		"  --run-limit S          stop a run after S seconds (timeout -k 10 S), so a\n"
		"                         partner that never connects cannot stall the\n"
		"                         campaign (default 300 + 10 x --seconds; 0: none)\n"
		"  --gpu-mem SPEC         cuda (--mem=cuda:GPU), none (host only) or a\n"
		"                         --mem spec; anything but none adds --phases=HH,DD\n"
		"  --locality-round       add round 4: each server against its round-1\n"
		"                         partner on GPU 0's NIC, both directions, with\n"
		"                         --mem=DEV:near,DEV:far --phases=HH,D1D1,D2D2 (DEV:\n"
		"                         --gpu-mem's device backend; config: yes or no)\n"
		"  --gid-index N          -x for every run\n"
		"  --base-port N          first TCP port (default 18515)\n"
		"  --auth-key PATH        --auth-key=PATH in every run: the absolute path of\n"
		"                         the key file, which you put on every node\n"
		"  --loopback-host NAME   map every server to NAME and use --loopback runs\n"
		"  --launcher L           command file: ssh, pdsh, clush or local (run the\n"
		"                         same file on every node; each runs its own side)\n"
		"  --results-dir DIR      default $RESULTS in the launch files (results)\n"
		"  --name NAME            plan name, also the 'plan' label (default plan)\n"
		"Outputs (the worksheet always goes to stdout unless --quiet):\n"
		"  --out-dir DIR          write DIR/plan.json plan.csv plan.sbatch plan.steps\n"
		"                         plan.cmds\n"
		"  --json FILE  --csv FILE  --commands FILE\n"
		"  --slurm FILE           batch script FILE and its steps file next to it\n"
		"                         (FILE.sbatch -> FILE.steps): one line per side of\n"
		"                         each execution, ROUND STEP NODE_A NODE_B MODE HOST\n"
		"                         ROLE COMMAND; keep both at one path every node reads\n"
		"  --quiet                no worksheet on stdout\n"
		"  -h, --help             this help\n"
		"  -V, --version          print the version\n");
	gd_exit_help(GD_EXIT_BIT(GD_EXIT_OK) | GD_EXIT_BIT(GD_EXIT_FAIL) |
			     GD_EXIT_BIT(GD_EXIT_USAGE),
		     line, sizeof(line));
	fprintf(f, "%s\n", line);
}

struct outputs {
	const char *json, *csv, *slurm, *commands, *out_dir, *hosts, *config;
	bool quiet;
};

static int parse_args(int argc, char **argv, struct gd_plan_cfg *cfg,
		      struct outputs *o)
{
	int c, idx, ret = 0;

	while (!ret &&
	       (c = getopt_long(argc, argv, "hV", long_opts, &idx)) != -1) {
		switch (c) {
		case OPT_SET:
			ret = gd_plan_cfg_set(cfg, long_opts[idx].name, optarg);
			break;
		case OPT_CONFIG:
			ret = gd_plan_cfg_load(cfg, optarg);
			break;
		case OPT_LOCALITY:
			ret = gd_plan_cfg_set(cfg, "locality-round", "yes");
			break;
		case OPT_HOSTS:
			o->hosts = optarg;
			break;
		case OPT_OUT_DIR:
			o->out_dir = optarg;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_CSV:
			o->csv = optarg;
			break;
		case OPT_SLURM:
			o->slurm = optarg;
			break;
		case OPT_COMMANDS:
			o->commands = optarg;
			break;
		case OPT_QUIET:
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			gd_version_print(stdout, "gd_plan", false);
			return 1;
		default:
			return gd_err(-EINVAL,
				      "bad option; see gd_plan --help");
		}
	}
	if (!ret && optind < argc)
		ret = gd_err(-EINVAL,
			     "unexpected argument '%s'; see gd_plan "
			     "--help",
			     argv[optind]);
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
		fprintf(stderr, "gd_plan: %s\n", gd_err_msg());
	gd_plan_free(&plan);
	return gd_out_exit("gd_plan", status);
}
