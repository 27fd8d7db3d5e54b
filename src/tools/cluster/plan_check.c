/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Before a plan is written: every distinct command line it would launch
 * goes through the benchmark's own --dry-run, so that a line every run
 * would refuse (an unknown option, -D with a ping-pong test, a request over
 * a default server's limits) stops gd_plan with the benchmark's message
 * instead of each job on the cluster after its queue wait.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cluster/plan.h"
#include "util/error.h"

#define CHECK_MSG_MAX 2048

/* @dir/@name into @buf when it is an executable file. */
static bool exe_in(const char *dir, size_t dir_len, const char *name, char *buf,
		   size_t len)
{
	if ((size_t)snprintf(buf, len, "%.*s/%s", (int)dir_len, dir, name) >=
	    len)
		return false;
	return access(buf, X_OK) == 0;
}

/*
 * The benchmark this node can run for --tool: the path as given when it is
 * one here, else the program of that name beside gd_plan (installed
 * together, or both in a build tree), else on PATH.
 */
static int find_tool(const char *tool, char *buf, size_t len)
{
	const char *base = strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool;
	char self[PATH_MAX];
	const char *path = getenv("PATH"), *p;
	ssize_t n;

	if (strchr(tool, '/') && access(tool, X_OK) == 0) {
		snprintf(buf, len, "%s", tool);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		if (strrchr(self, '/') &&
		    exe_in(self, (size_t)(strrchr(self, '/') - self), base, buf,
			   len))
			return 0;
	}
	for (p = path; p && *p;
	     p += strcspn(p, ":") + (p[strcspn(p, ":")] != 0))
		if (exe_in(p, strcspn(p, ":"), base, buf, len))
			return 0;
	return gd_err(-ENOENT,
		      "--tool: cannot check the plan's command lines: %s is "
		      "neither beside gd_plan (%s) nor on PATH; install "
		      "gdperf's benchmarks on this node, or give --tool as the "
		      "path of %s",
		      base, n > 0 ? self : "unknown", base);
}

/* @s in single quotes for sh. */
static void put_quoted(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		buf[used++] = '\'';
	for (; *s && used + 5 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + used, "'\\''", 4);
			used += 4;
		} else {
			buf[used++] = *s;
		}
	}
	if (used + 1 < len)
		buf[used++] = '\'';
	buf[used] = '\0';
}

/* Run @script with sh, stdout discarded, stderr into @msg; its status. */
static int run_captured(const char *script, char *msg, size_t len)
{
	int fds[2], status = 0;
	size_t used = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return gd_err(-errno,
			      "--tool: cannot check the plan's "
			      "command lines: pipe: %s",
			      strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return gd_err(-errno,
			      "--tool: cannot check the plan's "
			      "command lines: fork: %s",
			      strerror(errno));
	}
	if (pid == 0) {
		if (dup2(fds[1], STDERR_FILENO) < 0 ||
		    !freopen("/dev/null", "w", stdout))
			_exit(127);
		close(fds[0]);
		close(fds[1]);
		/* the launch files set RESULTS; --dry-run writes nothing */
		setenv("RESULTS", "results", 1);
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], msg + used, len - 1 - used)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0 && (used += (size_t)n) == len - 1)
			break;
	msg[used] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* the last line is the one the run ends with */
	while (used && msg[used - 1] == '\n')
		msg[--used] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* One side's line of @e: the benchmark found here, --dry-run, the rest of
 * the line as the launch files write it (without timeout(1)'s prefix). */
static int check_line(const struct gd_plan *plan, const struct gd_plan_exec *e,
		      enum gd_plan_side side, const char *tool)
{
	static const char *const side_name[] = {
		[GD_SIDE_SERVER] = "server",
		[GD_SIDE_CLIENT] = "client",
		[GD_SIDE_LOOPBACK] = "--loopback",
	};
	static char cmd[GD_PLAN_CMD_MAX],
		script[GD_PLAN_CMD_MAX + PATH_MAX + 64], msg[CHECK_MSG_MAX];
	const char *rest;
	int rc;

	gd_plan_run_cmd(plan, e, side, cmd);
	rest = strstr(cmd, plan->cfg.tool);
	rest = rest ? rest + strlen(plan->cfg.tool) : "";
	script[0] = '\0';
	strcat(script, "exec ");
	put_quoted(script, sizeof(script), tool);
	strncat(script, " --dry-run", sizeof(script) - strlen(script) - 1);
	strncat(script, rest, sizeof(script) - strlen(script) - 1);
	rc = run_captured(script, msg, sizeof(msg));
	if (rc == 0)
		return 0;
	if (rc == 2)
		return gd_err(-EINVAL,
			      "every %s run of the plan would be refused: %s; "
			      "check --tool-args (and --tool, --gpu-mem, "
			      "--repeat)",
			      side_name[side],
			      strrchr(msg, '\n') ? strrchr(msg, '\n') + 1
						 : msg);
	return gd_err(-EINVAL,
		      "--tool: cannot check the plan's command lines: %s "
		      "--dry-run exited %d%s%s; is it a gdperf benchmark of "
		      "this version?",
		      tool, rc, msg[0] ? ": " : "", msg);
}

int gd_plan_check_runs(const struct gd_plan *plan)
{
	char tool[PATH_MAX];
	int last_round = 0, ret = find_tool(plan->cfg.tool, tool, sizeof(tool));

	/* a round's executions differ only in NICs, ports, GPUs, hosts and
	 * labels: its first one stands for its command lines */
	for (size_t i = 0; !ret && i < plan->n_execs; i++) {
		const struct gd_plan_exec *e = &plan->execs[i];

		if (e->round == last_round)
			continue;
		last_round = e->round;
		if (plan->cfg.loopback_host[0]) {
			ret = check_line(plan, e, GD_SIDE_LOOPBACK, tool);
			continue;
		}
		ret = check_line(plan, e, GD_SIDE_CLIENT, tool);
		if (!ret)
			ret = check_line(plan, e, GD_SIDE_SERVER, tool);
	}
	return ret;
}
