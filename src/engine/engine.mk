# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The engine: the verbs and the tests as data (test.c), what it reads of the
# parsed options (opts.h), the session (handshake, buffers), the sweep and
# its steps, the measured loops and gd_engine_run. The option table and
# gd_main are above it, in src/cli.
libgdperf_la_SOURCES += \
	src/engine/test.c src/engine/test.h \
	src/engine/opts.c src/engine/opts.h src/engine/engine.h \
	src/engine/placement.c src/engine/placement.h \
	src/engine/pace.c src/engine/pace.h \
	src/engine/payload.c src/engine/payload.h src/engine/numa.c src/engine/numa.h \
	src/engine/session.c src/engine/session.h \
	src/engine/session_auth.c src/engine/session_auth.h \
	src/engine/handshake.c src/engine/serve.c src/engine/serve.h \
	src/engine/preflight.c src/engine/preflight.h \
	src/engine/time_account.c src/engine/time_account.h \
	src/engine/limits.c src/engine/limits.h \
	src/engine/sweep.c src/engine/sweep.h src/engine/sweep_report.c \
	src/engine/sweep_precision.c src/engine/step.c \
	src/engine/loop.c src/engine/ops_bw.c src/engine/ops_lat.c \
	src/engine/lat_tail.c src/engine/lat_tail.h \
	src/engine/dry_run.c src/engine/role.c src/engine/role.h \
	src/engine/persist.c src/engine/persist.h src/engine/engine.c
