# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# What a run says: the text/JSON run report, the paired run's comparison,
# gates and verdicts with its side-by-side text, and the gnuplot picture.
libgdperf_la_SOURCES += \
	src/report/report.c src/report/report_out.c src/report/report.h \
	src/report/report_priv.h src/report/report_live.c \
	src/report/progress.c src/report/progress.h \
	src/report/compare.c src/report/compare.h src/report/compare_priv.h \
	src/report/doc_read.c src/report/doc_read.h \
	src/report/verdict.c src/report/compare_print.c src/report/compare_fit.c \
	src/report/evidence.c src/report/gates.c src/report/verdict_counters.c \
	src/report/evidence_segment.c src/report/evidence_segment.h \
	src/report/plot.c src/report/plot.h \
	src/report/perftest_modes.c src/report/perftest_modes.h \
	src/report/perftest_limits.c src/report/perftest_limits.h

# What CI systems and fleets read: gauges in the node_exporter textfile
# format (--openmetrics) and the gates as JUnit XML (--junit).
libgdperf_la_SOURCES += src/report/metrics.c src/report/metrics_run.c \
	src/report/metrics.h src/report/junit.c src/report/junit_run.c \
	src/report/junit.h

# Latency tails: the p50/p99 ratios with their intervals (informational).
libgdperf_la_SOURCES += src/report/tails.c src/report/tails.h

if HAVE_CMOCKA
check_PROGRAMS += tests/report_test tests/compare_test tests/plot_test \
	tests/evidence_test tests/report_live_test tests/compare_print_test
TESTS += tests/report_test tests/compare_test tests/plot_test \
	tests/evidence_test tests/report_live_test tests/compare_print_test
tests_report_live_test_SOURCES = tests/report_live_test.c
tests_report_live_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_report_live_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_report_test_SOURCES = tests/report_test.c
tests_report_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_report_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_compare_test_SOURCES = tests/compare_test.c tests/compare_util.h
tests_compare_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_compare_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_compare_print_test_SOURCES = tests/compare_print_test.c \
	tests/compare_util.h
tests_compare_print_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_compare_print_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_evidence_test_SOURCES = tests/evidence_test.c tests/synth_util.h
tests_evidence_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_evidence_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_plot_test_SOURCES = tests/plot_test.c tests/compare_util.h
tests_plot_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_plot_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
endif
