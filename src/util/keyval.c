/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reader of "key = value" settings files: the whole file is read first so
 * that the hash and the settings come from the same bytes.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sha2.h>

#include "util/error.h"
#include "util/keyval.h"

static char *gd_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int gd_keyval_read(const char *path, const char *what, char **text,
			  size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return gd_err(-errno,
			      "%s: cannot open '%s': %s; check the path", what,
			      path, strerror(errno));
	*text = malloc(GD_KEYVAL_FILE_MAX_BYTES + 1);
	if (!*text) {
		fclose(f);
		return gd_err(-ENOMEM, "%s: out of memory reading '%s'", what,
			      path);
	}
	n = fread(*text, 1, GD_KEYVAL_FILE_MAX_BYTES + 1, f);
	if (ferror(f) || n > GD_KEYVAL_FILE_MAX_BYTES) {
		int err = ferror(f) ? -EIO : -EFBIG;

		fclose(f);
		free(*text);
		return gd_err(
			err, "%s: '%s' %s", what, path,
			err == -EIO
				? "could not be read"
				: "is larger than 1 MiB; is it a settings file?");
	}
	fclose(f);
	(*text)[n] = '\0';
	*len = n;
	return 0;
}

static int gd_keyval_line(char *line, const char *what, const char *path,
			  int lineno, gd_keyval_fn fn, void *ctx)
{
	char *eq, *s;

	if (strchr(line, '#'))
		*strchr(line, '#') = '\0';
	s = gd_trim(line);
	if (!*s)
		return 0;
	eq = strchr(s, '=');
	if (!eq || eq == s)
		return gd_err(
			-EINVAL,
			"%s: %s line %d: expected 'key = value', got '%s'",
			what, path, lineno, s);
	*eq = '\0';
	return fn(ctx, gd_trim(s), gd_trim(eq + 1), lineno);
}

int gd_keyval_load(const char *path, const char *what, gd_keyval_fn fn,
		   void *ctx, char sha256_hex[GD_SHA256_HEX_LEN])
{
	char *text = NULL, *line, *next;
	size_t len = 0;
	int lineno = 0, ret;

	ret = gd_keyval_read(path, what, &text, &len);
	if (ret)
		return ret;
	if (memchr(text, '\0', len)) {
		free(text);
		return gd_err(
			-EINVAL,
			"%s: '%s' holds NUL bytes; is it a settings file?",
			what, path);
	}
	if (sha256_hex)
		SHA256Data((const uint8_t *)text, len, sha256_hex);
	for (line = text; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = gd_keyval_line(line, what, path, ++lineno, fn, ctx);
	}
	free(text);
	return ret;
}
