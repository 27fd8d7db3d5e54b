/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --auth-key: the key file's checks, and the handshake between two real
 * sessions (the server in a thread) with the same key, another key, a key
 * on one end only; a scripted peer shows that nothing of the test travels
 * before the proofs, and that the key itself never does; the server's
 * accept loop closes a client with the wrong key and serves the next.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "transport/auth.h"
#include "transport/oob.h"
#include "engine/session.h"
#include "report/report.h"
#include "opts_util.h"
#include "session_pair.h"

static char dir[] = "/tmp/gd-auth-test-XXXXXX";
static char key_a[64], key_b[64];

static void write_key(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static int setup_dir(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(key_a, sizeof(key_a), "%s/a.key", dir);
	snprintf(key_b, sizeof(key_b), "%s/b.key", dir);
	write_key(key_a, "0123456789abcdef0123456789abcdef\n", 0600);
	write_key(key_b, "fedcba9876543210fedcba9876543210\n", 0600);
	return 0;
}

static int teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* A client with @cargs against a server with @sargs over a socketpair. */
static void pair_up(struct side *c, struct side *s, const char *const *cargs,
		    const char *const *sargs)
{
	int fds[2];

	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 5000, cargs);
	side_init(s, &t_write_bw, true, fds[1], 5000, sargs);
	run_pair(c, s);
}

static void test_key_file_checks(void **state)
{
	struct gd_auth a, b;
	char open_key[80], short_key[80], crlf_key[80];

	(void)state;
	snprintf(open_key, sizeof(open_key), "%s/open.key", dir);
	snprintf(short_key, sizeof(short_key), "%s/short.key", dir);
	snprintf(crlf_key, sizeof(crlf_key), "%s/crlf.key", dir);
	write_key(open_key, "0123456789abcdef0123456789abcdef\n", 0640);
	write_key(short_key, "secret\n", 0600);
	write_key(crlf_key, "0123456789abcdef0123456789abcdef\r\n", 0600);

	gd_err_clear();
	assert_int_equal(gd_auth_load(&a, open_key), -EPERM);
	assert_has(gd_err_msg(), open_key);
	assert_has(gd_err_msg(), "mode 0640");
	assert_has(gd_err_msg(), "chmod 600");
	assert_false(a.on);
	gd_err_clear();
	assert_int_equal(gd_auth_load(&a, short_key), -EINVAL);
	assert_has(gd_err_msg(), "holds 6 bytes");
	gd_err_clear();
	assert_int_equal(gd_auth_load(&a, dir), -EINVAL);
	assert_has(gd_err_msg(), "not a regular file");
	gd_err_clear();
	assert_int_equal(gd_auth_load(&a, "/nonexistent/gd.key"), -ENOENT);
	assert_has(gd_err_msg(), "/nonexistent/gd.key");
	/* the owner: this user or root, never another (root included) */
	assert_true(gd_auth_owner_ok(1000, 1000));
	assert_true(gd_auth_owner_ok(0, 1000));
	assert_true(gd_auth_owner_ok(0, 0));
	assert_false(gd_auth_owner_ok(1001, 1000));
	assert_false(gd_auth_owner_ok(1000, 0));
	/* as root (a container): a file of another user is refused */
	if (geteuid() == 0 && !chown(short_key, 1, 1)) {
		gd_err_clear();
		assert_int_equal(gd_auth_load(&a, short_key), -EPERM);
		assert_has(gd_err_msg(), "belongs to uid 1");
	}

	/* one trailing newline, LF or CRLF, is not part of the key */
	assert_int_equal(gd_auth_load(&a, key_a), 0);
	assert_int_equal(gd_auth_load(&b, crlf_key), 0);
	assert_true(a.on);
	assert_int_equal(a.key_len, 32);
	assert_int_equal(b.key_len, 32);
	assert_memory_equal(a.key, b.key, 32);
	gd_auth_clear(&a);
	assert_false(a.on);
	assert_int_equal(a.key_len, 0);
	gd_auth_clear(&b);
}

static void test_same_key(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	char arg[96];

	(void)state;
	snprintf(arg, sizeof(arg), "--auth-key=%s", key_a);
	pair_up(c, s, ARGS(arg, "-s", "4096", "server1"), ARGS(arg));
	if (c->ret || s->ret)
		print_error("client %d '%s', server %d '%s'\n", c->ret, c->msg,
			    s->ret, s->msg);
	assert_int_equal(c->ret, 0);
	assert_int_equal(s->ret, 0);
	/* the test travelled after the proofs */
	assert_int_equal(s->o.size_bytes, 4096);
	/* each end's nonce is fresh, and each took the other's */
	assert_memory_equal(c->s.auth.nonce, s->s.auth.peer_nonce,
			    GD_AUTH_NONCE_BYTES);
	assert_memory_equal(s->s.auth.nonce, c->s.auth.peer_nonce,
			    GD_AUTH_NONCE_BYTES);
	assert_memory_not_equal(c->s.auth.nonce, s->s.auth.nonce,
				GD_AUTH_NONCE_BYTES);
	/* every frame after the proofs under one session key, both ends */
	assert_true(c->s.oob.mac_on);
	assert_true(s->s.oob.mac_on);
	assert_memory_equal(c->s.oob.mac_key, s->s.oob.mac_key,
			    sizeof(c->s.oob.mac_key));
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

static void test_other_key(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	char ca[96], sa[96];

	(void)state;
	snprintf(ca, sizeof(ca), "--auth-key=%s", key_b);
	snprintf(sa, sizeof(sa), "--auth-key=%s", key_a);
	pair_up(c, s, ARGS(ca, "-s", "4096", "server1"), ARGS(sa));
	assert_int_equal(s->ret, -EACCES);
	assert_has(s->msg, "did not prove it has this server's key");
	/* the server's key file stays its own: not in what it sends */
	assert_null(strstr(c->msg, key_a));
	assert_int_equal(c->ret, -EACCES);
	assert_has(c->msg, "refused this client's key (--auth-key");
	assert_has(c->msg, key_b);
	/* refused before the test travelled */
	assert_int_not_equal(s->o.size_bytes, 4096);
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

static void test_client_without_key(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	char sa[96];

	(void)state;
	snprintf(sa, sizeof(sa), "--auth-key=%s", key_a);
	pair_up(c, s, ARGS("-s", "4096", "server1"), ARGS(sa));
	assert_int_equal(c->ret, -EACCES);
	assert_has(c->msg, "requires authentication: give --auth-key=FILE");
	assert_int_equal(s->ret, -EACCES);
	assert_has(s->msg, "gave no key");
	assert_int_not_equal(s->o.size_bytes, 4096);
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

static void test_server_without_key(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	char ca[96];

	(void)state;
	snprintf(ca, sizeof(ca), "--auth-key=%s", key_a);
	pair_up(c, s, ARGS(ca, "-s", "4096", "server1"), ARGS("-n", "5"));
	assert_int_equal(c->ret, -EACCES);
	assert_has(c->msg, "has no --auth-key");
	assert_has(c->msg, "anyone who can reach its port");
	assert_int_equal(s->ret, -EACCES);
	assert_has(s->msg, "asked to authenticate");
	assert_int_not_equal(s->o.size_bytes, 4096);
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

/* Every frame a scripted server reads from a keyed client, as text. */
static int read_frame(int fd, int *type, char *text, size_t cap)
{
	uint8_t hdr_buf[GD_FRAME_HDR_LEN];
	struct gd_frame_hdr hdr;
	size_t got = 0;

	while (got < sizeof(hdr_buf)) {
		ssize_t n = read(fd, hdr_buf + got, sizeof(hdr_buf) - got);

		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	if (gd_frame_decode_header(hdr_buf, sizeof(hdr_buf), &hdr) ||
	    hdr.len >= cap)
		return -1;
	for (got = 0; got < hdr.len;) {
		ssize_t n = read(fd, text + got, hdr.len - got);

		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	text[got] = '\0';
	*type = hdr.type;
	return 0;
}

struct scripted {
	int fd;
	bool offer_auth; /* its HELLO says hmac-sha256 with a nonce */
	int types[8];
	char text[8][1024];
	int frames;
};

/* Answers the hello (and the proof with garbage), then records all the
 * client sends until it hangs up. */
static void *scripted_server(void *arg)
{
	struct scripted *sc = arg;
	struct json_object *h = json_object_new_object();
	uint8_t *buf;
	size_t len;

	json_object_object_add(h, "tool",
			       json_object_new_string("gd_write_bw"));
	json_object_object_add(h, "version",
			       json_object_new_string(PACKAGE_VERSION));
	if (sc->offer_auth) {
		json_object_object_add(h, "auth",
				       json_object_new_string(GD_AUTH_SCHEME));
		json_object_object_add(
			h, "nonce",
			json_object_new_string(
				"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"));
	}
	assert_int_equal(gd_frame_encode(GD_FRAME_HELLO, h, &buf, &len), 0);
	assert_int_equal(write(sc->fd, buf, len), (ssize_t)len);
	free(buf);
	json_object_put(h);
	while (sc->frames < 8 &&
	       !read_frame(sc->fd, &sc->types[sc->frames], sc->text[sc->frames],
			   sizeof(sc->text[0]))) {
		if (sc->types[sc->frames] == GD_FRAME_AUTH) {
			h = json_object_new_object();
			json_object_object_add(
				h, "mac",
				json_object_new_string(
					"0000000000000000000000000000000000000000000000000000000000000000"));
			assert_int_equal(
				gd_frame_encode(GD_FRAME_AUTH, h, &buf, &len),
				0);
			assert_int_equal(write(sc->fd, buf, len), (ssize_t)len);
			free(buf);
			json_object_put(h);
		}
		sc->frames++;
	}
	close(sc->fd);
	return NULL;
}

static void scripted_case(bool offer_auth, int want_ret, const char *want)
{
	struct side *c = calloc(1, sizeof(*c));
	struct scripted sc = { .offer_auth = offer_auth };
	char ca[96];
	int fds[2];
	pthread_t th;

	snprintf(ca, sizeof(ca), "--auth-key=%s", key_a);
	assert_int_equal(
		socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
	sc.fd = fds[1];
	side_init(c, &t_write_bw, false, fds[0], 5000,
		  ARGS(ca, "-s", "4096", "server1"));
	assert_int_equal(pthread_create(&th, NULL, scripted_server, &sc), 0);
	side_handshake(c);
	gd_oob_close(&c->s.oob);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(c->ret, want_ret);
	assert_has(c->msg, want);
	/* the client's hello, then at most its proof: never its test */
	assert_true(sc.frames >= 1);
	assert_int_equal(sc.types[0], GD_FRAME_HELLO);
	assert_has(sc.text[0], "\"auth\":\"" GD_AUTH_SCHEME "\"");
	for (int i = 1; i < sc.frames; i++)
		assert_int_equal(sc.types[i], GD_FRAME_AUTH);
	assert_int_equal(sc.frames, offer_auth ? 2 : 1);
	for (int i = 0; i < sc.frames; i++) {
		assert_null(strstr(sc.text[i], "0123456789abcdef"));
		assert_null(strstr(sc.text[i], key_a));
	}
	side_free(c);
	free(c);
}

/* A server that cannot prove the key learns nothing of the test. */
/* One whole frame, raw, from @from to @to (when @to >= 0); its type. */
static int relay_frame(int from, int to)
{
	uint8_t buf[GD_FRAME_HDR_LEN + 8192];
	struct gd_frame_hdr hdr;
	size_t got = 0, want = GD_FRAME_HDR_LEN;

	while (got < want) {
		ssize_t n = read(from, buf + got, want - got);

		if (n <= 0)
			return -1;
		got += (size_t)n;
		if (got == GD_FRAME_HDR_LEN && want == GD_FRAME_HDR_LEN) {
			if (gd_frame_decode_header(buf, got, &hdr) ||
			    hdr.len > sizeof(buf) - GD_FRAME_HDR_LEN)
				return -1;
			want += hdr.len;
		}
	}
	if (to >= 0 && write(to, buf, got) != (ssize_t)got)
		return -1;
	return hdr.type;
}

struct relay {
	int cfd, sfd; /* its ends towards the client and the server */
	int types[4];
};

/* A host between a keyed client and a keyed server: it passes both
 * hellos and both proofs on, then drops the client's next frame and
 * sends its own test description instead. */
static void *relay_main(void *arg)
{
	struct relay *r = arg;
	struct json_object *t = json_object_new_object();
	uint8_t *buf;
	size_t len;

	r->types[0] = relay_frame(r->cfd, r->sfd);
	r->types[1] = relay_frame(r->sfd, r->cfd);
	r->types[2] = relay_frame(r->cfd, r->sfd);
	r->types[3] = relay_frame(r->sfd, r->cfd);
	(void)relay_frame(r->cfd, -1);
	json_object_object_add(t, "size", json_object_new_int64(1 << 20));
	assert_int_equal(gd_frame_encode(GD_FRAME_TEST, t, &buf, &len), 0);
	(void)!write(r->sfd, buf, len);
	free(buf);
	json_object_put(t);
	return NULL;
}

static void test_relay_refused(void **state)
{
	struct side *c = calloc(1, sizeof(*c)), *s = calloc(1, sizeof(*s));
	struct relay r;
	int cf[2], sf[2];
	pthread_t th, rt;
	char arg[96];

	(void)state;
	snprintf(arg, sizeof(arg), "--auth-key=%s", key_a);
	make_pair(cf);
	make_pair(sf);
	r.cfd = cf[1];
	r.sfd = sf[1];
	side_init(c, &t_write_bw, false, cf[0], 3000,
		  ARGS(arg, "-s", "4096", "server1"));
	side_init(s, &t_write_bw, true, sf[0], 3000, ARGS(arg));
	assert_int_equal(pthread_create(&rt, NULL, relay_main, &r), 0);
	assert_int_equal(pthread_create(&th, NULL, side_server_thread, s), 0);
	side_handshake(c);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(pthread_join(rt, NULL), 0);
	/* the proofs passed through, both ways */
	assert_int_equal(r.types[0], GD_FRAME_HELLO);
	assert_int_equal(r.types[1], GD_FRAME_HELLO);
	assert_int_equal(r.types[2], GD_FRAME_AUTH);
	assert_int_equal(r.types[3], GD_FRAME_AUTH);
	/* the injected test is refused by its missing MAC */
	assert_int_equal(s->ret, -EBADMSG);
	assert_has(s->msg, "frame 0 from peer client(test) failed its "
			   "--auth-key MAC");
	assert_int_not_equal(c->ret, 0);
	close(cf[1]);
	close(sf[1]);
	side_free(c);
	side_free(s);
	free(c);
	free(s);
}

static void test_impostor_server(void **state)
{
	(void)state;
	scripted_case(true, -EACCES, "did not prove it has this client's key");
}

static void test_keyless_server_gets_no_test(void **state)
{
	(void)state;
	scripted_case(false, -EACCES, "has no --auth-key");
}

static void client_with(struct side *sd, uint16_t port, const char *key)
{
	char p[16], ka[96];

	snprintf(p, sizeof(p), "%u", port);
	snprintf(ka, sizeof(ka), "--auth-key=%s", key);
	side_init(sd, &t_write_bw, false, -1, 5000,
		  ARGS(ka, "-p", p, "127.0.0.1"));
	sd->ret = gd_oob_connect(&sd->s.oob, "127.0.0.1", port);
	if (!sd->ret)
		side_handshake(sd);
	gd_oob_close(&sd->s.oob);
}

static void *serve_thread(void *arg)
{
	struct side *srv = arg;

	/* no device here: setup fails after the handshake, which is fine */
	srv->ret = gd_session_setup(&srv->s);
	return NULL;
}

static void read_all(FILE *f, char *buf, size_t cap)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* The accept loop: a client with another key is closed with one line
 * (peer and reason), the server waits on, and serves the right key. */
static void test_server_serves_next(void **state)
{
	struct side *srv = calloc(1, sizeof(*srv));
	struct side *bad = calloc(1, sizeof(*bad));
	struct side *good = calloc(1, sizeof(*good));
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	char port[16], sa[96], log[4096], text[4096];
	FILE *notices = tmpfile(), *out = tmpfile();
	struct gd_report_cfg cfg = { .tool = t_write_bw.name,
				     .version = PACKAGE_VERSION,
				     .measure = t_write_bw.measure,
				     .text = out };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	pthread_t th;

	(void)state;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	close(fd);
	snprintf(port, sizeof(port), "%u", ntohs(sin.sin_port));
	snprintf(sa, sizeof(sa), "--auth-key=%s", key_a);
	side_init(srv, &t_write_bw, true, -1, 5000, ARGS(sa, "-p", port));
	srv->s.rep = gd_report_new(&cfg, 0, NULL);
	gd_report_notices_to(fileno(notices));
	assert_int_equal(pthread_create(&th, NULL, serve_thread, srv), 0);
	client_with(bad, ntohs(sin.sin_port), key_b);
	client_with(good, ntohs(sin.sin_port), key_a);
	assert_int_equal(pthread_join(th, NULL), 0);
	gd_report_notices_to(2);
	assert_int_equal(bad->ret, -EACCES);
	assert_has(bad->msg, "refused this client's key");
	assert_int_equal(good->ret, 0);
	read_all(notices, log, sizeof(log));
	assert_has(log, "closed the connection from 127.0.0.1:");
	assert_has(log, "did not prove it has this server's key");
	assert_has(log, "waiting for the next client");
	assert_null(strstr(strstr(log, "closed the connection") + 1,
			   "closed the connection"));
	read_all(out, text, sizeof(text));
	assert_has(text, "only a client with this server's key (--auth-key)");
	gd_report_free(srv->s.rep);
	srv->s.rep = NULL;
	side_free(srv);
	side_free(bad);
	side_free(good);
	free(srv);
	free(bad);
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_file_checks),
		cmocka_unit_test(test_same_key),
		cmocka_unit_test(test_other_key),
		cmocka_unit_test(test_client_without_key),
		cmocka_unit_test(test_server_without_key),
		cmocka_unit_test(test_impostor_server),
		cmocka_unit_test(test_relay_refused),
		cmocka_unit_test(test_keyless_server_gets_no_test),
		cmocka_unit_test(test_server_serves_next),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
