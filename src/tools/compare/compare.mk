# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_compare: saved run documents judged again by the report layer's own
# comparison, assessment, gate and verdict code.
bin_PROGRAMS += gd_compare
gd_compare_SOURCES = src/tools/compare/gd_compare.c \
	src/tools/compare/compare_tool.h src/tools/compare/cmp_load.c \
	src/tools/compare/cmp_pair.c src/tools/compare/cmp_judge.c
gd_compare_LDADD = $(gd_common_ldadd) -lm
