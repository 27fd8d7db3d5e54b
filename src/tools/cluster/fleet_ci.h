/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's --junit and --openmetrics: the fleet document (gdperf.fleet)
 * as one JUnit testsuite per campaign and as gauges.
 */
#ifndef GD_FLEET_CI_H
#define GD_FLEET_CI_H

struct json_object;

/* One testsuite: a testcase per acceptance gate (failed: <failure
 * type="gate_failed"> with its detail) and per campaign requirement (open:
 * <skipped type="requirement_open"> with its evidence). @dir: the results
 * directory; @json_path: --json's file or NULL. 0 or -errno. */
int gd_fleet_write_junit(struct json_object *doc, const char *path,
			 const char *dir, const char *json_path);
/* Gauges: pass, gate and requirement states, executions per status,
 * failure domains, documents read and skipped. 0 or -errno. */
int gd_fleet_write_metrics(struct json_object *doc, const char *path);

#endif
