# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The TCP side channel (oob.c) and its frame codec (frame.c), their unit
# test, and a libFuzzer target for the decoder built with clang.
libgdperf_la_SOURCES += src/oob.c src/oob_beat.c src/frame.c src/oob.h

if HAVE_CMOCKA
check_PROGRAMS += tests/oob_test
TESTS += tests/oob_test
tests_oob_test_SOURCES = tests/oob_test.c
tests_oob_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_oob_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS) -lpthread
endif

# automake compiles programs with $(CC); libFuzzer needs clang, so the fuzz
# target is a plain rule. The test script skips (77) when it was not built.
TESTS += tests/fuzz-frame.sh
EXTRA_DIST += tests/fuzz-frame.sh tests/frame_fuzz.c tests/fuzz-corpus/frame
if HAVE_CLANG
gd_frame_fuzz_srcs = $(srcdir)/tests/frame_fuzz.c $(srcdir)/src/frame.c \
	$(srcdir)/src/error.c
tests/frame_fuzz$(EXEEXT): $(gd_frame_fuzz_srcs) $(srcdir)/src/oob.h \
		$(srcdir)/src/error.h config.h
	@$(MKDIR_P) tests
	$(AM_V_CC)$(CLANG) -fsanitize=fuzzer,address -g -O1 \
		-I$(top_srcdir)/src -I$(top_builddir) $(JSONC_CFLAGS) \
		-o $@ $(gd_frame_fuzz_srcs) $(JSONC_LIBS)
# Through a variable so automake keeps its own recipe for the log.
gd_frame_fuzz_log = tests/fuzz-frame.sh.log
$(gd_frame_fuzz_log): tests/frame_fuzz$(EXEEXT)
CLEANFILES += tests/frame_fuzz$(EXEEXT)
endif
