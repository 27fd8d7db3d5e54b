# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The eight gd_* benchmarks, each handing its gd_tests[] entry
# (src/engine/test.c) to the engine.
GD_BINARIES = gd_write_bw gd_write_lat gd_read_bw gd_read_lat \
	gd_send_bw gd_send_lat gd_atomic_bw gd_atomic_lat
bin_PROGRAMS += $(GD_BINARIES)
gd_write_bw_SOURCES = src/bin/gd_write_bw.c
gd_write_lat_SOURCES = src/bin/gd_write_lat.c
gd_read_bw_SOURCES = src/bin/gd_read_bw.c
gd_read_lat_SOURCES = src/bin/gd_read_lat.c
gd_send_bw_SOURCES = src/bin/gd_send_bw.c
gd_send_lat_SOURCES = src/bin/gd_send_lat.c
gd_atomic_bw_SOURCES = src/bin/gd_atomic_bw.c
gd_atomic_lat_SOURCES = src/bin/gd_atomic_lat.c
gd_write_bw_LDADD = $(gd_common_ldadd)
gd_write_lat_LDADD = $(gd_common_ldadd)
gd_read_bw_LDADD = $(gd_common_ldadd)
gd_read_lat_LDADD = $(gd_common_ldadd)
gd_send_bw_LDADD = $(gd_common_ldadd)
gd_send_lat_LDADD = $(gd_common_ldadd)
gd_atomic_bw_LDADD = $(gd_common_ldadd)
gd_atomic_lat_LDADD = $(gd_common_ldadd)
