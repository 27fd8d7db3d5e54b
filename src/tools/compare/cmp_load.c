/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reading gd_compare's inputs: a whole file parsed strictly (an error
 * names the byte where json-c stopped), refused unless it is a run
 * document of the schema this build writes, and the run's identity.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"
#include "tools/compare/compare_tool.h"
#include "util/error.h"
#include "util/json_get.h"

/* /3 only renamed the keys of "options" (snake_case), which gd_compare
 * reads under either name; /4 those of "test", of which gd_compare reads
 * only keys that were snake_case already (verb, measure, repeat). */
#define GD_CMP_SCHEMA "gdperf.run/4"
#define GD_CMP_SCHEMA_V3 "gdperf.run/3"
#define GD_CMP_SCHEMA_V2 "gdperf.run/2"
/* A run document of 128 sizes, 64 rounds and every phase stays far
 * below this; anything larger is not one. */
#define GD_CMP_MAX_DOC_BYTES (256u << 20)

static int gd_cmp_read(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *b;
	int err;

	if (!f)
		return gd_err(-errno,
			      "%s: cannot open the run document: %s; check the "
			      "path and its permissions",
			      path, strerror(errno));
	b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap || cap >= GD_CMP_MAX_DOC_BYTES)
			break;
		cap *= 2;
		char *nb = realloc(b, cap);

		if (!nb)
			free(b);
		b = nb;
	}
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!b)
		return gd_err(-ENOMEM, "%s: out of memory reading it", path);
	if (err || n >= GD_CMP_MAX_DOC_BYTES) {
		free(b);
		return gd_err(err ?: -EFBIG,
			      "%s: %s; is it a gdperf run document?", path,
			      err ? "read error" : "larger than 256 MiB");
	}
	*buf = b;
	*len = n;
	return 0;
}

/* The text from the word that holds byte @at, for a reader, and the word's
 * offset: json-c's own words ("null expected") name its parser's state,
 * not what the file holds. */
static size_t gd_cmp_excerpt(const char *buf, size_t len, size_t at, char *out,
			     size_t out_len)
{
	size_t n = 0, i;

	while (at > 0 && at <= len && isalnum((unsigned char)buf[at - 1]))
		at--;
	if (at >= len) {
		snprintf(out, out_len, "the end of the file");
		return at;
	}
	n = (size_t)snprintf(out, out_len, "'");
	for (i = at; i < len && i < at + 16 && n + 5 < out_len &&
		     isprint((unsigned char)buf[i]);
	     i++)
		out[n++] = buf[i];
	snprintf(out + n, out_len - n, "%s'",
		 i < len && isprint((unsigned char)buf[i]) ? "..." : "");
	return at;
}

static int gd_cmp_parse(const char *path, const char *buf, size_t len,
			struct json_object **doc)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	struct json_object *o;
	char near[40];
	size_t end;

	if (!tok)
		return gd_err(-ENOMEM, "%s: out of memory parsing it", path);
	o = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* a bare literal at the end of the file ("null", "3") waits for a
	 * terminator: the end of the file is one */
	if (!o && jerr == json_tokener_continue) {
		o = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		if (jerr != json_tokener_success)
			jerr = json_tokener_continue;
	}
	json_tokener_free(tok);
	/* json-c parses a bare "null" to NULL with success */
	if (jerr == json_tokener_success) {
		while (end < len && strchr(" \t\r\n", buf[end]))
			end++;
		if (end == len) {
			*doc = o;
			return 0;
		}
		json_object_put(o);
		return gd_err(-EINVAL,
			      "%s: not valid JSON: text after the document at "
			      "byte %zu; check that the file holds one run "
			      "document",
			      path, end);
	}
	json_object_put(o);
	if (jerr == json_tokener_continue)
		return gd_err(-EINVAL,
			      "%s: not valid JSON: the text ends inside the "
			      "document at byte %zu; was the run interrupted "
			      "while writing it?",
			      path, end);
	end = gd_cmp_excerpt(buf, len, end, near, sizeof(near));
	return gd_err(-EINVAL,
		      "%s: not valid JSON: unexpected text at byte %zu: %s; "
		      "check that it is a gd_* benchmark's --out_json_file "
		      "document, unedited",
		      path, end, near);
}

/* What a parsed document is when it is not an object, in words. */
static const char *gd_cmp_json_kind(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "boolean";
	case json_type_double:
	case json_type_int:
		return "number";
	case json_type_string:
		return "string";
	case json_type_array:
		return "array";
	default:
		return "object";
	}
}

int gd_cmp_load(const char *path, struct json_object **doc)
{
	struct json_object *d = NULL, *phases;
	const char *schema;
	char *buf = NULL;
	size_t len = 0;
	int ret = gd_cmp_read(path, &buf, &len);

	if (ret)
		return ret;
	ret = gd_cmp_parse(path, buf, len, &d);
	free(buf);
	if (ret)
		return ret;
	if (!json_object_is_type(d, json_type_object)) {
		ret = gd_err(
			-EINVAL,
			"%s: a JSON %s, not a run document (an object with "
			"\"schema\": \"%s\"); check that it is a gd_* "
			"benchmark's --out_json_file",
			path, gd_cmp_json_kind(d), GD_CMP_SCHEMA);
		goto put;
	}
	schema = gd_json_str(d, "schema");
	if (!schema || (strcmp(schema, GD_CMP_SCHEMA) &&
			strcmp(schema, GD_CMP_SCHEMA_V3) &&
			strcmp(schema, GD_CMP_SCHEMA_V2))) {
		ret = gd_err(
			-EINVAL,
			"%s: schema '%s', not %s, %s or %s: gd_compare judges "
			"run documents of this release (a gd_* benchmark's "
			"--out_json_file); rerun the test with this "
			"release",
			path, schema ? schema : "(none)", GD_CMP_SCHEMA,
			GD_CMP_SCHEMA_V3, GD_CMP_SCHEMA_V2);
		goto put;
	}
	phases = gd_json_path(d, "phases", NULL);
	if (!json_object_is_type(phases, json_type_array) ||
	    !gd_json_len(phases)) {
		ret = gd_err(-EINVAL,
			     "%s: no phases[]: is this the client's document "
			     "(the server's holds no figures)?",
			     path);
		goto put;
	}
	*doc = d;
	return 0;
put:
	json_object_put(d);
	return ret;
}

static void gd_cmp_copy(struct json_object *to, struct json_object *from,
			const char *key)
{
	struct json_object *v;

	if (json_object_object_get_ex(from, key, &v) && v)
		json_object_object_add(to, key, json_object_get(v));
}

struct json_object *gd_cmp_identity(const struct gd_cmp_input *in)
{
	static const char *const keys[] = { "schema",	  "tool",
					    "version",	  "hostname",
					    "started_at", "command_line",
					    "labels",	  "commit" };
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(in->path));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		gd_cmp_copy(o, in->doc, keys[i]);
	gd_cmp_copy(o, gd_json_path(in->doc, "header", NULL), "device");
	return o;
}
