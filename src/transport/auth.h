/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Side-channel authentication (--auth-key=FILE): the shared key read from
 * a file only its owner may read, fresh nonces, and the HMAC-SHA-256
 * proofs each end gives over both nonces. The primitives are libsodium's;
 * the frames that carry them are the session's (engine/session_auth.c).
 */
#ifndef GD_AUTH_H
#define GD_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/* the proofs, then every frame under a session key (-frames: an older
 * gdperf, proofs only, refuses it by name) */
#define GD_AUTH_SCHEME "hmac-sha256-frames"
#define GD_AUTH_NONCE_BYTES 32
#define GD_AUTH_MAC_BYTES 32
/* A key shorter than this is a password, not a key; longer is a mistake
 * (the wrong file). */
#define GD_AUTH_KEY_MIN_BYTES 16
#define GD_AUTH_KEY_MAX_BYTES 1024

struct gd_auth {
	bool on; /* a key was loaded */
	const char *path;
	uint8_t key[GD_AUTH_KEY_MAX_BYTES];
	size_t key_len;
	/* this end's and the peer's nonces of the current connection */
	uint8_t nonce[GD_AUTH_NONCE_BYTES];
	uint8_t peer_nonce[GD_AUTH_NONCE_BYTES];
};

/*
 * Read the key in @path: a regular file of this user or root that no
 * group or other may read or write (refused otherwise, naming the file
 * and chown or chmod 600), of
 * GD_AUTH_KEY_MIN_BYTES..GD_AUTH_KEY_MAX_BYTES bytes after one trailing
 * newline is dropped (so "echo" and an editor make the same key). 0 or
 * -errno with the message recorded.
 */
int gd_auth_load(struct gd_auth *a, const char *path);
/* Whose key file may be read (OpenSSH's rule): one of the user running,
 * @euid, or of root; any other owner is refused, whatever the mode. */
static inline bool gd_auth_owner_ok(unsigned int owner, unsigned int euid)
{
	return owner == euid || owner == 0;
}
/* Wipe the key. */
void gd_auth_clear(struct gd_auth *a);
/* A fresh nonce for a new connection. */
void gd_auth_new_nonce(struct gd_auth *a);
/* HELLO's fields: the scheme and this end's nonce; none without a key. */
void gd_auth_hello_fields(const struct gd_auth *a, struct json_object *hello);
/*
 * The peer's HELLO: 0 when both ends have a key (its nonce taken) or
 * neither has; -EACCES when only one has, -EPROTO for a scheme or nonce
 * this end cannot read, each with one line naming the peer and what to
 * change.
 */
int gd_auth_take_hello(struct gd_auth *a, bool is_server, const char *peer,
		       struct json_object *hello);
/* This end's proof, the AUTH frame's payload ({"mac": hex}). */
struct json_object *gd_auth_proof(const struct gd_auth *a, bool is_server);
/* The session key of this connection, once both proofs passed: an
 * HMAC-SHA-256 under the key over a label, the client's nonce, the
 * server's and @transcript (both HELLOs' fields, client first), for
 * gd_oob_mac_start. */
#define GD_AUTH_SESSION_KEY_BYTES 32
void gd_auth_session_key(const struct gd_auth *a, bool is_server,
			 const char *transcript,
			 uint8_t key[GD_AUTH_SESSION_KEY_BYTES]);
/* Check the peer's proof in constant time: 0, -EACCES for another key,
 * -EPROTO for a payload that is no proof. */
int gd_auth_take_proof(const struct gd_auth *a, bool is_server,
		       const char *peer, struct json_object *proof);

#endif
