/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for the wire form of the options: which fields travel, how the
 * server adopts them, and how it rejects mismatched, unknown, missing,
 * mistyped and out-of-range fields (src/options.c, gd_opts_*_wire).
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "cli/options.h"
#include "transport/oob.h"
#include "opts_util.h"

/* The options that travel to the server, by their wire (long) names. */
static const char *const travelling[] = {
	"connection",	  "size",	    "all",
	"min-size",	  "max-size",	    "iters",
	"duration",	  "warmup",	    "qp",
	"bidirectional",  "rdma_cm",	    "mtu",
	"run_infinitely", "write_with_imm", "latency_gap",
	"verify",	  "phases",	    "reverse",
	"no-interleave",  "repeat",	    "precision",
	"margin",	  "reversed",	    "atomic_type",
	"sizes",	  "noPeak",	    "outs",
	"send_with_imm",  "use-srq",	    "rate_limit",
	"rate_units",	  "burst_size",	    "mcg",
	"MGID",		  "until-decided",
};
#define N_TRAVELLING (sizeof(travelling) / sizeof(travelling[0]))

static int wire_adopt(const struct gd_test *t, struct gd_opts *server,
		      struct json_object *wire, char *field, char *ours,
		      char *theirs)
{
	gd_err_clear();
	return gd_opts_from_wire(t, server, wire, field, 64, ours, theirs, 128);
}

static void test_wire_keys(void **state)
{
	struct gd_opts o;
	struct json_object *w, *v;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-s", "4096", "h"), 0);
	w = gd_opts_to_wire(&t_write_bw, &o);
	assert_int_equal(json_object_object_length(w), N_TRAVELLING);
	for (size_t i = 0; i < N_TRAVELLING; i++) {
		if (!json_object_object_get_ex(w, travelling[i], NULL)) {
			print_error("wire lacks '%s'\n", travelling[i]);
			fail();
		}
	}
	/* local-only settings stay home */
	assert_false(json_object_object_get_ex(w, "tx-depth", NULL));
	assert_false(json_object_object_get_ex(w, "port", NULL));
	assert_false(json_object_object_get_ex(w, "mem", NULL));
	assert_false(json_object_object_get_ex(w, "cqe_poll", NULL));
	assert_false(json_object_object_get_ex(w, "recv_post_list", NULL));
	assert_false(json_object_object_get_ex(w, "wait_destroy", NULL));
	assert_true(json_object_object_get_ex(w, "size", &v));
	assert_true(json_object_is_type(v, json_type_int));
	assert_int_equal(json_object_get_int64(v), 4096);
	assert_true(json_object_object_get_ex(w, "connection", &v));
	assert_string_equal(json_object_get_string(v), "RC");
	json_object_put(w);
	gd_opts_free(&o);
}

static void test_wire_round_trip(void **state)
{
	struct gd_opts c, s;
	struct json_object *w;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &c, "-s", "4096", "-n", "300", "-c",
			       "UC", "-q", "2", "-b", "-m", "1024",
			       "--phases=HH,DD", "--reverse", "--verify",
			       "--no-interleave", "-N", "server1"),
			 0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(PARSE0(&t_write_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_write_bw, &s, w, field, ours, theirs),
			 0);
	assert_string_equal(field, "");
	assert_int_equal(s.size_bytes, 4096);
	assert_int_equal(s.iters, 300);
	assert_int_equal(s.conn, GD_CONN_UC);
	assert_int_equal(s.num_qps, 2);
	assert_true(s.bidir);
	assert_int_equal(s.mtu_bytes, 1024);
	assert_string_equal(s.phases, "HH,DD");
	assert_true(s.reverse);
	assert_true(s.verify);
	assert_true(s.no_interleave);
	assert_true(s.no_peak);
	assert_int_equal(s.warmup_iters, c.warmup_iters);
	assert_int_equal(s.duration_s, 0);
	/* the server stays a server */
	assert_null(s.server_host);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);

	/* write-with-immediate travels too (it excludes -b, so on its own) */
	assert_int_equal(PARSE(&t_write_bw, &c, "--write_with_imm", "server1"),
			 0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(PARSE0(&t_write_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_write_bw, &s, w, field, ours, theirs),
			 0);
	assert_true(s.write_with_imm);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);

	assert_int_equal(PARSE(&t_write_bw, &c, "-a", "--min-size=64",
			       "--max-size=64K", "-D", "3", "server1"),
			 0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(PARSE0(&t_write_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_write_bw, &s, w, field, ours, theirs),
			 0);
	assert_true(s.all_sizes);
	assert_int_equal(s.min_size_bytes, 64);
	assert_int_equal(s.max_size_bytes, 65536);
	assert_int_equal(s.duration_s, 3);
	assert_null(s.phases);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
}

/* A client's explicit --warmup must reach the server unchanged: both ends
 * count warm-up messages, and a difference leaves one side waiting. */
static void test_wire_explicit_warmup(void **state)
{
	struct gd_opts c, s;
	struct json_object *w;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_send_bw, &c, "--warmup=5", "server1"), 0);
	assert_int_equal(c.warmup_iters, 5);
	w = gd_opts_to_wire(&t_send_bw, &c);
	assert_int_equal(PARSE0(&t_send_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_send_bw, &s, w, field, ours, theirs), 0);
	assert_int_equal(s.warmup_iters, 5);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
}

/* A server with its own GPU (--use_cuda) must still accept a client. */
static void test_wire_server_with_cuda(void **state)
{
	struct gd_opts c, s;
	struct json_object *w;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &c, "server1"), 0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(PARSE(&t_write_bw, &s, "--use_cuda=0"), 0);
	assert_int_equal(wire_adopt(&t_write_bw, &s, w, field, ours, theirs),
			 0);
	/* perftest's --use_cuda keeps perftest's route: peer memory */
	assert_string_equal(s.mem_spec, "cuda:0:peermem");
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
}

/* Build the wire form of a default client, let @edit change it, and feed it
 * to a server parsed from @server_args. */
static int wire_case(const struct gd_test *t, const char *const *server_args,
		     void (*edit)(struct json_object *w), char *field,
		     char *ours, char *theirs)
{
	struct gd_opts c, s;
	struct json_object *w;
	int ret;

	assert_int_equal(PARSE(t, &c, "-s", "65536", "server1"), 0);
	w = gd_opts_to_wire(t, &c);
	if (edit)
		edit(w);
	assert_int_equal(parse_list(t, &s, NULL, server_args), 0);
	ret = wire_adopt(t, &s, w, field, ours, theirs);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
	return ret;
}

static void edit_extra_key(struct json_object *w)
{
	json_object_object_add(w, "frobnicate", json_object_new_int(1));
}

static void edit_drop_iters(struct json_object *w)
{
	json_object_object_del(w, "iters");
}

static void edit_size_string(struct json_object *w)
{
	json_object_object_add(w, "size", json_object_new_string("65536"));
}

static void edit_reverse_int(struct json_object *w)
{
	json_object_object_add(w, "reverse", json_object_new_int(1));
}

static void edit_size_zero(struct json_object *w)
{
	json_object_object_add(w, "size", json_object_new_int(0));
}

static void edit_qp_huge(struct json_object *w)
{
	json_object_object_add(w, "qp", json_object_new_int(1000));
}

static void edit_conn_ud(struct json_object *w)
{
	json_object_object_add(w, "connection", json_object_new_string("UD"));
}

static void test_wire_mismatch(void **state)
{
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(wire_case(&t_write_bw,
				   (const char *const[]){ "-s", "4096", NULL },
				   NULL, field, ours, theirs),
			 -EINVAL);
	assert_string_equal(field, "size");
	assert_string_equal(ours, "4096");
	assert_string_equal(theirs, "65536");
	assert_msg_has("--size");
	assert_msg_has("4096");
	assert_msg_has("65536");
	/* the same value given on both ends is no mismatch */
	assert_int_equal(wire_case(&t_write_bw,
				   (const char *const[]){ "-s", "64K", NULL },
				   NULL, field, ours, theirs),
			 0);
}

static void test_wire_malformed(void **state)
{
	static const char *const none[] = { NULL };
	char field[64], ours[128], theirs[128];
	struct gd_opts s;
	struct json_object *arr;

	(void)state;
	assert_int_equal(wire_case(&t_write_bw, none, edit_extra_key, field,
				   ours, theirs),
			 -EPROTO);
	assert_msg_has("unknown fields");
	assert_int_equal(wire_case(&t_write_bw, none, edit_drop_iters, field,
				   ours, theirs),
			 -EPROTO);
	assert_string_equal(field, "iters");
	assert_msg_has("'iters'");
	assert_int_equal(wire_case(&t_write_bw, none, edit_size_string, field,
				   ours, theirs),
			 -EPROTO);
	assert_msg_has("--size");
	assert_int_equal(wire_case(&t_write_bw, none, edit_reverse_int, field,
				   ours, theirs),
			 -EPROTO);
	assert_msg_has("--reverse");
	assert_int_equal(wire_case(&t_write_bw, none, edit_size_zero, field,
				   ours, theirs),
			 -ERANGE);
	assert_string_equal(field, "size");
	assert_msg_has("--size");
	assert_int_equal(
		wire_case(&t_write_bw, none, edit_qp_huge, field, ours, theirs),
		-ERANGE);
	assert_msg_has("--qp");
	/* the server applies its own test's rules to what it adopts */
	assert_int_equal(
		wire_case(&t_write_bw, none, edit_conn_ud, field, ours, theirs),
		-EINVAL);
	assert_msg_has("gd_write_bw does not support connection type UD");

	assert_int_equal(PARSE0(&t_write_bw, &s), 0);
	arr = json_object_new_array();
	assert_int_equal(wire_adopt(&t_write_bw, &s, arr, field, ours, theirs),
			 -EPROTO);
	json_object_put(arr);
	gd_opts_free(&s);
}

/* perftest's symmetric options travel: the server adopts the client's -A,
 * --sizes, --reversed and -f, and checks them as strictly as its own. */
static void test_wire_perftest_options(void **state)
{
	struct gd_opts c, s;
	struct json_object *w, *v;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_atomic_bw, &c, "-A", "CMP_AND_SWAP", "h"), 0);
	w = gd_opts_to_wire(&t_atomic_bw, &c);
	assert_true(json_object_object_get_ex(w, "atomic_type", &v));
	assert_string_equal(json_object_get_string(v), "CMP_AND_SWAP");
	assert_int_equal(PARSE0(&t_atomic_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_atomic_bw, &s, w, field, ours, theirs),
			 0);
	assert_int_equal(s.atomic_op, GD_ATOMIC_CMP_AND_SWAP);
	gd_opts_free(&s);
	/* a server started with the other operation refuses */
	assert_int_equal(PARSE(&t_atomic_bw, &s, "-A", "FETCH_AND_ADD"), 0);
	assert_int_equal(wire_adopt(&t_atomic_bw, &s, w, field, ours, theirs),
			 -EINVAL);
	assert_string_equal(field, "atomic_type");
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);

	assert_int_equal(PARSE(&t_write_bw, &c, "--sizes=4K,64K,1M",
			       "--reversed", "-D", "6", "-f", "2", "h"),
			 0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(PARSE0(&t_write_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_write_bw, &s, w, field, ours, theirs),
			 0);
	assert_int_equal(s.num_size_list, 3);
	assert_int_equal(s.size_list[0], 4096);
	assert_int_equal(s.size_list[2], 1048576);
	assert_true(s.reversed);
	assert_int_equal(s.margin_s, 2);
	assert_int_equal(s.duration_s, 6);
	gd_opts_free(&s);
	/* a list the server would refuse on its own command line */
	json_object_object_add(w, "sizes", json_object_new_string("64K,4K"));
	assert_int_equal(PARSE0(&t_write_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_write_bw, &s, w, field, ours, theirs),
			 -EINVAL);
	assert_msg_has("ascending");
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
}

/* -o: both ends use one value as initiator depth and responder resources,
 * so the server adopts the client's and refuses another of its own; unset,
 * it travels as 0 and each end takes its device's default. */
static void test_wire_outs(void **state)
{
	struct gd_opts c, s;
	struct json_object *w, *v;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_read_bw, &c, "-o", "4", "h"), 0);
	w = gd_opts_to_wire(&t_read_bw, &c);
	assert_true(json_object_object_get_ex(w, "outs", &v));
	assert_int_equal(json_object_get_int64(v), 4);
	assert_int_equal(PARSE0(&t_read_bw, &s), 0);
	assert_int_equal(s.outs, 0);
	assert_int_equal(wire_adopt(&t_read_bw, &s, w, field, ours, theirs), 0);
	assert_int_equal(s.outs, 4);
	gd_opts_free(&s);
	assert_int_equal(PARSE(&t_read_bw, &s, "--outs=8"), 0);
	assert_int_equal(wire_adopt(&t_read_bw, &s, w, field, ours, theirs),
			 -EINVAL);
	assert_string_equal(field, "outs");
	assert_string_equal(ours, "8");
	assert_string_equal(theirs, "4");
	assert_msg_has("--outs is 8 here but 4 on the peer");
	gd_opts_free(&s);
	json_object_put(w);
	gd_opts_free(&c);

	assert_int_equal(PARSE(&t_atomic_lat, &c, "h"), 0);
	w = gd_opts_to_wire(&t_atomic_lat, &c);
	assert_true(json_object_object_get_ex(w, "outs", &v));
	assert_int_equal(json_object_get_int64(v), 0);
	assert_int_equal(PARSE0(&t_atomic_lat, &s), 0);
	assert_int_equal(wire_adopt(&t_atomic_lat, &s, w, field, ours, theirs),
			 0);
	assert_int_equal(s.outs, 0);
	gd_opts_free(&s);
	/* more than a QP attribute holds, from a peer */
	json_object_object_add(w, "outs", json_object_new_int(256));
	assert_int_equal(PARSE0(&t_atomic_lat, &s), 0);
	assert_int_equal(wire_adopt(&t_atomic_lat, &s, w, field, ours, theirs),
			 -ERANGE);
	assert_msg_has("--outs");
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
}

static void test_wire_unset_duration(void **state)
{
	struct gd_opts c, s;
	struct json_object *w, *v;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_read_bw, &c, "-n", "50", "server1"), 0);
	w = gd_opts_to_wire(&t_read_bw, &c);
	assert_true(json_object_object_get_ex(w, "duration", &v));
	assert_int_equal(json_object_get_int64(v), 0);
	assert_int_equal(PARSE0(&t_read_bw, &s), 0);
	assert_int_equal(wire_adopt(&t_read_bw, &s, w, field, ours, theirs), 0);
	assert_int_equal(s.duration_s, 0);
	assert_int_equal(s.iters, 50);
	/* min(100, 50 / 10) */
	assert_int_equal(s.warmup_iters, 5);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&s);
}

/* The server's fresh copy per client: equal values, nothing shared (each
 * freed on its own; the sanitizer build would see a double free), and a
 * client adopted into the copy leaves the original as it was. */
static void test_opts_copy(void **state)
{
	struct gd_opts o, c, cl;
	struct json_object *w;
	char field[64], ours[128], theirs[128];

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--label", "rack=a1", "--mem",
			       "host", "-j", "127.0.0.1"),
			 0);
	assert_int_equal(gd_opts_copy(&c, &o), 0);
	assert_string_equal(c.bind_addr, "127.0.0.1");
	assert_ptr_not_equal(c.bind_addr, o.bind_addr);
	assert_int_equal(c.num_labels, 1);
	assert_ptr_not_equal(c.labels[0], o.labels[0]);
	assert_string_equal(c.labels[0], o.labels[0]);
	assert_int_equal(c.num_mem, o.num_mem);
	for (unsigned int k = 0; k < c.num_mem; k++)
		assert_ptr_not_equal(c.mem_list[k], o.mem_list[k]);
	assert_int_equal(PARSE(&t_write_bw, &cl, "--sizes", "4K,8K", "-q", "3",
			       "server1"),
			 0);
	w = gd_opts_to_wire(&t_write_bw, &cl);
	assert_int_equal(wire_adopt(&t_write_bw, &c, w, field, ours, theirs),
			 0);
	assert_int_equal(c.num_size_list, 2);
	assert_int_equal(c.num_qps, 3);
	assert_int_equal(o.num_size_list, 0);
	assert_null(o.sizes);
	assert_int_equal(o.num_qps, 1);
	json_object_put(w);
	gd_opts_free(&c);
	gd_opts_free(&cl);
	gd_opts_free(&o);
}

/* A server takes at most GD_FRAME_HANDSHAKE_MAX bytes a frame before it
 * accepted the test: a description with 40 sizes of 7 digits fits in half
 * (the other strings that travel are short words, an MGID, a phase list). */
static void test_wire_fits_handshake_cap(void **state)
{
	char sizes[512] = "";
	struct gd_opts c;
	struct json_object *w;
	uint8_t *f;
	size_t len, n = 0;

	(void)state;
	for (int i = 0; i < GD_MAX_SIZE_LIST; i++)
		n += (size_t)snprintf(sizes + n, sizeof(sizes) - n, "%s%d",
				      i ? "," : "", 1000001 + i);
	assert_int_equal(
		PARSE(&t_write_bw, &c, "--sizes", sizes, "-q", "16", "server1"),
		0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(gd_frame_encode(GD_FRAME_TEST, w, &f, &len), 0);
	assert_true(len < GD_FRAME_HANDSHAKE_MAX / 2);
	free(f);
	json_object_put(w);
	gd_opts_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wire_keys),
		cmocka_unit_test(test_wire_round_trip),
		cmocka_unit_test(test_wire_explicit_warmup),
		cmocka_unit_test(test_wire_server_with_cuda),
		cmocka_unit_test(test_wire_mismatch),
		cmocka_unit_test(test_wire_malformed),
		cmocka_unit_test(test_wire_unset_duration),
		cmocka_unit_test(test_wire_perftest_options),
		cmocka_unit_test(test_wire_outs),
		cmocka_unit_test(test_opts_copy),
		cmocka_unit_test(test_wire_fits_handshake_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
