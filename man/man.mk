# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Manual pages of the eight gd_* benchmarks: one full page (gdperf.7) and a
# .so stub per binary. gd_doctor.1, gd_plan.1 and gd_report.1 are added by
# src/tools/doctor/doctor.mk and src/tools/cluster/cluster.mk. man-options.sh
# checks page vs --help.
dist_man_MANS += man/gdperf.7 \
	man/gd_write_bw.1 man/gd_write_lat.1 \
	man/gd_read_bw.1 man/gd_read_lat.1 \
	man/gd_send_bw.1 man/gd_send_lat.1 \
	man/gd_atomic_bw.1 man/gd_atomic_lat.1

TESTS += tests/man-options.sh
EXTRA_DIST += tests/man-options.sh
