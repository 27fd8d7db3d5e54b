#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bounded libFuzzer run: gd_doctor's --topology-xml (hwloc XML) and --rails files.
. "${GD_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/fuzz/fuzz-lib.sh"
gd_fuzz_run topology 65536
