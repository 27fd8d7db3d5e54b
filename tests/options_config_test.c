/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for --config=FILE (src/cli/options_file.c): settings taken
 * from the file, the command line winning over it (also where the two would
 * exclude each other), the file's SHA-256 and overridden keys in the
 * "options" section, and every malformed file refused with its line.
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "cli/options.h"
#include "opts_util.h"

/* The file's bytes are fixed so that its hash is too (sha256sum). */
static const char lab_file[] = "# lab sweep\niters = 300\nsize = 4K\n"
			       "verify = yes\n\nmin-size=4k\n";
static const char lab_sha256[] =
	"400d2e1783451e61a8c9ae322aeb9142cc18a5ccb117d27b80284f43e8fe1bc9";

static char cfg_path[64];

static const char *write_cfg(const char *text)
{
	FILE *f;

	snprintf(cfg_path, sizeof(cfg_path), "/tmp/gd-cfg-test.%ld",
		 (long)getpid());
	f = fopen(cfg_path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return cfg_path;
}

static char *cfg_arg(const char *text)
{
	static char arg[96];

	snprintf(arg, sizeof(arg), "--config=%s", write_cfg(text));
	return arg;
}

static void test_file_settings(void **state)
{
	struct gd_opts o;
	struct json_object *eff, *cfg;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, cfg_arg(lab_file), "h"), 0);
	assert_int_equal(o.iters, 300);
	assert_int_equal(o.size_bytes, 4096);
	assert_int_equal(o.min_size_bytes, 4096);
	assert_true(o.verify);
	assert_string_equal(o.config_sha256, lab_sha256);
	assert_int_equal(o.config_overridden_count, 0);
	eff = gd_opts_effective(&o);
	assert_true(json_object_object_get_ex(eff, "config", &cfg));
	assert_string_equal(
		json_object_get_string(json_object_object_get(cfg, "sha256")),
		lab_sha256);
	assert_string_equal(
		json_object_get_string(json_object_object_get(cfg, "file")),
		cfg_path);
	assert_int_equal(
		json_object_get_int64(json_object_object_get(eff, "iters")),
		300);
	json_object_put(eff);
	gd_opts_free(&o);
}

static void test_command_line_wins(void **state)
{
	struct gd_opts o;

	(void)state;
	/* the same option: the command line's value, the file's recorded */
	assert_int_equal(
		PARSE(&t_write_bw, &o, "-n", "50", cfg_arg(lab_file), "h"), 0);
	assert_int_equal(o.iters, 50);
	assert_int_equal(o.size_bytes, 4096);
	assert_int_equal(o.config_overridden_count, 1);
	assert_string_equal(o.config_overridden[0], "iters");
	gd_opts_free(&o);
	/* an option that excludes the file's: -D drops iters, -a drops size */
	assert_int_equal(
		PARSE(&t_write_bw, &o, cfg_arg(lab_file), "-D", "2", "-a", "h"),
		0);
	assert_int_equal(o.duration_s, 2);
	assert_true(o.all_sizes);
	assert_false(gd_opts_given(&o, "iters"));
	assert_false(gd_opts_given(&o, "size"));
	assert_int_equal(o.config_overridden_count, 2);
	gd_opts_free(&o);
	/* --mem on the command line drops the file's use_cuda */
	assert_int_equal(PARSE(&t_write_bw, &o,
			       cfg_arg("use_cuda = 0\nuse_cuda_dmabuf = yes\n"),
			       "--mem=hugepage", "h"),
			 0);
	assert_string_equal(o.mem_spec, "hugepage");
	gd_opts_free(&o);
}

static void test_flags_and_spellings(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o,
			       cfg_arg("verify = no\nno_interleave = on\n"
				       "out-json-file = x.json\n"),
			       "h"),
			 0);
	assert_false(o.verify);
	assert_true(o.no_interleave);
	assert_string_equal(o.json_path, "x.json");
	gd_opts_free(&o);
}

static void test_bad_files(void **state)
{
	(void)state;
	REJECT(&t_write_bw, -EINVAL, "line 2: 'nosuch' is not an option",
	       cfg_arg("iters = 10\nnosuch = 1\n"), "h");
	/* a file's keys are whole names: an abbreviation is named, a near
	 * miss gets the option meant */
	REJECT(&t_write_bw, -EINVAL,
	       "line 1: 'iter' abbreviates 'iters'; keys in a file are whole option names",
	       cfg_arg("iter = 10\n"), "h");
	REJECT(&t_write_bw, -EINVAL,
	       "line 1: 'sise' is not an option of gd_write_bw; did you mean 'size'?",
	       cfg_arg("sise = 64\n"), "h");
	REJECT(&t_write_bw, -EINVAL, "line 1: verify takes yes or no",
	       cfg_arg("verify = maybe\n"), "h");
	REJECT(&t_write_bw, -EINVAL, "line 1: 'config' is not a setting",
	       cfg_arg("config = other\n"), "h");
	REJECT(&t_write_bw, -EINVAL, "line 1: --iters",
	       cfg_arg("iters = 12x\n"), "h");
	/* a number, enum or list without its value (found by config_fuzz) */
	REJECT(&t_write_bw, -EINVAL, "line 1: precision needs a value",
	       cfg_arg("precision =\n"), "h");
	REJECT(&t_write_bw, -EINVAL, "line 2: connection needs a value",
	       cfg_arg("iters = 5\nconnection =\n"), "h");
	REJECT(&t_write_bw, -EINVAL, "expected 'key = value'",
	       cfg_arg("iters 10\n"), "h");
	/* the file alone may not hold two excluding options */
	REJECT(&t_write_bw, -EINVAL, "exclude each other",
	       cfg_arg("iters = 10\nduration = 2\n"), "h");
	/* a perftest option gdperf refuses keeps its reason in a file too */
	REJECT(&t_write_bw, -EINVAL, "line 1:", cfg_arg("use_rocm = 0\n"), "h");
	REJECT(&t_write_bw, -ENOENT, "/nonexistent/gd.conf",
	       "--config=/nonexistent/gd.conf", "h");
}

static int remove_cfg(void **state)
{
	(void)state;
	if (cfg_path[0])
		unlink(cfg_path);
	return 0;
}

/* A lab's fixed sweep: --sizes and perftest's limits from the file; the
 * command line's -s wins over the file's list; an option of another test
 * or one gdperf refuses is refused with its line. */
static void test_file_sizes_and_limits(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o,
			       cfg_arg("sizes = 4K,64K,1M\nlimit_bw = 100\n"),
			       "h"),
			 0);
	assert_int_equal(o.num_size_list, 3);
	assert_int_equal(o.size_list[2], 1048576);
	assert_true(o.limit_bw == 100);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, cfg_arg("sizes = 4K,64K,1M\n"),
			       "-s", "8", "h"),
			 0);
	assert_int_equal(o.num_size_list, 0);
	assert_int_equal(o.size_bytes, 8);
	assert_int_equal(o.config_overridden_count, 1);
	assert_string_equal(o.config_overridden[0], "sizes");
	gd_opts_free(&o);
	REJECT(&t_write_lat, -EINVAL,
	       "line 2: -b/--bidirectional does not apply to gd_write_lat",
	       cfg_arg("iters = 5\nbidirectional = yes\n"));
	REJECT(&t_write_bw, -EINVAL,
	       "line 1: --odp (perftest: on-demand paging",
	       cfg_arg("odp = yes\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_file_sizes_and_limits,
					  remove_cfg),
		cmocka_unit_test_teardown(test_file_settings, remove_cfg),
		cmocka_unit_test_teardown(test_command_line_wins, remove_cfg),
		cmocka_unit_test_teardown(test_flags_and_spellings, remove_cfg),
		cmocka_unit_test_teardown(test_bad_files, remove_cfg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
