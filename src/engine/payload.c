/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's payload file: parsed strictly (a word that is not 0x and
 * eight hex digits is named with its position), loaded once per run, and
 * written over a buffer through its memory backend, so GPU memory gets it
 * too.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sha2.h>

#include "util/error.h"
#include "mem/mem.h"
#include "engine/payload.h"

/* One word: optional blanks, "0x", eight hex digits, optional blanks. */
static int gd_payload_word(const char *path, const char *w, size_t n,
			   unsigned int index, uint8_t bytes[4])
{
	char hex[3] = { 0 };

	while (n && isspace((unsigned char)*w))
		w++, n--;
	while (n && isspace((unsigned char)w[n - 1]))
		n--;
	if (n != 10 || w[0] != '0' || (w[1] != 'x' && w[1] != 'X'))
		return gd_err(
			-EINVAL,
			"--payload_file_path %s: word %u '%.*s' is not 0x and eight hex digits (perftest's form: 0xaaaaaaaa,0xbbbbbbbb,...)",
			path, index, (int)(n > 16 ? 16 : n), w);
	for (unsigned int i = 0; i < 4; i++) {
		/* least significant byte first: the last two digits */
		hex[0] = w[8 - 2 * i];
		hex[1] = w[9 - 2 * i];
		if (!isxdigit((unsigned char)hex[0]) ||
		    !isxdigit((unsigned char)hex[1]))
			return gd_err(
				-EINVAL,
				"--payload_file_path %s: word %u '%.10s' has a character that is not a hex digit",
				path, index, w);
		bytes[i] = (uint8_t)strtoul(hex, NULL, 16);
	}
	return 0;
}

int gd_payload_parse(const char *path, const char *text, uint8_t *out,
		     size_t cap, size_t *len_bytes)
{
	const char *p = text;
	unsigned int index = 0;

	*len_bytes = 0;
	while (*p) {
		size_t n = strcspn(p, ",\n");
		bool blank = true;

		for (size_t i = 0; i < n; i++)
			blank = blank && isspace((unsigned char)p[i]);
		if (!blank) {
			if (*len_bytes + 4 > cap)
				return gd_err(
					-E2BIG,
					"--payload_file_path %s: more than %zu bytes of payload (word %u); gdperf repeats a shorter one over the buffer",
					path, cap, index);
			if (gd_payload_word(path, p, n, index,
					    out + *len_bytes))
				return gd_err_code();
			*len_bytes += 4;
			index++;
		}
		p += n + (p[n] != '\0');
	}
	if (!*len_bytes)
		return gd_err(
			-EINVAL,
			"--payload_file_path %s: no payload word in the file (perftest's form: 0xaaaaaaaa,0xbbbbbbbb,...)",
			path);
	return 0;
}

int gd_payload_load(const char *path, uint8_t **out, size_t *len_bytes,
		    char sha256_hex[65])
{
	/* the text of a word is 11 bytes for its 4 */
	size_t cap_text = GD_PAYLOAD_MAX_BYTES / 4 * 11 + 64, n;
	char *text = malloc(cap_text + 1);
	FILE *f = fopen(path, "r");
	int ret;

	*out = malloc(GD_PAYLOAD_MAX_BYTES);
	if (!f || !text || !*out) {
		ret = gd_err(
			f ? -ENOMEM : -errno,
			"--payload_file_path %s: cannot read it: %s; check the path and its permissions",
			path, strerror(f ? ENOMEM : errno));
		goto fail;
	}
	n = fread(text, 1, cap_text + 1, f);
	if (n > cap_text) {
		ret = gd_err(
			-E2BIG,
			"--payload_file_path %s: larger than %zu bytes, more than the %u bytes of payload gdperf keeps",
			path, cap_text, GD_PAYLOAD_MAX_BYTES);
		goto fail;
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		ret = gd_err(
			-EINVAL,
			"--payload_file_path %s: a NUL byte in the file; it is text (0xaaaaaaaa,0xbbbbbbbb,...)",
			path);
		goto fail;
	}
	ret = gd_payload_parse(path, text, *out, GD_PAYLOAD_MAX_BYTES,
			       len_bytes);
	if (ret)
		goto fail;
	SHA256Data(*out, *len_bytes, sha256_hex);
	fclose(f);
	free(text);
	return 0;
fail:
	if (f)
		fclose(f);
	free(text);
	free(*out);
	*out = NULL;
	*len_bytes = 0;
	return ret;
}

int gd_payload_fill(struct gd_mem_buf *buf, const uint8_t *payload,
		    size_t len_bytes)
{
	/* a chunk of whole repetitions, so each copy_in starts at word 0 */
	size_t reps = (64u << 10) / len_bytes ? (64u << 10) / len_bytes : 1;
	size_t chunk = reps * len_bytes;
	uint8_t *tmp = malloc(chunk);
	int ret = 0;

	if (!tmp)
		return gd_err(-ENOMEM, "--payload_file_path: out of memory");
	for (size_t r = 0; r < reps; r++)
		memcpy(tmp + r * len_bytes, payload, len_bytes);
	for (size_t off = 0; off < buf->len_bytes && !ret; off += chunk) {
		size_t n = buf->len_bytes - off < chunk ? buf->len_bytes - off
							: chunk;

		ret = buf->ops->copy_in(buf, off, tmp, n);
	}
	free(tmp);
	return ret;
}
