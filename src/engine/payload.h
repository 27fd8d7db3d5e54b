/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --payload_file_path: perftest's payload file, 32-bit words written
 * "0xaaaaaaaa,0xbbbbbbbb,..." whose bytes go into the buffer least
 * significant first, the sequence repeated over the whole buffer.
 */
#ifndef GD_PAYLOAD_H
#define GD_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

struct gd_mem_buf;

/* perftest keeps at most one message of it; gdperf at most this. */
#define GD_PAYLOAD_MAX_BYTES (1u << 20)

/* Parse @text (the file's content, @path for messages) into @out of @cap
 * bytes: 0 with *@len_bytes set, or -EINVAL naming the word and why. */
int gd_payload_parse(const char *path, const char *text, uint8_t *out,
		     size_t cap, size_t *len_bytes);
/* Read and parse @path into a new buffer (*@out, free() it) and its
 * SHA-256 in hex (65 bytes with the NUL). */
int gd_payload_load(const char *path, uint8_t **out, size_t *len_bytes,
		    char sha256_hex[65]);
/* Write the payload over all of @buf, repeated, through its backend. */
int gd_payload_fill(struct gd_mem_buf *buf, const uint8_t *payload,
		    size_t len_bytes);

#endif
