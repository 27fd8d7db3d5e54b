#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bounded libFuzzer run: the benchmarks' --config file and the command line
# it gives way to.
. "${GD_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/fuzz/fuzz-lib.sh"
gd_fuzz_run config 8192
