#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The real-GPU checks of the cuda backend in one command, from a plain
# checkout: a C compiler and the NVIDIA driver are all it needs (no
# configure, no libibverbs, json-c or hwloc, no RDMA device). It compiles
# cuda-smoke (the CUDA loader, its error path, the memory backend's pattern
# fill and check with the cuda backend's copy hooks, and the checks: cuInit,
# attributes, cuMemAlloc, SYNC_MEMOPS, H2D/D2H copies verified, DMA-BUF
# export with flags 0 then, on a coherent platform, the PCIe flag, flush, the backend's fill and check of
# device memory and a flipped byte caught at its offset, cuMemFree and the
# context's release) into a temporary directory and runs it. Given a
# configured build tree (BUILDDIR or GD_TOP_BUILDDIR) it also runs
# cuda-smoke-mem there (the whole backend: gd_mem_alloc, its description,
# fill and check), skipped when its libraries are missing.
# With an RDMA device (ibv_devices lists one, or /sys/class/infiniband has
# one) and gd_write_bw (BUILDDIR or PATH), each GPU's memory is registered
# with the NIC by both routes: gd_write_bw --loopback --mem=SPEC:dmabuf and
# :peermem, --phases=DD --verify -n 10 -s 64K; each route passed, failed
# with the advice, or not available and why (GD_GPU_NIC=no leaves it out).
# One line per check, then "N passed, N failed". Exit 0 pass, 1 fail,
# 77 no GPU (or no driver). Seconds per GPU; each program at most 120 s.
# GD_GPU_FAKE=1 builds the fake driver (a TEST DOUBLE, never a GPU) and runs
# the same checks against it; GD_GPU_FAKE=PATH uses that libfakecuda.so.
# Usage: tests/gpu/run.sh [BUILDDIR] [cuda:N|cuda:BDF ...]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
builddir=${GD_TOP_BUILDDIR:-}
if [ $# -gt 0 ] && [ -d "$1" ]; then
	builddir=$1
	shift
fi
[ $# -gt 0 ] || set -- cuda:0
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# config.h stands in for configure's: the sources need only _GNU_SOURCE
# (cuda_compat.h declares the driver API without the CUDA toolkit).
echo '#define _GNU_SOURCE 1' >"$tmp/config.h"
cflags="-std=gnu11 -O2 -I$tmp -I$src/src -I$src/tests/gpu"
smoke=$tmp/cuda-smoke
if [ -n "$builddir" ] && [ -x "$builddir/tests/gpu/cuda-smoke" ]; then
	# A configured tree's own build (make check builds it): the same
	# compiler flags as the fake driver there, sanitizers included (an
	# ASan-built fake cannot be loaded by a program built without ASan).
	smoke=$builddir/tests/gpu/cuda-smoke
	echo "INFO cuda-smoke of the build tree $builddir"
elif ! $cc $cflags -o "$smoke" "$src/tests/gpu/cuda-smoke.c" \
	"$src/src/mem/cuda_api.c" "$src/src/mem/mem_cuda_copy.c" \
	"$src/src/mem/mem_pattern.c" "$src/src/mem/mem_syntax.c" \
	"$src/src/util/error.c" -ldl -lpthread; then
	echo "FAIL compile cuda-smoke with $cc (is a C compiler installed?)"
	echo "0 passed, 1 failed"
	exit 1
fi
case ${GD_GPU_FAKE:-} in
'') ;;
1)
	if ! $cc $cflags -fPIC -shared -o "$tmp/libfakecuda.so" \
		"$src/tests/fake_cuda/fake_cuda.c" -lpthread; then
		echo "FAIL compile the fake CUDA driver"
		echo "0 passed, 1 failed"
		exit 1
	fi
	GD_CUDA_LIBRARY=$tmp/libfakecuda.so
	export GD_CUDA_LIBRARY
	echo "INFO against the fake CUDA driver (a test double, not a GPU)"
	;;
*)
	GD_CUDA_LIBRARY=$GD_GPU_FAKE
	export GD_CUDA_LIBRARY
	echo "INFO against $GD_GPU_FAKE (a test double, not a GPU)"
	;;
esac
limit=
command -v timeout >/dev/null && limit="timeout 120"
log=$tmp/log
passed=0
failed=0
nogpu=
# $1: a program's exit status; its lines are in $log.
tally() {
	cat "$log"
	passed=$((passed + $(grep -c '^PASS ' "$log")))
	failed=$((failed + $(grep -c '^FAIL ' "$log")))
	case $1 in
	0 | 1) ;;
	77) nogpu=$(grep '^SKIP ' "$log" | tail -n 1 | sed 's/^SKIP //') ;;
	*)
		echo "FAIL the program ended with status $1 (killed or timed out)"
		failed=$((failed + 1))
		;;
	esac
}
for spec in "$@"; do
	echo "== cuda-smoke $spec"
	$limit "$smoke" "$spec" >"$log" 2>&1
	tally $?
	[ -z "$nogpu" ] || break
	mem=${builddir:+$builddir/tests/gpu/cuda-smoke-mem}
	if [ -z "$mem" ] || [ ! -f "$builddir/Makefile" ]; then
		echo "SKIP cuda-smoke-mem: no configured build tree given (gd_mem_alloc and the backend's description need libibverbs and json-c; its fill and check ran in cuda-smoke)"
		continue
	fi
	make -C "$builddir" tests/gpu/cuda-smoke-mem >/dev/null 2>&1
	missing=$(ldd "$mem" 2>/dev/null | awk '/not found/ { printf "%s ", $1 }')
	if [ ! -x "$mem" ] || [ -n "$missing" ]; then
		echo "SKIP cuda-smoke-mem: not built or missing libraries: $missing"
		continue
	fi
	echo "== cuda-smoke-mem $spec"
	$limit "$mem" "$spec" >"$log" 2>&1
	tally $?
done
# The first RDMA device, or nothing; $nic_why says how it was looked for.
find_nic() {
	nic=
	if command -v ibv_devices >/dev/null; then
		nic=$(ibv_devices 2>/dev/null | awk 'NR > 2 && NF { print $1; exit }')
		nic_why="ibv_devices lists no RDMA device"
	else
		nic=$(ls /sys/class/infiniband 2>/dev/null | head -n 1)
		nic_why="no ibv_devices, and /sys/class/infiniband is empty"
	fi
}
# Register $1 (cuda:N) through route $2 on $nic; one line for the route.
nic_route() {
	j=$tmp/nic-$2.json
	rm -f "$j"
	$limit "$wbw" --loopback -d "$nic" --mem="$1:$2" --phases=DD --verify \
		-n 10 -s 64K --out_json_file="$j" >"$log" 2>&1
	rc=$?
	why=$(grep -o '"why": *"requested (:'"$2"') although [^"]*"' "$j" 2>/dev/null |
		head -n 1 | sed 's/^"why": *"requested ([^)]*) although //; s/"$//; s|\\/|/|g')
	err=$(grep -i 'error' "$log" | head -n 1)
	if [ "$rc" -eq 0 ]; then
		echo "PASS NIC $nic, $1 route $2: registered, 10 writes of 64 KiB verified"
		passed=$((passed + 1))
	elif [ -n "$why" ]; then
		echo "INFO NIC $nic, $1 route $2: not available: $why"
		[ -z "$err" ] || echo "INFO   its failure: $err"
	else
		echo "FAIL NIC $nic, $1 route $2 (exit $rc): ${err:-see below}"
		[ -n "$err" ] || tail -n 5 "$log"
		failed=$((failed + 1))
	fi
}
if [ -z "$nogpu" ]; then
	wbw=
	if [ -n "$builddir" ] && [ -x "$builddir/gd_write_bw" ]; then
		wbw=$builddir/gd_write_bw
	elif command -v gd_write_bw >/dev/null; then
		wbw=gd_write_bw
	fi
	find_nic
	if [ "${GD_GPU_NIC:-}" = no ] || [ -n "${GD_GPU_FAKE:-}" ]; then
		echo "INFO NIC registration left out (GD_GPU_NIC=no or a fake driver)"
	elif [ -z "$nic" ]; then
		echo "INFO no RDMA device ($nic_why): GPU memory not registered with a NIC; the CUDA-only checks above stand"
	elif [ -z "$wbw" ]; then
		echo "INFO RDMA device $nic found, but no gd_write_bw (give a configured BUILDDIR or put gdperf on PATH): NIC registration not tested"
	else
		for spec in "$@"; do
			echo "== NIC registration on $nic: $wbw --loopback -d $nic --mem=$spec:ROUTE --phases=DD --verify -n 10 -s 64K"
			nic_route "$spec" dmabuf
			nic_route "$spec" peermem
		done
	fi
fi
if [ -n "$nogpu" ]; then
	echo "no GPU: $nogpu"
	echo "$passed passed, $failed failed"
	exit 77
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
