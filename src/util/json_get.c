/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Tolerant readers of json-c objects (see json_get.h).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"

#include "util/json_get.h"

const char *gd_json_str(struct json_object *obj, const char *key)
{
	struct json_object *v;

	if (!obj || !json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool gd_json_num(struct json_object *obj, const char *key, double *out)
{
	struct json_object *v;

	if (!obj || !json_object_object_get_ex(obj, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_double(v);
	return true;
}

struct json_object *gd_json_path(struct json_object *obj, const char *a,
				 const char *b)
{
	struct json_object *v = NULL;

	if (!obj || !json_object_object_get_ex(obj, a, &v))
		return NULL;
	if (b && (!v || !json_object_object_get_ex(v, b, &v)))
		return NULL;
	return json_object_is_type(v, json_type_null) ? NULL : v;
}

size_t gd_json_len(struct json_object *arr)
{
	return json_object_is_type(arr, json_type_array)
		       ? json_object_array_length(arr)
		       : 0;
}

struct json_object *gd_json_idx(struct json_object *arr, size_t i)
{
	return i < gd_json_len(arr) ? json_object_array_get_idx(arr, i) : NULL;
}

int64_t gd_json_int(struct json_object *obj, const char *key, int64_t dflt)
{
	struct json_object *v;

	if (!obj || !json_object_object_get_ex(obj, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return dflt;
	return json_object_get_int64(v);
}

/* Larger than any document gdperf writes; anything above is not one. */
#define GD_JSON_LOAD_MAX (256u << 20)

static int gd_json_slurp(const char *opt, const char *path, char **buf,
			 size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *b, *nb;
	int err;

	if (!f)
		return gd_err(
			-errno,
			"%s: cannot open '%s': %s; check the path and its "
			"permissions",
			opt, path, strerror(errno));
	b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap || cap >= GD_JSON_LOAD_MAX)
			break;
		cap *= 2;
		nb = realloc(b, cap);
		if (!nb)
			free(b);
		b = nb;
	}
	err = ferror(f) ? errno ? errno : EIO : 0;
	fclose(f);
	if (!b)
		return gd_err(-ENOMEM, "%s: out of memory reading '%s'", opt,
			      path);
	if (err || n >= GD_JSON_LOAD_MAX) {
		free(b);
		return gd_err(err ? -err : -EFBIG, "%s: cannot read '%s': %s",
			      opt, path,
			      err ? strerror(err) : "larger than 256 MiB");
	}
	*buf = b;
	*len = n;
	return 0;
}

int gd_json_load(const char *opt, const char *path, struct json_object **doc)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t len = 0, end;
	char *buf = NULL;
	int ret;

	*doc = NULL;
	ret = gd_json_slurp(opt, path, &buf, &len);
	if (ret)
		return ret;
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return gd_err(-ENOMEM, "%s: out of memory parsing '%s'", opt,
			      path);
	}
	*doc = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* a bare literal at the end waits for a terminator: the end is one */
	if (!*doc && jerr == json_tokener_continue) {
		*doc = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		if (jerr != json_tokener_success)
			jerr = json_tokener_continue;
		end = len;
	}
	json_tokener_free(tok);
	while (jerr == json_tokener_success && end < len &&
	       strchr(" \t\r\n", buf[end]))
		end++;
	free(buf);
	if (jerr == json_tokener_success && end >= len && *doc)
		return 0;
	json_object_put(*doc);
	*doc = NULL;
	if (jerr == json_tokener_success && end < len)
		return gd_err(
			-EINVAL,
			"%s: '%s' is not valid JSON: text after the value "
			"at byte %zu",
			opt, path, end);
	if (jerr == json_tokener_success)
		return gd_err(-EINVAL, "%s: '%s' holds only null, no document",
			      opt, path);
	return gd_err(-EINVAL, "%s: '%s' is not valid JSON: %s at byte %zu",
		      opt, path,
		      jerr == json_tokener_continue
			      ? "the text ends early"
			      : json_tokener_error_desc(jerr),
		      end);
}
