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
#include <math.h>
#include <setjmp.h>
#include <signal.h>
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
#include "util/json_get.h"
#include "util/stop.h"
#include "transport/oob.h"
#include "cli/options.h"
#include "opts_util.h"
#include "session_pair.h"
#include "engine/session.h"
#include "engine/sweep.h"
#include "report/compare.h"

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
	pthread_t th;
	int fds[2];

	make_pair(fds);
	side_init(c, &t_write_bw, false, fds[0], 5000, ARGS("server1"));
	gd_oob_init(&r.oob, 5000);
	gd_oob_attach(&r.oob, fds[1], "client(test)");
	assert_int_equal(pthread_create(&th, NULL, rude_thread, &r), 0);
	side_handshake(c);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(r.ret, 0);
	if (c->ret != -ECONNRESET)
		print_error("client: %d '%s'\n", c->ret, c->msg);
	assert_int_equal(c->ret, -ECONNRESET);
	assert_has(c->msg, "server(test)");
	/* a hang-up is noticed as one (-ECONNRESET, naming the close), not
	 * waited out to the 5 s timeout (-ETIMEDOUT) */
	assert_has(c->msg, "closed the connection");
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
	close(fds[1]);
	side_free(c);
	free(c);
}

/* A free TCP port of 127.0.0.1 (free when asked; the test takes it next). */
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

static struct gd_report *text_report(const struct gd_test *t, FILE *text)
{
	struct gd_report_cfg cfg = { .tool = t->name,
				     .version = PACKAGE_VERSION,
				     .measure = t->measure,
				     .text = text };

	return gd_report_new(&cfg, 0, NULL);
}

struct late_client {
	struct side side;
	uint16_t port;
};

static void *late_client_main(void *arg)
{
	struct late_client *lc = arg;

	gd_oob_init(&lc->side.s.oob, 5000);
	if (!gd_oob_connect(&lc->side.s.oob, "127.0.0.1", lc->port))
		side_handshake(&lc->side);
	gd_oob_close(&lc->side.s.oob);
	return NULL;
}

/* While it waits, a server says so on the table's stream as perftest does
 * (flushed: scripts read a pipe), and never in the document. */
static void test_server_waiting_line(void **state)
{
	struct side *srv = calloc(1, sizeof(*srv));
	struct late_client *lc = calloc(1, sizeof(*lc));
	char port[16], want[256], text[4096] = "";
	FILE *f = tmpfile();
	pthread_t th;
	size_t n;

	(void)state;
	lc->port = free_port();
	snprintf(port, sizeof(port), "%u", lc->port);
	side_init(srv, &t_write_bw, true, -1, 5000, ARGS("-p", port));
	side_init(&lc->side, &t_write_bw, false, -1, 5000,
		  ARGS("-p", port, "127.0.0.1"));
	srv->s.rep = text_report(&t_write_bw, f);
	assert_int_equal(pthread_create(&th, NULL, late_client_main, lc), 0);
	/* no device here: setup fails after the handshake, which is fine */
	gd_session_setup(&srv->s);
	pthread_join(th, NULL);
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	snprintf(
		want, sizeof(want),
		" Waiting for client on port %u (gd_write_bw, the test travels from the client; anyone who can reach this port may run one within this server's limits)...\n",
		lc->port);
	assert_has(text, want);
	assert_null(
		strstr(json_object_to_json_string(gd_report_root(srv->s.rep)),
		       "Waiting"));
	gd_session_teardown(&srv->s);
	gd_report_free(srv->s.rep);
	fclose(f);
	side_free(srv);
	side_free(&lc->side);
	free(srv);
	free(lc);
}

/* Raw frames for the scripted peers below: the stop flag would end this
 * process's own gd_oob waits too, so they read the socket themselves. */
static int raw_read(int fd, uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = read(fd, buf, len);

		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int raw_frame(int fd, struct json_object **obj)
{
	uint8_t hdr_buf[GD_FRAME_HDR_LEN], *body;
	struct gd_frame_hdr hdr;
	int ret;

	*obj = NULL;
	if (raw_read(fd, hdr_buf, sizeof(hdr_buf)) ||
	    gd_frame_decode_header(hdr_buf, sizeof(hdr_buf), &hdr))
		return -1;
	body = malloc(hdr.len + 1);
	ret = raw_read(fd, body, hdr.len) ||
	      gd_frame_decode_payload(body, hdr.len, obj);
	free(body);
	return ret ? -1 : hdr.type;
}

static void raw_send(int fd, int type, struct json_object *obj)
{
	uint8_t *frame;
	size_t len;

	assert_int_equal(gd_frame_encode(type, obj, &frame, &len), 0);
	assert_int_equal(write(fd, frame, len), (ssize_t)len);
	free(frame);
	json_object_put(obj);
}

/* A server that lets the first @answer steps be skipped, then signals this
 * process while the client waits for its answer to the next one, and keeps
 * what the client tells it. */
struct script {
	int fd;
	unsigned int answer;
	int sig;
	char signal[24], during[160];
};

static void *scripted_server(void *arg)
{
	struct script *sc = arg;
	struct json_object *m, *in;
	int type;

	for (unsigned int i = 0; (type = raw_frame(sc->fd, &m)) > 0; i++) {
		if (type == GD_FRAME_ERROR) {
			in = gd_json_path(m, "interrupted", NULL);
			snprintf(sc->signal, sizeof(sc->signal), "%s",
				 gd_json_str(in, "signal") ?: "");
			snprintf(sc->during, sizeof(sc->during), "%s",
				 gd_json_str(in, "during") ?: "");
			json_object_put(m);
			break;
		}
		json_object_put(m);
		if (i == sc->answer) {
			kill(getpid(), sc->sig);
			continue;
		}
		m = json_object_new_object();
		json_object_object_add(
			m, "skip", json_object_new_string("scripted server"));
		raw_send(sc->fd, GD_FRAME_SYNC, m);
	}
	return NULL;
}

#define SWEEP_ARGS "-a", "--max-size=64", "-n", "5"

/* A side ready to walk the sweep without a device: the host buffers of
 * both ends stand as registered, so every step is announced and waits for
 * the other end, which the scripted peer makes skip it. */
static void sweep_side(struct side *sd, bool server, int fd, FILE *text)
{
	if (server)
		side_init(sd, &t_write_bw, true, fd, 5000, ARGS(SWEEP_ARGS));
	else
		side_init(sd, &t_write_bw, false, fd, 5000,
			  ARGS(SWEEP_ARGS, "server1"));
	assert_int_equal(gd_sweep_plan(&sd->s), 0);
	assert_int_equal(sd->s.num_sizes, 6);
	sd->s.local[GD_PLACE_HOST].ok = true;
	sd->s.remote[GD_PLACE_HOST].present = true;
	sd->s.rep = text_report(&t_write_bw, text);
}

static void sweep_side_free(struct side *sd)
{
	gd_report_free(sd->s.rep);
	gd_session_teardown(&sd->s);
	side_free(sd);
}

static struct json_object *step_of(struct side *sd, size_t i)
{
	struct json_object *ph = gd_json_idx(
		gd_json_path(gd_report_root(sd->s.rep), "phases", NULL), 0);

	return gd_json_idx(gd_json_path(ph, "steps", NULL), i);
}

/* SIGTERM while the client waits for the third step: the steps before it
 * are kept, that step says it was interrupted, the later ones were not
 * run; the server is told at once, with the signal and the step. */
static void test_sweep_interrupted_here(void **state)
{
	struct side *c = calloc(1, sizeof(*c));
	struct script sc = { .answer = 2, .sig = SIGTERM };
	struct json_object *ph;
	pthread_t th;
	int fds[2], ret, sig;

	(void)state;
	make_pair(fds);
	sc.fd = fds[1];
	sweep_side(c, false, fds[0], NULL);
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(pthread_create(&th, NULL, scripted_server, &sc), 0);
	gd_err_clear();
	ret = gd_sweep_run(&c->s);
	pthread_join(th, NULL);
	sig = gd_stop_signal();
	gd_stop_reset();
	signal(SIGTERM, SIG_DFL);
	/* -EINTR, not the -ETIMEDOUT of the 5 s silence limit */
	assert_int_equal(ret, -EINTR);
	assert_int_equal(sig, SIGTERM);
	assert_has(gd_err_msg(),
		   "interrupted by SIGTERM during phase HH size 8 round 1");
	assert_string_equal(sc.signal, "SIGTERM");
	assert_string_equal(sc.during, "phase HH size 8 round 1");
	assert_string_equal(gd_json_str(step_of(c, 0), "error"),
			    "server: scripted server");
	assert_string_equal(gd_json_str(step_of(c, 2), "error"),
			    "interrupted by SIGTERM");
	for (size_t i = 3; i < 6; i++)
		assert_string_equal(gd_json_str(step_of(c, i), "error"),
				    "not run: interrupted");
	ph = gd_json_idx(gd_json_path(gd_report_root(c->s.rep), "phases", NULL),
			 0);
	assert_string_equal(gd_json_str(ph, "status"), "failed");
	close(fds[1]);
	sweep_side_free(c);
	free(c);
}

struct script_client {
	struct gd_oob oob;
	unsigned int steps;
};

/* Announces @steps skipped steps, then says it got SIGINT. */
static void *scripted_client(void *arg)
{
	struct script_client *sc = arg;
	struct json_object *m;

	for (unsigned int i = 0; i < sc->steps; i++) {
		m = json_object_new_object();
		json_object_object_add(m, "step", json_object_new_int((int)i));
		json_object_object_add(m, "phase",
				       json_object_new_string("HH"));
		json_object_object_add(m, "size", json_object_new_int(2 << i));
		json_object_object_add(m, "skip",
				       json_object_new_string("scripted"));
		gd_oob_send(&sc->oob, GD_FRAME_SYNC, m);
		json_object_put(m);
	}
	gd_oob_send_interrupted(&sc->oob, "SIGINT", "phase HH size 8 round 1");
	return NULL;
}

/* The server hears the client's interruption and ends its walk at once
 * (not at its 5 s silence limit), saying which signal and when. */
static void test_sweep_interrupted_peer(void **state)
{
	struct side *srv = calloc(1, sizeof(*srv));
	struct script_client sc = { .steps = 2 };
	pthread_t th;
	int fds[2], ret;

	(void)state;
	make_pair(fds);
	sweep_side(srv, true, fds[1], NULL);
	gd_oob_init(&sc.oob, 5000);
	gd_oob_attach(&sc.oob, fds[0], "server(test)");
	assert_int_equal(pthread_create(&th, NULL, scripted_client, &sc), 0);
	gd_err_clear();
	ret = gd_sweep_run(&srv->s);
	pthread_join(th, NULL);
	/* -EINTR, not the -ETIMEDOUT of the 5 s silence limit */
	assert_int_equal(ret, -EINTR);
	assert_int_equal(gd_stop_signal(), 0);
	assert_has(gd_err_msg(), "peer client(test) was interrupted by SIGINT "
				 "during phase HH size 8 round 1");
	assert_string_equal(srv->s.oob.peer_stop_signal, "SIGINT");
	gd_oob_close(&sc.oob);
	sweep_side_free(srv);
	free(srv);
}

/* The server's RESULT, read the way the client reads it. */
static int take(struct side *c, const struct gd_phase *ph, bool initiator,
		const char *json, struct gd_step_outcome *out)
{
	struct gd_step st = { .s = &c->s,
			      .size_bytes = 4096,
			      .initiator = initiator,
			      .target = !initiator };
	struct json_object *m = json_tokener_parse(json);
	int ret;

	assert_non_null(m);
	gd_outcome_free(out);
	gd_err_clear();
	ret = gd_step_take_result(&c->s, ph, &st, 0, m, out);
	json_object_put(m);
	return ret;
}

/* Every field of the peer's RESULT is checked: counters of the wrong shape
 * are kept out (the verdicts index them as arrays, and json-c asserts on
 * anything else), a malformed verification fails, bad counts and figures
 * are protocol errors; and the phase built from them judges cleanly. */
static void test_result_fields_checked(void **state)
{
	struct side *c = calloc(1, sizeof(*c));
	struct gd_step_outcome out[2] = { { .ran = false } };
	struct gd_phase rev = { .name = "HH:rev", .dir = GD_DIR_REVERSE };
	struct json_object *cr, *cmp = NULL, *verd = NULL, *bad;
	struct gd_rounds rd = { .stride = 1 };
	struct gd_gate_cfg g = { .gate_from_bytes = 0 };
	bool gate_failed;
	int fds[2];

	(void)state;
	make_pair(fds);
	sweep_side(c, false, fds[0], NULL);
	assert_int_equal(
		take(c, &c->s.phases[0], true,
		     "{\"received\":5,\"counters\":\"x\",\"verify\":7}",
		     &out[0]),
		0);
	assert_has(gd_json_str(out[0].counters_remote, "error"),
		   "not a JSON object");
	assert_false(json_object_get_boolean(
		gd_json_path(out[0].verify, "ok", NULL)));
	assert_has(gd_json_str(out[0].verify, "error"), "malformed");

	assert_int_equal(
		take(c, &c->s.phases[0], true,
		     "{\"counters\":{\"counters\":[{\"name\":\"rcvd_pkts\",\"delta\":7},"
		     "{\"name\":3},{\"name\":\"x\",\"delta\":-1},5],"
		     "\"errors_moved\":\"rcvd_pkts\",\"retries_moved\":[1,\"r\"],"
		     "\"tx_bytes\":-1,\"rx_bytes\":null,\"notes\":{}}}",
		     &out[0]),
		0);
	cr = out[0].counters_remote;
	assert_int_equal(gd_json_len(gd_json_path(cr, "counters", NULL)), 1);
	assert_true(json_object_is_type(gd_json_path(cr, "errors_moved", NULL),
					json_type_array));
	assert_int_equal(gd_json_len(gd_json_path(cr, "errors_moved", NULL)),
			 0);
	assert_int_equal(gd_json_len(gd_json_path(cr, "retries_moved", NULL)),
			 1);
	assert_null(gd_json_path(cr, "tx_bytes", NULL));
	assert_has(json_object_to_json_string(gd_json_path(cr, "notes", NULL)),
		   "7 malformed entries from the peer left out");

	assert_int_equal(
		take(c, &c->s.phases[0], true, "{\"received\":-1}", &out[1]),
		-EPROTO);
	assert_has(gd_err_msg(), "'received' is not a count");
	assert_int_equal(
		take(c, &c->s.phases[0], true, "{\"sent\":\"9\"}", &out[1]),
		-EPROTO);
	assert_int_equal(take(c, &c->s.phases[0], true, "[]", &out[1]),
			 -EPROTO);
	/* the server initiated: its figures must be this step's */
	assert_int_equal(
		take(c, &rev, false,
		     "{\"sent\":10,\"result\":{\"size_bytes\":1,\"iterations\":10,"
		     "\"elapsed_s\":1,\"bw_peak_MiBps\":1,\"bw_avg_MiBps\":1,"
		     "\"msg_rate_Mpps\":1}}",
		     &out[1]),
		-EPROTO);
	assert_has(gd_err_msg(), "where the step is 4096 bytes");
	assert_int_equal(
		take(c, &rev, false,
		     "{\"sent\":10,\"result\":{\"size_bytes\":4096,\"iterations\":10,"
		     "\"elapsed_s\":1,\"bw_peak_MiBps\":-1,\"bw_avg_MiBps\":1,"
		     "\"msg_rate_Mpps\":1}}",
		     &out[1]),
		-EPROTO);
	assert_has(gd_err_msg(), "not a finite, non-negative number");
	bad = json_object_new_object();
	json_object_object_add(bad, "bw_avg_MiBps",
			       json_object_new_double(INFINITY));
	assert_int_equal(gd_bw_summary_from_json(bad, &out[1].res.bw), -EPROTO);
	json_object_put(bad);
	assert_int_equal(
		take(c, &rev, false,
		     "{\"sent\":10,\"received\":10,\"result\":{\"size_bytes\":4096,"
		     "\"iterations\":10,\"elapsed_s\":1,\"bw_peak_MiBps\":2,"
		     "\"bw_avg_MiBps\":1,\"msg_rate_Mpps\":1}}",
		     &out[1]),
		0);
	assert_int_equal(out[1].res.app_bytes, 40960);
	assert_int_equal(out[1].res.msgs_done, 10);

	/* the phase from the first outcome, judged: no assertion fires */
	out[0].ok = true;
	out[0].ran = true;
	out[0].res = out[1].res;
	out[0].res.bw.size_bytes = 2;
	rd.done[0] = 1;
	c->s.num_sizes = 1; /* out[] holds this one size's outcome */
	gd_sweep_report_phase(&c->s, 0, out, &rd);
	gd_compare_run(gd_report_root(c->s.rep), &g, &cmp, &verd, &gate_failed);
	json_object_put(cmp);
	json_object_put(verd);
	gd_outcome_free(&out[0]);
	gd_outcome_free(&out[1]);
	close(fds[1]);
	sweep_side_free(c);
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
		cmocka_unit_test(test_server_waiting_line),
		cmocka_unit_test(test_sweep_interrupted_here),
		cmocka_unit_test(test_sweep_interrupted_peer),
		cmocka_unit_test(test_result_fields_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
