/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by the handshake tests (protocol_test, auth_test, limits_test):
 * one end of a side channel with its session, its options and what its
 * handshake returned, and a client and a server over a socketpair with the
 * server in a thread of its own (gd_err is per thread, so each end keeps
 * its own message). Include after <cmocka.h> and opts_util.h.
 */
#ifndef GD_TESTS_SESSION_PAIR_H
#define GD_TESTS_SESSION_PAIR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "engine/session.h"
#include "transport/oob.h"
#include "util/error.h"

struct side {
	struct gd_session s;
	struct gd_opts o;
	int ret;
	char msg[GD_ERR_MSG_MAX];
};

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOARGS ((const char *const[]){ NULL })

/* @args parsed for @t as @server or client; attached to @fd unless it is
 * negative (a test that connects later). */
static inline void side_init(struct side *sd, const struct gd_test *t,
			     bool server, int fd, int timeout_ms,
			     const char *const *args)
{
	memset(sd, 0, sizeof(*sd));
	assert_int_equal(parse_list(t, &sd->o, NULL, args), 0);
	sd->s.test = t;
	sd->s.o = &sd->o;
	sd->s.is_server = server;
	gd_oob_init(&sd->s.oob, timeout_ms);
	if (fd >= 0)
		gd_oob_attach(&sd->s.oob, fd,
			      server ? "client(test)" : "server(test)");
}

static inline void side_free(struct side *sd)
{
	gd_session_teardown(&sd->s);
	gd_opts_free(&sd->o);
}

static inline void side_handshake(struct side *sd)
{
	gd_err_clear();
	sd->ret = gd_session_handshake(&sd->s);
	snprintf(sd->msg, sizeof(sd->msg), "%s", gd_err_msg());
}

static inline void *side_server_thread(void *arg)
{
	side_handshake(arg);
	return NULL;
}

/* Both ends' handshakes at once, the server's in a thread. */
static inline void run_pair(struct side *client, struct side *server)
{
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, side_server_thread, server),
			 0);
	side_handshake(client);
	assert_int_equal(pthread_join(th, NULL), 0);
}

static inline void make_pair(int fds[2])
{
	assert_int_equal(
		socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
}

static inline void assert_has(const char *text, const char *needle)
{
	if (!strstr(text, needle)) {
		print_error("message '%s' lacks '%s'\n", text, needle);
		fail();
	}
}

#endif
