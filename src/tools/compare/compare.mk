# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_compare: saved run documents judged again by the report layer's own
# comparison, assessment, gate and verdict code.
bin_PROGRAMS += gd_compare
gd_compare_SOURCES = src/tools/compare/gd_compare.c \
	src/tools/compare/compare_tool.h src/tools/compare/cmp_load.c \
	src/tools/compare/cmp_pair.c src/tools/compare/cmp_judge.c \
	src/tools/compare/cmp_junit.c src/tools/compare/cmp_runs.c \
	src/tools/compare/cmp_runs_text.c src/tools/compare/cmp_metrics.c
gd_compare_LDADD = $(gd_common_ldadd) -lm

# Script test: the fixture documents judged again (the same run, a copy
# scaled by 0.7, an undecidable design, one document against other
# floors), the gdperf.compare/1 document, refusals and bad command lines.
TESTS += tests/compare-tool.sh
EXTRA_DIST += tests/compare-tool.sh tests/fixtures/compare/make-fixtures.sh \
	tests/fixtures/compare/write_bw-sweep.json \
	tests/fixtures/compare/write_bw-one.json

dist_man_MANS += man/gd_compare.1

# Its bash completion: its own file (the positional run documents and
# --phase's names), which sources the family's "gdperf" beside it for the
# options. Installed after completion.mk's loop, which links every
# program's name to "gdperf", so that it replaces gd_compare's link.
EXTRA_DIST += contrib/bash-completion/gd_compare \
	contrib/bash-completion/gd_compare-test.sh
TESTS += contrib/bash-completion/gd_compare-test.sh
install-data-hook: install-gd-compare-completion
install-gd-compare-completion: install-bash-completion
	rm -f '$(DESTDIR)$(bashcompdir)/gd_compare'
	$(INSTALL_DATA) '$(srcdir)/contrib/bash-completion/gd_compare' \
		'$(DESTDIR)$(bashcompdir)/gd_compare'
.PHONY: install-gd-compare-completion
