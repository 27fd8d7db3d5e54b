/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Tolerant readers of json-c objects (see json_get.h).
 */
#include <config.h>

#include <json-c/json.h>

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
