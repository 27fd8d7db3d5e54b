/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the readers of what a peer sends on the side
 * channel, past the frame codec (tests/frame_fuzz.c): up to five payloads
 * separated by NUL bytes, each decoded as its frame's payload is (strict
 * JSON object) and handed to its reader: HELLO, the TEST description
 * (gd_opts_from_wire, on the server), QP_INFO (QPs, buffers, endpoint),
 * the server's RESULT of a step, the initiator's "done" SYNC, and the AUTH
 * proof of --auth-key (read with a fixed key and nonce after the HELLO's
 * scheme and nonce; a proof this end makes must pass on the other). The
 * step's outcome is then reported and judged as the client does, so a field
 * that reaches the document with the wrong shape is found by the readers
 * there. With bit 1 of the input's length set it runs stateful instead:
 * every part is a TEST from another client in turn, each adopted into a
 * fresh copy of one server's own options as the accept loop does, and
 * nothing of one client may reach the server's options or the next.
 */
#include <config.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/options.h"
#include "engine/session.h"
#include "engine/sweep.h"
#include "report/compare.h"
#include "report/report.h"
#include "transport/auth.h"
#include "transport/oob.h"
#include "util/error.h"
#include "fuzz_util.h"

enum { GD_HELLO, GD_TEST, GD_QP_INFO, GD_RESULT, GD_DONE, GD_AUTH, GD_PARTS };

static struct json_object *gd_fuzz_payload(const struct gd_fuzz_chunk *c)
{
	struct json_object *obj = NULL;

	if (gd_frame_decode_payload(c->data, c->len, &obj))
		gd_err_clear();
	return obj;
}

/* The options of a server before the client's description arrives. */
static int gd_fuzz_server_opts(const struct gd_test *t, struct gd_opts *o)
{
	char name[64], *argv[2] = { name, NULL };

	snprintf(name, sizeof(name), "%s", t->name);
	return gd_opts_parse(t, 1, argv, o, stdout);
}

static void gd_fuzz_test(struct gd_session *s, struct json_object *w)
{
	char field[64], ours[128], theirs[128];

	if (gd_opts_from_wire(s->test, s->o, w, field, sizeof(field), ours,
			      theirs, sizeof(ours)))
		return;
	/* what the server then sizes its QP arrays by */
	if (s->o->num_qps < 1 || s->o->num_qps > GD_MAX_QPS)
		abort();
}

static void gd_fuzz_qp_info(struct gd_session *s, struct json_object *peer)
{
	struct gd_qp_peer rp;
	char cm_ip[64] = "";

	s->v.num_qps = (unsigned int)s->o->num_qps;
	gd_session_take_peer_info(s, peer, &rp, cm_ip, sizeof(cm_ip));
	if (strlen(cm_ip) >= sizeof(cm_ip))
		abort();
}

/* One step of one phase: its RESULT taken, then reported and judged. */
static void gd_fuzz_result(struct gd_session *s, struct json_object *m,
			   uint8_t bits)
{
	static const enum gd_dir dirs[] = { GD_DIR_FORWARD, GD_DIR_REVERSE,
					    GD_DIR_BIDIR, GD_DIR_FORWARD };
	struct gd_phase *ph = &s->phases[0];
	struct gd_step st = { .s = s, .size_bytes = 1ULL << (bits >> 3) };
	struct gd_step_outcome out = { .ran = true };
	struct gd_rounds rd = { .stride = 1, .done = { 1 } };
	struct gd_gate_cfg g = { .min_bw_MiBps = 1, .max_lat_us = 1 };
	struct gd_report_cfg cfg = { .tool = s->test->name,
				     .measure = s->test->measure };
	struct json_object *cmp = NULL, *verd = NULL;
	bool gate_failed;

	*ph = (struct gd_phase){ .name = "HH", .dir = dirs[bits & 3] };
	st.initiator = ph->dir == GD_DIR_BIDIR ||
		       (ph->dir == GD_DIR_FORWARD) != s->is_server;
	st.target = ph->dir == GD_DIR_BIDIR || !st.initiator;
	s->num_phases = 1;
	s->sizes[0] = st.size_bytes;
	s->num_sizes = 1;
	out.ok = !gd_step_take_result(s, ph, &st, bits, m, &out);
	gd_err_clear();
	s->rep = gd_report_new(&cfg, 0, NULL);
	gd_sweep_report_phase(s, 0, &out, &rd);
	if (!gd_compare_run(gd_report_root(s->rep), &g, &cmp, &verd,
			    &gate_failed)) {
		json_object_put(cmp);
		json_object_put(verd);
	}
	gd_err_clear();
	if (!json_object_to_json_string(gd_report_root(s->rep)))
		abort();
	gd_report_free(s->rep);
	s->rep = NULL;
	gd_outcome_free(&out);
}

static void gd_fuzz_done(struct gd_session *s, struct json_object *m)
{
	uint64_t sent = 0;
	bool done = false;

	gd_step_done_frame(s, m, &done, &sent);
	if (sent > INT64_MAX)
		abort();
}

/* The HELLO's auth fields against an end without a key and one with,
 * then, where they were taken, the peer's proof. */
static void gd_fuzz_auth(bool is_server, struct json_object *hello,
			 struct json_object *proof)
{
	static struct gd_auth none, key, peer;
	struct json_object *mine;

	gd_auth_take_hello(&none, is_server, "fuzz:1", hello);
	gd_err_clear();
	key = (struct gd_auth){ .on = true, .path = "fuzz.key", .key_len = 16 };
	memcpy(key.key, "fuzz key 16bytes", 16);
	memset(key.nonce, 0x5a, sizeof(key.nonce));
	if (gd_auth_take_hello(&key, is_server, "fuzz:1", hello)) {
		gd_err_clear();
		return;
	}
	if (proof)
		gd_auth_take_proof(&key, is_server, "fuzz:1", proof);
	gd_err_clear();
	/* the other end, nonces swapped, takes this end's proof */
	peer = key;
	memcpy(peer.nonce, key.peer_nonce, sizeof(peer.nonce));
	memcpy(peer.peer_nonce, key.nonce, sizeof(peer.peer_nonce));
	mine = gd_auth_proof(&key, is_server);
	if (gd_auth_take_proof(&peer, !is_server, "fuzz:1", mine))
		abort();
	json_object_put(mine);
}

/* Clients in turn against one server: its own options never change,
 * and each client's copy starts as they are. */
static void gd_fuzz_clients(const struct gd_test *t, struct gd_opts *own,
			    struct json_object **m, size_t n)
{
	struct json_object *w0 = gd_opts_to_wire(t, own), *w;

	for (size_t i = 0; i < n; i++) {
		char field[64], ours[128], theirs[128];
		struct gd_opts c;

		if (!m[i])
			continue;
		if (gd_opts_copy(&c, own))
			abort();
		if (c.num_size_list != own->num_size_list)
			abort();
		if (!gd_opts_from_wire(t, &c, m[i], field, sizeof(field), ours,
				       theirs, sizeof(ours)) &&
		    !c.sizes && c.num_size_list)
			abort();
		gd_err_clear();
		gd_opts_free(&c);
		w = gd_opts_to_wire(t, own);
		if (strcmp(json_object_to_json_string(w),
			   json_object_to_json_string(w0)))
			abort();
		json_object_put(w);
	}
	json_object_put(w0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	(void)argc;
	(void)argv;
	/* notices (a peer of another version) would flood the log */
	if (fd >= 0)
		gd_report_notices_to(fd);
	return freopen("/dev/null", "w", stdout) ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct gd_test *t = &gd_tests[size % GD_TEST_COUNT];
	struct gd_fuzz_chunk c[GD_PARTS];
	struct json_object *m[GD_PARTS] = { NULL };
	size_t n = gd_fuzz_split(data, size, c, GD_PARTS);
	struct gd_session s = { .test = t, .is_server = size & 1 };
	struct gd_opts o;

	gd_err_clear();
	if (gd_fuzz_server_opts(t, &o))
		abort();
	s.o = &o;
	gd_oob_init(&s.oob, 1000);
	snprintf(s.oob.peer_name, sizeof(s.oob.peer_name), "fuzz:1");
	for (size_t i = 0; i < n; i++)
		m[i] = gd_fuzz_payload(&c[i]);
	if (size & 2) {
		gd_fuzz_clients(t, &o, m, n);
		for (size_t i = 0; i < GD_PARTS; i++)
			json_object_put(m[i]);
		gd_opts_free(&o);
		return 0;
	}
	if (m[GD_HELLO]) {
		gd_session_take_hello(&s, m[GD_HELLO]);
		gd_fuzz_auth(s.is_server, m[GD_HELLO], m[GD_AUTH]);
	}
	if (m[GD_TEST])
		gd_fuzz_test(&s, m[GD_TEST]);
	gd_err_clear();
	if (m[GD_QP_INFO])
		gd_fuzz_qp_info(&s, m[GD_QP_INFO]);
	gd_err_clear();
	if (m[GD_RESULT])
		gd_fuzz_result(&s, m[GD_RESULT], size > 0 ? data[0] : 0);
	if (m[GD_DONE])
		gd_fuzz_done(&s, m[GD_DONE]);
	for (size_t i = 0; i < GD_PARTS; i++)
		json_object_put(m[i]);
	gd_session_teardown(&s);
	gd_opts_free(&o);
	return 0;
}
