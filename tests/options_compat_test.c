/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Every perftest option (tests/perftest-options.txt, perftest 6.29) against
 * every binary: accepted, or refused with perftest's meaning and the reason,
 * never "unknown option". Also the naming rule: '-' and '_' spell the same
 * option, and no prefix of a name is taken for the name.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "engine/options.h"
#include "opts_util.h"

#define PT_MAX 256

struct pt_opt {
	char name[64];
	int has_arg;
	char short_name;
};

static struct pt_opt pt[PT_MAX];
static size_t pt_count;

static int load_list(void **state)
{
	const char *dir = getenv("srcdir");
	char path[4096], line[256], sh[8], cond[64];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/perftest-options.txt",
		 dir ? dir : ".");
	f = fopen(path, "r");
	if (!f) {
		print_error(
			"cannot open %s (run from the build dir via make check)\n",
			path);
		return -1;
	}
	while (fgets(line, sizeof(line), f) && pt_count < PT_MAX) {
		struct pt_opt *p = &pt[pt_count];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %d %7s %63s", p->name, &p->has_arg, sh,
			   cond) != 4)
			continue;
		p->short_name = strcmp(sh, "-") ? sh[0] : 0;
		pt_count++;
	}
	fclose(f);
	return pt_count > 100 ? 0 : -1;
}

/* Parse @args with @t; 0 when accepted (a later check may still fail, with
 * a reason), else the refusal must not be "unknown option", and a perftest
 * refusal must say perftest's meaning and where to read more. */
static bool judge(const struct gd_test *t, const char *const *args,
		  const char *what, bool *refused)
{
	struct gd_opts o;
	FILE *null = fopen("/dev/null", "w");
	int ret;

	assert_non_null(null);
	ret = parse_list(t, &o, null, args);
	fclose(null);
	*refused = ret < 0 && strstr(gd_err_msg(), "(perftest: ");
	if (ret < 0 && (strstr(gd_err_msg(), "unknown option") ||
			strstr(gd_err_msg(), "needs an argument"))) {
		print_error("%s %s: '%s'\n", t->name, what, gd_err_msg());
		gd_opts_free(&o);
		return false;
	}
	if (*refused && !strstr(gd_err_msg(), "gdperf(7)")) {
		print_error("%s %s: refusal without a pointer: '%s'\n", t->name,
			    what, gd_err_msg());
		gd_opts_free(&o);
		return false;
	}
	gd_opts_free(&o);
	return true;
}

static void test_every_perftest_option(void **state)
{
	size_t bad = 0, accepted = 0, refused_n = 0;

	(void)state;
	for (size_t b = 0; b < GD_TEST_COUNT; b++) {
		for (size_t i = 0; i < pt_count; i++) {
			char word[80], letter[3] = { '-', pt[i].short_name, 0 };
			bool refused;

			snprintf(word, sizeof(word), "--%.60s%s", pt[i].name,
				 pt[i].has_arg ? "=1" : "");
			if (!judge(&gd_tests[b],
				   (const char *const[]){ word, NULL }, word,
				   &refused))
				bad++;
			else if (refused !=
				 gd_opts_perftest_refused(pt[i].name))
				bad++, print_error(
					       "%s %s: refusal not from the table\n",
					       gd_tests[b].name, word);
			else
				refused ? refused_n++ : accepted++;
			if (!pt[i].short_name)
				continue;
			if (!judge(&gd_tests[b],
				   (const char *const[]){
					   letter, pt[i].has_arg ? "1" : NULL,
					   NULL },
				   letter, &refused))
				bad++;
		}
	}
	print_message(
		"perftest 6.29: %zu options x %d binaries: %zu accepted, %zu refused with a reason, %zu unknown\n",
		pt_count, (int)GD_TEST_COUNT, accepted, refused_n, bad);
	assert_int_equal(bad, 0);
}

/* The refusal table names only perftest's options, each once. */
static void test_refusals_are_perftest_options(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < pt_count; i++)
		n += gd_opts_perftest_refused(pt[i].name);
	assert_int_equal(n, gd_opts_perftest_refused_count());
}

static void swap_spelling(char *s)
{
	for (; *s; s++)
		*s = *s == '-' ? '_' : *s == '_' ? '-' : *s;
}

/* Each gdperf option under its other spelling is the same option. */
static void test_both_spellings(void **state)
{
	char *list = NULL, *line, *save;
	size_t len = 0;
	FILE *f = open_memstream(&list, &len);

	(void)state;
	assert_non_null(f);
	gd_opts_list_long(f);
	fclose(f);
	for (line = strtok_r(list, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char word[80];
		bool refused;

		snprintf(word, sizeof(word), "--%.60s", line);
		swap_spelling(word + 2);
		assert_true(judge(&t_write_bw,
				  (const char *const[]){ word, "--help", NULL },
				  word, &refused));
		assert_false(refused);
	}
	free(list);
}

static void test_no_abbreviations(void **state)
{
	struct gd_opts o;

	(void)state;
	/* perftest's TPH hint, not a prefix of --phases */
	REJECT(&t_write_bw, -EINVAL, "PCIe TPH", "--ph=0");
	REJECT(&t_write_bw, -EINVAL, "did you mean --phases", "--phase=HH");
	REJECT(&t_write_bw, -EINVAL, "did you mean --iters", "--iter", "5");
	assert_int_equal(PARSE(&t_write_bw, &o, "--phases=HH"), 0);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--max_lat=5"), 0);
	assert_true(o.max_lat_us == 5.0);
	gd_opts_free(&o);
}

/* "--json out.json" once made out.json the server's host name. */
static void test_json_word(void **state)
{
	struct gd_opts o;

	(void)state;
	REJECT(&t_write_bw, -EINVAL, "--json=out.json", "--json", "out.json");
	assert_int_equal(PARSE(&t_write_bw, &o, "--json", "host1"), 0);
	assert_string_equal(o.server_host, "host1");
	gd_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_perftest_option),
		cmocka_unit_test(test_refusals_are_perftest_options),
		cmocka_unit_test(test_both_spellings),
		cmocka_unit_test(test_no_abbreviations),
		cmocka_unit_test(test_json_word),
	};

	return cmocka_run_group_tests(tests, load_list, NULL);
}
