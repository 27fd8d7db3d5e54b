/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Side-channel frame codec: header and JSON payload to and from bytes. No
 * I/O, so the fuzz target can drive it directly. Decoding is strict because
 * everything a peer sends is untrusted input.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "transport/oob.h"

static const char *const gd_frame_names[] = {
	[GD_FRAME_HELLO] = "HELLO",	[GD_FRAME_TEST] = "TEST",
	[GD_FRAME_ACCEPT] = "ACCEPT",	[GD_FRAME_REJECT] = "REJECT",
	[GD_FRAME_QP_INFO] = "QP_INFO", [GD_FRAME_SYNC] = "SYNC",
	[GD_FRAME_RESULT] = "RESULT",	[GD_FRAME_ERROR] = "ERROR",
	[GD_FRAME_BYE] = "BYE",		[GD_FRAME_BEAT] = "BEAT",
	[GD_FRAME_AUTH] = "AUTH",
};

const char *gd_frame_type_name(int type)
{
	if (type < GD_FRAME_HELLO || type > GD_FRAME_TYPE_MAX)
		return "UNKNOWN";
	return gd_frame_names[type];
}

static void gd_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void gd_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint16_t gd_get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t gd_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

int gd_frame_encode(int type, const struct json_object *payload, uint8_t **out,
		    size_t *out_len)
{
	/* json-c's serialiser takes a non-const object but only caches the
	 * string inside it; the JSON value itself is not modified. */
	struct json_object *obj = (struct json_object *)payload;
	const char *text = "{}";
	size_t text_len = 2;
	uint8_t *buf;

	*out = NULL;
	*out_len = 0;
	if (type < GD_FRAME_HELLO || type > GD_FRAME_TYPE_MAX)
		return gd_err(-EINVAL,
			      "side channel: cannot encode frame type %d: not "
			      "a known frame type (internal error)",
			      type);
	if (obj) {
		if (!json_object_is_type(obj, json_type_object))
			return gd_err(
				-EINVAL,
				"side channel: cannot encode %s frame: payload is "
				"a JSON %s, not an object (internal error)",
				gd_frame_type_name(type),
				json_type_to_name(json_object_get_type(obj)));
		text = json_object_to_json_string_ext(obj,
						      JSON_C_TO_STRING_PLAIN);
		if (!text)
			return gd_err(-ENOMEM,
				      "side channel: cannot serialise %s frame "
				      "payload: out of memory",
				      gd_frame_type_name(type));
		text_len = strlen(text);
	}
	if (text_len > GD_FRAME_MAX_PAYLOAD)
		return gd_err(-EMSGSIZE,
			      "side channel: %s frame payload is %zu bytes, "
			      "over the %u byte limit (internal error: too "
			      "much data for the side channel)",
			      gd_frame_type_name(type), text_len,
			      GD_FRAME_MAX_PAYLOAD);

	buf = malloc(GD_FRAME_HDR_LEN + text_len);
	if (!buf)
		return gd_err(
			-ENOMEM,
			"side channel: cannot allocate %zu bytes for a %s frame",
			GD_FRAME_HDR_LEN + text_len, gd_frame_type_name(type));
	gd_put_be32(buf, GD_FRAME_MAGIC);
	gd_put_be16(buf + 4, GD_OOB_VERSION);
	gd_put_be16(buf + 6, (uint16_t)type);
	gd_put_be32(buf + 8, (uint32_t)text_len);
	memcpy(buf + GD_FRAME_HDR_LEN, text, text_len);
	*out = buf;
	*out_len = GD_FRAME_HDR_LEN + text_len;
	return 0;
}

int gd_frame_decode_header(const uint8_t *buf, size_t len,
			   struct gd_frame_hdr *hdr)
{
	uint32_t magic;

	if (len < GD_FRAME_HDR_LEN)
		return gd_err(-EPROTO,
			      "truncated frame header: %zu of %d bytes", len,
			      GD_FRAME_HDR_LEN);
	magic = gd_get_be32(buf);
	if (magic != GD_FRAME_MAGIC)
		return gd_err(-EPROTO,
			      "bad frame magic 0x%08x (expected 0x%08x): the "
			      "peer is not a gdperf side channel",
			      magic, GD_FRAME_MAGIC);
	hdr->version = gd_get_be16(buf + 4);
	hdr->type = gd_get_be16(buf + 6);
	hdr->len = gd_get_be32(buf + 8);
	if (hdr->version != GD_OOB_VERSION)
		return gd_err(
			-EPROTONOSUPPORT,
			"side-channel protocol version %u, we speak version %d: "
			"install the same gdperf version on both ends",
			hdr->version, GD_OOB_VERSION);
	if (hdr->type < GD_FRAME_HELLO || hdr->type > GD_FRAME_TYPE_MAX)
		return gd_err(-EPROTO, "unknown frame type %u (known: %d..%d)",
			      hdr->type, GD_FRAME_HELLO, GD_FRAME_TYPE_MAX);
	if (hdr->len > GD_FRAME_MAX_PAYLOAD)
		return gd_err(-EMSGSIZE,
			      "%s frame announces a %u byte payload, over the "
			      "%u byte limit",
			      gd_frame_type_name(hdr->type), hdr->len,
			      GD_FRAME_MAX_PAYLOAD);
	return 0;
}

static size_t gd_tokener_end(struct json_tokener *tok)
{
#if JSON_C_VERSION_NUM >= ((0 << 16) | (15 << 8))
	return json_tokener_get_parse_end(tok);
#else
	return (size_t)tok->char_offset;
#endif
}

int gd_frame_decode_payload(const uint8_t *buf, size_t len,
			    struct json_object **payload)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	int flags = JSON_TOKENER_STRICT;
	size_t end;

	*payload = NULL;
	if (len > GD_FRAME_MAX_PAYLOAD)
		return gd_err(
			-EMSGSIZE,
			"frame payload of %zu bytes is over the %u byte limit",
			len, GD_FRAME_MAX_PAYLOAD);
	if (len && memchr(buf, '\0', len))
		return gd_err(-EPROTO,
			      "frame payload contains a NUL byte at offset %zu",
			      (size_t)((const uint8_t *)memchr(buf, '\0', len) -
				       buf));
	tok = json_tokener_new();
	if (!tok)
		return gd_err(-ENOMEM, "cannot allocate a JSON parser");
		/* Let json-c stop after the object so the check below can name
		 * the trailing bytes rather than report a generic parse error.
		 */
#ifdef JSON_TOKENER_ALLOW_TRAILING_CHARS
	flags |= JSON_TOKENER_ALLOW_TRAILING_CHARS;
#endif
#ifdef JSON_TOKENER_VALIDATE_UTF8
	flags |= JSON_TOKENER_VALIDATE_UTF8;
#endif
	json_tokener_set_flags(tok, flags);
	obj = json_tokener_parse_ex(tok, (const char *)buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = gd_tokener_end(tok);
	json_tokener_free(tok);

	if (!obj) {
		if (jerr == json_tokener_continue ||
		    jerr == json_tokener_success)
			return gd_err(
				-EPROTO,
				"frame payload is truncated JSON (%zu bytes)",
				len);
		return gd_err(-EPROTO, "frame payload is not valid JSON: %s",
			      json_tokener_error_desc(jerr));
	}
	if (!json_object_is_type(obj, json_type_object)) {
		gd_err(-EPROTO, "frame payload is a JSON %s, not an object",
		       json_type_to_name(json_object_get_type(obj)));
		json_object_put(obj);
		return -EPROTO;
	}
	if (end != len) {
		json_object_put(obj);
		return gd_err(-EPROTO,
			      "frame payload has %zu trailing bytes after the "
			      "JSON object",
			      len - end);
	}
	*payload = obj;
	return 0;
}

static bool gd_esc_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

const char *gd_oob_escape(const char *in, char *out, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (len < 4) /* room for "..." at least */
		return len ? (out[0] = '\0', out) : out;
	size_t whole = 0;

	in = in ? in : "?";
	for (const char *p = in; *p && whole < len; p++)
		whole += gd_esc_plain((unsigned char)*p) ? 1 : 4;
	for (; *in; in++) {
		unsigned char c = (unsigned char)*in;
		bool plain = gd_esc_plain(c);
		/* this byte and the NUL, and when all does not fit, room
		 * for the "..." that replaces the rest */
		size_t need = (plain ? 1 : 4) + (whole < len ? 0 : 3) + 1;

		if (o + need > len) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (plain) {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
	return out;
}
