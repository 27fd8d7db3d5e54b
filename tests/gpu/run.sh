#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The real-GPU smoke tests of the cuda backend, one command, no RDMA device
# needed (a few seconds per GPU, at most 2 x 120 s): cuda-smoke (CUDA side
# only; needs nothing but libc and the driver) and cuda-smoke-mem (the
# memory backend; skipped when libibverbs, librdmacm or json-c is missing).
# Builds both in the build tree if needed. Every PASS line is an asserted
# check. Exit 0 pass, 1 fail, 77 no GPU/driver (or nothing could run).
# Usage: tests/gpu/run.sh [BUILDDIR] [cuda:N|cuda:BDF ...]
set -u
builddir=${GD_TOP_BUILDDIR:-.}
if [ $# -gt 0 ] && [ -d "$1" ]; then
	builddir=$1
	shift
fi
smoke=$builddir/tests/gpu/cuda-smoke
mem=$builddir/tests/gpu/cuda-smoke-mem
if [ ! -x "$smoke" ] || [ ! -x "$mem" ]; then
	echo "building $smoke and $mem"
	make -C "$builddir" tests/gpu/cuda-smoke tests/gpu/cuda-smoke-mem >/dev/null || {
		echo "FAIL could not build the smoke programs (configure the tree first)" >&2
		exit 1
	}
fi
[ $# -gt 0 ] || set -- cuda:0
status=77
note() {
	case $1 in
	0) [ $status = 77 ] && status=0 ;;
	77) ;;
	*) status=1 ;;
	esac
}
for spec in "$@"; do
	echo "== cuda-smoke $spec"
	timeout 120 "$smoke" "$spec"
	note $?
	echo "== cuda-smoke-mem $spec"
	missing=$(ldd "$mem" 2>/dev/null | awk '/not found/ { printf "%s ", $1 }')
	if [ -n "$missing" ]; then
		echo "SKIP cuda-smoke-mem: missing libraries: $missing(install them to test the memory backend)"
		continue
	fi
	timeout 120 "$mem" "$spec"
	note $?
done
exit $status
