#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bounded libFuzzer run: run documents (report/doc_read.c and the comparison that reads them).
. "${GD_TOP_SRCDIR:-$(dirname "$0")/../..}/tests/fuzz/fuzz-lib.sh"
gd_fuzz_run rundoc 65536
