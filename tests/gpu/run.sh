#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Runs the real-GPU smoke test of the cuda backend (no RDMA device needed):
# builds tests/gpu/cuda-smoke in the build tree if needed, then runs it for
# each spec given (default cuda:0). Exit 0 pass, 1 fail, 77 no GPU/driver.
# Usage: tests/gpu/run.sh [BUILDDIR] [cuda:N|cuda:BDF ...]
set -u
builddir=${GD_TOP_BUILDDIR:-.}
if [ $# -gt 0 ] && [ -d "$1" ]; then
	builddir=$1
	shift
fi
smoke="$builddir/tests/gpu/cuda-smoke"
if [ ! -x "$smoke" ]; then
	echo "building $smoke"
	make -C "$builddir" tests/gpu/cuda-smoke >/dev/null || {
		echo "FAIL could not build $smoke (configure the tree first)" >&2
		exit 1
	}
fi
[ $# -gt 0 ] || set -- cuda:0
status=0
for spec in "$@"; do
	echo "== cuda-smoke $spec"
	timeout 300 "$smoke" "$spec"
	rc=$?
	case $rc in
	0) ;;
	77) [ $status -eq 0 ] && status=77 ;;
	*) status=1 ;;
	esac
done
exit $status
