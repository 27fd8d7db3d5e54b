/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The client/server handshake (hello, test description, accept or reject)
 * run for real between two sessions over a socketpair or loopback TCP, with
 * the server in a thread: agreement, option and tool mismatches, a peer
 * that hangs up and a peer that never answers. No RDMA device involved.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "transport/oob.h"
#include "engine/options.h"
#include "opts_util.h"
#include "engine/session.h"

/* One end: its session, its options and what its handshake returned. */
struct side {
	struct gd_session s;
	struct gd_opts o;
	int ret;
	char msg[GD_ERR_MSG_MAX];
	char *argv_store[MAX_ARGS];
};

static void side_init(struct side *sd, const struct gd_test *t, bool server,
		      int fd, int timeout_ms, const char *const *args)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	memset(sd, 0, sizeof(*sd));
	argv[argc++] = sd->argv_store[0] = strdup(t->name);
	for (; *args; args++) {
		assert_true(argc < MAX_ARGS);
		argv[argc] = sd->argv_store[argc] = strdup(*args);
		argc++;
	}
	argv[argc] = NULL;
	gd_err_clear();
	assert_int_equal(gd_opts_parse(t, argc, argv, &sd->o, stdout), 0);
	sd->s.test = t;
	sd->s.o = &sd->o;
	sd->s.is_server = server;
	gd_oob_init(&sd->s.oob, timeout_ms);
	gd_oob_attach(&sd->s.oob, fd, server ? "client(test)" : "server(test)");
}

static void side_free(struct side *sd)
{
	gd_oob_close(&sd->s.oob);
	gd_opts_free(&sd->o);
	for (int i = 0; i < MAX_ARGS; i++)
		free(sd->argv_store[i]);
}

static void side_handshake(struct side *sd)
{
	gd_err_clear();
	sd->ret = gd_session_handshake(&sd->s);
	snprintf(sd->msg, sizeof(sd->msg), "%s", gd_err_msg());
}

/* gd_err is thread-local, so the server thread keeps its own diagnosis. */
static void *server_thread(void *arg)
{
	side_handshake(arg);
	return NULL;
}

static void run_pair(struct side *client, struct side *server)
{
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, server_thread, server), 0);
	side_handshake(client);
	assert_int_equal(pthread_join(th, NULL), 0);
}

static void make_pair(int fds[2])
{
	assert_int_equal(
		socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOARGS ((const char *const[]){ NULL })

static void assert_has(const char *text, const char *needle)
{
	if (!strstr(text, needle)) {
		print_error("message '%s' lacks '%s'\n", text, needle);
		fail();
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void test_matching_options(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	int fds[2];

	(void)state;
	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 5000,
		  ARGS("-s", "4096", "-n", "200", "--reverse", "-q", "2",
		       "server1"));
	side_init(s, &t_write_bw, true, fds[1], 5000, NOARGS);
	run_pair(c, s);
	if (c->ret || s->ret)
		print_error("client %d '%s', server %d '%s'\n", c->ret, c->msg,
			    s->ret, s->msg);
	assert_int_equal(c->ret, 0);
	assert_int_equal(s->ret, 0);
	assert_int_equal(s->o.size_bytes, 4096);
	assert_int_equal(s->o.iters, 200);
	assert_int_equal(s->o.num_qps, 2);
	assert_true(s->o.reverse);
	/* without --mem the client plans host memory only, and says so */
	assert_string_equal(c->o.phases, "HH");
	assert_string_equal(s->o.phases, "HH");
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

/* The same exchange through the real TCP listen/connect/accept path. */
static void test_matching_over_tcp(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int lfd;

	(void)state;
	gd_err_clear();
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&sin, &len), 0);
	side_init(c, &t_write_bw, false, -1, 5000,
		  ARGS("-a", "--max-size=1M", "--phases=HH,DD", "127.0.0.1"));
	side_init(s, &t_write_bw, true, -1, 5000, NOARGS);
	assert_int_equal(
		gd_oob_connect(&c->s.oob, "127.0.0.1", ntohs(sin.sin_port)), 0);
	assert_int_equal(gd_oob_accept_fd(&s->s.oob, lfd), 0);
	close(lfd);
	run_pair(c, s);
	assert_int_equal(c->ret, 0);
	assert_int_equal(s->ret, 0);
	assert_true(s->o.all_sizes);
	assert_int_equal(s->o.max_size_bytes, 1048576);
	assert_string_equal(s->o.phases, "HH,DD");
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

static void test_option_mismatch(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	int fds[2];

	(void)state;
	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 5000,
		  ARGS("-s", "65536", "server1"));
	side_init(s, &t_write_bw, true, fds[1], 5000, ARGS("-s", "4096"));
	run_pair(c, s);
	assert_int_equal(s->ret, -EINVAL);
	assert_has(s->msg, "--size");
	assert_has(s->msg, "4096 here but 65536 on the peer");
	assert_int_equal(c->ret, -EINVAL);
	assert_has(c->msg, "rejected");
	assert_has(c->msg, "field 'size'");
	/* from the client's side its own value is "ours" */
	assert_has(c->msg, "ours=65536 theirs=4096");
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

static void test_different_tools(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	int fds[2];

	(void)state;
	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 5000, ARGS("server1"));
	side_init(s, &t_read_bw, true, fds[1], 5000, NOARGS);
	run_pair(c, s);
	assert_int_equal(c->ret, -EINVAL);
	assert_int_equal(s->ret, -EINVAL);
	assert_has(c->msg, "runs gd_read_bw, this side runs gd_write_bw");
	assert_has(s->msg, "runs gd_write_bw, this side runs gd_read_bw");
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

struct rude_server {
	struct gd_oob oob;
	bool answer_hello;
	int ret;
};

/* Reads the client's HELLO (optionally answers it) and hangs up. */
static void *rude_thread(void *arg)
{
	struct rude_server *r = arg;
	struct json_object *h;

	gd_err_clear();
	r->ret = gd_oob_recv(&r->oob, GD_FRAME_HELLO, NULL);
	if (!r->ret && r->answer_hello) {
		h = json_object_new_object();
		json_object_object_add(h, "tool",
				       json_object_new_string("gd_write_bw"));
		json_object_object_add(h, "version",
				       json_object_new_string(PACKAGE_VERSION));
		r->ret = gd_oob_send(&r->oob, GD_FRAME_HELLO, h);
		json_object_put(h);
	}
	gd_oob_close(&r->oob);
	return NULL;
}

static void hangup_case(bool answer_hello)
{
	struct side *c = calloc(1, sizeof(*c));
	struct rude_server r = { .answer_hello = answer_hello };
	uint64_t t0, took_ms;
	pthread_t th;
	int fds[2];

	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 5000, ARGS("server1"));
	gd_oob_init(&r.oob, 5000);
	gd_oob_attach(&r.oob, fds[1], "client(test)");
	t0 = now_ms();
	assert_int_equal(pthread_create(&th, NULL, rude_thread, &r), 0);
	side_handshake(c);
	took_ms = now_ms() - t0;
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(r.ret, 0);
	if (c->ret != -ECONNRESET)
		print_error("client: %d '%s'\n", c->ret, c->msg);
	assert_int_equal(c->ret, -ECONNRESET);
	assert_has(c->msg, "server(test)");
	assert_has(c->msg, "closed the connection");
	/* a hang-up is noticed at once, not at the 5 s timeout */
	assert_true(took_ms < 1000);
	side_free(c);
	free(c);
}

static void test_server_hangs_up_before_hello(void **state)
{
	(void)state;
	hangup_case(false);
}

static void test_server_hangs_up_after_hello(void **state)
{
	(void)state;
	hangup_case(true);
}

static void test_silent_server(void **state)
{
	struct side *c = calloc(1, sizeof(*c));
	uint64_t t0, took_ms;
	int fds[2];

	(void)state;
	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 300, ARGS("server1"));
	t0 = now_ms();
	side_handshake(c);
	took_ms = now_ms() - t0;
	assert_int_equal(c->ret, -ETIMEDOUT);
	assert_has(c->msg, "HELLO");
	assert_has(c->msg, "300 ms");
	assert_has(c->msg, "--timeout");
	assert_true(took_ms >= 250);
	assert_true(took_ms < 1000);
	close(fds[1]);
	side_free(c);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matching_options),
		cmocka_unit_test(test_matching_over_tcp),
		cmocka_unit_test(test_option_mismatch),
		cmocka_unit_test(test_different_tools),
		cmocka_unit_test(test_server_hangs_up_before_hello),
		cmocka_unit_test(test_server_hangs_up_after_hello),
		cmocka_unit_test(test_silent_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
