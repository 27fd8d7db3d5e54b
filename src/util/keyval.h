/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * "key = value" files, the format gd_plan's --config and the benchmarks'
 * --config share: one setting a line, '#' starts a comment, blank lines
 * are skipped. The file's SHA-256 is returned so a run can record which
 * version of a lab's settings it used.
 */
#ifndef GD_KEYVAL_H
#define GD_KEYVAL_H

#include <stddef.h>

#define GD_KEYVAL_FILE_MAX_BYTES (1u << 20)
#define GD_SHA256_HEX_LEN 65 /* 64 hex digits and the NUL */

/* Called for each setting; @lineno for messages. Returns 0 or -errno with a
 * message recorded. */
typedef int (*gd_keyval_fn)(void *ctx, const char *key, const char *value,
			    int lineno);

/* Read @path (at most GD_KEYVAL_FILE_MAX_BYTES), hash it into @sha256_hex
 * (may be NULL) and hand every setting to @fn in file order. @what names
 * the option that gave the file, for messages ("--config"). */
int gd_keyval_load(const char *path, const char *what, gd_keyval_fn fn,
		   void *ctx, char sha256_hex[GD_SHA256_HEX_LEN]);

#endif
