/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The server's side channel (serve.c): its listen socket, its waiting line,
 * and the wait for the first client whose handshake succeeds. Private to
 * the engine.
 */
#ifndef GD_SERVE_H
#define GD_SERVE_H

#include <stddef.h>

#include "engine/opts.h"
#include "engine/session.h"
#include "engine/test.h"

/* The socket a server listens on, as @o says (--port, --bind_source_ip,
 * --ipv6-addr): 0 with *@fd set, or -errno with the message recorded. */
int gd_serve_listen(const struct gd_opts *o, int *fd);
/*
 * The line a server prints while it waits: port, test, what this side
 * checked (@ready, "" for nothing) and who may run a test; @client_no
 * (--persist) numbers the client awaited, 0 for none.
 */
void gd_serve_waiting_text(const struct gd_test *test, const struct gd_opts *o,
			   const char *ready, unsigned int client_no, char *buf,
			   size_t len);
/* Server: s->oob connected to the first client whose handshake succeeds,
 * on s->listen_fd when s->listen_kept, else on a socket of its own. */
int gd_session_serve(struct gd_session *s);
/* Server: drop this client's request (s->client_o), s->o back to the
 * server's own options; nothing when there is none (teardown calls it). */
void gd_serve_forget(struct gd_session *s);

#endif
