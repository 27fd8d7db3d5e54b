# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Manual pages of the eight gd_* benchmarks: gdperf.7 (the concepts),
# gdperf-perftest.7 (perftest's options), gdperf-json.5 (the run document)
# and one page per binary, written by man/mkpages.sh from gdperf.7,
# man/options.in (the options, each described once; not installed) and the
# binary's --help=all (make man-pages) and committed so that man -l works
# from the source tree. gd_doctor.1, gd_plan.1, gd_report.1 and gd_compare.1
# are added by their tools' .mk files. man-options.sh checks pages vs --help.
dist_man_MANS += man/gdperf.7 man/gdperf-perftest.7 man/gdperf-json.5 \
	man/gd_write_bw.1 man/gd_write_lat.1 \
	man/gd_read_bw.1 man/gd_read_lat.1 \
	man/gd_send_bw.1 man/gd_send_lat.1 \
	man/gd_atomic_bw.1 man/gd_atomic_lat.1

TESTS += tests/man-options.sh
EXTRA_DIST += tests/man-options.sh man/mkpages.sh man/options.in

# Every page fits 80 columns at MANWIDTH=80 and passes mandoc -T lint.
TESTS += tests/man-width.sh
EXTRA_DIST += tests/man-width.sh

# The examples of the tools' pages (gd_compare, gd_doctor, gd_plan,
# gd_report), read from the groff source and run, each judged by its page's
# EXIT STATUS; the benchmarks' examples run in the guest (59-examples.sh).
TESTS += tests/man-examples.sh
EXTRA_DIST += tests/man-examples.sh

# Regenerate the eight benchmark pages after changing gdperf.7 or an option.
man-pages: all
	$(SHELL) $(srcdir)/man/mkpages.sh $(srcdir) $(builddir) $(srcdir)/man
.PHONY: man-pages
