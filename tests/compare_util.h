/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by the gd_compare judgement tests (compare_test.c), its report
 * tests (compare_print_test.c) and the plot tests: synthetic run documents
 * written with ' for ", and readers of the comparison and its verdicts.
 * Include after <cmocka.h> and <json-c/json.h>.
 */
#ifndef GD_TESTS_COMPARE_UTIL_H
#define GD_TESTS_COMPARE_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

/* Documents are written with ' for " to keep them readable here. */
static inline struct json_object *doc_from(const char *text)
{
	char *s = strdup(text);
	struct json_object *doc;

	assert_non_null(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	doc = json_tokener_parse(s);
	free(s);
	assert_non_null(doc);
	return doc;
}

#define BW_RES(a, b, c)                                                          \
	"'results': [{'size_bytes': 4096, 'iterations': 100, 'bw_avg_MiBps': " a \
	"},"                                                                     \
	"{'size_bytes': 65536, 'iterations': 100, 'bw_avg_MiBps': " b "},"       \
	"{'size_bytes': 1048576, 'iterations': 100, 'bw_avg_MiBps': " c "}]"

#define PH_OK(pl, dir, res)                                                    \
	"{'name': '" pl "', 'placement': '" pl "', 'direction': '" dir         \
	"', 'status': 'ok', " res "}"

#define PH_FAIL(pl, dir, errno_name, msg)                                      \
	"{'name': '" pl "', 'placement': '" pl "', 'direction': '" dir         \
	"', 'status': 'failed',"                                               \
	" 'error': {'code': -5, 'errno_name': '" errno_name                    \
	"', 'message': '" msg "'}, 'results': []}"

#define BW_DOC(phases)                                                           \
	"{'test': {'verb': 'write', 'measure': 'bw'}, 'units': {'bw': 'MiB/s'}," \
	" 'header': {'active_mtu_bytes': 4096}, 'phases': [" phases "]}"

/* One forward phase @pl at 64 KiB over three rounds (@a, @b, @c MiB/s). */
#define BW3(pl, a, b, c)                                                       \
	"{'name': '" pl "', 'placement': '" pl "', 'direction': 'forward',"    \
	" 'status': 'ok', 'results': ["                                        \
	"{'size_bytes': 65536, 'bw_avg_MiBps': " b ", 'samples': ["            \
	"{'bw_avg_MiBps': " a "}, {'bw_avg_MiBps': " b "},"                    \
	" {'bw_avg_MiBps': " c "}]}]}"

static const char *const hh_dd_bw __attribute__((unused)) =
	BW_DOC(PH_OK("HH", "forward", BW_RES("1000", "2000", "4000")) "," PH_OK(
		"DD", "forward", BW_RES("900", "1000", "3000")));

struct run {
	struct json_object *doc, *cmp, *verdicts;
	bool gate_failed;
};

static inline void run_doc(struct run *r, const char *text,
			   const struct gd_gate_cfg *g)
{
	r->doc = doc_from(text);
	assert_int_equal(gd_compare_run(r->doc, g, &r->cmp, &r->verdicts,
					&r->gate_failed),
			 0);
	assert_non_null(r->cmp);
	assert_non_null(r->verdicts);
}

static inline void run_free(struct run *r)
{
	json_object_put(r->doc);
	json_object_put(r->cmp);
	json_object_put(r->verdicts);
}

static inline double num_at(struct json_object *o, const char *a, const char *b)
{
	struct json_object *v = json_object_object_get(o, a);

	if (b)
		v = json_object_object_get(v, b);
	assert_non_null(v);
	return json_object_get_double(v);
}

static inline struct json_object *verdict(struct run *r, const char *code)
{
	for (size_t i = 0; i < json_object_array_length(r->verdicts); i++) {
		struct json_object *v =
			json_object_array_get_idx(r->verdicts, i);

		if (!strcmp(json_object_get_string(
				    json_object_object_get(v, "code")),
			    code))
			return v;
	}
	return NULL;
}

static inline const char *vstr(struct json_object *v, const char *key)
{
	assert_non_null(v);
	return json_object_get_string(json_object_object_get(v, key));
}

/* All evidence lines joined, for substring checks. */
static inline const char *evidence(struct json_object *v, char *buf, size_t len)
{
	struct json_object *ev = json_object_object_get(v, "evidence");
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(ev) && off < len; i++)
		off += (size_t)snprintf(
			buf + off, len - off, "%s|",
			json_object_get_string(
				json_object_array_get_idx(ev, i)));
	return buf;
}

/* One latency size, HH against DD. */
static const char *const lat_doc __attribute__((unused)) =
	"{'test': {'verb': 'write', 'measure': 'lat'}, 'phases': ["
	"{'placement': 'HH', 'status': 'ok', 'results': [{'size_bytes': 8, 'iterations': 1000,"
	" 'lat_typical_us': 2.0, 'lat_p99_us': 3.0}]},"
	"{'placement': 'DD', 'status': 'ok', 'results': [{'size_bytes': 8, 'iterations': 1000,"
	" 'lat_typical_us': 3.0, 'lat_p99_us': 5.5}]}]}";

#endif
