# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The shared engine (errors, options, verbs transport, session, sweep,
# measured loops) and the eight gd_* binaries, each a short table.
libgdperf_la_SOURCES += \
	src/error.c src/error.h src/test.c src/test.h \
	src/json_get.c src/json_get.h \
	src/version.c src/version.h \
	src/options.c src/options_wire.c src/options.h src/options_priv.h \
	src/verbs.c src/cm.c src/verbs.h \
	src/session.c src/session.h src/sweep.c src/sweep.h src/step.c \
	src/ops_bw.c src/ops_lat.c src/engine.c

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
