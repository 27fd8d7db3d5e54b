#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bounded libFuzzer run of the side-channel frame decoder over the seed
# corpus; skips when clang could not build the target.
srcdir=${GD_TOP_SRCDIR:-$(dirname "$0")/..}
builddir=${GD_TOP_BUILDDIR:-.}
fuzzer=$builddir/tests/frame_fuzz
seeds=$srcdir/tests/fuzz-corpus/frame

if [ -n "${GD_FUZZ_WHY:-}" ]; then
	echo "SKIP: libFuzzer targets not built: $GD_FUZZ_WHY" >&2
	exit 77
fi
if [ ! -x "$fuzzer" ]; then
	echo "FAIL: configure enabled fuzzing but $fuzzer was not built" >&2
	exit 1
fi
if [ ! -d "$seeds" ]; then
	echo "FAIL: seed corpus $seeds is missing" >&2
	exit 1
fi

# New inputs go to a scratch directory so the source tree stays untouched.
work=$(mktemp -d "${TMPDIR:-/tmp}/gd-fuzz-frame.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

"$fuzzer" -max_total_time="${GD_FUZZ_SECONDS:-20}" -runs=2000000 \
	-max_len=4096 -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$builddir/tests/frame_fuzz-" \
	"$work" "$seeds"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: frame_fuzz exited $rc; the crashing input is in $builddir/tests/frame_fuzz-*" >&2
	exit 1
fi
exit 0
