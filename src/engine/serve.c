/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The server's side channel: listen, say who may run a test, and take the
 * first connection whose handshake succeeds; the others are closed with one
 * line each while the server goes on waiting.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>

#include "engine/limits.h"
#include "engine/serve.h"
#include "util/error.h"
#include "util/stop.h"

#define GD_SERVER_ACCEPT_WAIT_MS (INT_MAX / 2)

int gd_serve_listen(const struct gd_opts *o, int *fd)
{
	const char *host = !o->loopback	  ? o->bind_addr
			   : o->ipv6_addr ? GD_LOOPBACK_IPV6
					  : GD_LOOPBACK_IPV4;

	return gd_oob_listen_af(host, (uint16_t)o->tcp_port,
				o->ipv6_addr ? AF_INET6 : AF_UNSPEC, fd);
}

void gd_serve_waiting_text(const struct gd_test *test, const struct gd_opts *o,
			   const char *ready, unsigned int client_no, char *buf,
			   size_t len)
{
	char nth[32] = "";

	if (client_no)
		snprintf(nth, sizeof(nth), " %u", client_no);
	snprintf(
		buf, len,
		" Waiting for client%s on %s%sport %" PRIu64
		" (%s%s%s, the test travels from the client; %s may run one within this server's limits)...",
		nth, o->bind_addr ? o->bind_addr : "", o->bind_addr ? " " : "",
		o->tcp_port, test->name, ready[0] ? " on " : "", ready,
		o->auth_key
			? "only a client with this server's key (--auth-key)"
			: "anyone who can reach this port");
}

/*
 * One deadline from accept to ACCEPT or REJECT, whatever the peer sends
 * (heartbeats are refused until the hellos are through, and no frame is
 * taken over a few KiB): a peer without the key holds the server for
 * --handshake-timeout at most.
 */
static int gd_serve_handshake(struct gd_session *s)
{
	const struct gd_opts *o = s->o;
	int ret;

	s->accept_ms = gd_oob_now_ms();
	s->oob.timeout_ms = (int)(o->handshake_timeout_s * 1000);
	snprintf(s->limit_text, sizeof(s->limit_text),
		 "this server's limit of %" PRIu64 " s (--handshake-timeout)",
		 o->handshake_timeout_s);
	gd_oob_set_deadline(&s->oob, s->accept_ms + s->oob.timeout_ms,
			    s->limit_text, -ETIMEDOUT);
	s->oob.max_payload = GD_FRAME_HANDSHAKE_MAX;
	gd_stop_during("setting up the test with peer %s", s->oob.peer_name);
	ret = gd_session_handshake(s);
	s->oob.timeout_ms = (int)o->oob_timeout_ms;
	s->oob.max_payload = 0;
	gd_oob_set_deadline(&s->oob, 0, NULL, 0);
	/* --max-time from accept: setup, every wait for the peer and every
	 * step; heartbeats keep a peer alive but never extend it */
	if (!ret && s->limit_time_s) {
		snprintf(s->limit_text, sizeof(s->limit_text),
			 "this server's limit of %" PRIu64 " s (--max-time)",
			 s->limit_time_s);
		gd_oob_set_deadline(
			&s->oob, s->accept_ms + (int64_t)s->limit_time_s * 1000,
			s->limit_text, -ETIME);
	}
	return ret;
}

void gd_serve_forget(struct gd_session *s)
{
	if (!s->client_o)
		return;
	s->o = s->own_o;
	s->o->ops->release(s->client_o);
	free(s->client_o);
	s->client_o = NULL;
}

/* This client's request starts as a fresh copy of the server's own
 * options: nothing a client before it asked for is left in it. */
static int gd_serve_fresh(struct gd_session *s)
{
	struct gd_opts *c = malloc(sizeof(*c));
	int ret;

	gd_serve_forget(s);
	if (!c)
		return gd_err(-ENOMEM, "out of memory for a client's request");
	ret = s->o->ops->copy(c, s->o);
	if (ret) {
		free(c);
		return ret;
	}
	s->own_o = s->o;
	s->client_o = c;
	s->o = c;
	return 0;
}

/*
 * A server waits for its client as long as it takes, like perftest; a
 * connection that fails the handshake (silent past --handshake-timeout,
 * garbage, another test or version, a request over a limit) is closed with
 * one line and the next one is awaited. The first valid client is the run.
 */
static int gd_serve_loop(struct gd_session *s, int listen_fd)
{
	const struct gd_opts *o = s->o; /* the server's own, as given */
	int ret;

	for (;;) {
		s->oob.timeout_ms = GD_SERVER_ACCEPT_WAIT_MS;
		ret = gd_oob_accept_fd(&s->oob, listen_fd);
		if (ret)
			return ret;
		s->client_seen = true;
		ret = gd_serve_fresh(s);
		if (!ret)
			ret = gd_serve_handshake(s);
		/* --loopback: the one client is this process's other half */
		if (o->loopback ||
		    !gd_limits_next_client(ret, gd_stop_signal()))
			return ret;
		if (ret == -ETIMEDOUT)
			gd_report_notice(
				"%s: closed the connection from %s: no hello%s test within %" PRIu64
				" s (--handshake-timeout); waiting for the next client",
				s->test->name, s->oob.peer_name,
				s->auth.on ? ", proof of the key and" : " and",
				o->handshake_timeout_s);
		else
			gd_report_notice(
				"%s: closed the connection from %s: %s; waiting for the next client",
				s->test->name, s->oob.peer_name, gd_err_msg());
		gd_oob_close(&s->oob);
		gd_err_clear();
		gd_serve_forget(s);
		gd_stop_during("waiting for a client on port %" PRIu64,
			       o->tcp_port);
	}
}

int gd_session_serve(struct gd_session *s)
{
	const struct gd_opts *o = s->o;
	char line[1024];
	int listen_fd, ret;

	if (s->listen_kept) {
		/* --persist: its loop said who it waits for */
		gd_stop_during("waiting for a client on port %" PRIu64,
			       o->tcp_port);
		return gd_serve_loop(s, s->listen_fd);
	}
	ret = gd_serve_listen(o, &listen_fd);
	if (ret)
		return ret;
	gd_stop_during("waiting for a client on port %" PRIu64, o->tcp_port);
	gd_serve_waiting_text(s->test, o, s->ready, 0, line, sizeof(line));
	gd_report_status(s->rep, "%s", line);
	ret = gd_serve_loop(s, listen_fd);
	close(listen_fd);
	return ret;
}
