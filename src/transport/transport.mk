# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Talking to the peer and the NIC: the TCP side channel (oob.c, its
# heartbeats and its frame codec), verbs and rdma_cm, and the port
# counters. Their unit tests and the libFuzzer target of the decoder.
libgdperf_la_SOURCES += \
	src/transport/oob.c src/transport/oob_io.c src/transport/oob_beat.c \
	src/transport/oob_priv.h src/transport/frame.c \
	src/transport/oob.h src/transport/auth.c src/transport/auth.h \
	src/transport/verbs.c src/transport/verbs.h src/transport/conn.h \
	src/transport/cm.c src/transport/cm.h \
	src/transport/mcast.c src/transport/mcast.h \
	src/transport/counters.c src/transport/counters_merge.c \
	src/transport/counters.h src/transport/counters_nl.c \
	src/transport/counters_nl.h

if HAVE_CMOCKA
check_PROGRAMS += tests/oob_test
TESTS += tests/oob_test
tests_oob_test_SOURCES = tests/oob_test.c
tests_oob_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_oob_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lpthread
endif

# automake compiles programs with $(CC); libFuzzer needs clang, so the fuzz
# target is a plain rule. The test script skips (77) when it was not built.
# In GD_FUZZ_TESTS (tests/fuzz/fuzz.mk adds the others and runs them).
GD_FUZZ_TESTS = tests/fuzz-frame.sh
EXTRA_DIST += tests/fuzz-frame.sh tests/frame_fuzz.c tests/fuzz-corpus/frame
if HAVE_CLANG
gd_frame_fuzz_srcs = $(srcdir)/tests/frame_fuzz.c $(srcdir)/src/transport/frame.c \
	$(srcdir)/src/util/error.c
tests/frame_fuzz$(EXEEXT): $(gd_frame_fuzz_srcs) $(srcdir)/src/transport/oob.h \
		$(srcdir)/src/util/error.h config.h
	@$(MKDIR_P) tests
	$(AM_V_CC)$(CLANG) -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -g -O1 \
		-I$(top_srcdir)/src -I$(top_builddir) $(JSONC_CFLAGS) \
		-o $@ $(gd_frame_fuzz_srcs) $(JSONC_LIBS)
# Through a variable so automake keeps its own recipe for the log.
gd_frame_fuzz_log = tests/fuzz-frame.sh.log
$(gd_frame_fuzz_log): tests/frame_fuzz$(EXEEXT)
CLEANFILES += tests/frame_fuzz$(EXEEXT)
endif

EXTRA_DIST += tests/fixtures/sysfs-mlx5 tests/fixtures/sysfs-rxe

if HAVE_CMOCKA
check_PROGRAMS += tests/counters_test
TESTS += tests/counters_test
tests_counters_test_SOURCES = tests/counters_test.c
tests_counters_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_counters_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
check_PROGRAMS += tests/counters_nl_test
TESTS += tests/counters_nl_test
tests_counters_nl_test_SOURCES = tests/counters_nl_test.c
tests_counters_nl_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_counters_nl_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
endif
