/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's reader of large JSON (run documents by the million, plans of
 * 100k GPUs): it checks the whole text but builds json-c objects only for
 * the members a keep-list names, the objects json-c itself would build.
 * Text that is not plain JSON is refused, for json-c to read as before.
 */
#ifndef GD_CLUSTER_FLEET_JSON_H
#define GD_CLUSTER_FLEET_JSON_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* One member kept of an object; a list ends with a NULL key. */
struct gd_fleet_keep {
	const char *key;
	/* The members kept of an object value, and of every object in an
	 * array value (at any depth); NULL keeps the whole value. */
	const struct gd_fleet_keep *sub;
};

/* The first value of @text (@len bytes), which must be an object, with
 * the members @keep names, into *@out: what json_tokener_parse_ex makes of
 * the same text, less the members not named (duplicates: the last one).
 * -EINVAL where the text is not strict JSON of at most json-c's depth,
 * holds a \u escape, a control character in a string or an integer of
 * more than 18 digits (json-c reads those its own way: let it), -ENOMEM. */
int gd_fleet_json_read(const char *text, size_t len,
		       const struct gd_fleet_keep *keep,
		       struct json_object **out);

/* Every element of the array that is the last member @key of the object
 * @text, pruned by @keep (an element that is no object: whole), to @fn,
 * and put after it; none when @key is absent or not an array. Returns
 * @fn's first non-zero value, -EINVAL or -ENOMEM as above. For text that
 * gd_fleet_json_read() accepted: a fault past the elements handed over is
 * found, but after them. */
int gd_fleet_json_each(const char *text, size_t len, const char *key,
		       const struct gd_fleet_keep *keep,
		       int (*fn)(void *ctx, struct json_object *elem),
		       void *ctx);

#endif
