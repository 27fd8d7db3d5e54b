/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for the side channel: the frame codec against hand-built wire
 * bytes (valid and malformed), and send/recv over socketpairs and loopback
 * TCP including peer errors, rejects, closes, timeouts and refused connects.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "util/stop.h"
#include "transport/oob.h"

/* Header bytes for @type and @len with the right magic and version. */
static void put_hdr(uint8_t *p, uint16_t version, uint16_t type, uint32_t len)
{
	const uint8_t magic[4] = { 'G', 'D', 'P', 'F' };

	memcpy(p, magic, 4);
	p[4] = version >> 8;
	p[5] = version & 0xff;
	p[6] = type >> 8;
	p[7] = type & 0xff;
	p[8] = len >> 24;
	p[9] = (len >> 16) & 0xff;
	p[10] = (len >> 8) & 0xff;
	p[11] = len & 0xff;
}

static int reset(void **state)
{
	(void)state;
	gd_err_clear();
	return 0;
}

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(gd_frame_type_name(GD_FRAME_HELLO), "HELLO");
	assert_string_equal(gd_frame_type_name(GD_FRAME_REJECT), "REJECT");
	assert_string_equal(gd_frame_type_name(GD_FRAME_BYE), "BYE");
	assert_string_equal(gd_frame_type_name(0), "UNKNOWN");
	assert_string_equal(gd_frame_type_name(99), "UNKNOWN");
}

/* Every type: exact wire bytes for {"k":7}, then decode back. */
static void test_round_trip_all_types(void **state)
{
	static const char body[] = "{\"k\":7}";
	struct json_object *in = json_object_new_object(), *out, *v;
	struct gd_frame_hdr hdr;
	uint8_t want[GD_FRAME_HDR_LEN + sizeof(body) - 1];
	uint8_t *buf;
	size_t len;
	int type;

	(void)state;
	json_object_object_add(in, "k", json_object_new_int(7));
	for (type = GD_FRAME_HELLO; type <= GD_FRAME_TYPE_MAX; type++) {
		assert_int_equal(gd_frame_encode(type, in, &buf, &len), 0);
		assert_int_equal(len, GD_FRAME_HDR_LEN + 7);
		put_hdr(want, GD_OOB_VERSION, type, 7);
		memcpy(want + GD_FRAME_HDR_LEN, body, 7);
		assert_memory_equal(buf, want, len);

		assert_int_equal(gd_frame_decode_header(buf, len, &hdr), 0);
		assert_int_equal(hdr.version, GD_OOB_VERSION);
		assert_int_equal(hdr.type, type);
		assert_int_equal(hdr.len, 7);
		assert_int_equal(gd_frame_decode_payload(buf + GD_FRAME_HDR_LEN,
							 hdr.len, &out),
				 0);
		assert_true(json_object_object_get_ex(out, "k", &v));
		assert_int_equal(json_object_get_int(v), 7);
		json_object_put(out);
		free(buf);
	}
	json_object_put(in);
	assert_false(gd_err_is_set());
}

static void test_encode_null_is_empty_object(void **state)
{
	uint8_t want[GD_FRAME_HDR_LEN + 2];
	uint8_t *buf;
	size_t len;

	(void)state;
	assert_int_equal(gd_frame_encode(GD_FRAME_BYE, NULL, &buf, &len), 0);
	put_hdr(want, GD_OOB_VERSION, GD_FRAME_BYE, 2);
	want[12] = '{';
	want[13] = '}';
	assert_int_equal(len, 14);
	assert_memory_equal(buf, want, 14);
	free(buf);
}

static void test_encode_rejects_bad_input(void **state)
{
	struct json_object *arr = json_object_new_array();
	uint8_t *buf;
	size_t len;

	(void)state;
	assert_int_equal(gd_frame_encode(0, NULL, &buf, &len), -EINVAL);
	assert_null(buf);
	gd_err_clear();
	assert_int_equal(gd_frame_encode(GD_FRAME_TEST, arr, &buf, &len),
			 -EINVAL);
	assert_non_null(strstr(gd_err_msg(), "not an object"));
	json_object_put(arr);
}

static void test_header_malformed(void **state)
{
	struct gd_frame_hdr hdr;
	uint8_t b[GD_FRAME_HDR_LEN];

	(void)state;
	put_hdr(b, GD_OOB_VERSION, GD_FRAME_HELLO, 2);
	b[0] = 'X';
	assert_int_equal(gd_frame_decode_header(b, sizeof(b), &hdr), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "magic"));
	gd_err_clear();

	put_hdr(b, GD_OOB_VERSION + 1, GD_FRAME_HELLO, 2);
	assert_int_equal(gd_frame_decode_header(b, sizeof(b), &hdr),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(gd_err_msg(), "same gdperf version"));
	gd_err_clear();

	put_hdr(b, GD_OOB_VERSION, 0, 2);
	assert_int_equal(gd_frame_decode_header(b, sizeof(b), &hdr), -EPROTO);
	gd_err_clear();
	put_hdr(b, GD_OOB_VERSION, 99, 2);
	assert_int_equal(gd_frame_decode_header(b, sizeof(b), &hdr), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "unknown frame type 99"));
	gd_err_clear();

	/* One byte over the limit is refused, the limit itself accepted. */
	put_hdr(b, GD_OOB_VERSION, GD_FRAME_RESULT, GD_FRAME_MAX_PAYLOAD + 1);
	assert_int_equal(gd_frame_decode_header(b, sizeof(b), &hdr), -EMSGSIZE);
	gd_err_clear();
	put_hdr(b, GD_OOB_VERSION, GD_FRAME_RESULT, GD_FRAME_MAX_PAYLOAD);
	assert_int_equal(gd_frame_decode_header(b, sizeof(b), &hdr), 0);
	assert_int_equal(hdr.len, 1048576);

	put_hdr(b, GD_OOB_VERSION, GD_FRAME_HELLO, 2);
	assert_int_equal(gd_frame_decode_header(b, 11, &hdr), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "11 of 12"));
}

static int decode_str(const char *s, size_t len)
{
	struct json_object *obj = (struct json_object *)0x1;
	int rc;

	gd_err_clear();
	rc = gd_frame_decode_payload((const uint8_t *)s, len, &obj);
	if (rc)
		assert_null(obj);
	else
		json_object_put(obj);
	return rc;
}

static void test_payload_malformed(void **state)
{
	(void)state;
	assert_int_equal(decode_str("{\"a\":1}", 7), 0);
	assert_int_equal(decode_str("{\"a\":1", 6), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "truncated"));
	assert_int_equal(decode_str("{\"a\":1}", 5), -EPROTO);
	assert_int_equal(decode_str("", 0), -EPROTO);
	assert_int_equal(decode_str("[1,2]", 5), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "not an object"));
	assert_int_equal(decode_str("\"s\"", 3), -EPROTO);
	assert_int_equal(decode_str("{}x", 3), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "1 trailing"));
	assert_int_equal(decode_str("{}{}", 4), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "2 trailing"));
	/* Whitespace around the value is part of the JSON text, not trailing.
	 */
	assert_int_equal(decode_str(" {} \n", 5), 0);
	assert_int_equal(decode_str("{\"a\":\"x\0y\"}", 11), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "NUL byte at offset 7"));
	/* json-c strict mode: quoted names, no leading zeros, lower-case
	 * literals, no trailing comma. */
	assert_int_equal(decode_str("{a:1}", 5), -EPROTO);
	assert_int_equal(decode_str("{\"a\":01}", 8), -EPROTO);
	assert_int_equal(decode_str("{\"a\":TRUE}", 10), -EPROTO);
	assert_int_equal(decode_str("{\"a\":1,}", 8), -EPROTO);
	assert_int_equal(decode_str("{}", GD_FRAME_MAX_PAYLOAD + 1), -EMSGSIZE);
}

struct pair {
	struct gd_oob a, b;
};

static int pair_setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));
	int sv[2];

	gd_err_clear();
	if (!p || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	/* Waits that must succeed get room on a busy machine; a test of the
	 * silence limit sets its own. */
	gd_oob_init(&p->a, 10000);
	gd_oob_init(&p->b, 10000);
	gd_oob_attach(&p->a, sv[0], "peer-b:1");
	gd_oob_attach(&p->b, sv[1], "peer-a:2");
	*state = p;
	return 0;
}

static int pair_teardown(void **state)
{
	struct pair *p = *state;

	gd_oob_close(&p->a);
	gd_oob_close(&p->b);
	free(p);
	return 0;
}

static void test_pair_exchange(void **state)
{
	struct pair *p = *state;
	struct json_object *in = json_object_new_object(), *out, *v;

	json_object_object_add(in, "tool",
			       json_object_new_string("gd_write_bw"));
	json_object_object_add(in, "size_B", json_object_new_int64(65536));
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_TEST, in), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	json_object_put(in);

	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_TEST, &out), 0);
	assert_true(json_object_object_get_ex(out, "tool", &v));
	assert_string_equal(json_object_get_string(v), "gd_write_bw");
	assert_true(json_object_object_get_ex(out, "size_B", &v));
	assert_int_equal(json_object_get_int64(v), 65536);
	json_object_put(out);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), 0);
	assert_int_equal(json_object_object_length(out), 0);
	json_object_put(out);
	assert_false(gd_err_is_set());
}

static void test_pair_error_frame(void **state)
{
	struct pair *p = *state;
	struct json_object *out;

	gd_oob_send_error(&p->a, -12, "cannot register 64 MiB on GPU 0");
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_ACCEPT, &out),
			 -ECONNABORTED);
	assert_null(out);
	assert_int_equal(gd_err_code(), -ECONNABORTED);
	assert_string_equal(
		gd_err_msg(),
		"peer peer-a:2 failed (code -12): cannot register 64 MiB on GPU 0");
}

/* A measured loop's look at the side channel: heartbeats are read, a
 * SYNC frame stays for its reader, and the peer's ERROR frame ends the
 * loop with the peer's message (a server stopped at --max-time). */
static void test_pair_heard_within(void **state)
{
	struct pair *p = *state;
	struct json_object *out = NULL;
	bool heard = false;

	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_BEAT, NULL), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	poll(NULL, 0, 20);
	assert_int_equal(gd_oob_heard_within(&p->b, 1000, &heard), 0);
	assert_true(heard);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), 0);
	json_object_put(out);

	gd_oob_send_error(&p->a, -62, "the run reached this server's limit");
	poll(NULL, 0, 20);
	assert_int_equal(gd_oob_heard_within(&p->b, 1000, &heard),
			 -ECONNABORTED);
	assert_string_equal(
		gd_err_msg(),
		"peer peer-a:2 failed (code -62): the run reached this server's limit");
}

static void test_pair_reject_frame(void **state)
{
	struct pair *p = *state;
	struct json_object *rej = json_object_new_object(), *out;

	json_object_object_add(rej, "field", json_object_new_string("size"));
	json_object_object_add(rej, "local", json_object_new_string("4096"));
	json_object_object_add(rej, "peer", json_object_new_string("65536"));
	json_object_object_add(rej, "message",
			       json_object_new_string("use the same --size"));
	assert_int_equal(gd_oob_send(&p->b, GD_FRAME_REJECT, rej), 0);
	json_object_put(rej);
	assert_int_equal(gd_oob_recv(&p->a, GD_FRAME_ACCEPT, &out), -EINVAL);
	assert_string_equal(gd_err_msg(),
			    "peer peer-b:1 rejected the test: field 'size': "
			    "ours=65536 theirs=4096: use the same --size");
}

/* The peer's strings reach no log raw: control bytes, the backslash and
 * bytes past ASCII as \\xNN, cut to the buffer with "...". */
static void test_escape(void **state)
{
	char out[GD_OOB_ESC_MAX], small[12];

	(void)state;
	assert_string_equal(gd_oob_escape("1.0 ok", out, sizeof(out)),
			    "1.0 ok");
	assert_string_equal(gd_oob_escape("x\r\nERROR: \x1b[2J\\\xc3\xa9", out,
					  sizeof(out)),
			    "x\\x0d\\x0aERROR: \\x1b[2J\\x5c\\xc3\\xa9");
	assert_string_equal(gd_oob_escape(NULL, out, sizeof(out)), "?");
	assert_string_equal(gd_oob_escape("0123456789ab", small, sizeof(small)),
			    "01234567...");
	assert_string_equal(gd_oob_escape("0123456789a", small, sizeof(small)),
			    "0123456789a");
	assert_string_equal(gd_oob_escape("\n\n\n", small, sizeof(small)),
			    "\\x0a\\x0a...");
	assert_string_equal(gd_oob_escape("abc", small, 3), "");
}

/* A REJECT whose fields carry a forged line: one line comes out. */
static void test_pair_reject_escaped(void **state)
{
	struct pair *p = *state;
	struct json_object *rej = json_object_new_object(), *out;

	json_object_object_add(rej, "field", json_object_new_string("s\nize"));
	json_object_object_add(rej, "local", json_object_new_string("1"));
	json_object_object_add(rej, "peer", json_object_new_string("2"));
	json_object_object_add(
		rej, "message",
		json_object_new_string("no\r\ngd_write_bw: all fine\x1b[0m"));
	assert_int_equal(gd_oob_send(&p->b, GD_FRAME_REJECT, rej), 0);
	json_object_put(rej);
	assert_int_equal(gd_oob_recv(&p->a, GD_FRAME_ACCEPT, &out), -EINVAL);
	assert_string_equal(
		gd_err_msg(),
		"peer peer-b:1 rejected the test: field 's\\x0aize': "
		"ours=2 theirs=1: no\\x0d\\x0agd_write_bw: all "
		"fine\\x1b[0m");
}

/* One whole frame as it travelled, read raw from @fd into @buf; its
 * length. */
static size_t raw_frame(int fd, uint8_t *buf, size_t cap)
{
	struct gd_frame_hdr hdr;
	size_t got = 0, want = GD_FRAME_HDR_LEN;

	while (got < want) {
		ssize_t n = read(fd, buf + got, want - got);

		assert_true(n > 0);
		got += (size_t)n;
		if (want == GD_FRAME_HDR_LEN && got == want) {
			assert_int_equal(gd_frame_decode_header(buf, got, &hdr),
					 0);
			want += hdr.len;
			assert_true(want <= cap);
		}
	}
	return got;
}

/* Once both ends MAC their frames: the frames go through; one replayed,
 * reordered or changed on the way is refused with one line. */
static void test_pair_mac(void **state)
{
	struct pair *p = *state;
	static const uint8_t key[32] = { 1, 2, 3 };
	uint8_t f0[256], f1[256];
	size_t n0, n1;
	struct json_object *in = json_object_new_object(), *out = NULL;

	gd_oob_mac_start(&p->a, key, false);
	gd_oob_mac_start(&p->b, key, true);
	/* through: the MAC is checked and taken off */
	json_object_object_add(in, "phase", json_object_new_string("HH"));
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, in), 0);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), 0);
	assert_string_equal(json_object_to_json_string(out),
			    json_object_to_json_string(in));
	json_object_put(out);
	/* frames 1 and 2 taken off the wire, then sent 2, 1: reordered */
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, in), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	n0 = raw_frame(p->b.fd, f0, sizeof(f0));
	n1 = raw_frame(p->b.fd, f1, sizeof(f1));
	assert_int_equal(n0, GD_FRAME_HDR_LEN + 14 + GD_FRAME_MAC_BYTES);
	assert_int_equal(write(p->a.fd, f1, n1), (ssize_t)n1);
	gd_err_clear();
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), -EBADMSG);
	assert_non_null(strstr(gd_err_msg(), "frame 1 from peer peer-a:2 "
					     "failed its --auth-key MAC"));
	json_object_put(in);
}

static void test_pair_mac_replay(void **state)
{
	struct pair *p = *state;
	static const uint8_t key[32] = { 9 };
	uint8_t f[256];
	size_t n;

	gd_oob_mac_start(&p->a, key, false);
	gd_oob_mac_start(&p->b, key, true);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	n = raw_frame(p->b.fd, f, sizeof(f));
	/* the frame, then the same again: the second is a replay */
	assert_int_equal(write(p->a.fd, f, n), (ssize_t)n);
	assert_int_equal(write(p->a.fd, f, n), (ssize_t)n);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL), 0);
	gd_err_clear();
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL), -EBADMSG);
	assert_non_null(strstr(gd_err_msg(), "frame 1 from peer"));
}

/* A frame changed on the way: one bit of its MAC flipped. */
static void test_pair_mac_changed(void **state)
{
	struct pair *p = *state;
	static const uint8_t key[32] = { 7 };
	uint8_t f[256];
	size_t n;

	gd_oob_mac_start(&p->a, key, false);
	gd_oob_mac_start(&p->b, key, true);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	n = raw_frame(p->b.fd, f, sizeof(f));
	f[n - 1] ^= 1;
	assert_int_equal(write(p->a.fd, f, n), (ssize_t)n);
	gd_err_clear();
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL), -EBADMSG);
	assert_non_null(strstr(gd_err_msg(), "frame 0 from peer"));
}

/* A frame reflected back to its sender (a relay's trick: SYNC and BEAT
 * go both ways): sealed as the client's, it fails as the server's, though
 * key and sequence number match. */
static void test_pair_mac_reflected(void **state)
{
	struct pair *p = *state;
	static const uint8_t key[32] = { 5 };
	uint8_t f[256];
	size_t n;

	gd_oob_mac_start(&p->a, key, false);
	gd_oob_mac_start(&p->b, key, true);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	n = raw_frame(p->b.fd, f, sizeof(f));
	assert_int_equal(write(p->b.fd, f, n), (ssize_t)n);
	gd_err_clear();
	assert_int_equal(gd_oob_recv(&p->a, GD_FRAME_SYNC, NULL), -EBADMSG);
	assert_non_null(strstr(gd_err_msg(), "frame 0 from peer"));
}

/* A frame whose MAC does not match, built by a key of its own. */
static void test_pair_mac_other_key(void **state)
{
	struct pair *p = *state;
	static const uint8_t ka[32] = { 1 }, kb[32] = { 2 };

	gd_oob_mac_start(&p->a, ka, false);
	gd_oob_mac_start(&p->b, kb, true);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	gd_err_clear();
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL), -EBADMSG);
}

static void test_pair_wrong_type(void **state)
{
	struct pair *p = *state;
	struct json_object *out;

	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_RESULT, NULL), 0);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_QP_INFO, &out), -EPROTO);
	assert_non_null(strstr(
		gd_err_msg(),
		"peer peer-a:2 sent a RESULT frame where QP_INFO was expected"));
	assert_non_null(strstr(gd_err_msg(), "same gdperf version"));
}

static void test_pair_peer_closed(void **state)
{
	struct pair *p = *state;
	struct json_object *out;

	gd_oob_close(&p->a);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_HELLO, &out), -ECONNRESET);
	assert_non_null(strstr(gd_err_msg(), "peer peer-a:2 closed"));
	gd_err_clear();
	assert_int_equal(gd_oob_send(&p->b, GD_FRAME_HELLO, NULL), -ECONNRESET);
}

/* Half a frame then close: a truncated frame is a close, not a hang. */
static void test_pair_truncated_then_closed(void **state)
{
	struct pair *p = *state;
	struct json_object *out;
	uint8_t b[GD_FRAME_HDR_LEN + 3];

	put_hdr(b, GD_OOB_VERSION, GD_FRAME_HELLO, 10);
	memcpy(b + GD_FRAME_HDR_LEN, "{\"a", 3);
	assert_int_equal(write(p->a.fd, b, sizeof(b)), (ssize_t)sizeof(b));
	gd_oob_close(&p->a);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_HELLO, &out), -ECONNRESET);
}

static void test_pair_garbage_names_peer(void **state)
{
	struct pair *p = *state;
	struct json_object *out;
	uint8_t b[GD_FRAME_HDR_LEN];

	put_hdr(b, 7, GD_FRAME_HELLO, 2);
	assert_int_equal(write(p->a.fd, b, sizeof(b)), (ssize_t)sizeof(b));
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_HELLO, &out),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(gd_err_msg(), "bad frame from peer peer-a:2"));
	assert_non_null(strstr(gd_err_msg(), "version 7"));
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The length a peer announces is checked before anything is allocated or
 * read: over the limit (by one byte, or 4 GiB) the frame is refused at
 * once, with the peer and the limit named, not after waiting for a payload
 * that would never fit (which would end in -ETIMEDOUT at the silence
 * limit: the return code tells the two apart, no clock is read).
 */
static void test_pair_oversize_length_refused(void **state)
{
	static const uint32_t lens[] = { GD_FRAME_MAX_PAYLOAD + 1,
					 0xffffffffu };
	struct pair *p = *state;
	struct json_object *out;
	uint8_t b[GD_FRAME_HDR_LEN];
	char limit[32];

	snprintf(limit, sizeof(limit), "%u byte limit", GD_FRAME_MAX_PAYLOAD);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		gd_err_clear();
		put_hdr(b, GD_OOB_VERSION, GD_FRAME_RESULT, lens[i]);
		assert_int_equal(write(p->a.fd, b, sizeof(b)),
				 (ssize_t)sizeof(b));
		assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_RESULT, &out),
				 -EMSGSIZE);
		assert_null(out);
		assert_non_null(strstr(gd_err_msg(), "peer-a:2"));
		assert_non_null(strstr(gd_err_msg(), limit));
	}
}

/* The largest length allowed, then the peer goes away: a close, no hang. */
static void test_pair_max_length_then_closed(void **state)
{
	struct pair *p = *state;
	struct json_object *out;
	uint8_t b[GD_FRAME_HDR_LEN + 2];

	put_hdr(b, GD_OOB_VERSION, GD_FRAME_RESULT, GD_FRAME_MAX_PAYLOAD);
	memcpy(b + GD_FRAME_HDR_LEN, "{}", 2);
	assert_int_equal(write(p->a.fd, b, sizeof(b)), (ssize_t)sizeof(b));
	gd_oob_close(&p->a);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_RESULT, &out),
			 -ECONNRESET);
	assert_null(out);
}

static void test_pair_silent_peer_times_out(void **state)
{
	struct pair *p = *state;
	struct json_object *out;
	int64_t t0, elapsed_ms;

	p->b.timeout_ms = 200;
	t0 = mono_ms();
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), -ETIMEDOUT);
	elapsed_ms = mono_ms() - t0;
	assert_true(elapsed_ms >= 190);
	assert_non_null(
		strstr(gd_err_msg(),
		       "no SYNC frame from peer peer-a:2 within 200 ms"));
	assert_non_null(strstr(gd_err_msg(), "--timeout"));
}

/* The caller of side a is busy for 2.5 s (two and a half silence limits
 * of b), then sends: a's heartbeat thread must carry b through the wait.
 * Beats go out every 250 ms, so only a beat thread kept off the CPU for
 * 750 ms could fail this, far beyond any scheduling delay on a busy
 * machine. */
static void *send_sync_late(void *arg)
{
	struct gd_oob *a = arg;

	poll(NULL, 0, 2500);
	gd_oob_send(a, GD_FRAME_SYNC, NULL);
	return NULL;
}

static void test_pair_beats_carry_a_busy_peer(void **state)
{
	struct pair *p = *state;
	struct json_object *out = NULL;
	pthread_t tid;
	int64_t t0, elapsed_ms;

	p->a.timeout_ms = 1000;
	p->b.timeout_ms = 1000;
	assert_int_equal(gd_oob_beat_start(&p->a), 0);
	t0 = mono_ms();
	assert_int_equal(pthread_create(&tid, NULL, send_sync_late, &p->a), 0);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), 0);
	elapsed_ms = mono_ms() - t0;
	pthread_join(tid, NULL);
	assert_true(elapsed_ms >= 2490);
	json_object_put(out);
}

/* A caller that has shown no life for longer than the stall limit gets
 * no beats sent for it: the peer times out as if nothing ran. */
static void test_pair_beats_stop_for_a_stuck_caller(void **state)
{
	struct pair *p = *state;
	struct json_object *out;
	int64_t t0, elapsed_ms;

	p->a.timeout_ms = 200;
	p->b.timeout_ms = 200;
	assert_int_equal(gd_oob_beat_start(&p->a), 0);
	atomic_store(&p->a.alive_ms, mono_ms() - GD_OOB_STALL_MS - 1000);
	t0 = mono_ms();
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), -ETIMEDOUT);
	elapsed_ms = mono_ms() - t0;
	assert_true(elapsed_ms >= 190);
}

/* try_recv drops heartbeats without blocking and hands over the frame. */
static void test_pair_try_recv_skips_beats(void **state)
{
	struct pair *p = *state;
	struct json_object *out = NULL;

	assert_int_equal(gd_oob_try_recv(&p->b, GD_FRAME_SYNC, &out), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_BEAT, NULL), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_BEAT, NULL), 0);
	assert_int_equal(gd_oob_try_recv(&p->b, GD_FRAME_SYNC, &out), 0);
	assert_null(out);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_BEAT, NULL), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_SYNC, NULL), 0);
	assert_int_equal(gd_oob_try_recv(&p->b, GD_FRAME_SYNC, &out), 1);
	assert_non_null(out);
	json_object_put(out);
	/* a heartbeat between frames of the handshake is dropped too */
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_BEAT, NULL), 0);
	assert_int_equal(gd_oob_send(&p->a, GD_FRAME_HELLO, NULL), 0);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_HELLO, NULL), 0);
}

static uint16_t reserve_unlistened_port(int *fd)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(*fd >= 0);
	/* Bound but not listening: the port stays ours and connects get RST. */
	assert_int_equal(bind(*fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(getsockname(*fd, (struct sockaddr *)&sin, &len), 0);
	return ntohs(sin.sin_port);
}

static void test_connect_refused(void **state)
{
	struct gd_oob oob;
	char want[64];
	int64_t t0, elapsed_ms;
	uint16_t port;
	int fd, rc;

	(void)state;
	port = reserve_unlistened_port(&fd);
	gd_oob_init(&oob, 300);
	t0 = mono_ms();
	rc = gd_oob_connect(&oob, "127.0.0.1", port);
	elapsed_ms = mono_ms() - t0;
	close(fd);
	assert_true(rc == -ECONNREFUSED || rc == -ETIMEDOUT);
	assert_int_equal(oob.fd, -1);
	/* It retried for the whole timeout instead of giving up at once. */
	assert_true(elapsed_ms >= 290);
	snprintf(want, sizeof(want), "127.0.0.1:%u", port);
	assert_non_null(strstr(gd_err_msg(), want));
	assert_non_null(strstr(gd_err_msg(), "server is started"));
	assert_non_null(strstr(gd_err_msg(), "firewall"));
	assert_non_null(strstr(gd_err_msg(), "port"));
}

static void test_accept_times_out(void **state)
{
	struct gd_oob oob;
	int lfd;

	(void)state;
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	gd_oob_init(&oob, 100);
	assert_int_equal(gd_oob_accept_fd(&oob, lfd), -ETIMEDOUT);
	assert_non_null(
		strstr(gd_err_msg(), "no client connected within 100 ms"));
	close(lfd);
}

static uint16_t local_port(int fd)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);

	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	return ntohs(sin.sin_port);
}

/* Can a TCP client reach @addr:@port? (Connect only; nothing is sent.) */
static bool reachable(const char *addr, uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok;

	assert_true(fd >= 0);
	assert_int_equal(inet_pton(AF_INET, addr, &sin.sin_addr), 1);
	ok = !connect(fd, (struct sockaddr *)&sin, sizeof(sin));
	close(fd);
	return ok;
}

/*
 * --bind: a server given an address listens on it alone. 127.0.0.2 is
 * this host too (all of 127/8 is local on Linux), so it shows the limit
 * without a second interface; without an address both are reachable.
 */
static void test_listen_bind_limits_address(void **state)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	uint16_t port;
	int lfd;

	(void)state;
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&sin, &len), 0);
	assert_int_equal(ntohl(sin.sin_addr.s_addr), INADDR_LOOPBACK);
	port = ntohs(sin.sin_port);
	assert_true(reachable("127.0.0.1", port));
	assert_false(reachable("127.0.0.2", port));
	close(lfd);

	assert_int_equal(gd_oob_listen(NULL, 0, &lfd), 0);
	port = local_port(lfd);
	assert_true(reachable("127.0.0.1", port));
	assert_true(reachable("127.0.0.2", port));
	close(lfd);
}

/* --bind_source_ip on a client: the server sees it connect from there; an
 * address this host does not have is an error that says so. */
static void test_connect_from_bind_host(void **state)
{
	struct gd_oob c, s;
	uint16_t port;
	int lfd;

	(void)state;
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	port = local_port(lfd);
	gd_oob_init(&c, 2000);
	c.bind_host = "127.0.0.2";
	/* The listen backlog completes the connect before any accept. */
	assert_int_equal(gd_oob_connect(&c, "127.0.0.1", port), 0);
	gd_oob_init(&s, 2000);
	assert_int_equal(gd_oob_accept_fd(&s, lfd), 0);
	assert_non_null(strstr(s.peer_name, "127.0.0.2:"));
	gd_oob_close(&c);
	gd_oob_close(&s);

	gd_oob_init(&c, 200);
	c.bind_host = "192.0.2.1"; /* TEST-NET-1: never this host's */
	assert_true(gd_oob_connect(&c, "127.0.0.1", port) < 0);
	assert_non_null(
		strstr(gd_err_msg(), "Cannot assign requested address"));
	close(lfd);
}

/* Child process: connect, say HELLO, expect ACCEPT with "ok":true. */
static int tcp_client(uint16_t port)
{
	struct json_object *out, *v;
	struct gd_oob c;
	int ok;

	gd_oob_init(&c, 2000);
	if (gd_oob_connect(&c, "127.0.0.1", port) ||
	    gd_oob_send(&c, GD_FRAME_HELLO, NULL) ||
	    gd_oob_recv(&c, GD_FRAME_ACCEPT, &out))
		return 1;
	ok = json_object_object_get_ex(out, "ok", &v) &&
	     json_object_get_boolean(v);
	json_object_put(out);
	gd_oob_close(&c);
	return ok ? 0 : 2;
}

static void test_tcp_loopback(void **state)
{
	struct json_object *out, *acc;
	struct gd_oob s;
	int lfd, status;
	uint16_t port;
	pid_t pid;

	(void)state;
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	port = local_port(lfd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(lfd);
		_exit(tcp_client(port));
	}
	gd_oob_init(&s, 2000);
	assert_int_equal(gd_oob_accept_fd(&s, lfd), 0);
	close(lfd);
	assert_non_null(strstr(s.peer_name, "127.0.0.1:"));
	assert_int_equal(gd_oob_recv(&s, GD_FRAME_HELLO, &out), 0);
	json_object_put(out);
	acc = json_object_new_object();
	json_object_object_add(acc, "ok", json_object_new_boolean(1));
	assert_int_equal(gd_oob_send(&s, GD_FRAME_ACCEPT, acc), 0);
	json_object_put(acc);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	gd_oob_close(&s);
}

/* The same bounds on the non-blocking path the receiving loops use. */
static void test_pair_try_recv_oversize_refused(void **state)
{
	struct pair *p = *state;
	struct json_object *out = NULL;
	uint8_t b[GD_FRAME_HDR_LEN];

	put_hdr(b, GD_OOB_VERSION, GD_FRAME_SYNC, GD_FRAME_MAX_PAYLOAD + 1);
	assert_int_equal(write(p->a.fd, b, sizeof(b)), (ssize_t)sizeof(b));
	assert_int_equal(gd_oob_try_recv(&p->b, GD_FRAME_SYNC, &out),
			 -EMSGSIZE);
	assert_null(out);
	assert_non_null(strstr(gd_err_msg(), "peer-a:2"));
}

/* SIGINT/SIGTERM: the handler of util/stop.h, then the signal itself. */
static void stop_now(int sig)
{
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(raise(sig), 0);
	assert_int_equal(gd_stop_signal(), sig);
}

static int stop_teardown(void **state)
{
	gd_stop_reset();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return pair_teardown(state);
}

static void test_stop_words(void **state)
{
	(void)state;
	assert_string_equal(gd_stop_signal_name(SIGINT), "SIGINT");
	assert_string_equal(gd_stop_signal_name(SIGTERM), "SIGTERM");
	assert_string_equal(gd_stop_signal_name(SIGHUP), "signal 1");
	assert_int_equal(gd_stop_exit_status(SIGINT), 130);
	assert_int_equal(gd_stop_exit_status(SIGTERM), 143);
	assert_true(gd_stop_is_exit_status(130));
	assert_true(gd_stop_is_exit_status(143));
	assert_false(gd_stop_is_exit_status(1));
	assert_int_equal(gd_stop_signal(), 0);
	gd_stop_during("phase %s size %d round %d", "DD", 65536, 2);
	assert_string_equal(gd_stop_during_text(),
			    "phase DD size 65536 round 2");
}

/* Once asked to stop, a wait for the peer ends at once, whatever the
 * silence limit, and says why (-EINTR: a wait that missed the stop would
 * end in -ETIMEDOUT after 10 s); a send still goes out. */
static void test_stop_ends_a_wait(void **state)
{
	struct pair *p = *state;
	struct json_object *out = NULL;

	p->b.timeout_ms = 10000;
	stop_now(SIGTERM);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, &out), -EINTR);
	assert_null(out);
	assert_non_null(strstr(gd_err_msg(), "interrupted by SIGTERM while "
					     "waiting for a SYNC frame from "
					     "peer peer-a:2"));
	gd_err_clear();
	assert_int_equal(gd_oob_try_recv(&p->b, GD_FRAME_SYNC, &out), -EINTR);
	assert_non_null(strstr(gd_err_msg(), "interrupted by SIGTERM"));
	assert_int_equal(gd_oob_send(&p->b, GD_FRAME_SYNC, NULL), 0);
	gd_stop_reset();
	assert_int_equal(gd_oob_recv(&p->a, GD_FRAME_SYNC, NULL), 0);
}

/* The signal may land on any thread (the heartbeats run in one): a wait
 * in this thread still sees it, in its next slice of GD_OOB_STOP_POLL_MS
 * (-EINTR; without the slices it would wait out the 10 s limit). */
static void *signal_later(void *arg)
{
	poll(NULL, 0, 150);
	kill(getpid(), *(int *)arg);
	return NULL;
}

static void test_stop_from_another_thread(void **state)
{
	struct pair *p = *state;
	int sig = SIGINT;
	pthread_t tid;
	int64_t t0, elapsed_ms;

	p->b.timeout_ms = 10000;
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(gd_oob_beat_start(&p->a), 0);
	t0 = mono_ms();
	assert_int_equal(pthread_create(&tid, NULL, signal_later, &sig), 0);
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL), -EINTR);
	elapsed_ms = mono_ms() - t0;
	pthread_join(tid, NULL);
	assert_true(elapsed_ms >= 140);
	assert_non_null(strstr(gd_err_msg(), "interrupted by SIGINT"));
}

/* The interrupted side tells the peer, which ends with -EINTR at once and
 * knows the signal and the step, on either kind of receive. */
static void test_stop_told_to_the_peer(void **state)
{
	struct pair *p = *state;
	struct json_object *out = NULL;

	gd_oob_send_interrupted(&p->a, "SIGTERM",
				"phase DD size 65536 round 2");
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_RESULT, &out), -EINTR);
	assert_null(out);
	assert_string_equal(p->b.peer_stop_signal, "SIGTERM");
	assert_string_equal(p->b.peer_stop_during,
			    "phase DD size 65536 round 2");
	assert_non_null(strstr(gd_err_msg(),
			       "peer peer-a:2 was interrupted by SIGTERM "
			       "during phase DD size 65536 round 2"));

	gd_err_clear();
	memset(p->a.peer_stop_signal, 0, sizeof(p->a.peer_stop_signal));
	gd_oob_send_interrupted(&p->b, "SIGINT", "waiting for a client");
	poll(NULL, 0, 20);
	assert_int_equal(gd_oob_try_recv(&p->a, GD_FRAME_SYNC, &out), -EINTR);
	assert_string_equal(p->a.peer_stop_signal, "SIGINT");
}

/* An "interrupted" member of the wrong shape is an ordinary failure of the
 * peer; strings of the wrong type are replaced, never trusted. */
static void test_stop_malformed_word(void **state)
{
	static const char *const bad[] = {
		"{\"code\":-4,\"message\":\"m\",\"interrupted\":\"SIGTERM\"}",
		"{\"code\":-4,\"message\":\"m\",\"interrupted\":[1]}",
	};
	struct pair *p = *state;
	uint8_t b[GD_FRAME_HDR_LEN + 128];
	const char *odd = "{\"interrupted\":{\"signal\":15,\"during\":{}}}";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t n = strlen(bad[i]);

		gd_err_clear();
		put_hdr(b, GD_OOB_VERSION, GD_FRAME_ERROR, (uint32_t)n);
		memcpy(b + GD_FRAME_HDR_LEN, bad[i], n);
		assert_int_equal(write(p->a.fd, b, GD_FRAME_HDR_LEN + n),
				 (ssize_t)(GD_FRAME_HDR_LEN + n));
		assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL),
				 -ECONNABORTED);
		assert_string_equal(p->b.peer_stop_signal, "");
	}
	gd_err_clear();
	put_hdr(b, GD_OOB_VERSION, GD_FRAME_ERROR, (uint32_t)strlen(odd));
	memcpy(b + GD_FRAME_HDR_LEN, odd, strlen(odd));
	assert_int_equal(write(p->a.fd, b, GD_FRAME_HDR_LEN + strlen(odd)),
			 (ssize_t)(GD_FRAME_HDR_LEN + strlen(odd)));
	assert_int_equal(gd_oob_recv(&p->b, GD_FRAME_SYNC, NULL), -EINTR);
	assert_string_equal(p->b.peer_stop_signal, "a signal");
	assert_string_equal(p->b.peer_stop_during, "its run");
}

/* A server waiting for its client and a client retrying its connect
 * both end on the signal (-EINTR, where the limits would give
 * -ETIMEDOUT after 60 and 10 s). */
static void test_stop_ends_accept_and_connect(void **state)
{
	struct gd_oob oob;
	int sig = SIGTERM, lfd, fd;
	pthread_t tid;
	uint16_t port;

	(void)state;
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	gd_oob_init(&oob, 60000);
	assert_int_equal(pthread_create(&tid, NULL, signal_later, &sig), 0);
	assert_int_equal(gd_oob_accept_fd(&oob, lfd), -EINTR);
	pthread_join(tid, NULL);
	assert_non_null(strstr(gd_err_msg(), "interrupted by SIGTERM while "
					     "waiting for a client"));
	close(lfd);

	gd_err_clear();
	port = reserve_unlistened_port(&fd);
	gd_oob_init(&oob, 10000);
	assert_int_equal(gd_oob_connect(&oob, "127.0.0.1", port), -EINTR);
	assert_non_null(strstr(gd_err_msg(), "while connecting to 127.0.0.1"));
	close(fd);
	gd_stop_reset();
	signal(SIGTERM, SIG_DFL);
}

/* --persist's wait between clients: returns when a connection is pending
 * (accepting nothing), and -EINTR, with nothing recorded, on a signal. */
static void test_wait_client(void **state)
{
	struct gd_oob oob;
	int sig = SIGINT, lfd, cfd;
	pthread_t tid;
	struct sockaddr_in sin = { .sin_family = AF_INET };

	(void)state;
	assert_int_equal(gd_stop_install(), 0);
	assert_int_equal(gd_oob_listen("127.0.0.1", 0, &lfd), 0);
	sin.sin_port = htons(local_port(lfd));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_int_equal(connect(cfd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(gd_oob_wait_client(lfd), 0);
	/* still pending: the run that follows accepts it */
	gd_oob_init(&oob, 1000);
	assert_int_equal(gd_oob_accept_fd(&oob, lfd), 0);
	gd_oob_close(&oob);
	close(cfd);

	assert_int_equal(pthread_create(&tid, NULL, signal_later, &sig), 0);
	assert_int_equal(gd_oob_wait_client(lfd), -EINTR);
	pthread_join(tid, NULL);
	assert_string_equal(gd_err_msg(), "");
	close(lfd);
	gd_stop_reset();
	signal(SIGINT, SIG_DFL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_type_names, reset),
		cmocka_unit_test_setup(test_round_trip_all_types, reset),
		cmocka_unit_test_setup(test_encode_null_is_empty_object, reset),
		cmocka_unit_test_setup(test_encode_rejects_bad_input, reset),
		cmocka_unit_test_setup(test_header_malformed, reset),
		cmocka_unit_test_setup(test_payload_malformed, reset),
		cmocka_unit_test_setup_teardown(test_pair_exchange, pair_setup,
						pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_error_frame,
						pair_setup, pair_teardown),
		cmocka_unit_test(test_escape),
		cmocka_unit_test_setup_teardown(test_pair_mac, pair_setup,
						pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_mac_replay,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_mac_reflected,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_mac_other_key,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_mac_changed,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_reject_escaped,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_reject_frame,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_heard_within,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_wrong_type,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_peer_closed,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_truncated_then_closed,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(
			test_pair_oversize_length_refused, pair_setup,
			pair_teardown),
		cmocka_unit_test_setup_teardown(
			test_pair_max_length_then_closed, pair_setup,
			pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_garbage_names_peer,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_silent_peer_times_out,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(
			test_pair_beats_carry_a_busy_peer, pair_setup,
			pair_teardown),
		cmocka_unit_test_setup_teardown(
			test_pair_beats_stop_for_a_stuck_caller, pair_setup,
			pair_teardown),
		cmocka_unit_test_setup_teardown(test_pair_try_recv_skips_beats,
						pair_setup, pair_teardown),
		cmocka_unit_test_setup(test_connect_refused, reset),
		cmocka_unit_test_setup(test_accept_times_out, reset),
		cmocka_unit_test_setup(test_tcp_loopback, reset),
		cmocka_unit_test_setup(test_listen_bind_limits_address, reset),
		cmocka_unit_test_setup(test_connect_from_bind_host, reset),
		cmocka_unit_test_setup_teardown(
			test_pair_try_recv_oversize_refused, pair_setup,
			pair_teardown),
		cmocka_unit_test_setup(test_stop_words, reset),
		cmocka_unit_test_setup_teardown(test_stop_ends_a_wait,
						pair_setup, stop_teardown),
		cmocka_unit_test_setup_teardown(test_stop_from_another_thread,
						pair_setup, stop_teardown),
		cmocka_unit_test_setup_teardown(test_stop_told_to_the_peer,
						pair_setup, stop_teardown),
		cmocka_unit_test_setup_teardown(test_stop_malformed_word,
						pair_setup, stop_teardown),
		cmocka_unit_test_setup(test_stop_ends_accept_and_connect,
				       reset),
		cmocka_unit_test_setup(test_wait_client, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
