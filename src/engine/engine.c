/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_engine_run: one gd_* invocation once its options are parsed (by
 * src/cli). Pick the roles: server or client (role.c), both with
 * --loopback (the server half in a child process), or a server for one
 * client after another with --persist (persist.c).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/persist.h"
#include "engine/role.h"
#include "engine/session.h"
#include "report/report.h"
#include "util/stats.h"
#include "util/error.h"
#include "util/stop.h"

/*
 * One line of the server half: printed unless this half printed it already
 * (the same failure seen on both sides, or the server's error relayed in the
 * client's own), or it only echoes an interruption this half reported.
 */
static void gd_loopback_line(const struct gd_test *test, const char *line,
			     bool peer_interrupted)
{
	size_t n = strlen(test->name);
	const char *rest = line;
	bool error;

	if (!strncmp(line, test->name, n) &&
	    !strncmp(line + n, " (server): ", 11))
		rest = line + n + 11;
	error = !strncmp(rest, "error: ", 7);
	if (error)
		rest += 7;
	if (!*rest || gd_report_notice_covers(rest))
		return;
	if (error && (gd_stop_signal() || peer_interrupted))
		return;
	gd_report_notice("%s", line);
}

/* How long the server half may outlive the client half (its teardown)
 * before it counts as stuck and is asked to stop. */
#define GD_LOOPBACK_GRACE_MS 5000

/* The server half's lines until it exits; SIGTERM, then SIGKILL, when it
 * does not end on its own. True when it had to be stopped. */
static bool gd_loopback_relay(const struct gd_test *test, int fd, pid_t child,
			      bool peer_interrupted)
{
	char buf[8192], *nl;
	size_t have = 0;
	int waited = 0, sig = 0;
	bool stopped = false;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		ssize_t n;
		int rc = poll(&pfd, 1, 100);

		if (rc == 0 && (waited += 100) >= GD_LOOPBACK_GRACE_MS) {
			sig = sig ? SIGKILL : SIGTERM;
			kill(child, sig);
			stopped = true;
			waited = GD_LOOPBACK_GRACE_MS - 1000;
		}
		if (rc <= 0)
			continue;
		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			gd_loopback_line(test, buf, peer_interrupted);
			have -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, have + 1);
		}
		if (have == sizeof(buf) - 1) {
			gd_loopback_line(test, buf, peer_interrupted);
			have = 0;
		}
	}
	if (have)
		gd_loopback_line(test, buf, peer_interrupted);
	return stopped;
}

/*
 * The signal that ended the client half's --wait_destroy wait ends the
 * server half's too. Sent as the other kind (SIGTERM for SIGINT): where a
 * terminal's ^C reached both halves, a second SIGINT would kill the server
 * half (SA_RESETHAND) where another kind is only recorded.
 */
static void gd_loopback_end_wait(pid_t child)
{
	kill(child, gd_stop_signal() == SIGINT ? SIGTERM : SIGINT);
}

/*
 * Server in a child process, client here, both on the same device. The
 * child's notices come here through a pipe, so that a failure both halves
 * see is printed once; its status counts when it failed alone or was the
 * half that got the signal.
 */
static int gd_run_loopback(const struct gd_test *test, struct gd_opts *o,
			   int argc, char **argv)
{
	struct gd_role client = { .listen_fd = -1 };
	int wstatus = 0, client_status, server_status, lines[2];
	bool stopped;
	pid_t child;

	if (pipe2(lines, O_CLOEXEC)) {
		gd_report_notice("%s: cannot create the loopback pipe: %s",
				 test->name, strerror(errno));
		return GD_EXIT_FAIL;
	}
	fflush(NULL);
	child = fork();
	if (child < 0) {
		gd_report_notice("%s: cannot fork the loopback server: %s",
				 test->name, strerror(errno));
		close(lines[0]);
		close(lines[1]);
		return GD_EXIT_FAIL;
	}
	if (child == 0) {
		close(lines[0]);
		/* never stall the run on a full pipe: such a line goes to
		 * stderr (gd_report_notice) */
		fcntl(lines[1], F_SETFL, O_NONBLOCK);
		gd_report_notices_to(lines[1]);
		struct gd_role half = { .is_server = true,
					.quiet = true,
					.listen_fd = -1 };

		_exit(gd_role_run(test, o, argc, argv, &half));
	}
	close(lines[1]);
	free(o->server_host);
	o->server_host =
		strdup(o->ipv6_addr ? GD_LOOPBACK_IPV6 : GD_LOOPBACK_IPV4);
	client_status = gd_role_run(test, o, argc, argv, &client);
	if (client.wait_cut)
		gd_loopback_end_wait(child);
	stopped = gd_loopback_relay(test, lines[0], child,
				    client.peer_interrupted);
	close(lines[0]);
	while (waitpid(child, &wstatus, 0) < 0 && errno == EINTR)
		;
	server_status =
		WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : GD_EXIT_FAIL;
	if (stopped) {
		gd_report_notice(
			"%s: the loopback server half did not end with the client half and was stopped",
			test->name);
		server_status = GD_EXIT_FAIL;
	}
	if (gd_stop_is_exit_status(server_status) &&
	    !gd_stop_is_exit_status(client_status))
		return server_status;
	if (client_status == GD_EXIT_OK && server_status != GD_EXIT_OK) {
		gd_report_notice(
			"%s: the loopback server side failed (exit %d)",
			test->name, server_status);
		return GD_EXIT_FAIL;
	}
	return client_status;
}

int gd_engine_run(const struct gd_test *test, struct gd_opts *o, int argc,
		  char **argv)
{
	struct gd_role single = { .listen_fd = -1 };

	gd_clock_init();
	signal(SIGPIPE, SIG_IGN);
	if (gd_stop_install()) {
		gd_report_error(NULL, test->name, gd_err_code(), gd_err_msg());
		return GD_EXIT_FAIL;
	}
	srand48((long)getpid() ^ (long)time(NULL));
	if (o->loopback)
		return gd_run_loopback(test, o, argc, argv);
	if (o->persist)
		return gd_persist_run(test, o, argc, argv);
	single.is_server = !o->server_host;
	return gd_role_run(test, o, argc, argv, &single);
}
