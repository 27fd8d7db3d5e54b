/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --auth-key in the handshake: HELLO carries the scheme and a fresh nonce,
 * then the client sends its proof in an AUTH frame and the server answers
 * with its own, or with a REJECT. No option, address or rkey travels
 * before both proofs were checked, and every frame after them carries a
 * MAC under a key of this connection (transport/oob.h).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>
#include <sodium.h>

#include "engine/session.h"
#include "engine/session_auth.h"
#include "transport/auth.h"
#include "util/error.h"
#include "util/json_get.h"

int gd_session_auth_prepare(struct gd_session *s)
{
	if (!s->o->auth_key || s->auth.on)
		return 0;
	return gd_auth_load(&s->auth, s->o->auth_key);
}

void gd_session_auth_hello(struct gd_session *s, struct json_object *hello)
{
	if (!s->auth.on)
		return;
	gd_auth_new_nonce(&s->auth);
	gd_auth_hello_fields(&s->auth, hello);
}

/* Server: tell the client why (failures ignored: it may be gone), and
 * keep the refusal's own error. */
static int gd_session_auth_refuse(struct gd_session *s, int ret,
				  const char *theirs)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "field", json_object_new_string("auth-key"));
	json_object_object_add(
		r, "local",
		json_object_new_string(s->auth.on ? "a key" : "none"));
	json_object_object_add(
		r, "peer",
		json_object_new_string(ret == -EPROTO ? "unreadable" : theirs));
	json_object_object_add(r, "message",
			       json_object_new_string(gd_err_msg()));
	(void)gd_oob_send(&s->oob, GD_FRAME_REJECT, r);
	json_object_put(r);
	return ret;
}

/* Every later frame under the session key, both ways, from here on
 * (this end's next frame and the peer's next one). */
static void gd_session_auth_seal(struct gd_session *s, const char *transcript)
{
	uint8_t key[GD_AUTH_SESSION_KEY_BYTES];

	gd_auth_session_key(&s->auth, s->is_server, transcript, key);
	gd_oob_mac_start(&s->oob, key, s->is_server);
	sodium_memzero(key, sizeof(key));
}

static int gd_session_auth_client(struct gd_session *s, const char *transcript)
{
	struct json_object *p = gd_auth_proof(&s->auth, false);
	int ret = gd_oob_send(&s->oob, GD_FRAME_AUTH, p);

	json_object_put(p);
	p = NULL;
	if (!ret)
		ret = gd_oob_recv(&s->oob, GD_FRAME_AUTH, &p);
	/* a REJECT here can only be the server's verdict on the proof */
	if (ret == -EINVAL)
		return gd_err_replace(
			-EACCES,
			"the server %s refused this client's key (--auth-key %s): the two key files differ; check that both ends name a copy of the same file",
			s->oob.peer_name, s->auth.path);
	if (!ret)
		ret = gd_auth_take_proof(&s->auth, false, s->oob.peer_name, p);
	json_object_put(p);
	if (!ret)
		gd_session_auth_seal(s, transcript);
	return ret;
}

static int gd_session_auth_server(struct gd_session *s, const char *transcript)
{
	struct json_object *p = NULL;
	int ret = gd_oob_recv(&s->oob, GD_FRAME_AUTH, &p);

	if (ret)
		return ret;
	ret = gd_auth_take_proof(&s->auth, true, s->oob.peer_name, p);
	json_object_put(p);
	if (ret)
		return gd_session_auth_refuse(s, ret, "another key");
	p = gd_auth_proof(&s->auth, true);
	ret = gd_oob_send(&s->oob, GD_FRAME_AUTH, p);
	json_object_put(p);
	if (!ret)
		gd_session_auth_seal(s, transcript);
	return ret;
}

/* What of both HELLOs the session key covers, the client's first: each
 * end's tool, version and protocol. */
static void gd_session_transcript(const struct gd_session *s,
				  struct json_object *peer, char *buf,
				  size_t len)
{
	char mine[160], theirs[160];
	const char *tool = gd_json_str(peer, "tool");
	const char *ver = gd_json_str(peer, "version");
	struct json_object *proto = NULL;

	(void)json_object_object_get_ex(peer, "protocol", &proto);
	snprintf(mine, sizeof(mine), "%s\n%s\n%d", s->test->name,
		 PACKAGE_VERSION, GD_OOB_VERSION);
	snprintf(theirs, sizeof(theirs), "%s\n%s\n%d", tool ? tool : "",
		 ver ? ver : "", proto ? json_object_get_int(proto) : -1);
	snprintf(buf, len, "%s\n%s", s->is_server ? theirs : mine,
		 s->is_server ? mine : theirs);
}

int gd_session_auth(struct gd_session *s, struct json_object *peer)
{
	char transcript[400];
	int ret = gd_auth_take_hello(&s->auth, s->is_server, s->oob.peer_name,
				     peer);

	if (ret && s->is_server)
		return gd_session_auth_refuse(s, ret,
					      s->auth.on ? "none" : "a key");
	if (ret || !s->auth.on)
		return ret;
	gd_session_transcript(s, peer, transcript, sizeof(transcript));
	return s->is_server ? gd_session_auth_server(s, transcript)
			    : gd_session_auth_client(s, transcript);
}
