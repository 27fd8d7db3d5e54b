/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Tolerant readers of json-c objects, shared by every module that reads a
 * JSON document or a side-channel payload: a missing key or a value of
 * another type reads as "absent", never as a crash.
 */
#ifndef GD_JSON_GET_H
#define GD_JSON_GET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/* The string at @key, or NULL when absent or not a string. */
const char *gd_json_str(struct json_object *obj, const char *key);
/* The number (int or double) at @key into @out; false when absent. */
bool gd_json_num(struct json_object *obj, const char *key, double *out);
/* The integer at @key, or @dflt when absent or not an integer. */
int64_t gd_json_int(struct json_object *obj, const char *key, int64_t dflt);
/* obj.a, or obj.a.b when @b is given; NULL when absent or null. */
struct json_object *gd_json_path(struct json_object *obj, const char *a,
				 const char *b);
/* Elements of @arr; 0 when NULL or not an array (json-c asserts). */
size_t gd_json_len(struct json_object *arr);
/* Element @i of @arr; NULL when out of range or @arr is not an array. */
struct json_object *gd_json_idx(struct json_object *arr, size_t i);

/*
 * The whole of file @path, the argument of option @opt ("--diff"), parsed
 * as one JSON value into @doc. A file that cannot be opened or read, or
 * that is not one JSON value, is recorded in one line, as every program
 * says it: "@opt: cannot open 'PATH': reason; check the path and its
 * permissions", "@opt: 'PATH' is not valid JSON: reason at byte N".
 * Returns 0 or a -errno (-EINVAL for the text).
 */
int gd_json_load(const char *opt, const char *path, struct json_object **doc);

#endif
