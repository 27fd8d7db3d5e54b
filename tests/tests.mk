# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Engine unit tests that need no RDMA device: option parsing and the wire
# form of the options, the client/server handshake over a socketpair, the
# sweep plan and step order, and the shape of the JSON run document.

if HAVE_CMOCKA
check_PROGRAMS += tests/options_test tests/options_wire_test \
	tests/options_verbs_test tests/options_rate_test tests/protocol_test tests/json_doc_test tests/sweep_test \
	tests/limits_test tests/auth_test
TESTS += tests/options_test tests/options_wire_test \
	tests/options_verbs_test tests/options_rate_test tests/protocol_test tests/json_doc_test tests/sweep_test \
	tests/limits_test tests/auth_test

tests_options_test_SOURCES = tests/options_test.c tests/opts_util.h
tests_options_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

tests_options_wire_test_SOURCES = tests/options_wire_test.c tests/opts_util.h
tests_options_wire_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_wire_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

tests_options_verbs_test_SOURCES = tests/options_verbs_test.c tests/opts_util.h
tests_options_verbs_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_verbs_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

tests_options_rate_test_SOURCES = tests/options_rate_test.c tests/opts_util.h
tests_options_rate_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_rate_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

tests_protocol_test_SOURCES = tests/protocol_test.c tests/opts_util.h \
	tests/session_pair.h
tests_protocol_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -pthread
tests_protocol_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lpthread

tests_limits_test_SOURCES = tests/limits_test.c tests/opts_util.h \
	tests/session_pair.h
tests_limits_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -pthread
tests_limits_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lpthread

tests_auth_test_SOURCES = tests/auth_test.c tests/opts_util.h \
	tests/session_pair.h
tests_auth_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) -pthread
tests_auth_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lpthread

tests_json_doc_test_SOURCES = tests/json_doc_test.c
tests_json_doc_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_json_doc_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_sweep_test_SOURCES = tests/sweep_test.c tests/opts_util.h
tests_sweep_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_sweep_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

# perftest's options against every binary: accepted or refused with a reason.
check_PROGRAMS += tests/options_compat_test
TESTS += tests/options_compat_test
tests_options_compat_test_SOURCES = tests/options_compat_test.c \
	tests/opts_util.h
tests_options_compat_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_compat_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

# --config=FILE: the file's settings, the command line winning, its hash.
check_PROGRAMS += tests/options_config_test
TESTS += tests/options_config_test
tests_options_config_test_SOURCES = tests/options_config_test.c \
	tests/opts_util.h
tests_options_config_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_config_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)

# perftest's report modes: -w/-y as gates from the document, -H/-U/-C/-W.
check_PROGRAMS += tests/options_report_test
TESTS += tests/options_report_test
tests_options_report_test_SOURCES = tests/options_report_test.c \
	tests/opts_util.h
tests_options_report_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_options_report_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
else
# Without cmocka the unit tests above and in the other fragments are not
# built: one SKIP that says why.
TESTS += tests/unit-skip.tap
endif
EXTRA_DIST += tests/perftest-options.txt tests/unit-skip.tap

# make check-under-load's wrapper: busy loops around the fast suite.
EXTRA_DIST += tests/under-load.sh

# A run that fails before it connects still names its execution.
TESTS += tests/early-failure.sh
EXTRA_DIST += tests/early-failure.sh

# -V/--version of every installed program, in the one format.
AM_TESTS_ENVIRONMENT += GD_PROGRAMS='$(bin_PROGRAMS)'; export GD_PROGRAMS;
TESTS += tests/version.sh
EXTRA_DIST += tests/version.sh

# --dry-run on every benchmark: the run's checks, the server's included,
# and the plan, with no device, network or file.
TESTS += tests/dry-run.sh
EXTRA_DIST += tests/dry-run.sh

# One table of exit statuses: each of the twelve programs driven into
# each status it can have (gdperf(7), EXIT STATUS; src/util/exit.h).
TESTS += tests/exit-status.sh
EXTRA_DIST += tests/exit-status.sh

# One command-line manner: abbreviations, "did you mean", one-line option
# errors and one --help layout in all twelve programs (src/util/opt.h).
TESTS += tests/cli-manners.sh
EXTRA_DIST += tests/cli-manners.sh

# Stdout on /dev/full: every program exits 1 naming the output it lost.
TESTS += tests/output-full.sh
EXTRA_DIST += tests/output-full.sh

# The other branch of every #ifdef HAVE_IBV_REG_DMABUF_MR (rdma-core < 34).
TESTS += tests/no-dmabuf-build.sh
EXTRA_DIST += tests/no-dmabuf-build.sh
AM_TESTS_ENVIRONMENT += GD_CC='$(CC)'; export GD_CC; \
	GD_CC_FLAGS='$(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS)'; export GD_CC_FLAGS;

# One maintainer address in AUTHORS and the Debian and RPM packaging.
TESTS += tests/maintainer.sh
EXTRA_DIST += tests/maintainer.sh

# --help of every benchmark: 80 columns, the comparison first, what has no
# effect or is refused only under --help=all.
TESTS += tests/help.sh
EXTRA_DIST += tests/help.sh

# The layers of src/ on the built objects: no call cycles, calls go down.
TESTS += tests/layers/layers.sh
EXTRA_DIST += tests/layers/layers.sh tests/layers/layers.py

# The decision's operating characteristics (gdperf(7)'s table), measured
# on seeded simulated runs through util/assess.h.
if HAVE_CMOCKA
check_PROGRAMS += tests/assess_sim_test
TESTS += tests/assess_sim_test
tests_assess_sim_test_SOURCES = tests/assess_sim_test.c tests/synth_util.h
tests_assess_sim_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_assess_sim_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lm
endif

# Latency tails: order-statistic intervals and the p50/p99 ratio intervals.
if HAVE_CMOCKA
check_PROGRAMS += tests/tails_test
TESTS += tests/tails_test
tests_tails_test_SOURCES = tests/tails_test.c tests/synth_util.h
tests_tails_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_tails_test_LDADD = libgdcluster.la $(gd_common_ldadd) $(CMOCKA_LIBS) -lm
endif

# --openmetrics and --junit over saved run documents: promtool check
# metrics, the JUnit schema (tests/junit.xsd) and python3-junitparser,
# and the same verdict as the JSON document.
check_PROGRAMS += tests/ci-formats-dump
tests_ci_formats_dump_SOURCES = tests/ci-formats-dump.c \
	src/tools/cluster/fleet_ci.c
tests_ci_formats_dump_LDADD = libgdcluster.la $(gd_common_ldadd) -lm
TESTS += tests/ci-formats.sh
EXTRA_DIST += tests/ci-formats.sh tests/ci-formats-lib.sh tests/junit.xsd \
	tests/metrics_read.py \
	tests/junit_read.py \
	tests/fixtures/ci-formats/run.json tests/fixtures/ci-formats/lat.json

# The metrics files of two runs, gd_report and gd_compare side by side in
# a real prometheus-node-exporter's textfile directory, scraped with curl:
# every sample served, no collision, no error in its log.
TESTS += tests/node-exporter.sh
EXTRA_DIST += tests/node-exporter.sh

# Where the curves part (util/assess_segment.c): the segment scan's
# power and its rate at the floor, simulated; gdperf(7)'s segment table.
if HAVE_CMOCKA
check_PROGRAMS += tests/assess_segment_sim_test
TESTS += tests/assess_segment_sim_test
tests_assess_segment_sim_test_SOURCES = tests/assess_segment_sim_test.c tests/synth_util.h
tests_assess_segment_sim_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_assess_segment_sim_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lm
endif

# The segment scan and its words on hand-made figures.
if HAVE_CMOCKA
check_PROGRAMS += tests/assess_segment_test
TESTS += tests/assess_segment_test
tests_assess_segment_test_SOURCES = tests/assess_segment_test.c
tests_assess_segment_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_assess_segment_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lm
endif
