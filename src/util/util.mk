# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The layer every other one uses: errors, tolerant JSON readers, the clock
# and statistics, the one --version format and the stop request of SIGINT
# and SIGTERM.
libgdperf_la_SOURCES += \
	src/util/error.c src/util/error.h \
	src/util/output.c src/util/output.h \
	src/util/json_get.c src/util/json_get.h \
	src/util/version.c src/util/version.h \
	src/util/parse.c src/util/parse.h \
	src/util/clock.c src/util/stats.c src/util/stats_json.c src/util/stats.h \
	src/util/infer.c src/util/infer.h src/util/assess.c src/util/assess.h \
	src/util/assess_run.c src/util/assess_family.c src/util/assess_priv.h \
	src/util/assess_segment.c src/util/assess_segment.h \
	src/util/assess_corr.c src/util/assess_corr.h \
	src/util/keyval.c src/util/keyval.h \
	src/util/stop.c src/util/stop.h src/util/exit.c src/util/exit.h \
	src/util/opt.c src/util/opt.h

if HAVE_CMOCKA
check_PROGRAMS += tests/stats_test
TESTS += tests/stats_test
tests_stats_test_SOURCES = tests/stats_test.c
tests_stats_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_stats_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

# The inference arithmetic against statistics tables and brute force.
check_PROGRAMS += tests/infer_test
TESTS += tests/infer_test
tests_infer_test_SOURCES = tests/infer_test.c
tests_infer_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_infer_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lm

# The command-line manners of every program (opt.h): matching,
# suggestions, option errors, the tools' parser and the --help layout.
check_PROGRAMS += tests/opt_test
TESTS += tests/opt_test
tests_opt_test_SOURCES = tests/opt_test.c
tests_opt_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_opt_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
endif
