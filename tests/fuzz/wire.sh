#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bounded libFuzzer run: the readers of the peer's side-channel payloads
# (HELLO, TEST, QP_INFO, RESULT, the done SYNC).
. "${GD_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/fuzz/fuzz-lib.sh"
gd_fuzz_run wire 16384
