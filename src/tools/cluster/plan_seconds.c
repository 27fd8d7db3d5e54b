/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_plan --seconds-from RUN.json: the seconds per execution from the
 * time account of a run of the same job (its wall_s), so the campaign's
 * hours follow what a run really costs (setup, warm-up, counter reads,
 * the sweep's steps) instead of a guess.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/plan.h"
#include "util/error.h"
#include "util/json_get.h"

int gd_plan_seconds_from(struct gd_plan_cfg *c, const char *path)
{
	struct json_object *doc = json_object_from_file(path), *acct;
	const char *schema;
	double wall = NAN, windows = NAN;
	int ret = 0;

	if (!doc)
		return gd_err(-EINVAL,
			      "--seconds-from %s: cannot read it as JSON (%s); "
			      "give a run document (--out_json_file)",
			      path, json_util_get_last_err());
	schema = gd_json_str(doc, "schema");
	acct = gd_json_path(doc, "time_account", NULL);
	if (!schema || strcmp(schema, "gdperf.run/2"))
		ret = gd_err(-EINVAL,
			     "--seconds-from %s: schema '%s' is not a run "
			     "document (gdperf.run/2)",
			     path, schema ? schema : "none");
	else if (!acct || !gd_json_num(acct, "wall_s", &wall) || !(wall > 0))
		ret = gd_err(-EINVAL,
			     "--seconds-from %s: no time_account.wall_s in it; "
			     "run the job again with this gdperf, which writes "
			     "the time account",
			     path);
	if (!ret) {
		(void)gd_json_num(gd_json_path(acct, "steps", NULL), "window_s",
				  &windows);
		c->seconds = wall;
		c->seconds_from_window_share = windows / wall;
		snprintf(c->seconds_from, sizeof(c->seconds_from), "%s", path);
	}
	json_object_put(doc);
	return ret;
}
