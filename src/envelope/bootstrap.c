/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor --peer HOST[:PORT]: the bootstrap path that verbs tests do not
 * prove. Which local interface and address the kernel routes to HOST, and
 * whether a TCP connection to the side-channel port succeeds, is refused or
 * times out; one finding with the next check. The connection sends nothing
 * and is closed at once.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "envelope/doctor.h"
#include "util/error.h"

#define GD_BOOT_DEFAULT_PORT 18515

struct gd_boot {
	char host[256];
	uint16_t port;
	char addr[INET6_ADDRSTRLEN];
	char local_addr[INET6_ADDRSTRLEN];
	char iface[64];
	const char *tcp; /* connected, refused, timeout, error */
	int err;	 /* errno of the failed step */
	double elapsed_ms;
};

/* "host", "host:port", "[v6]" or "[v6]:port". */
static int gd_boot_parse(const char *spec, struct gd_boot *b)
{
	const char *colon, *end = NULL;
	unsigned long port = GD_BOOT_DEFAULT_PORT;
	size_t len;

	if (spec[0] == '[') {
		end = strchr(spec, ']');
		if (!end)
			return -EINVAL;
		len = (size_t)(end - spec - 1);
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] && !colon)
			return -EINVAL;
		spec++;
	} else {
		colon = strchr(spec, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL; /* a bare IPv6 address */
		len = colon ? (size_t)(colon - spec) : strlen(spec);
	}
	if (!len || len >= sizeof(b->host))
		return -EINVAL;
	memcpy(b->host, spec, len);
	b->host[len] = '\0';
	if (colon) {
		char *e;

		errno = 0;
		port = strtoul(colon + 1, &e, 10);
		if (errno || *e || e == colon + 1 || !port || port > 65535)
			return -EINVAL;
	}
	b->port = (uint16_t)port;
	return 0;
}

/* The interface whose address is @local (getifaddrs). */
static void gd_boot_iface(const struct sockaddr *local, struct gd_boot *b)
{
	struct ifaddrs *ifs, *i;

	if (getifaddrs(&ifs))
		return;
	for (i = ifs; i; i = i->ifa_next) {
		char a[INET6_ADDRSTRLEN] = "";

		if (!i->ifa_addr || i->ifa_addr->sa_family != local->sa_family)
			continue;
		getnameinfo(i->ifa_addr,
			    i->ifa_addr->sa_family == AF_INET6
				    ? sizeof(struct sockaddr_in6)
				    : sizeof(struct sockaddr_in),
			    a, sizeof(a), NULL, 0, NI_NUMERICHOST);
		if (!strcmp(a, b->local_addr)) {
			snprintf(b->iface, sizeof(b->iface), "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifs);
}

/* The route: a connected UDP socket sends nothing but makes the kernel
 * choose the source address it would use for @ai. */
static int gd_boot_route(const struct addrinfo *ai, struct gd_boot *b)
{
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) ||
	    getsockname(fd, (struct sockaddr *)&local, &len))
		ret = -errno;
	close(fd);
	if (ret)
		return ret;
	getnameinfo((struct sockaddr *)&local, len, b->local_addr,
		    sizeof(b->local_addr), NULL, 0, NI_NUMERICHOST);
	gd_boot_iface((struct sockaddr *)&local, b);
	return 0;
}

static double gd_boot_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A non-blocking connect bounded by @timeout_ms. */
static void gd_boot_tcp(const struct addrinfo *ai, int timeout_ms,
			struct gd_boot *b)
{
	struct pollfd p = { .events = POLLOUT };
	double t0 = gd_boot_now_ms();
	socklen_t len = sizeof(b->err);
	int fd = socket(ai->ai_family,
			SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	b->tcp = "error";
	if (fd < 0) {
		b->err = errno;
		return;
	}
	p.fd = fd;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS)
		b->err = errno;
	else if (poll(&p, 1, timeout_ms) == 0)
		b->err = ETIMEDOUT;
	else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &b->err, &len))
		b->err = errno;
	close(fd);
	b->elapsed_ms = gd_boot_now_ms() - t0;
	b->tcp = !b->err		  ? "connected"
		 : b->err == ECONNREFUSED ? "refused"
		 : b->err == ETIMEDOUT	  ? "timeout"
					  : "error";
}

static struct json_object *gd_boot_json(const struct gd_boot *b)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "peer", json_object_new_string(b->host));
	json_object_object_add(o, "port", json_object_new_int(b->port));
	json_object_object_add(o, "address", gd_json_str_or_null(b->addr));
	json_object_object_add(o, "local_address",
			       gd_json_str_or_null(b->local_addr));
	json_object_object_add(o, "local_interface",
			       gd_json_str_or_null(b->iface));
	json_object_object_add(o, "tcp",
			       b->tcp ? json_object_new_string(b->tcp) : NULL);
	json_object_object_add(o, "error",
			       b->err ? json_object_new_string(strerror(b->err))
				      : NULL);
	json_object_object_add(
		o, "elapsed_ms",
		json_object_new_double((double)(long)(b->elapsed_ms * 10) /
				       10));
	return o;
}

static void gd_boot_finding(struct gd_doctor_ctx *ctx, const struct gd_boot *b)
{
	const char *via = b->iface[0] ? b->iface : "an unknown interface";

	if (!strcmp(b->tcp, "connected"))
		gd_doctor_finding(
			ctx, GD_SEV_INFO, "bootstrap-ok", b->host, NULL,
			"TCP to %s (%s) port %u connects in %.1f ms from %s on %s: the side channel can start",
			b->host, b->addr, b->port, b->elapsed_ms, b->local_addr,
			via);
	else if (!strcmp(b->tcp, "refused"))
		gd_doctor_finding(
			ctx, GD_SEV_WARNING, "bootstrap-refused", b->host,
			"start the gd_* server there first (or give both ends the same -p)",
			"%s (%s) answers from %s on %s but nothing listens on port %u",
			b->host, b->addr, b->local_addr, via, b->port);
	else
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "bootstrap-unreachable", b->host,
			"check the route (ip route get ADDRESS), firewalls on both hosts and that this is the bootstrap network the job uses",
			"TCP to %s (%s) port %u from %s on %s: %s after %.0f ms; gd_* runs between these hosts would hang or fail before any RDMA",
			b->host, b->addr, b->port, b->local_addr, via,
			strerror(b->err), b->elapsed_ms);
}

int gd_doctor_bootstrap(struct gd_doctor_ctx *ctx, const char *peer,
			int timeout_ms, struct json_object *out)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
	struct gd_boot b = { .tcp = NULL };
	char port[8];
	int rc;

	if (gd_boot_parse(peer, &b))
		return gd_err(
			-EINVAL,
			"--peer: '%s' is not HOST, HOST:PORT or [IPv6]:PORT",
			peer);
	snprintf(port, sizeof(port), "%u", b.port);
	rc = getaddrinfo(b.host, port, &hints, &ai);
	if (rc) {
		json_object_object_add(out, "bootstrap", gd_boot_json(&b));
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "bootstrap-unresolved", b.host,
			"check the name in DNS or /etc/hosts on this node, or give the address",
			"cannot resolve %s: %s", b.host, gai_strerror(rc));
		return 0;
	}
	getnameinfo(ai->ai_addr, ai->ai_addrlen, b.addr, sizeof(b.addr), NULL,
		    0, NI_NUMERICHOST);
	b.err = -gd_boot_route(ai, &b);
	if (b.err) {
		b.tcp = "error";
		gd_boot_finding(ctx, &b);
	} else {
		gd_boot_tcp(ai, timeout_ms, &b);
		gd_boot_finding(ctx, &b);
	}
	freeaddrinfo(ai);
	json_object_object_add(out, "bootstrap", gd_boot_json(&b));
	return 0;
}
