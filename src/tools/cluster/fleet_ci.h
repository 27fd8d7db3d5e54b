/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's --junit, --openmetrics and --prom-textfile: the fleet document
 * (gdperf.fleet) as one JUnit testsuite per campaign and as gauges.
 */
#ifndef GD_FLEET_CI_H
#define GD_FLEET_CI_H

#include "report/metrics.h"

struct json_object;

/* One testsuite: a testcase per acceptance gate (failed: <failure
 * type="gate_failed"> with its detail) and per campaign requirement (open:
 * <skipped type="requirement_open"> with its evidence). @dir: the results
 * directory; @json_path: --json's file or NULL. 0 or -errno. */
int gd_fleet_write_junit(struct json_object *doc, const char *path,
			 const char *dir, const char *json_path);
/* Gauges: pass, gate and requirement states, executions per status,
 * failure domains, documents read and skipped, in @format, every series
 * labelled tool="gd_report" and run=@path's stem. 0 or -errno. */
int gd_fleet_write_metrics(struct json_object *doc, const char *path,
			   enum gd_metrics_format format);

#endif
