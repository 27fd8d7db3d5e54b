/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Whole frames on the side channel: send and receive bounded by the silence
 * limit, heartbeats dropped on receipt, the peer's ERROR and REJECT frames
 * turned into errors that name it. The deadlines' clock lives here too.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <json-c/json.h>
#include <sodium.h>

#include "transport/oob.h"
#include "transport/oob_priv.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/stop.h"

/* An ERROR frame is a courtesy on the way out; never stall exit on it. */
#define GD_OOB_ERROR_SEND_MS 1000

int64_t gd_oob_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gd_oob_ms_left(int64_t deadline_ms)
{
	int64_t left = deadline_ms - gd_oob_now_ms();

	return left > 0 ? (int)left : 0;
}

/*
 * 0 when @fd is ready for @events, -ETIMEDOUT at the deadline, or -errno.
 * A wait for input ends with -EINTR once a stop was asked for: in slices,
 * because the signal may have gone to another thread (the heartbeats), and
 * this thread's poll() would then never see EINTR.
 */
int gd_oob_wait_fd(int fd, short events, int64_t deadline_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	bool stoppable = events & POLLIN;
	int rc, ms;

	for (;;) {
		if (stoppable && gd_stop_signal())
			return -EINTR;
		ms = gd_oob_ms_left(deadline_ms);
		if (stoppable && ms > GD_OOB_STOP_POLL_MS)
			ms = GD_OOB_STOP_POLL_MS;
		rc = poll(&pfd, 1, ms);
		if (rc > 0)
			return 0;
		if (rc == 0 && !gd_oob_ms_left(deadline_ms))
			return -ETIMEDOUT;
		if (rc < 0 && errno != EINTR)
			return -errno;
	}
}

static int gd_oob_write_all(struct gd_oob *oob, const uint8_t *buf, size_t len,
			    int64_t deadline_ms, int type)
{
	ssize_t n;
	int rc;

	while (len) {
		rc = gd_oob_wait_fd(oob->fd, POLLOUT, deadline_ms);
		if (rc == -ETIMEDOUT)
			return gd_err(
				rc,
				"side channel: peer %s did not take the %s frame "
				"within %d ms; check the peer is still running and "
				"not stuck, or raise --timeout",
				oob->peer_name, gd_frame_type_name(type),
				oob->timeout_ms);
		if (rc)
			return gd_err(rc,
				      "side channel: waiting to send to peer "
				      "%s failed: %s",
				      oob->peer_name, strerror(-rc));
		/* MSG_NOSIGNAL: a peer that died must give EPIPE, not kill us.
		 */
		n = send(oob->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == EWOULDBLOCK)
				continue;
			if (errno == EPIPE || errno == ECONNRESET)
				return gd_err(
					-ECONNRESET,
					"side channel: peer %s closed the "
					"connection while we sent a %s frame; "
					"check the peer's own output for its error",
					oob->peer_name,
					gd_frame_type_name(type));
			return gd_err(
				-errno,
				"side channel: sending a %s frame to peer %s "
				"failed: %s; check the network path to the peer",
				gd_frame_type_name(type), oob->peer_name,
				strerror(errno));
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The connection's own deadline (gd_oob_set_deadline) passed: no frame,
 * partial or whole, heartbeat or not, keeps the wait going. */
static int gd_oob_until_passed(struct gd_oob *oob, int expect)
{
	return gd_err(oob->until_code ? oob->until_code : -ETIMEDOUT,
		      "side channel: no %s frame from peer %s within %s, "
		      "which nothing the peer sends extends",
		      gd_frame_type_name(expect), oob->peer_name,
		      oob->until_what ? oob->until_what
				      : "this connection's deadline");
}

/* The earlier of @deadline_ms and the connection's own deadline; *capped
 * says whether the connection's was. */
static int64_t gd_oob_cap(const struct gd_oob *oob, int64_t deadline_ms,
			  bool *capped)
{
	*capped = oob->until_ms && oob->until_ms <= deadline_ms;
	return *capped ? oob->until_ms : deadline_ms;
}

static int gd_oob_read_all(struct gd_oob *oob, uint8_t *buf, size_t len,
			   int64_t deadline_ms, int silence_ms, int expect)
{
	bool capped;
	ssize_t n;
	int rc;

	deadline_ms = gd_oob_cap(oob, deadline_ms, &capped);
	while (len) {
		/* a peer dribbling bytes must not outlast the deadline */
		if (capped && !gd_oob_ms_left(deadline_ms))
			return gd_oob_until_passed(oob, expect);
		rc = gd_oob_wait_fd(oob->fd, POLLIN, deadline_ms);
		if (rc == -ETIMEDOUT && capped)
			return gd_oob_until_passed(oob, expect);
		if (rc == -ETIMEDOUT)
			return gd_err(
				rc,
				"side channel: no %s frame from peer %s within %d "
				"ms; check the peer is still running and not "
				"stuck, or raise --timeout",
				gd_frame_type_name(expect), oob->peer_name,
				silence_ms);
		if (rc == -EINTR)
			return gd_err(
				rc,
				"interrupted by %s while waiting for a %s "
				"frame from peer %s",
				gd_stop_signal_name(gd_stop_signal()),
				gd_frame_type_name(expect), oob->peer_name);
		if (rc)
			return gd_err(rc,
				      "side channel: waiting for data from "
				      "peer %s failed: %s",
				      oob->peer_name, strerror(-rc));
		n = recv(oob->fd, buf, len, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return gd_err(
				-ECONNRESET,
				"side channel: peer %s closed the connection while "
				"we waited for a %s frame; check the peer's own "
				"output for its error and that both ends run the "
				"same gdperf version",
				oob->peer_name, gd_frame_type_name(expect));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == EWOULDBLOCK)
				continue;
			return gd_err(
				-errno,
				"side channel: receiving from peer %s failed: %s; "
				"check the network path to the peer",
				oob->peer_name, strerror(errno));
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

void gd_oob_mac_start(struct gd_oob *oob, const uint8_t *key, bool is_server)
{
	pthread_mutex_lock(&oob->send_lock);
	memcpy(oob->mac_key, key, sizeof(oob->mac_key));
	oob->mac_is_server = is_server;
	oob->send_seq = oob->recv_seq = 0;
	oob->mac_on = true;
	pthread_mutex_unlock(&oob->send_lock);
}

void gd_oob_mac_stop(struct gd_oob *oob)
{
	oob->mac_on = false;
	sodium_memzero(oob->mac_key, sizeof(oob->mac_key));
	oob->send_seq = oob->recv_seq = 0;
}

/* HMAC-SHA-256 under the session key over the sender's role ('S' or
 * 'C'), the sequence number (8 bytes, big-endian), the header and the
 * payload. */
static void gd_oob_frame_mac(const struct gd_oob *oob, bool from_server,
			     uint64_t seq, const uint8_t *hdr,
			     const uint8_t *body, size_t body_len,
			     uint8_t mac[GD_FRAME_MAC_BYTES])
{
	crypto_auth_hmacsha256_state st;
	uint8_t be[9];

	be[0] = from_server ? 'S' : 'C';
	for (int i = 0; i < 8; i++)
		be[1 + i] = (uint8_t)(seq >> (56 - 8 * i));
	crypto_auth_hmacsha256_init(&st, oob->mac_key, sizeof(oob->mac_key));
	crypto_auth_hmacsha256_update(&st, be, sizeof(be));
	crypto_auth_hmacsha256_update(&st, hdr, GD_FRAME_HDR_LEN);
	crypto_auth_hmacsha256_update(&st, body, body_len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

/* An encoded frame with the MAC appended (its length counts it); under
 * send_lock, so the sequence numbers go out in order. */
static int gd_oob_seal(struct gd_oob *oob, uint8_t **frame, size_t *len)
{
	uint8_t *f = realloc(*frame, *len + GD_FRAME_MAC_BYTES);
	uint32_t plen;

	if (!f)
		return gd_err(-ENOMEM, "cannot allocate a side-channel frame");
	*frame = f;
	plen = (uint32_t)(*len - GD_FRAME_HDR_LEN + GD_FRAME_MAC_BYTES);
	f[8] = (uint8_t)(plen >> 24);
	f[9] = (uint8_t)(plen >> 16);
	f[10] = (uint8_t)(plen >> 8);
	f[11] = (uint8_t)plen;
	gd_oob_frame_mac(oob, oob->mac_is_server, oob->send_seq++, f,
			 f + GD_FRAME_HDR_LEN, *len - GD_FRAME_HDR_LEN,
			 f + *len);
	*len += GD_FRAME_MAC_BYTES;
	return 0;
}

/* A received frame's MAC: 0 and the payload's length without it, or
 * -EBADMSG for a changed, replayed, reordered or injected frame. */
static int gd_oob_unseal(struct gd_oob *oob, const uint8_t *hdr,
			 const uint8_t *body, uint32_t *len)
{
	uint8_t want[GD_FRAME_MAC_BYTES];
	bool same;

	if (*len < GD_FRAME_MAC_BYTES)
		same = false;
	else {
		gd_oob_frame_mac(oob, !oob->mac_is_server, oob->recv_seq, hdr,
				 body, *len - GD_FRAME_MAC_BYTES, want);
		same = !sodium_memcmp(want, body + *len - GD_FRAME_MAC_BYTES,
				      GD_FRAME_MAC_BYTES);
	}
	if (!same)
		return gd_err(
			-EBADMSG,
			"side channel: frame %" PRIu64
			" from peer %s failed its --auth-key MAC (changed, replayed, reordered or injected on the way: a relay between the two ends?); closing the connection",
			oob->recv_seq, oob->peer_name);
	oob->recv_seq++;
	*len -= GD_FRAME_MAC_BYTES;
	return 0;
}

static int gd_oob_send_within(struct gd_oob *oob, int type,
			      const struct json_object *payload, int timeout_ms)
{
	bool capped;
	int64_t deadline_ms =
		gd_oob_cap(oob, gd_oob_now_ms() + timeout_ms, &capped);
	uint8_t *frame;
	size_t len;
	int rc;

	rc = gd_frame_encode(type, payload, &frame, &len);
	if (rc)
		return rc;
	pthread_mutex_lock(&oob->send_lock);
	if (oob->mac_on)
		rc = gd_oob_seal(oob, &frame, &len);
	if (!rc)
		rc = gd_oob_write_all(oob, frame, len, deadline_ms, type);
	pthread_mutex_unlock(&oob->send_lock);
	free(frame);
	return rc;
}

int gd_oob_send_frame(struct gd_oob *oob, int type,
		      const struct json_object *payload)
{
	return gd_oob_send_within(oob, type, payload, oob->timeout_ms);
}

int gd_oob_send(struct gd_oob *oob, int type, const struct json_object *payload)
{
	gd_oob_alive(oob);
	return gd_oob_send_frame(oob, type, payload);
}

/*
 * The codec records a message without the peer; give it the peer and the
 * usual cause. Only when the codec's message is the one recorded, so an
 * earlier, unrelated first error is kept.
 */
static int gd_oob_decode_failed(struct gd_oob *oob, int rc, bool had_err)
{
	char why[GD_ERR_MSG_MAX];

	if (had_err)
		return rc;
	snprintf(why, sizeof(why), "%s", gd_err_msg());
	return gd_err_replace(
		rc,
		"side channel: bad frame from peer %s: %s; check both ends run the "
		"same gdperf version and that nothing else answers on that port",
		oob->peer_name, why);
}

/* A field of the peer's REJECT/ERROR frame, escaped into @buf (of
 * GD_OOB_ESC_MAX); "?" when it sent none. */
static const char *gd_peer_field(struct json_object *obj, const char *key,
				 char *buf)
{
	return gd_oob_escape(gd_json_str(obj, key), buf, GD_OOB_ESC_MAX);
}

/* An ERROR frame that says the peer was interrupted: keep its signal and
 * what it was doing (strings only, bounded; anything else is an ordinary
 * failure of the peer). */
static bool gd_oob_peer_interrupted(struct gd_oob *oob, struct json_object *obj)
{
	struct json_object *in = NULL;
	const char *sig, *during;

	if (!json_object_object_get_ex(obj, "interrupted", &in) ||
	    !json_object_is_type(in, json_type_object))
		return false;
	sig = gd_json_str(in, "signal");
	during = gd_json_str(in, "during");
	gd_oob_escape(sig && *sig ? sig : "a signal", oob->peer_stop_signal,
		      sizeof(oob->peer_stop_signal));
	gd_oob_escape(during && *during ? during : "its run",
		      oob->peer_stop_during, sizeof(oob->peer_stop_during));
	return true;
}

static int gd_oob_peer_failed(struct gd_oob *oob, int type,
			      struct json_object *obj, int expect)
{
	char f[4][GD_OOB_ESC_MAX];
	struct json_object *code;
	int rc;

	if (type == GD_FRAME_REJECT) {
		/* The rejecting peer wrote "local" as its own value and "peer"
		 * as the one we sent, so from here ours is "peer". */
		rc = gd_err(-EINVAL,
			    "peer %s rejected the test: field '%s': ours=%s "
			    "theirs=%s: %s",
			    oob->peer_name, gd_peer_field(obj, "field", f[0]),
			    gd_peer_field(obj, "peer", f[1]),
			    gd_peer_field(obj, "local", f[2]),
			    gd_peer_field(obj, "message", f[3]));
	} else if (type == GD_FRAME_ERROR &&
		   gd_oob_peer_interrupted(oob, obj)) {
		rc = gd_err(
			-EINTR,
			"peer %s was interrupted by %s during %s; this side "
			"stops too and keeps what was measured before",
			oob->peer_name, oob->peer_stop_signal,
			oob->peer_stop_during);
	} else if (type == GD_FRAME_ERROR) {
		rc = gd_err(-ECONNABORTED, "peer %s failed (code %d): %s",
			    oob->peer_name,
			    json_object_object_get_ex(obj, "code", &code)
				    ? json_object_get_int(code)
				    : 0,
			    gd_peer_field(obj, "message", f[0]));
	} else {
		rc = gd_err(
			-EPROTO,
			"side channel: peer %s sent a %s frame where %s was "
			"expected; check both ends run the same gdperf version",
			oob->peer_name, gd_frame_type_name(type),
			gd_frame_type_name(expect));
	}
	json_object_put(obj);
	return rc;
}

/* One whole frame, header and payload, within one silence limit. */
static int gd_oob_read_frame(struct gd_oob *oob, int expect, int silence_ms,
			     struct gd_frame_hdr *hdr, struct json_object **obj)
{
	int64_t deadline_ms = gd_oob_now_ms() + silence_ms;
	bool had_err = gd_err_is_set();
	uint8_t hdr_buf[GD_FRAME_HDR_LEN];
	uint8_t *body;
	int rc;

	rc = gd_oob_read_all(oob, hdr_buf, sizeof(hdr_buf), deadline_ms,
			     silence_ms, expect);
	if (rc)
		return rc;
	rc = gd_frame_decode_header(hdr_buf, sizeof(hdr_buf), hdr);
	if (rc)
		return gd_oob_decode_failed(oob, rc, had_err);
	if (hdr->type == GD_FRAME_BEAT && oob->beats_refused)
		return gd_err(-EPROTO,
			      "side channel: peer %s sent a heartbeat before "
			      "the hellos were through (a gdperf peer beats "
			      "only after them); closing the connection",
			      oob->peer_name);
	if (oob->max_payload && hdr->len > oob->max_payload)
		return gd_err(-EMSGSIZE,
			      "side channel: peer %s announced a %s frame of "
			      "%u bytes; at most %u are taken before the test "
			      "is accepted",
			      oob->peer_name, gd_frame_type_name(hdr->type),
			      hdr->len, oob->max_payload);
	body = malloc(hdr->len ? hdr->len : 1);
	if (!body)
		return gd_err(-ENOMEM,
			      "side channel: cannot allocate %u bytes for a %s "
			      "frame from peer %s",
			      hdr->len, gd_frame_type_name(hdr->type),
			      oob->peer_name);
	rc = gd_oob_read_all(oob, body, hdr->len, deadline_ms, silence_ms,
			     expect);
	if (!rc && oob->mac_on)
		rc = gd_oob_unseal(oob, hdr_buf, body, &hdr->len);
	if (!rc) {
		oob->heard_ms = gd_oob_now_ms();
		rc = gd_frame_decode_payload(body, hdr->len, obj);
		if (rc)
			rc = gd_oob_decode_failed(oob, rc, had_err);
	}
	free(body);
	return rc;
}

int gd_oob_heard_within(struct gd_oob *oob, int within_ms, bool *heard)
{
	struct pollfd pfd = { .fd = oob->fd, .events = POLLIN };
	uint8_t hdr_buf[GD_FRAME_HDR_LEN];
	struct gd_frame_hdr hdr;
	struct json_object *obj;
	ssize_t n;
	int rc;

	while (poll(&pfd, 1, 0) > 0) {
		n = recv(oob->fd, hdr_buf, sizeof(hdr_buf), MSG_PEEK);
		if (n == 0)
			return gd_err(
				-ECONNRESET,
				"side channel: peer %s closed the connection",
				oob->peer_name);
		if (n < (ssize_t)sizeof(hdr_buf) ||
		    gd_frame_decode_header(hdr_buf, sizeof(hdr_buf), &hdr) ||
		    (hdr.type != GD_FRAME_BEAT && hdr.type != GD_FRAME_ERROR))
			break; /* not (yet) a whole beat: leave it */
		rc = gd_oob_read_frame(oob, hdr.type, oob->timeout_ms, &hdr,
				       &obj);
		if (rc)
			return rc;
		/* the peer failed (or was stopped): nothing it would
		 * still send is worth waiting for */
		if (hdr.type == GD_FRAME_ERROR)
			return gd_oob_peer_failed(oob, hdr.type, obj,
						  GD_FRAME_BEAT);
		json_object_put(obj);
	}
	*heard = gd_oob_now_ms() - oob->heard_ms < within_ms;
	return 0;
}

/* A frame that is not a heartbeat: hand it over when it is the one
 * expected, else it is the peer's failure (or a protocol error). */
static int gd_oob_take(struct gd_oob *oob, int expect,
		       const struct gd_frame_hdr *hdr, struct json_object *obj,
		       struct json_object **payload)
{
	if (hdr->type != expect)
		return gd_oob_peer_failed(oob, hdr->type, obj, expect);
	if (payload)
		*payload = obj;
	else
		json_object_put(obj);
	return 0;
}

int gd_oob_recv(struct gd_oob *oob, int expect, struct json_object **payload)
{
	return gd_oob_recv_within(oob, expect, payload, oob->timeout_ms);
}

int gd_oob_recv_within(struct gd_oob *oob, int expect,
		       struct json_object **payload, int silence_ms)
{
	struct gd_frame_hdr hdr;
	struct json_object *obj;
	int rc;

	if (payload)
		*payload = NULL;
	/* Each heartbeat restarts the silence limit. */
	do {
		gd_oob_alive(oob);
		rc = gd_oob_read_frame(oob, expect, silence_ms, &hdr, &obj);
		if (rc)
			return rc;
		if (hdr.type == GD_FRAME_BEAT)
			json_object_put(obj);
	} while (hdr.type == GD_FRAME_BEAT);
	gd_oob_alive(oob);
	return gd_oob_take(oob, expect, &hdr, obj, payload);
}

int gd_oob_try_recv(struct gd_oob *oob, int expect,
		    struct json_object **payload)
{
	struct pollfd pfd = { .fd = oob->fd, .events = POLLIN };
	struct gd_frame_hdr hdr;
	struct json_object *obj;
	int rc;

	if (payload)
		*payload = NULL;
	for (;;) {
		if (gd_stop_signal())
			return gd_err(
				-EINTR,
				"interrupted by %s while looking for a %s "
				"frame from peer %s",
				gd_stop_signal_name(gd_stop_signal()),
				gd_frame_type_name(expect), oob->peer_name);
		if (poll(&pfd, 1, 0) <= 0)
			return 0;
		rc = gd_oob_read_frame(oob, expect, oob->timeout_ms, &hdr,
				       &obj);
		if (rc)
			return rc;
		if (hdr.type != GD_FRAME_BEAT)
			break;
		json_object_put(obj);
	}
	rc = gd_oob_take(oob, expect, &hdr, obj, payload);
	return rc ? rc : 1;
}

void gd_oob_send_error(struct gd_oob *oob, int code, const char *msg)
{
	bool had_err = gd_err_is_set();
	int timeout_ms = oob->timeout_ms < GD_OOB_ERROR_SEND_MS
				 ? oob->timeout_ms
				 : GD_OOB_ERROR_SEND_MS;
	struct json_object *obj;

	if (oob->fd < 0)
		return;
	obj = json_object_new_object();
	if (!obj)
		return;
	json_object_object_add(obj, "code", json_object_new_int(code));
	json_object_object_add(obj, "message",
			       json_object_new_string(msg ? msg : ""));
	/* The error being reported matters, not whether the peer heard it. */
	if (gd_oob_send_within(oob, GD_FRAME_ERROR, obj, timeout_ms) &&
	    !had_err)
		gd_err_clear();
	json_object_put(obj);
}

void gd_oob_send_interrupted(struct gd_oob *oob, const char *signal_name,
			     const char *during)
{
	bool had_err = gd_err_is_set();
	int timeout_ms = oob->timeout_ms < GD_OOB_ERROR_SEND_MS
				 ? oob->timeout_ms
				 : GD_OOB_ERROR_SEND_MS;
	struct json_object *obj, *in;
	char msg[256];

	if (oob->fd < 0)
		return;
	obj = json_object_new_object();
	in = json_object_new_object();
	if (!obj || !in) {
		json_object_put(obj);
		json_object_put(in);
		return;
	}
	snprintf(msg, sizeof(msg), "interrupted by %s during %s", signal_name,
		 during);
	json_object_object_add(in, "signal",
			       json_object_new_string(signal_name));
	json_object_object_add(in, "during", json_object_new_string(during));
	/* code and message first: an older peer reads it as a failure */
	json_object_object_add(obj, "code", json_object_new_int(-EINTR));
	json_object_object_add(obj, "message", json_object_new_string(msg));
	json_object_object_add(obj, "interrupted", in);
	if (gd_oob_send_within(oob, GD_FRAME_ERROR, obj, timeout_ms) &&
	    !had_err)
		gd_err_clear();
	json_object_put(obj);
}
