// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * gd_compare --junit: the gdperf.compare/1 document as JUnit XML, one
 * testsuite per comparison (a testcase per gate, its failure's message the
 * verdict's evidence line) and one for the refused inputs (an error each).
 */
#include <config.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/junit.h"
#include "tools/compare/compare_tool.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/output.h"

static void gd_cmp_junit_one(FILE *f, struct json_object *rec,
			     const char *json_path)
{
	const char *cand =
		gd_json_str(gd_json_path(rec, "candidate", NULL), "file");
	const char *base =
		gd_json_str(gd_json_path(rec, "baseline", NULL), "file");
	char *cases = NULL, *props = NULL, name[1024], num[32], host[256];
	size_t clen = 0, plen = 0;
	FILE *c = open_memstream(&cases, &clen);
	FILE *p = open_memstream(&props, &plen);
	struct gd_junit_count n = { 0 };

	if (c && p) {
		gd_junit_gates(c, rec, "gd_compare", &n);
		gd_junit_property(p, "document", json_path ?: "(not written)");
		gd_junit_property(p, "baseline", base);
		gd_junit_property(p, "candidate", cand);
		snprintf(num, sizeof(num), "%lld",
			 (long long)gd_json_int(rec, "exit_status", -1));
		gd_junit_property(p, "exit_status", num);
		gd_junit_property(
			p, "candidate_started_at",
			gd_json_str(gd_json_path(rec, "candidate", NULL),
				    "started_at"));
		fflush(c);
		fflush(p);
		snprintf(name, sizeof(name), "gd_compare %s against %s",
			 cand ?: "?", base ?: "?");
		gd_junit_suite(
			f,
			&(struct gd_junit_suite_id){
				.name = name,
				.hostname =
					gd_junit_hostname(host, sizeof(host)),
				.time_s = gd_junit_since_start(NULL, 0) },
			n.tests, n.failures, n.errors, n.skipped, props, cases);
	}
	if (c)
		fclose(c);
	if (p)
		fclose(p);
	free(cases);
	free(props);
}

static void gd_cmp_junit_errors(FILE *f, struct json_object *errors)
{
	char *cases = NULL, name[1024], host[256];
	size_t clen = 0;
	FILE *c;
	size_t n = gd_json_len(errors);

	if (!n || !(c = open_memstream(&cases, &clen)))
		return;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = gd_json_idx(errors, i);

		snprintf(name, sizeof(name), "input %s",
			 gd_json_str(e, "input") ?: "?");
		gd_junit_case(c, "gd_compare", name, "error",
			      gd_json_str(e, "stage") ?: "load",
			      gd_json_str(e, "message"), NULL);
	}
	fflush(c);
	gd_junit_suite(
		f,
		&(struct gd_junit_suite_id){
			.name = "gd_compare inputs",
			.hostname = gd_junit_hostname(host, sizeof(host)),
			.time_s = gd_junit_since_start(NULL, 0) },
		(int)n, 0, (int)n, 0, NULL, cases);
	fclose(c);
	free(cases);
}

int gd_cmp_write_junit(const char *path, struct json_object *res,
		       const char *json_path)
{
	struct json_object *recs = gd_json_path(res, "comparisons", NULL);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int ret;

	if (!f)
		return gd_err(-ENOMEM, "--junit: out of memory building '%s'",
			      path);
	gd_junit_begin(f, "gdperf");
	for (size_t i = 0; i < gd_json_len(recs); i++)
		gd_cmp_junit_one(f, gd_json_idx(recs, i), json_path);
	gd_cmp_junit_errors(f, gd_json_path(res, "errors", NULL));
	gd_junit_end(f);
	if (fclose(f)) {
		free(out);
		return gd_err(-ENOMEM, "--junit: out of memory building '%s'",
			      path);
	}
	ret = gd_out_file_atomic("--junit", path, out);
	free(out);
	return ret;
}
