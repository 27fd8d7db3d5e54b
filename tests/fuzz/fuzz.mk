# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# libFuzzer targets of the decoders of outside input: run documents,
# gd_report's plan/results/envelopes, gd_doctor --diff, gd_plan's config and
# host list, hwloc XML with the rails file, the benchmarks' --config file,
# and the readers of the peer's side-channel payloads (the frame codec's
# own target is in src/transport/transport.mk). Each runs for a bounded
# time in make check over its seed corpus in tests/fuzz-corpus/NAME;
# contrib/fuzz-long runs them for longer.
gd_fuzz_names = rundoc fleet envelope plan topology wire config
# "make check GD_FUZZ_TESTS=" leaves them out (.ci/run runs them on
# their own, at low priority, beside the guest).
GD_FUZZ_TESTS += tests/fuzz/rundoc.sh tests/fuzz/fleet.sh tests/fuzz/envelope.sh \
	tests/fuzz/plan.sh tests/fuzz/topology.sh tests/fuzz/wire.sh \
	tests/fuzz/config.sh
TESTS += $(GD_FUZZ_TESTS)
check-fuzz:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(GD_FUZZ_TESTS)'
.PHONY: check-fuzz
EXTRA_DIST += tests/fuzz/fuzz-lib.sh tests/fuzz/fuzz_util.h tests/lsan.supp \
	tests/fuzz/rundoc.sh tests/fuzz/fleet.sh tests/fuzz/envelope.sh \
	tests/fuzz/plan.sh tests/fuzz/topology.sh tests/fuzz/wire.sh \
	tests/fuzz/config.sh \
	$(gd_fuzz_names:%=tests/fuzz/%_fuzz.c) \
	tests/fuzz-corpus/README $(gd_fuzz_names:%=tests/fuzz-corpus/%) \
	contrib/fuzz-long

if HAVE_CLANG
# automake compiles with $(CC); libFuzzer needs clang, so the library
# sources are compiled again here, instrumented, into one archive that
# every target links (only the members it needs are pulled in).
GD_FUZZ_CFLAGS = -std=gnu11 -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-I$(top_srcdir)/src -I$(top_builddir) $(CUDA_CPPFLAGS) \
	$(IBVERBS_CFLAGS) $(RDMACM_CFLAGS) $(JSONC_CFLAGS) $(HWLOC_CFLAGS) \
	$(LIBPCI_CFLAGS) $(LIBMD_CFLAGS) $(LIBMNL_CFLAGS) $(SODIUM_CFLAGS)
# The engine and the CLI without their entry points: the side-channel and
# --config targets read through the session, step and option files.
gd_fuzz_srcs = $(filter-out src/engine/engine.c src/cli/main.c,$(filter %.c,$(libgdperf_la_SOURCES) \
	$(libgddoctor_la_SOURCES) $(libgdcluster_la_SOURCES))) \
	src/tools/doctor/diff.c
gd_fuzz_objs = $(gd_fuzz_srcs:%.c=tests/fuzz/obj/%.o)
gd_fuzz_hdrs = $(filter %.h,$(libgdperf_la_SOURCES) $(libgddoctor_la_SOURCES) \
	$(libgdcluster_la_SOURCES)) src/tools/doctor/output.h
gd_fuzz_libs = $(HWLOC_LIBS) $(LIBPCI_LIBS) $(IBVERBS_LIBS) $(RDMACM_LIBS) \
	$(JSONC_LIBS) $(LIBMD_LIBS) $(LIBMNL_LIBS) $(SODIUM_LIBS) $(LIBS) -lm

$(gd_fuzz_objs): tests/fuzz/obj/%.o: %.c $(gd_fuzz_hdrs) config.h
	@$(MKDIR_P) $(@D)
	$(AM_V_CC)$(CLANG) $(GD_FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
tests/fuzz/libgdfuzz.a: $(gd_fuzz_objs)
	$(AM_V_GEN)rm -f $@ && $(AR) cr $@ $(gd_fuzz_objs)
tests/fuzz/%_fuzz$(EXEEXT): tests/fuzz/%_fuzz.c tests/fuzz/fuzz_util.h \
		tests/fuzz/libgdfuzz.a
	$(AM_V_CCLD)$(CLANG) $(GD_FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		tests/fuzz/libgdfuzz.a $(gd_fuzz_libs)
# Through variables so automake keeps its own recipes for the logs.
gd_fuzz_logs = $(gd_fuzz_names:%=tests/fuzz/%.sh.log)
$(gd_fuzz_logs): tests/fuzz/%.sh.log: tests/fuzz/%_fuzz$(EXEEXT)
CLEANFILES += $(gd_fuzz_names:%=tests/fuzz/%_fuzz$(EXEEXT)) \
	tests/fuzz/libgdfuzz.a
clean-local:
	rm -rf tests/fuzz/obj
endif
