/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One side's whole run (role.c): the session, the sweep, the verdict and the
 * one report. gd_engine_run calls it once, --loopback once per half,
 * --persist once per client (persist.c). Private to the engine.
 */
#ifndef GD_ROLE_H
#define GD_ROLE_H

#include <stdbool.h>

#include "engine/opts.h"
#include "engine/test.h"

struct gd_role {
	bool is_server;
	bool quiet; /* no text (the --loopback server half) */
	/* server, --persist: the listen socket kept across clients (-1: the
	 * run opens its own) and this client's number, from 1, which names
	 * its documents (0: the options' paths as given) */
	int listen_fd;
	unsigned int client_no;
	/* out, server: a client connected (else the run failed before),
	 * and its address */
	bool client_seen;
	char peer[128];
	/* out: the peer said it was interrupted */
	bool peer_interrupted;
	/* out: a signal ended this process's --wait_destroy wait */
	bool wait_cut;
};

/* Run @test as @r says and report once; the exit status. */
int gd_role_run(const struct gd_test *test, struct gd_opts *o, int argc,
		char **argv, struct gd_role *r);

#endif
