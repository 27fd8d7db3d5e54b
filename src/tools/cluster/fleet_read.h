/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reading gd_report's input files into json-c objects that hold what it
 * reads of them and no more (fleet_json.h): run and gd_doctor documents,
 * and plans whose executions are handed over one at a time. Text that the
 * pruning reader refuses is read whole by json-c, as it always was.
 */
#ifndef GD_CLUSTER_FLEET_READ_H
#define GD_CLUSTER_FLEET_READ_H

#include <stddef.h>

struct json_object;

/* One tokener and one buffer for every document of a walk. */
struct gd_fleet_reader {
	struct json_tokener *tok;
	char *buf;
	size_t cap;
};

int gd_fleet_reader_init(struct gd_fleet_reader *rd);
void gd_fleet_reader_free(struct gd_fleet_reader *rd);
/* The document at @path (the whole file, one value from its start); NULL
 * and why in @why when it cannot be read or is not JSON. */
struct json_object *gd_fleet_read_doc(struct gd_fleet_reader *rd,
				      const char *path, char *why,
				      size_t why_len);

/* A plan: *@root all but its executions, which gd_fleet_plan_each() hands
 * over; NULL when it is not JSON or cannot be read (errno set). */
struct gd_fleet_plan_text {
	struct json_object *root;
	void *map; /* the file's text when mapped, else root holds all */
	size_t len;
};
int gd_fleet_read_plan(const char *path, struct gd_fleet_plan_text *pt);
/* Every element of the plan's "executions" to @fn until it returns
 * non-zero (returned); -EINVAL or -ENOMEM from the reader. */
int gd_fleet_plan_each(const struct gd_fleet_plan_text *pt,
		       int (*fn)(void *ctx, struct json_object *exec),
		       void *ctx);
void gd_fleet_plan_text_free(struct gd_fleet_plan_text *pt);

#endif
