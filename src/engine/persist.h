/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --persist (persist.c): a server that serves one client after another.
 * Private to the engine.
 */
#ifndef GD_PERSIST_H
#define GD_PERSIST_H

#include "engine/opts.h"
#include "engine/test.h"

/*
 * Listen once and run each client that passes the handshake as a run of
 * its own: its own report and documents (numbered, gd_out_numbered()), the
 * server's own options back between clients. Ends at SIGINT or SIGTERM
 * between clients, or after --max-clients: 0 when every client's run ended
 * 0 here, else 1; a signal during a client's run ends it as that run ends.
 */
int gd_persist_run(const struct gd_test *test, struct gd_opts *o, int argc,
		   char **argv);

#endif
