/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The Slurm launch files: a batch script of constant size (whatever the
 * cluster's size, below Slurm's max_script_size) and the steps file next to
 * it, one line per side of every execution, which the script reads.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/plan.h"
#include "util/error.h"

/* Quoted for sh: 'it'\''s' */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* Length of @s without its trailing digits (its prefix). */
static size_t prefix_len(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] >= '0' && s[n - 1] <= '9')
		n--;
	return n;
}

/* Host @j continues the numeric range of host @i: same prefix, same digit
 * width (zero padding), number one more. */
static bool continues(const char *x, const char *y, size_t pfx)
{
	size_t nx = strlen(x), ny = strlen(y);

	if (nx != ny || nx == pfx || prefix_len(y) != pfx || strncmp(x, y, pfx))
		return false;
	return strtol(y + pfx, NULL, 10) == strtol(x + pfx, NULL, 10) + 1;
}

/* The host list in Slurm's hostlist syntax, ranges folded: node[001-512]
 * for generated names, names as they are where nothing folds. */
static void put_hostlist(FILE *f, const struct gd_plan *plan)
{
	long h = 0, n = plan->cfg.servers, end;

	while (h < n) {
		const char *name = plan->hosts[h].name;
		size_t pfx = prefix_len(name);

		for (end = h + 1;
		     end < n && continues(plan->hosts[end - 1].name,
					  plan->hosts[end].name, pfx);
		     end++)
			;
		if (h)
			fputc(',', f);
		if (end - h < 2)
			fputs(name, f);
		else
			fprintf(f, "%.*s[%s-%s]", (int)pfx, name, name + pfx,
				plan->hosts[end - 1].name + pfx);
		h = end;
	}
}

/* Runs on every node of a job step: that node's side of each execution of
 * one pair in one step, in order; concurrency steps start them together.
 * The driver reads the steps file's pairs in order, one srun per pair, and
 * waits at the end of each step. Pipes, not process substitution: that
 * needs /dev/fd, which a minimal node or container may lack. */
static const char slurm_body[] =
	"case $STEPS in /*) ;; *) STEPS=$PWD/$STEPS ;; esac\n"
	"case $(head -n 1 \"$STEPS\" 2>/dev/null) in\n"
	"\"# gd_plan steps/1 plan=$PLAN \"*) ;;\n"
	"*)\n"
	"\techo \"gd_plan batch script: '$STEPS' is not the steps file of "
	"plan '$PLAN';\" \\\n"
	"\t\t\"submit from the directory holding it, or set GD_PLAN_STEPS\" "
	">&2\n"
	"\texit 2\n"
	"\t;;\n"
	"esac\n"
	"mkdir -p \"$RESULTS\" || exit 1\n"
	"# One gd_doctor envelope per node before the first round (gd_report: "
	"inventory,\n# mapping); its findings are the report's to judge, not a "
	"reason to stop.\n"
	"srun --nodes=\"${SLURM_JOB_NUM_NODES:-1}\" --ntasks-per-node=1 "
	"--job-name=\"$PLAN-doctor\" \\\n"
	"\tbash -c 'mkdir -p \"$RESULTS\" && \"$0\" --json=\"$RESULTS/doctor-${SLURMD_NODENAME:-$(hostname)}"
	".json\" >/dev/null; exit 0' \\\n"
	"\t\"$DOCTOR\" </dev/null\n"
	"\n"
	"gd_step() {\n"
	"\tlocal me=${SLURMD_NODENAME:-$(hostname)} mode host role cmd\n"
	"\tif ! [ -r \"$1\" ]; then\n"
	"\t\techo \"gd_step on $me: cannot read '$1'; it must be on a file "
	"system every node sees\" >&2\n"
	"\t\treturn 1\n"
	"\tfi\n"
	"\tmkdir -p \"$RESULTS\" || return 1\n"
	"\tawk -v k=\"$2 \" 'index($0, k) == 1' \"$1\" | {\n"
	"\t\twhile read -r _ _ _ _ mode host role cmd; do\n"
	"\t\t\tif [ \"$role\" != loopback ] && [ \"$host\" != \"$me\" ] &&\n"
	"\t\t\t\t[ \"$host\" != \"${me%%.*}\" ]; then\n"
	"\t\t\t\tcontinue\n"
	"\t\t\tfi\n"
	"\t\t\t# The client's connect retries; the pause spares the "
	"retries.\n"
	"\t\t\t[ \"$role\" = client ] && cmd=\"sleep 1; $cmd\"\n"
	"\t\t\tif [ \"$mode\" = concurrent ]; then\n"
	"\t\t\t\teval \"$cmd\" </dev/null &\n"
	"\t\t\telse\n"
	"\t\t\t\teval \"$cmd\" </dev/null\n"
	"\t\t\tfi\n"
	"\t\tdone\n"
	"\t\twait\n"
	"\t}\n"
	"}\n"
	"\n"
	"awk '!/^#/ && !seen[$1 \" \" $2 \" \" $3 \" \" $4]++ "
	"{ print $1, $2, $3, $4 }' \"$STEPS\" | {\n"
	"\tprev=\n"
	"\twhile read -r round step a b; do\n"
	"\t\tif [ \"$round $step\" != \"$prev\" ]; then\n"
	"\t\t\t[ -z \"$prev\" ] || wait\n"
	"\t\t\techo \"round $round step $step\"\n"
	"\t\t\tprev=\"$round $step\"\n"
	"\t\tfi\n"
	"\t\tif [ -n \"$LOOPBACK_HOST\" ]; then\n"
	"\t\t\tnodes=(--nodes=1 --ntasks=1 --nodelist=\"$LOOPBACK_HOST\")\n"
	"\t\telse\n"
	"\t\t\tnodes=(--nodes=2 --ntasks=2 --ntasks-per-node=1 "
	"--nodelist=\"$a,$b\")\n"
	"\t\tfi\n"
	"\t\tsrun \"${nodes[@]}\" --job-name=\"$PLAN-$a-$b\" bash -c \\\n"
	"\t\t\t\"$(declare -f gd_step); gd_step \\\"\\$@\\\"\" gd_step \\\n"
	"\t\t\t\"$STEPS\" \"$round $step $a $b\" </dev/null &\n"
	"\tdone\n"
	"\twait\n"
	"}\n";

static void slurm_head(FILE *f, const struct gd_plan *plan, const char *steps)
{
	const char *lb = plan->cfg.loopback_host;
	char doctor[GD_PLAN_NAME_MAX + 16], note[512];

	gd_plan_doctor_path(plan, doctor, sizeof(doctor));
	gd_plan_generated_note(plan, note, sizeof(note));
	fprintf(f,
		"#!/bin/bash\n#SBATCH --job-name=gd-%s\n#SBATCH --nodes=%ld\n"
		"#SBATCH --ntasks-per-node=1\n#SBATCH --exclusive\n"
		"#SBATCH --nodelist=",
		plan->cfg.name, lb[0] ? 1L : plan->cfg.servers);
	if (lb[0])
		fputs(lb, f);
	else
		put_hostlist(f, plan);
	/* comments may stand between #SBATCH lines; said where the list is */
	if (note[0])
		fprintf(f, "\n# Note: %s.", note);
	fprintf(f,
		"\n# gd_plan batch script for plan '%s'. Its job steps are in "
		"the steps file\n# (one line per side of an execution), which "
		"must be readable at the same\n# path on every node: submit "
		"from a shared directory. One job step per pair\n# with an "
		"explicit node list; the pairs of a step run in parallel, "
		"steps and\n# rounds in order.\n"
		"PLAN=%s\nLOOPBACK_HOST=%s\nDOCTOR=%s\n"
		"RESULTS=${RESULTS:-%s/${SLURM_JOB_ID:-manual}}\n"
		"export RESULTS\nSTEPS=${GD_PLAN_STEPS:-",
		plan->cfg.name, plan->cfg.name, lb, doctor,
		plan->cfg.results_dir);
	put_quoted(f, steps);
	fputs("}\n", f);
	/* Submitted from the directory that holds both files. */
	if (strchr(steps, '/')) {
		fputs("if ! [ -r \"$STEPS\" ] && [ -r ", f);
		put_quoted(f, strrchr(steps, '/') + 1);
		fputs(" ]; then\n\tSTEPS=", f);
		put_quoted(f, strrchr(steps, '/') + 1);
		fputs("\nfi\n", f);
	}
}

static int close_checked(FILE *f, const char *what, const char *path)
{
	int err = ferror(f);

	if (fclose(f) || err)
		return gd_err(-EIO,
			      "--slurm: error writing the %s '%s'; check "
			      "free space",
			      what, path);
	return 0;
}

/* One line per side: ROUND STEP NODE_A NODE_B MODE HOST ROLE COMMAND. */
static void steps_line(FILE *f, const struct gd_plan *plan,
		       const struct gd_plan_exec *e, enum gd_plan_side side,
		       char *cmd)
{
	const char *lb = plan->cfg.loopback_host;
	int host = side == GD_SIDE_SERVER ? gd_plan_server_host(e)
					  : gd_plan_client_host(e);
	static const char *const role[] = {
		[GD_SIDE_SERVER] = "server",
		[GD_SIDE_CLIENT] = "client",
		[GD_SIDE_LOOPBACK] = "loopback",
	};

	gd_plan_run_cmd(plan, e, side, cmd);
	fprintf(f, "%d %d %s %s %s %s %s %s\n", e->round, e->step,
		plan->hosts[e->a].name, plan->hosts[e->b].name,
		e->round == GD_ROUND_CONCURRENCY ? "concurrent" : "serial",
		lb[0] ? lb : plan->hosts[host].name, role[side], cmd);
}

static int write_steps(const struct gd_plan *plan, const char *path)
{
	static char cmd[GD_PLAN_CMD_MAX];
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return gd_err(-errno,
			      "--slurm: cannot write the steps file "
			      "'%s': %s",
			      path, strerror(errno));
	fprintf(f,
		"# gd_plan steps/1 plan=%s executions=%zu\n"
		"# ROUND STEP NODE_A NODE_B MODE HOST ROLE COMMAND: one line "
		"per side of an\n# execution, read by the plan's batch script; "
		"HOST runs COMMAND.\n",
		plan->cfg.name, plan->n_execs);
	for (i = 0; i < plan->n_execs; i++) {
		const struct gd_plan_exec *e = &plan->execs[i];

		if (plan->cfg.loopback_host[0]) {
			steps_line(f, plan, e, GD_SIDE_LOOPBACK, cmd);
			continue;
		}
		steps_line(f, plan, e, GD_SIDE_SERVER, cmd);
		steps_line(f, plan, e, GD_SIDE_CLIENT, cmd);
	}
	return close_checked(f, "steps file", path);
}

/* FILE.sbatch -> FILE.steps; any other name gets .steps appended. */
static char *steps_path(const char *path)
{
	size_t n = strlen(path);
	char *s = malloc(n + sizeof(".steps"));

	if (!s)
		return NULL;
	if (n > 7 && !strcmp(path + n - 7, ".sbatch"))
		n -= 7;
	memcpy(s, path, n);
	strcpy(s + n, ".steps");
	return s;
}

int gd_plan_write_slurm(const struct gd_plan *plan, const char *path)
{
	char *steps = steps_path(path);
	FILE *f;
	int ret;

	if (!steps)
		return gd_err(-ENOMEM, "--slurm: out of memory");
	ret = write_steps(plan, steps);
	f = ret ? NULL : fopen(path, "w");
	if (!ret && !f)
		ret = gd_err(-errno, "--slurm: cannot write '%s': %s", path,
			     strerror(errno));
	if (f) {
		slurm_head(f, plan, steps);
		fputs(slurm_body, f);
		ret = close_checked(f, "batch script", path);
	}
	free(steps);
	return ret;
}
