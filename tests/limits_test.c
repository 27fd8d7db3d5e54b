/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A server's limits on what a client may ask (engine/limits.c): the buffer
 * and run-time arithmetic, the refusal's wording, the defaults against the
 * documented runs, and the accept loop that closes a connection failing
 * its handshake and serves the next valid client. No RDMA device involved.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "util/stop.h"
#include "transport/oob.h"
#include "cli/options.h"
#include "opts_util.h"
#include "session_pair.h"
#include "engine/limits.h"
#include "engine/session.h"
#include "engine/serve.h"

#define MIB (1ULL << 20)

/* The request of a client's command line, checked against the defaults;
 * returns the check's result, @field and @msg its refusal. */
static int check_client(const struct gd_test *t, const char *const *args,
			struct gd_request *r, char *field, char *msg)
{
	struct gd_opts o;
	struct gd_limits l;
	int ret;

	assert_int_equal(parse_list(t, &o, NULL, args), 0);
	gd_limits_from_opts(&o, &l);
	assert_int_equal(gd_limits_request(&o, r), 0);
	ret = gd_limits_check(&l, r, field, 64, msg, 512);
	gd_opts_free(&o);
	return ret;
}

#define CHECK(t, r, f, m, ...)                                                 \
	check_client((t), (const char *const[]){ __VA_ARGS__, NULL }, (r),     \
		     (f), (m))

/* Two page-aligned halves per QP; the GRH only for UD. */
static void test_buffer_bytes(void **state)
{
	(void)state;
	assert_int_equal(gd_limits_slot_bytes(2, false), 8192);
	assert_int_equal(gd_limits_slot_bytes(4096, false), 8192);
	assert_int_equal(gd_limits_slot_bytes(4096, true), 16384);
	assert_int_equal(gd_limits_slot_bytes(8 * MIB, false), 16 * MIB);
	/* -a, 16 QPs, host and one device memory: exactly the default */
	assert_int_equal(gd_limits_buffer_bytes(8 * MIB, false, 16, 2),
			 GD_LIMIT_MEM_DEFAULT);
	/* issue 38's -s 256M -q 2: 1 GiB of host memory */
	assert_int_equal(gd_limits_buffer_bytes(256 * MIB, false, 2, 1),
			 1024 * MIB);
}

static void test_estimate(void **state)
{
	uint64_t sizes[] = { 65536 };
	struct gd_request_shape sh = { .steps = 23, .duration_s = 5 };

	(void)state;
	assert_float_equal(gd_limits_estimate_s(&sh),
			   23 * (5 + GD_LIMIT_STEP_COST_S), 1e-9);
	sh.forever = true;
	assert_true(gd_limits_estimate_s(&sh) < 0);
	/* iteration-bound: bytes at 100 Gb/s, at least 1 us a message */
	sh = (struct gd_request_shape){ .steps = 2,
					.iters = 1000000,
					.qps = 1,
					.sizes = sizes,
					.num_sizes = 1 };
	assert_float_equal(gd_limits_estimate_s(&sh),
			   2 * (GD_LIMIT_STEP_COST_S +
				1e6 * 65536 / GD_LIMIT_LINK_BYTES_S),
			   1e-6);
	sizes[0] = 2;
	assert_float_equal(gd_limits_estimate_s(&sh),
			   2 * (GD_LIMIT_STEP_COST_S + 1.0), 1e-6);
}

/* What the README and the man pages run, and -a with 16 QPs, fit. */
static void test_defaults_fit(void **state)
{
	const char *const *fits[] = {
		(const char *const[]){ "server1", NULL },
		(const char *const[]){ "-a", "-q", "16", "server1", NULL },
		(const char *const[]){ "-a", "-q", "16", "-D", "5", "server1",
				       NULL },
		(const char *const[]){ "-s", "1M", "-q", "4", "server1", NULL },
		(const char *const[]){ "-a", "--reverse", "--repeat=5",
				       "server1", NULL },
		(const char *const[]){ "-D", "3000", "server1", NULL },
	};
	struct gd_request r;
	char field[64], msg[512];

	(void)state;
	for (size_t i = 0; i < sizeof(fits) / sizeof(fits[0]); i++) {
		int ret = check_client(&t_write_bw, fits[i], &r, field, msg);

		if (ret)
			print_error("%s ...: %s\n", fits[i][0], msg);
		assert_int_equal(ret, 0);
	}
	assert_int_equal(CHECK(&t_write_lat, &r, field, msg, "-a", "server1"),
			 0);
	assert_int_equal(
		CHECK(&t_send_bw, &r, field, msg, "-a", "-q", "16", "server1"),
		0);
	assert_int_equal(r.mem_bytes, 256 * MIB);
	/* 23 sizes x 0.05 s + 1100 x 16 messages of each size at 100 Gb/s */
	assert_true(r.time_s > 24 && r.time_s < 26);
	assert_int_equal(
		CHECK(&t_write_bw, &r, field, msg, "-a", "-q", "16", "server1"),
		0);
	/* the same with gd_write_bw's 5000 + 100 messages: ~111 s */
	assert_true(r.time_s > 105 && r.time_s < 115);
}

/* Each refusal names what was asked, the limit and the option raising it. */
static void test_refusals(void **state)
{
	struct gd_request r;
	char field[64], msg[512];

	(void)state;
	assert_int_equal(CHECK(&t_write_bw, &r, field, msg, "-s", "256M", "-q",
			       "2", "server1"),
			 -E2BIG);
	assert_string_equal(field, "max-memory");
	assert_has(msg, "1024.0 MiB of buffer memory");
	assert_has(msg, "limit of 512.0 MiB (--max-memory)");
	assert_has(msg, "--max-memory=1024M");
	assert_int_equal(
		CHECK(&t_write_bw, &r, field, msg, "-D", "86400", "server1"),
		-E2BIG);
	assert_string_equal(field, "max-time");
	assert_has(msg, "about 86400 s, over this server's limit of 3600 s "
			"(--max-time)");
	assert_int_equal(
		CHECK(&t_write_bw, &r, field, msg, "-q", "17", "server1"),
		-E2BIG);
	assert_string_equal(field, "max-qps");
	assert_has(msg, "17 QPs, over this server's limit of 16 (--max-qps)");
	assert_int_equal(CHECK(&t_write_bw, &r, field, msg, "--run_infinitely",
			       "server1"),
			 -E2BIG);
	assert_string_equal(field, "max-time");
	assert_has(msg, "--max-time=0");
	/* -n at its range's top: a latency run of 2^40 round trips */
	assert_int_equal(CHECK(&t_write_lat, &r, field, msg, "-n",
			       "1099511627776", "server1"),
			 -E2BIG);
	assert_string_equal(field, "max-time");
}

/* Latency samples count against --max-memory on a server that measures
 * (the reversed phases): 50 M of them are 381 MiB, over 256M; one that
 * does not measure keeps none, and its buffers fit. */
static void test_lat_samples_memory(void **state)
{
	static const char *const n[] = { "-n", "49999900", "--reverse", "x" };
	struct side cli, srv;
	int fds[2];

	(void)state;
	for (int reverse = 1; reverse >= 0; reverse--) {
		const char *args[5] = { n[0], n[1], n[2], n[3], NULL };

		if (!reverse) {
			args[2] = "x";
			args[3] = NULL;
		}
		make_pair(fds);
		side_init(&cli, &t_write_lat, false, fds[0], 5000, args);
		side_init(&srv, &t_write_lat, true, fds[1], 5000,
			  ARGS("--max-memory=256M"));
		run_pair(&cli, &srv);
		if (reverse) {
			assert_int_equal(srv.ret, -E2BIG);
			assert_has(srv.msg, "MiB of them latency samples");
			assert_has(srv.msg, "(--max-memory)");
		} else {
			assert_int_equal(srv.ret, 0);
		}
		side_free(&cli);
		side_free(&srv);
	}
	/* the samples live where they are taken: the client, and the
	 * server only when it initiates the reversed phases */
	for (int i = 0; i < 3; i++) {
		side_init(&srv, &t_write_lat, i < 2, -1, 5000,
			  i == 0   ? ARGS("-n", "100")
			  : i == 1 ? ARGS("-n", "100", "--reverse")
				   : ARGS("-n", "100", "server1"));
		assert_int_equal(gd_sweep_plan(&srv.s), 0);
		assert_true(srv.s.samples_cap >= 100);
		if (i == 0)
			assert_null(srv.s.samples_ns);
		else
			assert_non_null(srv.s.samples_ns);
		side_free(&srv);
	}
}

static void test_limits_raised_and_memories(void **state)
{
	struct gd_limits l = {
		.mem_bytes = 512 * MIB, .time_s = 3600, .qps = 16, .memories = 1
	};
	struct gd_request own = { .mem_bytes = MIB, .qps = 32, .time_s = 10 };
	struct gd_request r = { .mem_bytes = MIB, .qps = 32, .memories = 2 };
	char field[64], msg[512];

	(void)state;
	gd_limits_raise(&l, &own);
	assert_int_equal(l.qps, 32);
	assert_int_equal(l.mem_bytes, 512 * MIB);
	assert_int_equal(
		gd_limits_check(&l, &r, field, sizeof(field), msg, sizeof(msg)),
		-E2BIG);
	assert_string_equal(field, "max-memories");
	assert_has(msg, "2 buffers on the server, over its limit of 1 "
			"(--max-memories)");
	gd_limits_values(&l, &r, field, field, msg, sizeof(field));
	assert_string_equal(field, "1");
	assert_string_equal(msg, "2");
	own.time_s = -1;
	gd_limits_raise(&l, &own);
	assert_int_equal(l.time_s, 0);
}

static void test_next_client(void **state)
{
	(void)state;
	assert_false(gd_limits_next_client(0, 0));
	assert_true(gd_limits_next_client(-ETIMEDOUT, 0));
	assert_true(gd_limits_next_client(-EPROTO, 0));
	assert_true(gd_limits_next_client(-EINVAL, 0));
	assert_true(gd_limits_next_client(-E2BIG, 0));
	assert_true(gd_limits_next_client(-ECONNRESET, 0));
	assert_false(gd_limits_next_client(-EPROTO, 2));
	assert_false(gd_limits_next_client(-EINTR, 15));
	assert_false(gd_limits_next_client(-ENOMEM, 0));
}

struct clients {
	uint16_t port;
	struct side over, along, valid;
};

static int raw_connect(uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* the server thread may start late on a busy machine: up to 20 s */
	for (int i = 0; i < 1000; i++) {
		if (!connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return fd;
		usleep(20000);
	}
	close(fd);
	return -1;
}

/* Read until the server closes: its answer to a failed handshake. */
static void wait_closed(int fd)
{
	char buf[256];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static void client_handshake(struct side *sd, uint16_t port)
{
	gd_err_clear();
	sd->ret = gd_oob_connect(&sd->s.oob, "127.0.0.1", port);
	if (!sd->ret)
		sd->ret = gd_session_handshake(&sd->s);
	snprintf(sd->msg, sizeof(sd->msg), "%s", gd_err_msg());
	gd_oob_close(&sd->s.oob);
}

/* A silent connection, garbage, two requests over a limit (the second's
 * -D must not stay for the next), a valid client. */
static void *clients_main(void *arg)
{
	static const char junk[] = "GET / HTTP/1.0\r\n\r\n";
	struct clients *c = arg;
	int fd = raw_connect(c->port);

	if (fd >= 0)
		wait_closed(fd);
	fd = raw_connect(c->port);
	if (fd >= 0 && write(fd, junk, sizeof(junk) - 1) > 0)
		wait_closed(fd);
	else if (fd >= 0)
		close(fd);
	client_handshake(&c->over, c->port);
	client_handshake(&c->along, c->port);
	client_handshake(&c->valid, c->port);
	/* a server that refused the valid client would wait for ever */
	if (c->valid.ret)
		kill(getpid(), SIGTERM);
	return NULL;
}

static uint16_t free_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	close(fd);
	return ntohs(sin.sin_port);
}

static void test_accept_loop(void **state)
{
	struct side *srv = calloc(1, sizeof(*srv));
	struct clients *c = calloc(1, sizeof(*c));
	struct gd_report_cfg cfg = { .tool = t_write_bw.name,
				     .version = PACKAGE_VERSION,
				     .measure = t_write_bw.measure };
	char port[16], text[8192] = "";
	const char *p = text;
	FILE *f = tmpfile(), *notices = tmpfile();
	pthread_t th;
	int closed = 0;
	size_t n;

	(void)state;
	c->port = free_port();
	snprintf(port, sizeof(port), "%u", c->port);
	side_init(srv, &t_write_bw, true, -1, 5000,
		  ARGS("-p", port, "--handshake-timeout=1"));
	side_init(&c->over, &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "-q", "17", "127.0.0.1"));
	side_init(&c->along, &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "-D", "86400", "127.0.0.1"));
	side_init(&c->valid, &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "-s", "4096", "127.0.0.1"));
	cfg.text = f;
	srv->s.rep = gd_report_new(&cfg, 0, NULL);
	gd_report_notices_to(fileno(notices));
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(pthread_create(&th, NULL, clients_main, c), 0);
	/* no device here: setup fails after the handshake, which is fine */
	gd_session_setup(&srv->s);
	pthread_join(th, NULL);
	gd_report_notices_to(STDERR_FILENO);
	assert_int_equal(gd_stop_signal(), 0);
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	assert_has(text, " Waiting for client on port ");
	rewind(notices);
	n = fread(text, 1, sizeof(text) - 1, notices);
	text[n] = '\0';
	while ((p = strstr(p, "closed the connection from 127.0.0.1"))) {
		closed++;
		p++;
	}
	if (closed != 4 || c->valid.ret)
		print_error("server said:\n%s\nvalid client: %d %s\n", text,
			    c->valid.ret, c->valid.msg);
	assert_int_equal(closed, 4);
	assert_has(text, "no hello and test within 1 s (--handshake-timeout)");
	assert_has(text, "bad frame");
	assert_has(text, "(--max-qps); ask for fewer with -q");
	assert_has(text, "; waiting for the next client");
	assert_int_equal(c->over.ret, -EINVAL);
	assert_has(c->over.msg, "rejected the test: field 'max-qps': ours=17 "
				"theirs=16");
	assert_has(c->over.msg, "start the server with --max-qps=17");
	assert_int_equal(c->along.ret, -EINVAL);
	assert_has(c->along.msg,
		   "field 'max-time': ours=86400 s theirs=3600 s");
	assert_int_equal(c->valid.ret, 0);
	/* the accepted request is a copy; the server's own stay as given */
	assert_ptr_not_equal(srv->s.o, &srv->o);
	assert_int_equal(srv->s.o->size_bytes, 4096);
	assert_int_equal(srv->s.o->duration_s, 0);
	assert_int_equal(srv->s.o->num_qps, 1);
	assert_int_equal(srv->o.num_qps, 1);
	assert_int_not_equal(srv->o.size_bytes, 4096);
	gd_session_teardown(&srv->s);
	gd_report_free(srv->s.rep);
	fclose(f);
	fclose(notices);
	gd_opts_free(&srv->o);
	gd_opts_free(&c->over.o);
	gd_opts_free(&c->along.o);
	gd_opts_free(&c->valid.o);
	free(srv);
	free(c);
}

/* One frame of @type with @json as its payload, as a peer sends it. */
static void send_frame(int fd, int type, const char *json)
{
	struct json_object *o = json_tokener_parse(json);
	uint8_t *buf;
	size_t len;

	assert_non_null(o);
	assert_int_equal(gd_frame_encode(type, o, &buf, &len), 0);
	(void)!send(fd, buf, len, MSG_NOSIGNAL);
	free(buf);
	json_object_put(o);
}

/* A heartbeat every 20 ms until the server closes (or 5000 were sent). */
static void beat_until_closed(int fd)
{
	for (int i = 0; i < 5000; i++) {
		uint8_t buf[GD_FRAME_HDR_LEN + 8];
		uint8_t *f;
		size_t len;

		assert_int_equal(gd_frame_encode(GD_FRAME_BEAT, NULL, &f, &len),
				 0);
		assert_true(len <= sizeof(buf));
		memcpy(buf, f, len);
		free(f);
		if (send(fd, buf, len, MSG_NOSIGNAL) < 0)
			break;
		usleep(20000);
	}
	wait_closed(fd);
}

struct hostile {
	uint16_t port;
	struct side valid;
};

/* Peers that would hold the server: heartbeats before any hello, a hello
 * then heartbeats for ever, a frame dribbled a byte at a time, a 1 MiB
 * hello; then a valid client, which must be served. */
static void *hostile_main(void *arg)
{
	struct hostile *h = arg;
	uint8_t hdr[GD_FRAME_HDR_LEN] = { 'G', 'D', 'P', 'F' };
	int fd = raw_connect(h->port);

	if (fd >= 0)
		beat_until_closed(fd);
	fd = raw_connect(h->port);
	if (fd >= 0) {
		char hello[256];

		snprintf(hello, sizeof(hello),
			 "{\"tool\":\"%s\",\"version\":\"%s\",\"protocol\":%d}",
			 t_write_bw.name, PACKAGE_VERSION, GD_OOB_VERSION);
		send_frame(fd, GD_FRAME_HELLO, hello);
		beat_until_closed(fd);
	}
	/* the header of an 8000-byte HELLO, then its bytes one by one */
	hdr[5] = GD_OOB_VERSION;
	hdr[7] = GD_FRAME_HELLO;
	hdr[10] = 8000 >> 8;
	hdr[11] = 8000 & 0xff;
	fd = raw_connect(h->port);
	if (fd >= 0 && send(fd, hdr, sizeof(hdr), MSG_NOSIGNAL) > 0)
		for (int i = 0; i < 8000; i++) {
			if (send(fd, " ", 1, MSG_NOSIGNAL) < 0)
				break;
			usleep(20000);
		}
	if (fd >= 0)
		wait_closed(fd);
	hdr[9] = 0x10; /* 1 MiB */
	hdr[10] = hdr[11] = 0;
	fd = raw_connect(h->port);
	if (fd >= 0 && send(fd, hdr, sizeof(hdr), MSG_NOSIGNAL) > 0)
		wait_closed(fd);
	else if (fd >= 0)
		close(fd);
	client_handshake(&h->valid, h->port);
	if (h->valid.ret)
		kill(getpid(), SIGTERM);
	return NULL;
}

static void test_hostile_peers(void **state)
{
	struct side *srv = calloc(1, sizeof(*srv));
	struct hostile *h = calloc(1, sizeof(*h));
	struct gd_report_cfg cfg = { .tool = t_write_bw.name,
				     .version = PACKAGE_VERSION,
				     .measure = t_write_bw.measure };
	char port[16], text[8192] = "";
	const char *p = text;
	FILE *f = tmpfile(), *notices = tmpfile();
	pthread_t th;
	int closed = 0;
	size_t n;

	(void)state;
	h->port = free_port();
	snprintf(port, sizeof(port), "%u", h->port);
	side_init(srv, &t_write_bw, true, -1, 5000,
		  ARGS("-p", port, "--handshake-timeout=1"));
	side_init(&h->valid, &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "127.0.0.1"));
	cfg.text = f;
	srv->s.rep = gd_report_new(&cfg, 0, NULL);
	gd_report_notices_to(fileno(notices));
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(pthread_create(&th, NULL, hostile_main, h), 0);
	gd_session_setup(&srv->s);
	pthread_join(th, NULL);
	gd_report_notices_to(STDERR_FILENO);
	assert_int_equal(gd_stop_signal(), 0);
	rewind(notices);
	n = fread(text, 1, sizeof(text) - 1, notices);
	text[n] = '\0';
	while ((p = strstr(p, "closed the connection from 127.0.0.1"))) {
		closed++;
		p++;
	}
	if (closed != 4 || h->valid.ret)
		print_error("server said:\n%s\nvalid client: %d %s\n", text,
			    h->valid.ret, h->valid.msg);
	assert_int_equal(closed, 4);
	assert_has(text, "sent a heartbeat before the hellos were through");
	/* the hello's peer and the dribbler: one deadline each */
	p = strstr(text, "no hello and test within 1 s (--handshake-timeout)");
	assert_non_null(p);
	assert_non_null(strstr(p + 1, "no hello and test within 1 s"));
	assert_has(text, "announced a HELLO frame of 1048576 bytes; at most "
			 "8192 are taken before the test is accepted");
	assert_int_equal(h->valid.ret, 0);
	gd_session_teardown(&srv->s);
	gd_report_free(srv->s.rep);
	fclose(f);
	fclose(notices);
	gd_opts_free(&srv->o);
	gd_opts_free(&h->valid.o);
	free(srv);
	free(h);
}

/*
 * One server, one listen socket, a sequence of clients (as --persist runs
 * them): each request is judged alone, whatever the clients before it
 * asked for or were refused for.
 */
#define SEQ_CLIENTS 7
#define SEQ_ACCEPTED 4

struct seq_got {
	int ret;
	uint64_t num_qps, size_bytes, first_size;
	unsigned int num_size_list;
	bool sizes, own_back;
};

struct seq {
	int listen_fd;
	uint16_t port;
	struct side srv;
	struct side cli[SEQ_CLIENTS];
	struct seq_got got[SEQ_ACCEPTED];
};

static void *seq_server(void *arg)
{
	struct seq *q = arg;
	struct gd_session *s = &q->srv.s;

	for (int i = 0; i < SEQ_ACCEPTED; i++) {
		gd_oob_init(&s->oob, 5000);
		s->listen_kept = true;
		s->listen_fd = q->listen_fd;
		q->got[i].ret = gd_session_serve(s);
		if (q->got[i].ret)
			break;
		q->got[i].num_qps = s->o->num_qps;
		q->got[i].size_bytes = s->o->size_bytes;
		q->got[i].num_size_list = s->o->num_size_list;
		q->got[i].first_size = s->o->size_list[0];
		q->got[i].sizes = s->o->sizes != NULL;
		gd_session_teardown(s);
		/* back to the server's own options, untouched by any client */
		q->got[i].own_back = s->o == &q->srv.o;
	}
	return NULL;
}

static void test_client_sequence(void **state)
{
	struct seq *q = calloc(1, sizeof(*q));
	char port[16], text[8192];
	FILE *notices = tmpfile();
	pthread_t th;
	size_t n;

	(void)state;
	q->port = free_port();
	snprintf(port, sizeof(port), "%u", q->port);
	side_init(&q->srv, &t_write_bw, true, -1, 5000,
		  ARGS("-p", port, "--handshake-timeout=5"));
	assert_int_equal(gd_serve_listen(&q->srv.o, &q->listen_fd), 0);
	/* refused for its sizes (buffers over --max-memory) */
	side_init(&q->cli[0], &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "--sizes=1G,4G", "127.0.0.1"));
	/* accepted: the default sizes, nothing of the refused list */
	side_init(&q->cli[1], &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "127.0.0.1"));
	/* accepted: its own sizes and QPs */
	side_init(&q->cli[2], &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "--sizes", "4K,8K", "-q", "4", "127.0.0.1"));
	/* refused: another test, then too many QPs */
	side_init(&q->cli[3], &t_read_bw, false, -1, 5000,
		  ARGS("-p", port, "127.0.0.1"));
	side_init(&q->cli[4], &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "-q", "17", "127.0.0.1"));
	/* accepted: -s, one QP, no sizes list of the client before */
	side_init(&q->cli[5], &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "-s", "4096", "127.0.0.1"));
	/* accepted: the defaults again */
	side_init(&q->cli[6], &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "127.0.0.1"));
	gd_report_notices_to(fileno(notices));
	assert_int_equal(pthread_create(&th, NULL, seq_server, q), 0);
	for (int i = 0; i < SEQ_CLIENTS; i++)
		client_handshake(&q->cli[i], q->port);
	pthread_join(th, NULL);
	gd_report_notices_to(STDERR_FILENO);
	rewind(notices);
	n = fread(text, 1, sizeof(text) - 1, notices);
	text[n] = '\0';
	for (int i = 0; i < SEQ_CLIENTS; i++)
		if ((q->cli[i].ret != 0) != (i == 0 || i == 3 || i == 4))
			print_error("client %d: %d %s\nserver said:\n%s\n", i,
				    q->cli[i].ret, q->cli[i].msg, text);
	assert_int_equal(q->cli[0].ret, -EINVAL);
	assert_has(q->cli[0].msg, "max-memory");
	assert_int_equal(q->cli[1].ret, 0);
	assert_int_equal(q->cli[2].ret, 0);
	assert_int_not_equal(q->cli[3].ret, 0);
	assert_int_equal(q->cli[4].ret, -EINVAL);
	assert_has(q->cli[4].msg, "max-qps");
	assert_int_equal(q->cli[5].ret, 0);
	assert_int_equal(q->cli[6].ret, 0);
	for (int i = 0; i < SEQ_ACCEPTED; i++) {
		assert_int_equal(q->got[i].ret, 0);
		assert_true(q->got[i].own_back);
	}
	/* the default client after a refused --sizes one */
	assert_false(q->got[0].sizes);
	assert_int_equal(q->got[0].num_size_list, 0);
	assert_int_equal(q->got[0].num_qps, 1);
	assert_true(q->got[1].sizes);
	assert_int_equal(q->got[1].num_size_list, 2);
	assert_int_equal(q->got[1].first_size, 4096);
	assert_int_equal(q->got[1].num_qps, 4);
	/* after 4K,8K -q 4: -s 4096 alone, one QP */
	assert_false(q->got[2].sizes);
	assert_int_equal(q->got[2].num_size_list, 0);
	assert_int_equal(q->got[2].num_qps, 1);
	assert_int_equal(q->got[2].size_bytes, 4096);
	/* the defaults again: the -s of the client before is gone */
	assert_false(q->got[3].sizes);
	assert_int_equal(q->got[3].num_size_list, 0);
	assert_int_equal(q->got[3].size_bytes, q->cli[6].o.size_bytes);
	assert_int_not_equal(q->got[3].size_bytes, 4096);
	assert_int_equal(q->srv.o.num_size_list, 0);
	assert_null(q->srv.o.sizes);
	close(q->listen_fd);
	fclose(notices);
	side_free(&q->srv);
	for (int i = 0; i < SEQ_CLIENTS; i++)
		gd_opts_free(&q->cli[i].o);
	free(q);
}

/*
 * --max-time over the whole connection: after the handshake, a client
 * whose heartbeats keep coming (its thread beats while it waits) but
 * which never sends what the server waits for is stopped at the limit
 * counted from accept, with the limit's name, on both ends.
 */
struct beating {
	uint16_t port;
	struct side cli;
};

static void *beating_client(void *arg)
{
	struct beating *b = arg;

	gd_err_clear();
	b->cli.ret = gd_oob_connect(&b->cli.s.oob, "127.0.0.1", b->port);
	if (!b->cli.ret)
		b->cli.ret = gd_session_handshake(&b->cli.s);
	/* beats (its thread) while it waits for a frame never sent */
	if (!b->cli.ret)
		b->cli.ret = gd_oob_recv(&b->cli.s.oob, GD_FRAME_QP_INFO, NULL);
	snprintf(b->cli.msg, sizeof(b->cli.msg), "%s", gd_err_msg());
	gd_session_teardown(&b->cli.s);
	return NULL;
}

static void test_max_time_connection(void **state)
{
	struct side *srv = calloc(1, sizeof(*srv));
	struct beating *b = calloc(1, sizeof(*b));
	char port[16], msg[GD_ERR_MSG_MAX];
	FILE *notices = tmpfile();
	pthread_t th;
	int listen_fd, ret;

	(void)state;
	b->port = free_port();
	snprintf(port, sizeof(port), "%u", b->port);
	side_init(srv, &t_write_bw, true, -1, 5000,
		  ARGS("-p", port, "--max-time=3", "--timeout=2000"));
	/* the client beats every 750 ms (a quarter of its --timeout): each
	 * beat restarts the server's 2 s silence limit, none the deadline */
	side_init(&b->cli, &t_write_bw, false, -1, 3000,
		  ARGS("-p", port, "-s", "4096", "-n", "5", "--timeout=3000",
		       "127.0.0.1"));
	assert_int_equal(gd_serve_listen(&srv->o, &listen_fd), 0);
	srv->s.listen_kept = true;
	srv->s.listen_fd = listen_fd;
	gd_oob_init(&srv->s.oob, 5000);
	gd_report_notices_to(fileno(notices));
	assert_int_equal(pthread_create(&th, NULL, beating_client, b), 0);
	gd_err_clear();
	assert_int_equal(gd_session_serve(&srv->s), 0);
	assert_int_equal(srv->s.limit_time_s, 3);
	/* the wait for the client's QP numbers, as setup waits for them */
	ret = gd_oob_recv(&srv->s.oob, GD_FRAME_QP_INFO, NULL);
	snprintf(msg, sizeof(msg), "%s", gd_err_msg());
	/* what setup does with its failure: the peer is told */
	gd_oob_send_error(&srv->s.oob, ret, msg);
	pthread_join(th, NULL);
	gd_report_notices_to(STDERR_FILENO);
	assert_int_equal(ret, -ETIME);
	/* heartbeats came after the handshake, and did not extend it */
	assert_true(srv->s.oob.heard_ms > srv->s.accept_ms + 700);
	assert_has(msg, "no QP_INFO frame from peer");
	assert_has(msg, "this server's limit of 3 s (--max-time)");
	/* the client heard why */
	assert_int_equal(b->cli.ret, -ECONNABORTED);
	assert_has(b->cli.msg, "(--max-time)");
	close(listen_fd);
	fclose(notices);
	side_free(srv);
	gd_opts_free(&b->cli.o);
	free(srv);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffer_bytes),
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_defaults_fit),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_lat_samples_memory),
		cmocka_unit_test(test_limits_raised_and_memories),
		cmocka_unit_test(test_next_client),
		cmocka_unit_test(test_accept_loop),
		cmocka_unit_test(test_hostile_peers),
		cmocka_unit_test(test_client_sequence),
		cmocka_unit_test(test_max_time_connection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
