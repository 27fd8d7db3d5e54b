/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --persist: one listen socket, one client after another. Each client's run
 * is an ordinary server run (role.c) with the socket kept open, so that a
 * client arriving while another runs waits in the kernel's accept queue
 * instead of being refused; a client whose handshake fails is closed inside
 * that run as without --persist and does not count.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "engine/engine.h"
#include "engine/persist.h"
#include "engine/preflight.h"
#include "engine/role.h"
#include "engine/serve.h"
#include "report/report.h"
#include "transport/oob.h"
#include "util/error.h"
#include "util/output.h"
#include "util/stop.h"

struct gd_persist_tally {
	unsigned int served, failed;
	int status; /* the loop's exit status so far */
	const char *ended_by;
};

/* Wait for the next client and run it; false when the loop ends. */
static bool gd_persist_one(const struct gd_test *test, struct gd_opts *o,
			   int argc, char **argv, int listen_fd,
			   const char *ready, struct gd_persist_tally *t)
{
	struct gd_role r = { .is_server = true,
			     .listen_fd = listen_fd,
			     .client_no = t->served + 1 };
	char line[1024], doc[4096];
	int ret, st;

	gd_serve_waiting_text(test, o, ready, r.client_no, line, sizeof(line));
	gd_report_status_line(o->json_path && !strcmp(o->json_path, "-"), "%s",
			      line);
	gd_stop_during("waiting for client %u on port %" PRIu64, r.client_no,
		       o->tcp_port);
	ret = gd_oob_wait_client(listen_fd);
	if (ret == -EINTR) {
		t->ended_by = gd_stop_signal_name(gd_stop_signal());
		return false;
	}
	if (ret) {
		gd_report_error(NULL, test->name, ret, gd_err_msg());
		t->status = GD_EXIT_FAIL;
		return false;
	}
	st = gd_role_run(test, o, argc, argv, &r);
	if (!r.client_seen) {
		/* this side failed before any client (its device, a memory):
		 * the next would fail the same way */
		t->status = st;
		t->ended_by = "this server's own failure, said above";
		return false;
	}
	t->served++;
	if (st != GD_EXIT_OK) {
		t->failed++;
		t->status = GD_EXIT_FAIL;
	}
	if (gd_stop_is_exit_status(st)) {
		t->status = st;
		t->ended_by = "a signal during its run";
		return false;
	}
	gd_err_clear();
	gd_report_notice(
		"%s: --persist: client %u (%s) ended with exit %d here%s%s%s",
		test->name, r.client_no, r.peer, st,
		o->json_path ? ", document " : "",
		o->json_path ? gd_out_numbered(o->json_path, r.client_no, doc,
					       sizeof(doc))
			     : "",
		o->max_clients && t->served >= o->max_clients
			? ""
			: "; waiting for the next");
	return true;
}

int gd_persist_run(const struct gd_test *test, struct gd_opts *o, int argc,
		   char **argv)
{
	struct gd_persist_tally t = { .status = GD_EXIT_OK,
				      .ended_by = "--max-clients" };
	char ready[256] = "";
	int listen_fd, ret;

	/* a server bound to fail (its device, a memory) says so before it
	 * waits, as without --persist; each client's run checks again */
	ret = gd_preflight(o, true, ready, sizeof(ready));
	if (!ret)
		ret = gd_serve_listen(o, &listen_fd);
	if (ret) {
		gd_report_error(NULL, test->name, ret, gd_err_msg());
		return GD_EXIT_FAIL;
	}
	while ((!o->max_clients || t.served < o->max_clients) &&
	       gd_persist_one(test, o, argc, argv, listen_fd, ready, &t))
		;
	close(listen_fd);
	gd_report_notice(
		"%s: --persist: served %u client(s), %u of them failed here; ended by %s",
		test->name, t.served, t.failed, t.ended_by);
	return t.status;
}
