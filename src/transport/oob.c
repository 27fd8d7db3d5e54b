/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Side-channel connections: listen/accept and connect with retry, bounded
 * by the timeout, and close. Frames travel in oob_io.c, heartbeats in
 * oob_beat.c. Every failure names the peer and says what to check, because
 * a stuck side channel is the first thing users hit.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "util/error.h"
#include "util/json_get.h"
#include "util/stop.h"
#include "transport/oob.h"
#include "transport/oob_priv.h"

/* Pause between connect attempts while the server is not up yet. */
#define GD_OOB_RETRY_MS 100

static void gd_format_peer(char *out, size_t out_len, const struct sockaddr *sa,
			   socklen_t sa_len)
{
	/* Numeric form only, so an IPv6 literal is the longest host. */
	char host[INET6_ADDRSTRLEN], serv[8];

	if (getnameinfo(sa, sa_len, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(out, out_len, "unknown peer");
		return;
	}
	if (sa->sa_family == AF_INET6)
		snprintf(out, out_len, "[%s]:%s", host, serv);
	else
		snprintf(out, out_len, "%s:%s", host, serv);
}

static void gd_set_nodelay(int fd)
{
	int one = 1;

	/* Frames are small request/response pairs; Nagle would add latency
	 * to every barrier. Failure only costs speed, so it is not fatal. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

void gd_oob_init(struct gd_oob *oob, int timeout_ms)
{
	memset(oob, 0, sizeof(*oob));
	pthread_mutex_init(&oob->send_lock, NULL);
	oob->fd = -1;
	oob->timeout_ms =
		timeout_ms > 0 ? timeout_ms : GD_OOB_DEFAULT_TIMEOUT_MS;
	snprintf(oob->peer_name, sizeof(oob->peer_name), "(not connected)");
}

void gd_oob_set_deadline(struct gd_oob *oob, int64_t until_ms, const char *what,
			 int code)
{
	oob->until_ms = until_ms;
	oob->until_what = what;
	oob->until_code = code ? code : -ETIMEDOUT;
}

void gd_oob_attach(struct gd_oob *oob, int fd, const char *peer_name)
{
	oob->fd = fd;
	oob->heard_ms = gd_oob_now_ms();
	snprintf(oob->peer_name, sizeof(oob->peer_name), "%s",
		 peer_name ? peer_name : "unknown peer");
}

static int gd_resolve(const char *host, uint16_t port, int passive, int family,
		      struct addrinfo **res)
{
	struct addrinfo hints = {
		.ai_family = family,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0),
	};
	char serv[8];
	int rc;

	snprintf(serv, sizeof(serv), "%u", port);
	rc = getaddrinfo(host, serv, &hints, res);
	if (rc && family == AF_INET6)
		return gd_err(
			-EHOSTUNREACH,
			"side channel: cannot resolve %s:%u to an IPv6 address (--ipv6-addr): %s; give an IPv6 address or a name with an AAAA record, or drop --ipv6-addr on both ends",
			host ? host : "*", port, gai_strerror(rc));
	if (rc)
		return gd_err(-EHOSTUNREACH,
			      "side channel: cannot resolve %s:%u: %s; check "
			      "the host name or use a numeric address",
			      host ? host : "*", port, gai_strerror(rc));
	return 0;
}

static int gd_bind_listen(const struct addrinfo *ai, int family)
{
	int one = 1;
	int fd;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	/* A server restarted right after a run must not wait out TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* --ipv6-addr means IPv6 only: no IPv4 client through a mapped
	 * address. */
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 1)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int gd_oob_listen(const char *bind_host, uint16_t port, int *listen_fd)
{
	return gd_oob_listen_af(bind_host, port, AF_UNSPEC, listen_fd);
}

int gd_oob_listen_af(const char *bind_host, uint16_t port, int family,
		     int *listen_fd)
{
	struct addrinfo *res, *ai;
	int fd = -EADDRNOTAVAIL;
	int rc;

	*listen_fd = -1;
	rc = gd_resolve(bind_host, port, 1, family, &res);
	if (rc)
		return rc;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = gd_bind_listen(ai, family);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return gd_err(
			fd,
			"side channel: cannot listen on %s:%u: %s; check that no "
			"other gdperf server or program uses TCP port %u (choose "
			"another with --port) and that the address is local",
			bind_host ? bind_host : "*", port, strerror(-fd), port);
	*listen_fd = fd;
	return 0;
}

int gd_oob_accept_fd(struct gd_oob *oob, int listen_fd)
{
	int64_t deadline_ms = gd_oob_now_ms() + oob->timeout_ms;
	struct sockaddr_storage ss;
	socklen_t ss_len;
	int rc, fd;

	for (;;) {
		rc = gd_oob_wait_fd(listen_fd, POLLIN, deadline_ms);
		if (rc == -ETIMEDOUT)
			return gd_err(
				rc,
				"side channel: no client connected within %d ms; "
				"check the client was started with this host's "
				"address and the same --port, that no firewall "
				"blocks the port, or raise --timeout",
				oob->timeout_ms);
		if (rc == -EINTR)
			return gd_err(rc,
				      "interrupted by %s while waiting for a "
				      "client",
				      gd_stop_signal_name(gd_stop_signal()));
		if (rc)
			return gd_err(
				rc,
				"side channel: waiting for a client failed: %s",
				strerror(-rc));
		ss_len = sizeof(ss);
		fd = accept4(listen_fd, (struct sockaddr *)&ss, &ss_len,
			     SOCK_CLOEXEC);
		if (fd >= 0)
			break;
		/* The client may have given up between poll and accept. */
		if (errno != EINTR && errno != EAGAIN &&
		    errno != ECONNABORTED && errno != EWOULDBLOCK)
			return gd_err(
				-errno,
				"side channel: accept failed: %s; check the "
				"process file descriptor limit (ulimit -n)",
				strerror(errno));
	}
	gd_set_nodelay(fd);
	oob->fd = fd;
	oob->heard_ms = gd_oob_now_ms();
	gd_format_peer(oob->peer_name, sizeof(oob->peer_name),
		       (struct sockaddr *)&ss, ss_len);
	return 0;
}

int gd_oob_accept(struct gd_oob *oob, const char *bind_host, uint16_t port)
{
	int listen_fd, rc;

	rc = gd_oob_listen_af(bind_host, port, oob->family, &listen_fd);
	if (rc)
		return rc;
	rc = gd_oob_accept_fd(oob, listen_fd);
	close(listen_fd);
	return rc;
}

int gd_oob_wait_client(int listen_fd)
{
	int rc;

	do
		rc = gd_oob_wait_fd(listen_fd, POLLIN,
				    gd_oob_now_ms() + 3600 * 1000);
	while (rc == -ETIMEDOUT);
	if (rc && rc != -EINTR)
		return gd_err(rc,
			      "side channel: waiting for a client failed: %s",
			      strerror(-rc));
	return rc;
}

/* One non-blocking connect attempt bounded by the deadline, from @src when
 * given (the first of its addresses in @ai's family): fd or -errno. */
static int gd_connect_once(const struct addrinfo *ai,
			   const struct addrinfo *src, int64_t deadline_ms)
{
	socklen_t len = sizeof(int);
	bool from = src != NULL;
	int fd, rc, soerr = 0;

	while (src && src->ai_family != ai->ai_family)
		src = src->ai_next;
	if (from && !src)
		return -EAFNOSUPPORT; /* never from another address */
	fd = socket(ai->ai_family,
		    ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	if (src && bind(fd, src->ai_addr, src->ai_addrlen)) {
		rc = -errno;
		goto close_fd;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno != EINPROGRESS) {
		rc = -errno;
		goto close_fd;
	}
	rc = gd_oob_wait_fd(fd, POLLOUT, deadline_ms);
	if (rc)
		goto close_fd;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len)) {
		rc = -errno;
		goto close_fd;
	}
	if (soerr) {
		rc = -soerr;
		goto close_fd;
	}
	return fd;

close_fd:
	close(fd);
	return rc;
}

int gd_oob_connect(struct gd_oob *oob, const char *host, uint16_t port)
{
	int64_t deadline_ms = gd_oob_now_ms() + oob->timeout_ms;
	struct addrinfo *res, *ai, *src = NULL;
	int fd = -ETIMEDOUT;
	int rc;

	/* an IPv6 literal in brackets, as the server side names its peer */
	snprintf(oob->peer_name, sizeof(oob->peer_name),
		 strchr(host, ':') ? "[%s]:%u" : "%s:%u", host, port);
	rc = gd_resolve(host, port, 0, oob->family, &res);
	if (rc)
		return rc;
	if (oob->bind_host) {
		rc = gd_resolve(oob->bind_host, 0, 1, oob->family, &src);
		if (rc) {
			freeaddrinfo(res);
			return rc;
		}
	}
	/* The server may be started after the client: retry until the
	 * deadline rather than failing on the first refusal. */
	for (;;) {
		for (ai = res; ai; ai = ai->ai_next) {
			fd = gd_connect_once(ai, src, deadline_ms);
			if (fd >= 0)
				goto connected;
		}
		if (!gd_oob_ms_left(deadline_ms) || gd_stop_signal())
			break;
		poll(NULL, 0,
		     GD_OOB_RETRY_MS < gd_oob_ms_left(deadline_ms)
			     ? GD_OOB_RETRY_MS
			     : gd_oob_ms_left(deadline_ms));
		if (!gd_oob_ms_left(deadline_ms) || gd_stop_signal())
			break;
	}
	freeaddrinfo(res);
	if (src)
		freeaddrinfo(src);
	if (gd_stop_signal())
		return gd_err(
			-EINTR, "interrupted by %s while connecting to %s",
			gd_stop_signal_name(gd_stop_signal()), oob->peer_name);
	rc = fd == -ECONNREFUSED ? -ECONNREFUSED : -ETIMEDOUT;
	return gd_err(rc,
		      "side channel: cannot connect to %s within %d ms (last "
		      "error: %s); check the server is started on that host, "
		      "that it uses the same port (--port) and that no "
		      "firewall blocks TCP port %u, or raise --timeout",
		      oob->peer_name, oob->timeout_ms, strerror(-fd), port);

connected:
	freeaddrinfo(res);
	if (src)
		freeaddrinfo(src);
	gd_set_nodelay(fd);
	oob->fd = fd;
	oob->heard_ms = gd_oob_now_ms();
	return 0;
}

/*
 * Heartbeats the peer sent and nobody read would make close() reset the
 * connection, and a reset throws away what this side sent last (its error
 * or interruption frame) before the peer reads it. So: our FIN first, then
 * read and drop what still comes until the peer closes too, for
 * GD_OOB_LINGER_MS at most.
 */
#define GD_OOB_LINGER_MS 300

void gd_oob_close(struct gd_oob *oob)
{
	int64_t until = gd_oob_now_ms() + GD_OOB_LINGER_MS;
	char sink[512];

	gd_oob_beat_stop(oob);
	if (oob->fd < 0)
		return;
	if (!shutdown(oob->fd, SHUT_WR)) {
		for (int64_t left = GD_OOB_LINGER_MS; left > 0;
		     left = until - gd_oob_now_ms()) {
			struct pollfd p = { .fd = oob->fd, .events = POLLIN };

			if (poll(&p, 1, (int)left) <= 0 ||
			    recv(oob->fd, sink, sizeof(sink), 0) <= 0)
				break;
		}
	}
	close(oob->fd);
	oob->fd = -1;
	gd_oob_mac_stop(oob);
}
