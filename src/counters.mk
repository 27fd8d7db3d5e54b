# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Port counters, the paired run's comparison/gates/verdicts and its
# side-by-side report, and the gnuplot picture.
libgdperf_la_SOURCES += src/counters.c src/counters.h \
	src/compare.c src/compare.h src/compare_priv.h src/verdict.c \
	src/compare_print.c src/plot.c src/plot.h

EXTRA_DIST += tests/fixtures/sysfs-mlx5 tests/fixtures/sysfs-rxe

if HAVE_CMOCKA
check_PROGRAMS += tests/counters_test tests/compare_test tests/plot_test
TESTS += tests/counters_test tests/compare_test tests/plot_test

tests_counters_test_SOURCES = tests/counters_test.c
tests_counters_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_counters_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

tests_compare_test_SOURCES = tests/compare_test.c
tests_compare_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_compare_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

tests_plot_test_SOURCES = tests/plot_test.c
tests_plot_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_plot_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
endif
