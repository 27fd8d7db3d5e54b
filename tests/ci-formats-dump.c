// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The run's --openmetrics (and its Prometheus text form) and --junit
 * writers over a saved run document, for tests/ci-formats.sh: no device
 * is needed to prove what they write.
 *   ci-formats-dump metrics|metrics-sizes|prom|junit RUN.json OUT
 *   ci-formats-dump fleet-junit FLEET.json OUT   (gd_report's --junit)
 */
#include <config.h>

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "report/junit.h"
#include "report/metrics.h"
#include "tools/cluster/fleet_ci.h"
#include "util/error.h"

int main(int argc, char **argv)
{
	struct json_object *doc;
	int ret;

	if (argc != 4) {
		fprintf(stderr,
			"usage: ci-formats-dump metrics|metrics-sizes|prom|junit|fleet-junit DOC.json OUT\n");
		return 2;
	}
	doc = json_object_from_file(argv[2]);
	if (!doc) {
		fprintf(stderr, "ci-formats-dump: cannot read %s: %s\n",
			argv[2], json_util_get_last_err());
		return 1;
	}
	if (!strcmp(argv[1], "fleet-junit"))
		ret = gd_fleet_write_junit(doc, argv[3], "results", argv[2]);
	else if (!strcmp(argv[1], "junit"))
		ret = gd_junit_run_write(argv[3], doc, argv[2]);
	else if (!strcmp(argv[1], "prom"))
		ret = gd_metrics_run_write_as(argv[3], GD_METRICS_PROM, doc,
					      false);
	else
		ret = gd_metrics_run_write(argv[3], doc,
					   !strcmp(argv[1], "metrics-sizes"));
	json_object_put(doc);
	if (ret)
		fprintf(stderr, "ci-formats-dump: %s\n", gd_err_msg());
	return ret ? 1 : 0;
}
