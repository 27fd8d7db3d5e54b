/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Side-channel authentication: the key file's checks, nonces and the
 * HMAC-SHA-256 proofs (libsodium), and the strict reading of what the peer
 * sends for them. Each proof covers a role label and both ends' fresh
 * nonces, so it is worth nothing on another connection or in the other
 * direction.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "transport/auth.h"
#include "transport/oob.h"
#include "util/error.h"
#include "util/json_get.h"

#define GD_AUTH_LABEL "gdperf side channel " GD_AUTH_SCHEME " v1"
#define GD_AUTH_HEX_LEN (2 * GD_AUTH_NONCE_BYTES)

static int gd_auth_key_mode(const char *path, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return gd_err(-errno,
			      "--auth-key %s: cannot stat the key file: %s",
			      path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return gd_err(
			-EINVAL,
			"--auth-key %s: not a regular file; give the file that holds the shared key",
			path);
	if (!gd_auth_owner_ok(st.st_uid, geteuid()))
		return gd_err(
			-EPERM,
			"--auth-key %s: the key file belongs to uid %u, not to this user (uid %u) or root; a shared key must be its owner's alone: chown $(id -un) %s",
			path, (unsigned int)st.st_uid, (unsigned int)geteuid(),
			path);
	if (st.st_mode & (S_IRWXG | S_IRWXO))
		return gd_err(
			-EPERM,
			"--auth-key %s: the key file is open to its group or others (mode %04o); a shared key must be its owner's alone: chmod 600 %s",
			path, (unsigned int)(st.st_mode & 07777), path);
	return 0;
}

/* The file's bytes into the key, one trailing newline (LF or CRLF) left
 * out, at most GD_AUTH_KEY_MAX_BYTES. */
static int gd_auth_key_read(struct gd_auth *a, const char *path, int fd)
{
	uint8_t buf[GD_AUTH_KEY_MAX_BYTES + 2];
	size_t len = 0;
	ssize_t n;

	while (len < sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return gd_err(
				-errno,
				"--auth-key %s: cannot read the key file: %s",
				path, strerror(errno));
		len += (size_t)n;
	}
	if (len && buf[len - 1] == '\n')
		len--;
	if (len && buf[len - 1] == '\r')
		len--;
	if (len < GD_AUTH_KEY_MIN_BYTES || len > GD_AUTH_KEY_MAX_BYTES) {
		sodium_memzero(buf, sizeof(buf));
		return gd_err(
			-EINVAL,
			"--auth-key %s: the key file holds %s%zu bytes, a key has %d to %d; make one with: (umask 077; head -c 32 /dev/urandom > %s)",
			path, len > GD_AUTH_KEY_MAX_BYTES ? "over " : "", len,
			GD_AUTH_KEY_MIN_BYTES, GD_AUTH_KEY_MAX_BYTES, path);
	}
	memcpy(a->key, buf, len);
	a->key_len = len;
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

int gd_auth_load(struct gd_auth *a, const char *path)
{
	int fd, ret;

	gd_auth_clear(a);
	if (sodium_init() < 0)
		return gd_err(
			-EIO,
			"--auth-key: libsodium could not initialise (no kernel random source?); check getrandom(2) or /dev/urandom");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return gd_err(
			-errno,
			"--auth-key %s: cannot open the key file: %s; check the path and that the user running the test owns it",
			path, strerror(errno));
	ret = gd_auth_key_mode(path, fd);
	if (!ret)
		ret = gd_auth_key_read(a, path, fd);
	close(fd);
	if (ret)
		return ret;
	a->path = path;
	a->on = true;
	return 0;
}

void gd_auth_clear(struct gd_auth *a)
{
	sodium_memzero(a, sizeof(*a));
}

void gd_auth_new_nonce(struct gd_auth *a)
{
	randombytes_buf(a->nonce, sizeof(a->nonce));
}

static void gd_auth_hex(const uint8_t *bin, size_t len,
			char hex[GD_AUTH_HEX_LEN + 1])
{
	sodium_bin2hex(hex, GD_AUTH_HEX_LEN + 1, bin, len);
}

/* Exactly 64 hex digits into 32 bytes. */
static int gd_auth_unhex(const char *hex, uint8_t out[GD_AUTH_NONCE_BYTES])
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (!hex || strlen(hex) != GD_AUTH_HEX_LEN)
		return -EPROTO;
	if (sodium_hex2bin(out, GD_AUTH_NONCE_BYTES, hex, GD_AUTH_HEX_LEN, NULL,
			   &bin_len, &end) ||
	    bin_len != GD_AUTH_NONCE_BYTES || end != hex + GD_AUTH_HEX_LEN)
		return -EPROTO;
	return 0;
}

void gd_auth_hello_fields(const struct gd_auth *a, struct json_object *hello)
{
	char hex[GD_AUTH_HEX_LEN + 1];

	if (!a->on)
		return;
	gd_auth_hex(a->nonce, sizeof(a->nonce), hex);
	json_object_object_add(hello, "auth",
			       json_object_new_string(GD_AUTH_SCHEME));
	json_object_object_add(hello, "nonce", json_object_new_string(hex));
}

/* Only one end has a key: say which, and what to change. */
static int gd_auth_one_sided(const struct gd_auth *a, bool is_server,
			     const char *peer)
{
	/* the server's accept loop names the peer in front */
	if (is_server && a->on)
		return gd_err(
			-EACCES,
			"the client gave no key: this server runs tests only for clients with --auth-key (a copy of its key file)");
	if (is_server)
		return gd_err(
			-EACCES,
			"the client asked to authenticate (--auth-key), this server has no key: start it with --auth-key=FILE (a copy of the client's key file), or run the client without it");
	if (a->on)
		return gd_err(
			-EACCES,
			"the server %s has no --auth-key: it runs a test for anyone who can reach its port, so this client (--auth-key %s) will not run one; start the server with --auth-key=FILE (a copy of %s), or drop --auth-key here",
			peer, a->path, a->path);
	return gd_err(
		-EACCES,
		"the server %s requires authentication: give --auth-key=FILE with a copy of its key file",
		peer);
}

int gd_auth_take_hello(struct gd_auth *a, bool is_server, const char *peer,
		       struct json_object *hello)
{
	struct json_object *v = NULL;
	bool offered = json_object_object_get_ex(hello, "auth", &v);
	const char *scheme = json_object_is_type(v, json_type_string)
				     ? json_object_get_string(v)
				     : NULL;

	char esc[48];

	if (offered && (!scheme || strcmp(scheme, GD_AUTH_SCHEME)))
		return gd_err(
			-EPROTO,
			"the peer %s authenticates with '%s', this side only with %s; install the same gdperf version on both ends",
			peer,
			scheme ? gd_oob_escape(scheme, esc, sizeof(esc))
			       : "a non-string",
			GD_AUTH_SCHEME);
	if (offered != a->on)
		return gd_auth_one_sided(a, is_server, peer);
	if (!a->on)
		return 0;
	if (gd_auth_unhex(gd_json_str(hello, "nonce"), a->peer_nonce))
		return gd_err(
			-EPROTO,
			"the peer %s sent no nonce of %d hex digits with its hello; install the same gdperf version on both ends",
			peer, GD_AUTH_HEX_LEN);
	/* Only a reflection of this end's own hello repeats its nonce. */
	if (!sodium_memcmp(a->peer_nonce, a->nonce, GD_AUTH_NONCE_BYTES))
		return gd_err(
			-EACCES,
			"the peer %s sent back this side's own nonce: a reflection, not a peer with the key",
			peer);
	return 0;
}

/* The proof of the end in @role over the client's, then the server's
 * nonce, as computed on the end @is_server. */
static void gd_auth_mac(const struct gd_auth *a, bool is_server,
			bool role_server, uint8_t mac[GD_AUTH_MAC_BYTES])
{
	static const char label[] = GD_AUTH_LABEL;
	const char *role = role_server ? "server" : "client";
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, a->key, a->key_len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label,
				      sizeof(label));
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)role,
				      strlen(role) + 1);
	crypto_auth_hmacsha256_update(&st, is_server ? a->peer_nonce : a->nonce,
				      GD_AUTH_NONCE_BYTES);
	crypto_auth_hmacsha256_update(&st, is_server ? a->nonce : a->peer_nonce,
				      GD_AUTH_NONCE_BYTES);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

struct json_object *gd_auth_proof(const struct gd_auth *a, bool is_server)
{
	uint8_t mac[GD_AUTH_MAC_BYTES];
	char hex[GD_AUTH_HEX_LEN + 1];
	struct json_object *p = json_object_new_object();

	gd_auth_mac(a, is_server, is_server, mac);
	gd_auth_hex(mac, sizeof(mac), hex);
	json_object_object_add(p, "mac", json_object_new_string(hex));
	return p;
}

int gd_auth_take_proof(const struct gd_auth *a, bool is_server,
		       const char *peer, struct json_object *proof)
{
	uint8_t want[GD_AUTH_MAC_BYTES], got[GD_AUTH_MAC_BYTES];
	int same;

	if (gd_auth_unhex(gd_json_str(proof, "mac"), got))
		return gd_err(
			-EPROTO,
			"the peer %s sent an authentication frame without a MAC of %d hex digits; install the same gdperf version on both ends",
			peer, GD_AUTH_HEX_LEN);
	gd_auth_mac(a, is_server, !is_server, want);
	same = !sodium_memcmp(want, got, sizeof(want));
	sodium_memzero(want, sizeof(want));
	if (same)
		return 0;
	if (is_server)
		return gd_err(
			-EACCES,
			"the client did not prove it has this server's key (--auth-key): its key file differs");
	return gd_err(
		-EACCES,
		"the server %s did not prove it has this client's key (--auth-key %s): its key file differs; check that both ends name a copy of the same file",
		peer, a->path);
}

void gd_auth_session_key(const struct gd_auth *a, bool is_server,
			 const char *transcript,
			 uint8_t key[GD_AUTH_SESSION_KEY_BYTES])
{
	static const char label[] = "gdperf side channel session key v1";
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, a->key, a->key_len);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label,
				      sizeof(label));
	crypto_auth_hmacsha256_update(&st, is_server ? a->peer_nonce : a->nonce,
				      GD_AUTH_NONCE_BYTES);
	crypto_auth_hmacsha256_update(&st, is_server ? a->nonce : a->peer_nonce,
				      GD_AUTH_NONCE_BYTES);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)transcript,
				      strlen(transcript) + 1);
	crypto_auth_hmacsha256_final(&st, key);
	sodium_memzero(&st, sizeof(st));
}
