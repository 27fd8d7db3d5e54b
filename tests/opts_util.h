/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by the option tests: the binaries' entries of gd_tests[] and a
 * parse helper that feeds gd_opts_parse a fresh argv every time.
 * Include after <cmocka.h>.
 */
#ifndef GD_TESTS_OPTS_UTIL_H
#define GD_TESTS_OPTS_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "cli/options.h"

/* The binaries' own entries, so a test parses exactly what they parse. */
#define t_write_bw (gd_tests[GD_TEST_WRITE_BW])
#define t_write_lat (gd_tests[GD_TEST_WRITE_LAT])
#define t_read_bw (gd_tests[GD_TEST_READ_BW])
#define t_read_lat (gd_tests[GD_TEST_READ_LAT])
#define t_send_bw (gd_tests[GD_TEST_SEND_BW])
#define t_send_lat (gd_tests[GD_TEST_SEND_LAT])
#define t_atomic_bw (gd_tests[GD_TEST_ATOMIC_BW])
#define t_atomic_lat (gd_tests[GD_TEST_ATOMIC_LAT])

#define MAX_ARGS 48

/*
 * getopt permutes argv, so every parse gets a fresh writable copy. The
 * copies live in an arena that is never reused: glibc's getopt keeps a
 * pointer into the previous argv, and a recycled buffer would hand it new
 * text (test_unknown_in_cluster_then_reparse covers that on purpose).
 */
static inline char *arena_copy(const char *text)
{
	static char arena[1 << 18];
	static size_t used;
	size_t len = strlen(text) + 1;
	char *p;

	assert_true(used + len <= sizeof(arena));
	p = memcpy(arena + used, text, len);
	used += len;
	return p;
}

static inline int parse_list(const struct gd_test *t, struct gd_opts *o,
			     FILE *out, const char *const *args)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;

	argv[argc++] = arena_copy(t->name);
	for (; *args; args++) {
		assert_true(argc < MAX_ARGS);
		argv[argc++] = arena_copy(*args);
	}
	argv[argc] = NULL;
	gd_err_clear();
	return gd_opts_parse(t, argc, argv, o, out ? out : stdout);
}

#define PARSE(t, o, ...)                                                       \
	parse_list((t), (o), NULL, (const char *const[]){ __VA_ARGS__, NULL })
#define PARSE0(t, o) parse_list((t), (o), NULL, (const char *const[]){ NULL })

static inline void assert_msg_has(const char *needle)
{
	if (!strstr(gd_err_msg(), needle)) {
		print_error("error message '%s' lacks '%s'\n", gd_err_msg(),
			    needle);
		fail();
	}
}

/* Parse must fail with @err and a message naming @needle. */
static inline void expect_reject(const struct gd_test *t,
				 const char *const *args, int err,
				 const char *needle)
{
	struct gd_opts o;
	int ret = parse_list(t, &o, NULL, args);

	if (ret != err)
		print_error("args starting '%s': got %d (%s), want %d\n",
			    args[0], ret, gd_err_msg(), err);
	assert_int_equal(ret, err);
	assert_msg_has(needle);
	gd_opts_free(&o);
}

#define REJECT(t, err, needle, ...)                                            \
	expect_reject((t), (const char *const[]){ __VA_ARGS__, NULL }, (err),  \
		      (needle))

#endif
