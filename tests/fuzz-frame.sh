#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bounded libFuzzer run of the side-channel frame decoder over the seed
# corpus (at most 2,000,000 inputs: the codec is fast); skips when clang
# could not build the target.
. "${GD_TOP_SRCDIR:-$(dirname "$0")/..}/tests/fuzz/fuzz-lib.sh"
gd_fuzz_bin=${GD_TOP_BUILDDIR:-.}/tests/frame_fuzz
gd_fuzz_artifacts=${GD_TOP_BUILDDIR:-.}/tests/frame_fuzz-
gd_fuzz_run frame 4096 -runs=2000000
