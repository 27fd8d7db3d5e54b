/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Launch files for engines clusters already run: the command line of each
 * side of an execution (shared with the Slurm files, plan_slurm.c) and a
 * plain command file (one line per execution, for ssh, pdsh, clush or the
 * local shell). Each run writes one gdperf.run/4 document into $RESULTS,
 * labelled for gd_report.
 */
#include <config.h>

#include <errno.h>
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

/*
 * A command line under construction: its length kept, so that appending
 * never rescans it (a 100,000-GPU plan writes millions of them), and the
 * plain strings and numbers copied without a printf.
 */
struct cmd {
	char *buf;
	size_t len;
};

static void put(struct cmd *c, const char *s)
{
	size_t n = strlen(s);

	if (c->len + n >= CMD_MAX)
		n = c->len < CMD_MAX - 1 ? CMD_MAX - 1 - c->len : 0;
	memcpy(c->buf + c->len, s, n);
	c->len += n;
	c->buf[c->len] = '\0';
}

static void put_long(struct cmd *c, long v)
{
	char num[24], *p = num + sizeof(num);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	put(c, p);
}

/* " KEY" then the value, the shape of most of a run's arguments */
static void put_arg(struct cmd *c, const char *key, const char *value)
{
	put(c, key);
	put(c, value);
}

static void put_arg_long(struct cmd *c, const char *key, long value)
{
	put(c, key);
	put_long(c, value);
}

static void mem_args(const struct gd_plan *plan, const struct gd_plan_exec *e,
		     struct cmd *c)
{
	const char *m = plan->cfg.gpu_mem;
	const struct gd_mem_ops *dev = gd_mem_device_backend(m);

	if (!strcmp(m, "none"))
		return;
	/* round 4: the run picks both GPUs from its GPU-to-NIC map for the
	 * NIC in use; gd_plan_cfg_check saw that @m is device memory */
	if (e->round == GD_ROUND_LOCALITY && dev) {
		put_arg(c, " --mem=", dev->name);
		put_arg(c, ":near,", dev->name);
		put(c, ":far --phases=HH,D1D1,D2D2");
		return;
	}
	/* a device backend's bare name: that backend, the execution's GPU */
	put_arg(c, " --mem=", m);
	if (dev && !strcmp(m, dev->name))
		put_arg_long(c, ":", e->gpu);
	put(c, " --phases=HH,DD");
}

/* The labels gd_report reads back; documented in gd_plan(1). */
static void label_args(const struct gd_plan *plan, const struct gd_plan_exec *e,
		       int host, struct cmd *c)
{
	put_arg(c, " --label plan=", plan->cfg.name);
	put_arg(c, " --label exec=", e->id);
	put_arg(c, " --label round=", gd_plan_round_name(e->round));
	put_arg_long(c, " --label step=", e->step);
	put_arg_long(c, " --label repeat=", e->repeat);
	put_arg(c, " --label server_a=", plan->hosts[e->a].name);
	put_arg(c, " --label server_b=", plan->hosts[e->b].name);
	put_arg_long(c, " --label gpu=", e->gpu);
	put_arg(c, " --label nic=", plan->hosts[host].assoc[e->gpu].nic);
	put_arg_long(c, " --label rail=", e->rail);
	put_arg(c, " --label direction=", e->b_to_a ? "b_to_a" : "a_to_b");
}

void gd_plan_run_cmd(const struct gd_plan *plan, const struct gd_plan_exec *e,
		     enum gd_plan_side side, char *buf)
{
	int host = side == GD_SIDE_SERVER ? gd_plan_server_host(e)
					  : gd_plan_client_host(e);
	long limit = gd_plan_run_limit(&plan->cfg);
	struct cmd c = { buf, 0 };

	buf[0] = '\0';
	/* A server waits for its client without end (as perftest's does):
	 * bounded, a partner that never connects cannot stall the campaign. */
	if (limit) {
		put_arg_long(&c, "timeout -k 10 ", limit);
		put(&c, " ");
	}
	put_arg(&c, plan->cfg.tool, " -d ");
	put(&c, plan->hosts[host].assoc[e->gpu].nic);
	if (plan->cfg.gid_index >= 0)
		put_arg_long(&c, " -x ", plan->cfg.gid_index);
	put_arg_long(&c, " -p ", e->port);
	if (plan->cfg.auth_key[0])
		put_arg(&c, " --auth-key=", plan->cfg.auth_key);
	if (plan->cfg.tool_args[0])
		put_arg(&c, " ", plan->cfg.tool_args);
	/* --seconds as the run's length: the worksheet's hours are these */
	if (plan->cfg.run_duration_s)
		put_arg_long(&c, " -D ", plan->cfg.run_duration_s);
	if (plan->cfg.tool_repeat > 1)
		put_arg_long(&c, " --repeat=", plan->cfg.tool_repeat);
	mem_args(plan, e, &c);
	if (side == GD_SIDE_LOOPBACK)
		put(&c, " --loopback");
	put_arg(&c, " --out_json_file=$RESULTS/", e->id);
	put(&c, side == GD_SIDE_SERVER ? ".server.json" : ".json");
	label_args(plan, e, host, &c);
	if (side == GD_SIDE_CLIENT)
		put_arg(&c, " ", plan->hosts[gd_plan_server_host(e)].name);
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

void gd_plan_doctor_path(const struct gd_plan *plan, char *buf, size_t len)
{
	const char *slash = strrchr(plan->cfg.tool, '/');

	if (slash)
		snprintf(buf, len, "%.*sgd_doctor",
			 (int)(slash - plan->cfg.tool + 1), plan->cfg.tool);
	else
		snprintf(buf, len, "gd_doctor");
}

/* Before the first round, one gd_doctor envelope per server in $RESULTS:
 * gd_report's inventory and mapping items read them. Its exit status 3
 * (error findings) is the report's to judge, not a reason to stop. Remote
 * launchers start at most 32 at a time, so a 12,500-server file neither
 * forks them all at once nor needs a host list longer than an argument. */
static void commands_envelopes(FILE *f, const struct gd_plan *plan, bool local)
{
	enum gd_plan_launcher l = plan->cfg.launcher;
	char doctor[GD_PLAN_NAME_MAX + 16];
	long h;

	gd_plan_doctor_path(plan, doctor, sizeof(doctor));
	fputs("# One gd_doctor envelope per server (gd_report: inventory, "
	      "mapping).\n",
	      f);
	if (local || plan->cfg.loopback_host[0]) {
		fprintf(f, "%s --json=\"$RESULTS/doctor-%s.json\" >/dev/null\n",
			doctor, local ? "$GD_HOST" : "$(uname -n)");
		return;
	}
	for (h = 0; h < plan->cfg.servers; h++) {
		fprintf(f,
			"%s %s \"%s --json=$RESULTS/doctor-%s.json >/dev/null\" &\n",
			launch_prefix[l], plan->hosts[h].name, doctor,
			plan->hosts[h].name);
		if (h % 32 == 31)
			fputs("wait\n", f);
	}
	fputs("wait\n", f);
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
	char note[512];

	fprintf(f,
		"#!/bin/sh\n# gd_plan command file for plan '%s': one line "
		"per execution.\n",
		plan->cfg.name);
	gd_plan_generated_note(plan, note, sizeof(note));
	if (note[0])
		fprintf(f, "# Note: %s.\n", note);
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
	commands_envelopes(f, plan, local);
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
