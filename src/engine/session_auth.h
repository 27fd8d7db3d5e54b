/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The handshake's authentication step (session_auth.c): after the hellos
 * and before the test description, each end proves it has the key of
 * --auth-key; the client first, the server only to a client that proved.
 */
#ifndef GD_SESSION_AUTH_H
#define GD_SESSION_AUTH_H

#include <json-c/json.h>

struct gd_session;

/* Load --auth-key once (0 when not given): before a server waits, so a
 * bad key file ends it at once. 0 or -errno, message recorded. */
int gd_session_auth_prepare(struct gd_session *s);
/* A fresh nonce and this end's HELLO fields. */
void gd_session_auth_hello(struct gd_session *s, struct json_object *hello);
/* After the hellos (@peer the peer's): the proofs, both ways. A server
 * that refuses the client tells it in a REJECT frame. 0 or -errno. */
int gd_session_auth(struct gd_session *s, struct json_object *peer);

#endif
