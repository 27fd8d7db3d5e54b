/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor --diff: what differs between two nodes' envelopes, leaf by
 * leaf, matching array elements by their identity (device name, PCI
 * address, finding id) rather than position. Per-node identities (host
 * name, GUIDs, UUIDs, GIDs, timestamps) are expected to differ and skipped.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/doctor/output.h"
#include "util/error.h"
#include "util/json_get.h"

static const char *const gd_diff_ignored[] = {
	"collected_at", "hostname", "node_guid",    "uuid", "gids",
	"root",		"xml",	    "command_line", NULL,
};

struct gd_diff {
	FILE *out;
	int count;
};

static bool gd_diff_ignore(const char *key)
{
	int i;

	for (i = 0; gd_diff_ignored[i]; i++)
		if (!strcmp(key, gd_diff_ignored[i]))
			return true;
	return false;
}

static const char *gd_diff_str(struct json_object *o)
{
	if (!o)
		return "null";
	return json_object_get_type(o) == json_type_string
		       ? json_object_get_string(o)
		       : json_object_to_json_string_ext(
				 o, JSON_C_TO_STRING_PLAIN |
					    JSON_C_TO_STRING_NOSLASHESCAPE);
}

static void gd_diff_report(struct gd_diff *d, const char *path,
			   struct json_object *a, struct json_object *b,
			   bool a_has, bool b_has)
{
	d->count++;
	fprintf(d->out, "%s: %s | %s\n", path,
		a_has ? gd_diff_str(a) : "(absent)",
		b_has ? gd_diff_str(b) : "(absent)");
}

/* Identity of an array element: the first identifying key it has. */
static bool gd_diff_elem_key(struct json_object *e, char *key, size_t len)
{
	static const char *const ids[] = { "name",   "device", "pci_bus_id",
					   "bridge", "port",   NULL };
	struct json_object *v, *s;
	int i;

	if (!json_object_is_type(e, json_type_object))
		return false;
	if (json_object_object_get_ex(e, "id", &v) &&
	    json_object_object_get_ex(e, "subject", &s)) {
		snprintf(key, len, "%s@%s", json_object_get_string(v),
			 json_object_get_string(s));
		return true;
	}
	for (i = 0; ids[i]; i++)
		if (json_object_object_get_ex(e, ids[i], &v) && v) {
			snprintf(key, len, "%s", json_object_get_string(v));
			return true;
		}
	return false;
}

static void gd_diff_walk(struct gd_diff *d, const char *path,
			 struct json_object *a, struct json_object *b);

static struct json_object *gd_diff_find(struct json_object *arr,
					const char *key)
{
	size_t i, n = json_object_array_length(arr);
	char k[160];

	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);

		if (gd_diff_elem_key(e, k, sizeof(k)) && !strcmp(k, key))
			return e;
	}
	return NULL;
}

/* Elements of @x missing from @y (by identity), or present in both. */
static void gd_diff_keyed(struct gd_diff *d, const char *path,
			  struct json_object *x, struct json_object *y,
			  bool x_is_a)
{
	size_t i, n = json_object_array_length(x);
	char key[160], sub[1024];

	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(x, i), *o;

		gd_diff_elem_key(e, key, sizeof(key));
		snprintf(sub, sizeof(sub), "%s[%s]", path, key);
		o = gd_diff_find(y, key);
		if (!o)
			gd_diff_report(d, sub, x_is_a ? e : NULL,
				       x_is_a ? NULL : e, x_is_a, !x_is_a);
		else if (x_is_a)
			gd_diff_walk(d, sub, e, o);
	}
}

static void gd_diff_array(struct gd_diff *d, const char *path,
			  struct json_object *a, struct json_object *b)
{
	char key[160];

	if (json_object_array_length(a) && json_object_array_length(b) &&
	    gd_diff_elem_key(json_object_array_get_idx(a, 0), key,
			     sizeof(key)) &&
	    gd_diff_elem_key(json_object_array_get_idx(b, 0), key,
			     sizeof(key))) {
		gd_diff_keyed(d, path, a, b, true);
		gd_diff_keyed(d, path, b, a, false);
		return;
	}
	if (strcmp(gd_diff_str(a), gd_diff_str(b)))
		gd_diff_report(d, path, a, b, true, true);
}

static void gd_diff_object(struct gd_diff *d, const char *path,
			   struct json_object *a, struct json_object *b)
{
	char sub[1024];
	struct json_object *o;

	json_object_object_foreach(a, ka, va)
	{
		if (gd_diff_ignore(ka))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "",
			 ka);
		if (json_object_object_get_ex(b, ka, &o))
			gd_diff_walk(d, sub, va, o);
		else
			gd_diff_report(d, sub, va, NULL, true, false);
	}
	json_object_object_foreach(b, kb, vb)
	{
		if (gd_diff_ignore(kb) ||
		    json_object_object_get_ex(a, kb, NULL))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "",
			 kb);
		gd_diff_report(d, sub, NULL, vb, false, true);
	}
}

static void gd_diff_walk(struct gd_diff *d, const char *path,
			 struct json_object *a, struct json_object *b)
{
	enum json_type ta = json_object_get_type(a),
		       tb = json_object_get_type(b);

	if (ta == json_type_object && tb == json_type_object)
		gd_diff_object(d, path, a, b);
	else if (ta == json_type_array && tb == json_type_array)
		gd_diff_array(d, path, a, b);
	else if (ta != tb || strcmp(gd_diff_str(a), gd_diff_str(b)))
		gd_diff_report(d, path, a, b, true, true);
}

/* The envelope inside a gd_doctor or gd_* document, or the document itself. */
static int gd_diff_load(const char *path, struct json_object **doc,
			struct json_object **env)
{
	int ret = gd_json_load("--diff", path, doc);

	if (ret)
		return ret;
	if (!json_object_object_get_ex(*doc, "envelope", env))
		*env = *doc;
	return 0;
}

int gd_doctor_diff(const char *path_a, const char *path_b, FILE *out,
		   int *ndiff)
{
	struct json_object *doc_a, *doc_b, *env_a, *env_b;
	struct gd_diff d = { .out = out };
	int ret;

	ret = gd_diff_load(path_a, &doc_a, &env_a);
	if (ret)
		return ret;
	ret = gd_diff_load(path_b, &doc_b, &env_b);
	if (ret) {
		json_object_put(doc_a);
		return ret;
	}
	fprintf(out, "--- %s\n+++ %s\n", path_a, path_b);
	gd_diff_walk(&d, "", env_a, env_b);
	fprintf(out, "%d difference%s\n", d.count, d.count == 1 ? "" : "s");
	json_object_put(doc_a);
	json_object_put(doc_b);
	*ndiff = d.count;
	return 0;
}
