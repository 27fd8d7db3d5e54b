/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor --peer on loopback: a listening port connects, a closed one is
 * refused, a full accept queue times out, an unknown name does not
 * resolve, and a malformed HOST:PORT is a usage error; each outcome is one
 * finding with its next check and a "bootstrap" section.
 */
#include <config.h>

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "envelope/envelope.h"
#include "util/error.h"

/* A socket listening on 127.0.0.1 with @backlog; its port in @port. */
static int listener(int backlog, int *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, backlog), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static const char *field(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v)
						     : NULL;
}

/* The bootstrap section and the bootstrap-* finding's id of one check. */
static void check(const char *peer, int timeout_ms, const char *want_tcp,
		  const char *want_id)
{
	struct gd_envelope_opts o = { .root = "/",
				      .flags = GD_ENVELOPE_QUICK |
					       GD_ENVELOPE_NO_GPU,
				      .peer = peer,
				      .peer_timeout_ms = timeout_ms };
	struct json_object *env, *b, *f;
	bool found = false;

	gd_err_clear();
	assert_int_equal(gd_envelope_collect(&o, &env), 0);
	assert_true(json_object_object_get_ex(env, "bootstrap", &b));
	if (want_tcp)
		assert_string_equal(field(b, "tcp"), want_tcp);
	assert_true(json_object_object_get_ex(env, "findings", &f));
	for (size_t i = 0; i < json_object_array_length(f); i++) {
		struct json_object *e = json_object_array_get_idx(f, i);

		if (strcmp(field(e, "id"), want_id))
			continue;
		found = true;
		if (strcmp(want_id, "bootstrap-ok"))
			assert_non_null(field(e, "next_check"));
	}
	if (!found)
		print_error("no finding %s for --peer %s\n", want_id, peer);
	assert_true(found);
	json_object_put(env);
}

static void test_connected_and_refused(void **state)
{
	char peer[64];
	int port, fd = listener(4, &port);

	(void)state;
	snprintf(peer, sizeof(peer), "127.0.0.1:%d", port);
	check(peer, 2000, "connected", "bootstrap-ok");
	close(fd);
	check(peer, 2000, "refused", "bootstrap-refused");
}

/* Does a connect to @a stay pending for 300 ms (its SYN dropped)? */
static bool syn_dropped(const struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	bool pending;

	if (connect(fd, (const struct sockaddr *)a, sizeof(*a)) &&
	    errno != EINPROGRESS) {
		close(fd);
		return false;
	}
	pending = poll(&p, 1, 300) == 0;
	close(fd);
	return pending;
}

/* Nobody accepts and the queue is full: the SYN is dropped, as behind a
 * firewall that drops, and the connect ends at the limit. */
static void test_timeout(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int port, fd = listener(0, &port), fill[4];
	char peer[64];

	(void)state;
	a.sin_port = htons((uint16_t)port);
	for (int i = 0; i < 4; i++) {
		fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(fill[i], (struct sockaddr *)&a, sizeof(a));
	}
	usleep(200 * 1000);
	/* Most stacks drop the SYN; one seen in CI (a chroot under load)
	 * answered with a reset, where this path cannot be reached. */
	if (!syn_dropped(&a)) {
		for (int i = 0; i < 4; i++)
			close(fill[i]);
		close(fd);
		print_message(
			"this network stack resets a full accept queue: the timeout path is not reachable here\n");
		skip();
	}
	/* The address syn_dropped() tried: "localhost" may resolve to ::1
	 * first, where nothing listens and the answer is a reset. */
	snprintf(peer, sizeof(peer), "127.0.0.1:%d", port);
	check(peer, 300, "timeout", "bootstrap-unreachable");
	for (int i = 0; i < 4; i++)
		close(fill[i]);
	close(fd);
}

static void test_unresolved_and_syntax(void **state)
{
	struct gd_envelope_opts o = {
		.root = "/", .flags = GD_ENVELOPE_QUICK | GD_ENVELOPE_NO_GPU
	};
	static const char *const bad[] = { "host:0", "host:65536", "[::1",
					   "[::1]x", ":18515",	   "h:12x" };
	struct json_object *env = NULL;

	(void)state;
	check("no-such-host.invalid", 500, NULL, "bootstrap-unresolved");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.peer = bad[i];
		gd_err_clear();
		assert_int_equal(gd_envelope_collect(&o, &env), -EINVAL);
		assert_non_null(strstr(gd_err_msg(), "--peer"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connected_and_refused),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_unresolved_and_syntax),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
