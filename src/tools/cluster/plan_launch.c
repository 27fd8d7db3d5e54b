/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Launch files for engines clusters already run: the command line of each
 * side of an execution (shared with the Slurm files, plan_slurm.c) and a
 * plain command file (one line per execution, for ssh, pdsh, clush or the
 * local shell). Each run writes one gdperf.run/1 document into $RESULTS,
 * labelled for gd_report.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem/mem.h"
#include "tools/cluster/plan.h"
#include "util/error.h"

#define CMD_MAX GD_PLAN_CMD_MAX

int gd_plan_client_host(const struct gd_plan_exec *e)
{
	return e->b_to_a ? e->b : e->a;
}

int gd_plan_server_host(const struct gd_plan_exec *e)
{
	return e->b_to_a ? e->a : e->b;
}

__attribute__((format(printf, 2, 3))) static void cat(char *buf,
						      const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= CMD_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, CMD_MAX - used, fmt, ap);
	va_end(ap);
}

static void mem_args(const struct gd_plan *plan, const struct gd_plan_exec *e,
		     char *buf)
{
	const char *m = plan->cfg.gpu_mem;
	const struct gd_mem_ops *dev = gd_mem_device_backend(m);

	if (!strcmp(m, "none"))
		return;
	/* round 4: the run picks both GPUs from its GPU-to-NIC map for the
	 * NIC in use; gd_plan_cfg_check saw that @m is device memory */
	if (e->round == GD_ROUND_LOCALITY && dev) {
		cat(buf, " --mem=%s:near,%s:far --phases=HH,D1D1,D2D2",
		    dev->name, dev->name);
		return;
	}
	/* a device backend's bare name: that backend, the execution's GPU */
	if (dev && !strcmp(m, dev->name))
		cat(buf, " --mem=%s:%d --phases=HH,DD", m, e->gpu);
	else
		cat(buf, " --mem=%s --phases=HH,DD", m);
}

/* The labels gd_report reads back; documented in gd_plan(1). */
static void label_args(const struct gd_plan *plan, const struct gd_plan_exec *e,
		       int host, char *buf)
{
	const struct gd_plan_host *a = &plan->hosts[e->a];

	cat(buf, " --label plan=%s", plan->cfg.name);
	cat(buf, " --label exec=%s", e->id);
	cat(buf, " --label round=%s", gd_plan_round_name(e->round));
	cat(buf, " --label step=%d", e->step);
	cat(buf, " --label repeat=%d", e->repeat);
	cat(buf, " --label server_a=%s", a->name);
	cat(buf, " --label server_b=%s", plan->hosts[e->b].name);
	cat(buf, " --label gpu=%d", e->gpu);
	cat(buf, " --label nic=%s", plan->hosts[host].assoc[e->gpu].nic);
	cat(buf, " --label rail=%d", e->rail);
	cat(buf, " --label direction=%s", e->b_to_a ? "b_to_a" : "a_to_b");
}

void gd_plan_run_cmd(const struct gd_plan *plan, const struct gd_plan_exec *e,
		     enum gd_plan_side side, char *buf)
{
	int host = side == GD_SIDE_SERVER ? gd_plan_server_host(e)
					  : gd_plan_client_host(e);
	long limit = gd_plan_run_limit(&plan->cfg);

	buf[0] = '\0';
	/* A server waits for its client without end (as perftest's does):
	 * bounded, a partner that never connects cannot stall the campaign. */
	if (limit)
		cat(buf, "timeout -k 10 %ld ", limit);
	cat(buf, "%s -d %s", plan->cfg.tool,
	    plan->hosts[host].assoc[e->gpu].nic);
	if (plan->cfg.gid_index >= 0)
		cat(buf, " -x %ld", plan->cfg.gid_index);
	cat(buf, " -p %d", e->port);
	if (plan->cfg.tool_args[0])
		cat(buf, " %s", plan->cfg.tool_args);
	if (plan->cfg.tool_repeat > 1)
		cat(buf, " --repeat=%ld", plan->cfg.tool_repeat);
	mem_args(plan, e, buf);
	if (side == GD_SIDE_LOOPBACK)
		cat(buf, " --loopback");
	cat(buf, " --out_json_file=$RESULTS/%s%s.json", e->id,
	    side == GD_SIDE_SERVER ? ".server" : "");
	label_args(plan, e, host, buf);
	if (side == GD_SIDE_CLIENT)
		cat(buf, " %s", plan->hosts[gd_plan_server_host(e)].name);
}

static const char *const launch_prefix[] = {
	[GD_LAUNCH_SSH] = "ssh -n",
	[GD_LAUNCH_PDSH] = "pdsh -w",
	[GD_LAUNCH_CLUSH] = "clush -w",
	[GD_LAUNCH_LOCAL] = "",
};

/* One line runs one execution: the server side first, then the client
 * (whose connect retries until the server listens), then wait for both.
 * The local launcher's file runs on every node at once: each side only
 * where its host is this node (on(), defined in the file's head). */
static void command_line(const struct gd_plan *plan,
			 const struct gd_plan_exec *e, char *line, size_t len)
{
	enum gd_plan_launcher l = plan->cfg.launcher;
	char srv[CMD_MAX], cli[CMD_MAX];

	if (plan->cfg.loopback_host[0]) {
		gd_plan_run_cmd(plan, e, GD_SIDE_LOOPBACK, cli);
		snprintf(line, len, "%s", cli);
		return;
	}
	gd_plan_run_cmd(plan, e, GD_SIDE_SERVER, srv);
	gd_plan_run_cmd(plan, e, GD_SIDE_CLIENT, cli);
	if (l == GD_LAUNCH_LOCAL)
		snprintf(line, len,
			 "{ on %s && %s; } & { on %s && sleep 1 && %s; }; wait",
			 plan->hosts[gd_plan_server_host(e)].name, srv,
			 plan->hosts[gd_plan_client_host(e)].name, cli);
	else
		snprintf(line, len,
			 "%s %s \"%s\" & sleep 1; %s %s \"%s\"; wait",
			 launch_prefix[l],
			 plan->hosts[gd_plan_server_host(e)].name, srv,
			 launch_prefix[l],
			 plan->hosts[gd_plan_client_host(e)].name, cli);
}

static int close_checked(FILE *f, const char *opt, const char *path)
{
	int err = ferror(f);

	if (fclose(f) || err)
		return gd_err(-EIO, "--%s: error writing '%s'", opt, path);
	return 0;
}

static void commands_head(FILE *f, const struct gd_plan *plan)
{
	bool local = plan->cfg.launcher == GD_LAUNCH_LOCAL &&
		     !plan->cfg.loopback_host[0];

	fprintf(f,
		"#!/bin/sh\n# gd_plan command file for plan '%s': one line "
		"per execution.\n",
		plan->cfg.name);
	if (local)
		fputs("# Local launcher: start this same file on every node "
		      "of the plan at once\n# (each node's own shell, or "
		      "pdsh -w NODES sh FILE); each line runs only\n# the "
		      "sides of its execution whose host is this node "
		      "(GD_HOST, default\n# uname -n), so every pair runs "
		      "its own lines and the pairs of a step\n# run side "
		      "by side. Partners meet through the side channel's "
		      "connect\n# retry (--timeout, 10 s): start the nodes "
		      "within that time; with a bye\n# (odd server count) "
		      "or uneven steps use ssh, pdsh, clush or Slurm.\n",
		      f);
	else if (plan->cfg.locality_round)
		fputs("# Rounds 1, 2 and 4 run one execution at a time; round 3 "
		      "starts every\n# execution of a step at once and waits "
		      "for them.\n",
		      f);
	else
		fputs("# Rounds 1 and 2 run one execution at a time; round 3 "
		      "starts every\n# execution of a step at once and waits "
		      "for them.\n",
		      f);
	fprintf(f,
		"# Each run writes $RESULTS/<exec>.json; point gd_report at "
		"that directory.\n# RESULTS must be a path every node can "
		"write (shared file system).\n"
		"RESULTS=${RESULTS:-%s}\nmkdir -p \"$RESULTS\"\n",
		plan->cfg.results_dir);
	if (local)
		fputs("GD_HOST=${GD_HOST:-$(uname -n)}\n"
		      "on() { [ \"$1\" = \"$GD_HOST\" ] || "
		      "[ \"$1\" = \"${GD_HOST%%.*}\" ]; }\n",
		      f);
}

int gd_plan_write_commands(const struct gd_plan *plan, const char *path)
{
	static char line[3 * CMD_MAX];
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return gd_err(-errno, "--commands: cannot write '%s': %s", path,
			      strerror(errno));
	commands_head(f, plan);
	for (i = 0; i < plan->n_execs; i++) {
		const struct gd_plan_exec *e = &plan->execs[i];
		bool conc = e->round == GD_ROUND_CONCURRENCY;
		bool first = !i || plan->execs[i - 1].round != e->round ||
			     plan->execs[i - 1].step != e->step;

		/* a concurrent step ends before the next step starts */
		if (first && i &&
		    (conc || plan->execs[i - 1].round == GD_ROUND_CONCURRENCY))
			fprintf(f, "wait\n");
		if (first)
			fprintf(f, "# round %d %s step %d\n", e->round,
				gd_plan_round_name(e->round), e->step);
		command_line(plan, e, line, sizeof(line));
		fprintf(f, conc ? "{ %s; } &\n" : "%s\n", line);
	}
	fprintf(f, "wait\n");
	return close_checked(f, "commands", path);
}
