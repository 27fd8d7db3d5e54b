# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The shared engine: errors, options, verbs transport, sweep, binaries.
libgdperf_la_SOURCES += src/error.c src/error.h src/test.h src/engine.c
