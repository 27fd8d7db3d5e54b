/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for gd_plan's inputs: a --config file and a --hosts
 * list separated by a NUL byte (an empty first part means no --config; no
 * NUL means no --hosts, the hosts are then generated), taken through the
 * same steps as gd_plan: load, check, schedule, and every output
 * (worksheet, JSON, CSV, commands, Slurm script).
 */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "tools/cluster/plan.h"
#include "util/error.h"
#include "fuzz_util.h"

/*
 * A harness limit, not a decoder one: gd_plan accepts up to 100000 servers
 * and 1024 GPUs each, and a plan that size writes a gigabyte of files. The
 * decoders are the same for small plans, so bigger ones are not run here.
 */
#define GD_FUZZ_PLAN_MAX_EXECS 20000

static void gd_fuzz_plan_outputs(const struct gd_plan *plan)
{
	struct json_object *j;
	char path[512];

	gd_plan_print_worksheet(plan, stdout);
	j = gd_plan_to_json(plan);
	json_object_put(j);
	snprintf(path, sizeof(path), "%s/out.csv", gd_fuzz_scratch());
	gd_plan_write_csv(plan, path);
	snprintf(path, sizeof(path), "%s/out.sh", gd_fuzz_scratch());
	gd_plan_write_commands(plan, path);
	snprintf(path, sizeof(path), "%s/out.sbatch", gd_fuzz_scratch());
	gd_plan_write_slurm(plan, path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_plan plan = { 0 };
	struct gd_fuzz_chunk c[2];
	char cfg_path[512], hosts_path[512];
	size_t n = gd_fuzz_split(data, size, c, 2);
	static bool quiet;
	struct gd_worksheet ws;
	int ret = 0;

	/* The worksheet goes to stdout in gd_plan; keep it out of the log. */
	if (!quiet && !freopen("/dev/null", "w", stdout))
		return 0;
	quiet = true;
	gd_err_clear();
	gd_plan_cfg_defaults(&plan.cfg);
	/* Without a NUL the whole input is the --config file. */
	if (c[0].len) {
		gd_fuzz_write("plan.conf", &c[0], cfg_path, sizeof(cfg_path));
		ret = gd_plan_cfg_load(&plan.cfg, cfg_path);
	}
	if (!ret && n == 2) {
		gd_fuzz_write("hosts", &c[1], hosts_path, sizeof(hosts_path));
		ret = gd_plan_hosts_load(&plan, hosts_path);
	} else if (!ret) {
		ret = gd_plan_cfg_check(&plan.cfg);
	}
	if (!ret) {
		gd_plan_worksheet(&plan.cfg, &ws);
		if (ws.executions * 3 > GD_FUZZ_PLAN_MAX_EXECS)
			ret = -1;
	}
	if (!ret && n == 1)
		ret = gd_plan_hosts_default(&plan);
	if (!ret && !gd_plan_build(&plan))
		gd_fuzz_plan_outputs(&plan);
	gd_plan_free(&plan);
	return 0;
}
