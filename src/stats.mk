# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Statistics (clock, percentiles, bandwidth) and the text/JSON run report.
libgdperf_la_SOURCES += src/clock.c src/stats.c src/stats_json.c src/stats.h src/report.c src/report.h

if HAVE_CMOCKA
check_PROGRAMS += tests/stats_test tests/report_test
TESTS += tests/stats_test tests/report_test
tests_stats_test_SOURCES = tests/stats_test.c
tests_stats_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_stats_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_report_test_SOURCES = tests/report_test.c
tests_report_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_report_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
endif
