/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The handshake over a connected side channel: hellos (and the --auth-key
 * proofs), then the client's test description, which the server adopts
 * and holds against its limits, accepts or rejects. No RDMA device is
 * involved.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "engine/limits.h"
#include "engine/session.h"
#include "engine/session_auth.h"
#include "util/error.h"
#include "util/json_get.h"

int gd_session_take_hello(struct gd_session *s, struct json_object *peer)
{
	const char *tool = gd_json_str(peer, "tool");
	const char *ver = gd_json_str(peer, "version");
	char esc[80]; /* the peer's strings as printed: escaped, cut */

	if (!tool || strcmp(tool, s->test->name))
		return gd_err(
			-EINVAL,
			"the peer %s runs %s, this side runs %s; start the same test on both ends",
			s->oob.peer_name,
			tool ? gd_oob_escape(tool, esc, sizeof(esc))
			     : "an unnamed tool",
			s->test->name);
	if (!ver || strcmp(ver, PACKAGE_VERSION))
		gd_report_notice(
			"%s: note: peer %s runs gdperf %s, this side %s",
			s->test->name, s->oob.peer_name,
			ver ? gd_oob_escape(ver, esc, sizeof(esc))
			    : "(version not given)",
			PACKAGE_VERSION);
	return 0;
}

static int gd_hello(struct gd_session *s)
{
	struct json_object *h = json_object_new_object(), *peer = NULL;
	int ret;

	/* either end beats once its hellos are through, never before */
	s->oob.beats_refused = !s->oob.beat;
	json_object_object_add(h, "tool",
			       json_object_new_string(s->test->name));
	json_object_object_add(h, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(h, "protocol",
			       json_object_new_int(GD_OOB_VERSION));
	ret = gd_session_auth_prepare(s);
	if (!ret) {
		gd_session_auth_hello(s, h);
		ret = gd_oob_send(&s->oob, GD_FRAME_HELLO, h);
	}
	json_object_put(h);
	if (!ret)
		ret = gd_oob_recv(&s->oob, GD_FRAME_HELLO, &peer);
	if (!ret)
		ret = gd_session_take_hello(s, peer);
	if (!ret)
		ret = gd_session_auth(s, peer);
	json_object_put(peer);
	/* Both ends speak this protocol (and proved the key where one was
	 * given): from here on either may beat. */
	return ret ? ret : gd_oob_beat_start(&s->oob);
}

void gd_session_default_phases(struct gd_opts *o)
{
	char list[64];

	if (o->phases)
		return;
	/* HH, then each device memory against itself: DD, or D1D1, D2D2 */
	gd_placement_default(o->num_mem, list, sizeof(list));
	o->phases = strdup(list);
}

/* The request the server just adopted, against its limits, raised to what
 * its own command line asked for (an operator's explicit options run as
 * given; the client must match them). */
static int gd_check_limits(struct gd_session *s, char *field, size_t field_len,
			   char *ours, char *theirs, size_t val_len)
{
	struct gd_limits l;
	struct gd_request r;
	char msg[512];
	int ret = gd_limits_request(s->o, &r);

	if (ret)
		return ret;
	/* a latency server keeps samples only where it measures: the
	 * reversed phases (engine/sweep.c) */
	if (s->test->measure == GD_MEASURE_LAT &&
	    (s->o->reverse || s->o->reversed || s->o->bidir)) {
		r.samples_bytes =
			gd_limits_lat_samples(s->o) * sizeof(uint64_t);
		r.mem_bytes += r.samples_bytes;
	}
	gd_limits_from_opts(s->o, &l);
	gd_limits_raise(&l, &s->server_own);
	ret = gd_limits_check(&l, &r, field, field_len, msg, sizeof(msg));
	s->limit_time_s = l.time_s;
	if (!ret)
		return 0;
	gd_limits_values(&l, &r, field, ours, theirs, val_len);
	return gd_err(ret, "%s", msg);
}

int gd_session_adopt(struct gd_session *s, struct json_object *w, char *field,
		     size_t field_len, char *ours, char *theirs, size_t val_len)
{
	int ret;

	/* before the first client's values: later ones must not raise it */
	if (!s->server_own_set)
		s->server_own_set = !gd_limits_request(s->o, &s->server_own);
	ret = s->o->ops->from_wire(s->test, s->o, w, field, field_len, ours,
				   theirs, val_len);
	if (!ret)
		ret = gd_check_limits(s, field, field_len, ours, theirs,
				      val_len);
	return ret;
}

static int gd_exchange_test(struct gd_session *s)
{
	struct json_object *w = NULL;
	char field[64], ours[128], theirs[128];
	int ret;

	if (!s->is_server) {
		gd_session_default_phases(s->o);
		w = s->o->ops->to_wire(s->test, s->o);
		ret = gd_oob_send(&s->oob, GD_FRAME_TEST, w);
		json_object_put(w);
		return ret ? ret : gd_oob_recv(&s->oob, GD_FRAME_ACCEPT, NULL);
	}
	ret = gd_oob_recv(&s->oob, GD_FRAME_TEST, &w);
	if (ret)
		return ret;
	ret = gd_session_adopt(s, w, field, sizeof(field), ours, theirs,
			       sizeof(ours));
	json_object_put(w);
	if (ret) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "field",
				       json_object_new_string(field));
		json_object_object_add(r, "local",
				       json_object_new_string(ours));
		json_object_object_add(r, "peer",
				       json_object_new_string(theirs));
		json_object_object_add(r, "message",
				       json_object_new_string(gd_err_msg()));
		gd_oob_send(&s->oob, GD_FRAME_REJECT, r);
		json_object_put(r);
		return ret;
	}
	return gd_oob_send(&s->oob, GD_FRAME_ACCEPT, NULL);
}

int gd_session_handshake(struct gd_session *s)
{
	int ret = gd_hello(s);

	return ret ? ret : gd_exchange_test(s);
}
