/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Counter snapshots and deltas from the mlx5-like and rxe-like fixture
 * trees (expected deltas computed by hand in each fixture's README), the
 * strict value parser, and the root override.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "transport/counters.h"
#include "util/error.h"

static void fixture_root(char *buf, size_t len, const char *tree,
			 const char *when)
{
	const char *top = getenv("GD_TOP_SRCDIR");

	snprintf(buf, len, "%s/tests/fixtures/%s/%s", top ? top : ".", tree,
		 when);
}

static struct json_object *fixture_delta(const char *tree, const char *dev,
					 unsigned int *n_after)
{
	struct gd_counter_snap *before, *after;
	struct json_object *delta;
	char root[PATH_MAX];

	fixture_root(root, sizeof(root), tree, "before");
	assert_int_equal(gd_counters_snapshot(root, dev, 1, &before), 0);
	fixture_root(root, sizeof(root), tree, "after");
	assert_int_equal(gd_counters_snapshot(root, dev, 1, &after), 0);
	*n_after = gd_counters_count(after);
	assert_int_equal(gd_counters_delta(before, after, &delta), 0);
	gd_counters_free(before);
	gd_counters_free(after);
	return delta;
}

static struct json_object *entry(struct json_object *delta, const char *name)
{
	struct json_object *list = json_object_object_get(delta, "counters");

	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct json_object *e = json_object_array_get_idx(list, i);

		if (!strcmp(json_object_get_string(
				    json_object_object_get(e, "name")),
			    name))
			return e;
	}
	return NULL;
}

static void assert_counter(struct json_object *delta, const char *name,
			   int64_t d, const char *unit, const char *cls)
{
	struct json_object *e = entry(delta, name);

	assert_non_null(e);
	assert_int_equal(
		json_object_get_int64(json_object_object_get(e, "delta")), d);
	assert_string_equal(
		json_object_get_string(json_object_object_get(e, "unit")),
		unit);
	assert_string_equal(
		json_object_get_string(json_object_object_get(e, "class")),
		cls);
	assert_int_equal(
		json_object_get_boolean(json_object_object_get(e, "error")),
		!strcmp(cls, "error"));
}

static void assert_list(struct json_object *delta, const char *key,
			const char *const *want, size_t n)
{
	struct json_object *a = json_object_object_get(delta, key);

	assert_int_equal(json_object_array_length(a), n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(
			json_object_get_string(json_object_array_get_idx(a, i)),
			want[i]);
}

static int64_t field(struct json_object *delta, const char *key)
{
	struct json_object *v = json_object_object_get(delta, key);

	return v ? json_object_get_int64(v) : -1;
}

static void test_mlx5_fixture(void **state)
{
	static const char *const errs[] = { "symbol_error" };
	static const char *const cong[] = { "np_cnp_sent" };
	static const char *const retr[] = { "duplicate_request" };
	struct json_object *list, *notes;
	unsigned int n;
	struct json_object *d = fixture_delta("sysfs-mlx5", "mlx5_0", &n);

	/* 21 in counters/ + 17 in hw_counters/ - lifespan - bad_value */
	assert_int_equal(n, 36);
	list = json_object_object_get(d, "counters");
	assert_int_equal(json_object_array_length(list), 36);
	/* counters/ first, sorted by name (strcmp: upper case first) */
	assert_string_equal(
		json_object_get_string(json_object_object_get(
			json_object_array_get_idx(list, 0), "name")),
		"VL15_dropped");
	assert_string_equal(
		json_object_get_string(json_object_object_get(
			json_object_array_get_idx(list, 21), "name")),
		"duplicate_request");
	assert_string_equal(
		json_object_get_string(json_object_object_get(
			json_object_array_get_idx(list, 21), "group")),
		"hw_counters");
	/* 17039360 words x 4 */
	assert_counter(d, "port_xmit_data", 68157440, "bytes", "traffic");
	assert_counter(d, "port_rcv_data", 1048576, "bytes", "traffic");
	assert_counter(d, "port_xmit_packets", 16640, "packets", "traffic");
	assert_counter(d, "symbol_error", 2, "count", "error");
	assert_counter(d, "link_downed", 0, "count", "error");
	assert_counter(d, "np_cnp_sent", 3, "count", "congestion");
	assert_counter(d, "duplicate_request", 4, "count", "retry");
	assert_counter(d, "rx_write_requests", 16384, "count", "other");
	assert_counter(d, "port_xmit_wait", 45, "count", "other");
	assert_counter(d, "np_ecn_marked_roce_packets", 0, "packets",
		       "congestion");
	assert_null(entry(d, "lifespan"));
	assert_null(entry(d, "bad_value"));
	assert_list(d, "errors_moved", errs, 1);
	assert_list(d, "congestion_moved", cong, 1);
	assert_list(d, "retries_moved", retr, 1);
	assert_int_equal(field(d, "tx_bytes"), 68157440);
	assert_int_equal(field(d, "rx_bytes"), 1048576);
	assert_int_equal(field(d, "tx_packets"), 16640);
	assert_int_equal(field(d, "rx_packets"), 1024);
	notes = json_object_object_get(d, "notes");
	assert_int_equal(json_object_array_length(notes),
			 2); /* one per snapshot */
	assert_non_null(strstr(
		json_object_get_string(json_object_array_get_idx(notes, 0)),
		"hw_counters/bad_value: not an unsigned decimal"));
	json_object_put(d);
}

static void test_rxe_fixture(void **state)
{
	static const char *const retr[] = { "completer_retry_err",
					    "duplicate_request" };
	struct json_object *list;
	unsigned int n;
	struct json_object *d = fixture_delta("sysfs-rxe", "rxe0", &n);

	/* 16 rxe files minus lifespan; no counters/ directory is normal */
	assert_int_equal(n, 15);
	list = json_object_object_get(d, "counters");
	for (size_t i = 0; i < json_object_array_length(list); i++)
		assert_string_equal(
			json_object_get_string(json_object_object_get(
				json_object_array_get_idx(list, i), "group")),
			"hw_counters");
	assert_null(entry(d, "lifespan"));
	assert_counter(d, "sent_pkts", 131500, "packets", "traffic");
	assert_counter(d, "rcvd_pkts", 131500, "packets", "traffic");
	assert_counter(d, "completer_retry_err", 3, "count", "retry");
	assert_counter(d, "duplicate_request", 5, "count", "retry");
	assert_counter(d, "retry_exceeded_err", 0, "count", "error");
	assert_counter(d, "send_err", 0, "count", "error");
	assert_list(d, "errors_moved", NULL, 0);
	assert_list(d, "retries_moved", retr, 2);
	assert_int_equal(field(d, "tx_packets"), 131500);
	assert_int_equal(field(d, "rx_packets"), 131500);
	assert_null(json_object_object_get(d, "tx_bytes"));
	assert_null(json_object_object_get(d, "rx_bytes"));
	assert_int_equal(
		json_object_array_length(json_object_object_get(d, "notes")),
		0);
	json_object_put(d);
}

static void test_missing_port_and_bad_args(void **state)
{
	struct gd_counter_snap *s;
	struct json_object *d;
	char root[PATH_MAX];

	fixture_root(root, sizeof(root), "sysfs-rxe", "before");
	assert_int_equal(gd_counters_snapshot(root, "rxe0", 2, &s), 0);
	assert_int_equal(gd_counters_count(s), 0);
	assert_int_equal(gd_counters_delta(s, s, &d), 0);
	assert_int_equal(
		json_object_array_length(json_object_object_get(d, "counters")),
		0);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(
				       json_object_object_get(d, "notes"), 0)),
			       "no such port directory"));
	assert_null(json_object_object_get(d, "tx_packets"));
	json_object_put(d);
	gd_counters_free(s);

	gd_err_clear();
	assert_int_equal(gd_counters_snapshot(root, "../etc", 1, &s), -EINVAL);
	assert_null(s);
	assert_true(gd_err_is_set());
	assert_int_equal(gd_counters_snapshot(root, "rxe0", 0, &s), -EINVAL);
	gd_err_clear();
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Counter that went backwards, one that appeared, blanks, a directory. */
static void test_tmp_tree_edge_cases(void **state)
{
	char tmpl[] = "/tmp/gd-counters-XXXXXX", dir[2][PATH_MAX];
	struct gd_counter_snap *s[2];
	struct json_object *d, *notes;
	const char *top = mkdtemp(tmpl);

	assert_non_null(top);
	for (int i = 0; i < 2; i++) {
		char p[PATH_MAX + 32];

		snprintf(p, sizeof(p), "%s/%d", top, i);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/%d/dev", top, i);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/%d/dev/ports", top, i);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/%d/dev/ports/1", top, i);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(dir[i], sizeof(dir[i]), "%s/%d/dev/ports/1/counters",
			 top, i);
		assert_int_equal(mkdir(dir[i], 0700), 0);
		snprintf(p, sizeof(p), "%s/subdir", dir[i]);
		assert_int_equal(mkdir(p, 0700), 0);
		write_file(dir[i], "blank", " 3\n");
		write_file(dir[i], "port_rcv_errors", i ? "5\n" : "10\n");
	}
	write_file(dir[1], "late_counter", "1\n");
	for (int i = 0; i < 2; i++) {
		char root[PATH_MAX];

		snprintf(root, sizeof(root), "%s/%d", top, i);
		assert_int_equal(gd_counters_snapshot(root, "dev", 1, &s[i]),
				 0);
	}
	assert_int_equal(gd_counters_count(s[0]), 1);
	assert_int_equal(gd_counters_count(s[1]), 2);
	assert_int_equal(gd_counters_delta(s[0], s[1], &d), 0);
	assert_int_equal(
		json_object_array_length(json_object_object_get(d, "counters")),
		1);
	assert_null(
		json_object_object_get(entry(d, "port_rcv_errors"), "delta"));
	assert_int_equal(json_object_array_length(
				 json_object_object_get(d, "errors_moved")),
			 0);
	notes = json_object_object_get(d, "notes");
	/* blank x2, late_counter, went backwards */
	assert_int_equal(json_object_array_length(notes), 4);
	assert_non_null(strstr(
		json_object_get_string(json_object_array_get_idx(notes, 2)),
		"counters/late_counter: absent before"));
	assert_non_null(strstr(
		json_object_get_string(json_object_array_get_idx(notes, 3)),
		"port_rcv_errors: went backwards"));
	json_object_put(d);
	gd_counters_free(s[0]);
	gd_counters_free(s[1]);
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		assert_int_equal(system(cmd), 0);
	}
}

static void test_parse_u64(void **state)
{
	uint64_t v = 0;

	assert_int_equal(gd_counters_parse_u64("12\n", &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(gd_counters_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(gd_counters_parse_u64("18446744073709551615\n", &v),
			 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(gd_counters_parse_u64("18446744073709551616", &v),
			 -ERANGE);
	assert_int_equal(gd_counters_parse_u64("", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64("\n", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64(" 3", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64("-1", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64("+1", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64("12abc", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64("1\n\n", &v), -EINVAL);
	assert_int_equal(gd_counters_parse_u64("N/A\n", &v), -EINVAL);
}

static void test_classify(void **state)
{
	static const char *const errors[] = {
		"symbol_error",
		"port_rcv_errors",
		"link_downed",
		"link_error_recovery",
		"local_link_integrity_errors",
		"excessive_buffer_overrun_errors",
		"port_xmit_discards",
		"port_rcv_remote_physical_errors",
		"rnr_nak_retry_err",
		"packet_seq_err",
		"implied_nak_seq_err",
		"local_ack_timeout_err",
		"out_of_buffer",
		"out_of_sequence",
		"retry_exceeded_err",
		"retry_rnr_exceeded_err",
		"send_err",
	};
	static const char *const not_errors[] = {
		"completer_retry_err",
		"duplicate_request",
		"np_cnp_sent",
		"rp_cnp_handled",
		"np_ecn_marked_roce_packets",
		"sent_pkts",
		"port_xmit_data",
		"lifespan",
		"rdma_sends",
	};

	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		assert_true(gd_counter_is_error(errors[i]));
	for (size_t i = 0; i < sizeof(not_errors) / sizeof(not_errors[0]); i++)
		assert_false(gd_counter_is_error(not_errors[i]));
	assert_int_equal(gd_counter_classify("rp_cnp_handled"),
			 GD_COUNTER_CONGESTION);
	assert_int_equal(gd_counter_classify("completer_retry_err"),
			 GD_COUNTER_RETRY);
	assert_string_equal(gd_counter_unit("port_rcv_data"), "bytes");
	assert_string_equal(gd_counter_unit("unicast_xmit_packets"), "packets");
	assert_string_equal(gd_counter_unit("rcvd_pkts"), "packets");
	assert_string_equal(gd_counter_unit("symbol_error"), "count");
}

static void test_root_override(void **state)
{
	assert_int_equal(unsetenv("GD_COUNTERS_ROOT"), 0);
	assert_string_equal(gd_counters_root(NULL), "/sys/class/infiniband");
	assert_string_equal(gd_counters_root(""), "/sys/class/infiniband");
	assert_int_equal(setenv("GD_COUNTERS_ROOT", "/fixture/env", 1), 0);
	assert_string_equal(gd_counters_root(NULL), "/fixture/env");
	assert_string_equal(gd_counters_root("/fixture/opt"), "/fixture/opt");
	assert_int_equal(setenv("GD_COUNTERS_ROOT", "", 1), 0);
	assert_string_equal(gd_counters_root(NULL), "/sys/class/infiniband");
	assert_int_equal(unsetenv("GD_COUNTERS_ROOT"), 0);
}

/* The environment override reaches a real snapshot of the fixture. */
static void test_env_root_snapshot(void **state)
{
	struct gd_counter_snap *s;
	char root[PATH_MAX];

	fixture_root(root, sizeof(root), "sysfs-rxe", "after");
	assert_int_equal(setenv("GD_COUNTERS_ROOT", root, 1), 0);
	assert_int_equal(
		gd_counters_snapshot(gd_counters_root(NULL), "rxe0", 1, &s), 0);
	assert_int_equal(gd_counters_count(s), 15);
	gd_counters_free(s);
	unsetenv("GD_COUNTERS_ROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mlx5_fixture),
		cmocka_unit_test(test_rxe_fixture),
		cmocka_unit_test(test_missing_port_and_bad_args),
		cmocka_unit_test(test_tmp_tree_edge_cases),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_root_override),
		cmocka_unit_test(test_env_root_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
