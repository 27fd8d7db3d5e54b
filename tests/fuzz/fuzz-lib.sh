# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# shellcheck shell=sh
# Sourced by tests/fuzz/*.sh: a bounded libFuzzer run of one target over its
# committed seed corpus (tests/fuzz-corpus/NAME), new inputs kept in a
# scratch directory. GD_FUZZ_SECONDS (default 20) bounds the run; skips
# (77) when configure did not build the targets.
#
# gd_fuzz_run NAME MAX_LEN [LIBFUZZER_ARG...]: the target is
# tests/fuzz/NAME_fuzz and its findings go to tests/fuzz/NAME-*, unless
# gd_fuzz_bin and gd_fuzz_artifacts say otherwise (the frame target is
# built beside its library, tests/frame_fuzz).

gd_fuzz_run() {
	name=$1
	max_len=$2
	shift 2
	srcdir=${GD_TOP_SRCDIR:-.}
	builddir=${GD_TOP_BUILDDIR:-.}
	fuzzer=${gd_fuzz_bin:-$builddir/tests/fuzz/${name}_fuzz}
	artifacts=${gd_fuzz_artifacts:-$builddir/tests/fuzz/$name-}
	seeds=$srcdir/tests/fuzz-corpus/$name

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
	work=$(mktemp -d "${TMPDIR:-/tmp}/gd-fuzz-$name.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT INT TERM
	# A finding is fatal: ASan and UBSan stop at the first report and
	# libFuzzer saves the input. Leaks count too (detect_leaks).
	# The symbolizer configure found: the suppressions match names.
	if [ -n "${GD_LLVM_SYMBOLIZER:-}" ] && [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
		ASAN_SYMBOLIZER_PATH=$GD_LLVM_SYMBOLIZER
		export ASAN_SYMBOLIZER_PATH
	fi
	# -timeout only catches a hang: an input runs in microseconds, so
	# 120 s cannot be reached by a busy machine (HACKING).
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$srcdir/tests/lsan.supp:print_suppressions=0} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	TMPDIR=$work "$fuzzer" -max_total_time="${GD_FUZZ_SECONDS:-20}" \
		-max_len="$max_len" -timeout=120 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$artifacts" \
		"$@" "$work" "$seeds"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: ${fuzzer##*/} exited $rc; the input is in $artifacts*" >&2
		exit 1
	fi
	exit 0
}
