#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The real-GPU checks of the cuda backend in one command, from a plain
# checkout: a C compiler and the NVIDIA driver are all it needs (no
# configure, no libibverbs, json-c or hwloc, no RDMA device). It compiles
# cuda-smoke (the CUDA loader, its error path, the memory backend's pattern
# fill and check with the cuda backend's copy hooks, and the checks: cuInit,
# attributes, cuMemAlloc, SYNC_MEMOPS, H2D/D2H copies verified, DMA-BUF
# export with flags 0 then, on a coherent platform, the PCIe flag and its
# attach by a NIC (libibverbs by dlopen, GD_GPU_NIC or the first), flush, the backend's fill and check of
# device memory and a flipped byte caught at its offset, cuMemFree and the
# context's release) into a temporary directory and runs it. Given a
# configured build tree (BUILDDIR or GD_TOP_BUILDDIR) it also runs
# cuda-smoke-mem there (the whole backend: gd_mem_alloc, its description,
# fill and check), skipped when its libraries are missing.
# With an RDMA device (/sys/class/infiniband) and gd_write_bw (BUILDDIR,
# PATH or GD_GPU_WRITE_BW), each GPU's memory is registered with a NIC by
# both routes: gd_write_bw --loopback -d NIC --mem=SPEC:dmabuf and :peermem,
# --phases=DD --verify -n 10 -s 64K (--phases=HD,DH when the GPU is in
# EXCLUSIVE_PROCESS compute mode: one process per GPU). The NIC is
# GD_GPU_NIC=<dev>, else the nearest to the GPU in gd_doctor's GPU-to-NIC
# map with an ACTIVE port (GD_GPU_NIC=no leaves the NIC part out); with
# several GPUs a far GPU is registered with the same NIC too. Each route:
# PASS; INFO "not available" naming the missing piece (the route record's
# reason, or the exporter's 524); or FAIL with the advice. A down port is a
# SKIP, never a GPU-path failure.
# One line per check, then "N passed, N failed". Exit 0 pass, 1 fail,
# 77 no GPU: no libcuda, or cuInit found no device and there is no
# /dev/nvidia0 (any other cuInit failure is a FAIL with its hint).
# Seconds per GPU; each program at most 120 s.
# GD_GPU_FAKE=1 builds the fake driver (a TEST DOUBLE, never a GPU) and runs
# the same checks against it; GD_GPU_FAKE=PATH uses that libfakecuda.so.
# The NIC part runs with a fake driver only when GD_GPU_WRITE_BW names the
# program (tests give a stub); GD_GPU_DOCTOR names gd_doctor likewise, and
# GD_SYSFS_ROOT stands in for / where the NICs and ports are read.
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
# shellcheck disable=SC2086 # $cflags: several words
if [ -n "$builddir" ] && [ -x "$builddir/tests/gpu/cuda-smoke" ]; then
	# A configured tree's own build (make check builds it): the same
	# compiler flags as the fake driver there, sanitizers included (an
	# ASan-built fake cannot be loaded by a program built without ASan).
	smoke=$builddir/tests/gpu/cuda-smoke
	echo "INFO cuda-smoke of the build tree $builddir"
	# ASan reserves the low shadow gap that the CUDA driver maps: without
	# this, cuInit fails in every sanitizer-built program of the tree.
	if grep -q __asan_init "$smoke" 2>/dev/null; then
		ASAN_OPTIONS=protect_shadow_gap=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
		export ASAN_OPTIONS
		echo "INFO $builddir is an AddressSanitizer build: its programs run with ASAN_OPTIONS=$ASAN_OPTIONS (the CUDA driver needs the shadow gap)"
	fi
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
	# shellcheck disable=SC2086 # $cflags: several words
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
cuinit_failed=
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
n=0
for spec in "$@"; do
	n=$((n + 1))
	echo "== cuda-smoke $spec"
	$limit "$smoke" "$spec" >"$log" 2>&1
	tally $?
	cp "$log" "$tmp/smoke.$n"
	# A driver that failed cuInit fails every later program the same way.
	if grep -q '^FAIL cuInit' "$log"; then
		cuinit_failed=1
		break
	fi
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
ibdir=${GD_SYSFS_ROOT:-}/sys/class/infiniband
# $1's port: the first ACTIVE one, else the first; sets $pport, $pstate.
port_state() {
	pport=
	pstate=
	for p in "$ibdir/$1"/ports/*; do
		[ -r "$p/state" ] || continue
		st=$(sed 's/^[0-9]*: *//' "$p/state")
		if [ -z "$pstate" ] || [ "$st" = ACTIVE ]; then
			pport=${p##*/}
			pstate=$st
		fi
		[ "$st" != ACTIVE ] || break
	done
	[ -n "$pstate" ] || pstate="unknown (no $ibdir/$1/ports)"
}
# gd_doctor's GPU-to-NIC map as "GPU-BDF NIC CLASS RANK" lines in $tmp/map.
doctor_map() {
	: >"$tmp/map"
	[ -n "$doctor" ] || return 0
	# shellcheck disable=SC2086 # $doctor_root: one word or none
	$limit "$doctor" $doctor_root 2>/dev/null | awk '
		/^GPU-to-NIC map/ { m = 1; next }
		m && NF == 0 { m = 0 }
		m && $1 == "GPU" {
			n = 0
			for (i = 2; i <= NF && $i != "nearest"; i++)
				nic[++n] = $i
			next
		}
		m && $1 ~ /^[0-9a-f]+:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]\.[0-7]$/ {
			for (i = 1; i <= n; i++) {
				r = 9
				if ($(i + 1) == "PIX") r = 1
				if ($(i + 1) == "PXB") r = 2
				if ($(i + 1) == "PHB") r = 3
				if ($(i + 1) == "NODE") r = 4
				if ($(i + 1) == "SYS") r = 5
				print $1, nic[i], $(i + 1), r
			}
		}' >"$tmp/map"
}
# The NIC for the GPU at bus id $1: sets $nic, $nic_class, $nic_how,
# $pport and $pstate ($nic empty: no RDMA device).
pick_nic() {
	nic=
	nic_class="unknown (not in a gd_doctor map)"
	if [ -n "${GD_GPU_NIC:-}" ]; then
		nic=$GD_GPU_NIC
		nic_how="chosen with GD_GPU_NIC"
		c=$(awk -v g="$1" -v d="$nic" '$1 == g && $2 == d { print $3 }' "$tmp/map")
		[ -z "$c" ] || nic_class=$c
		port_state "$nic"
		return
	fi
	# The map's NICs for this GPU nearest first, then any it left out.
	{
		awk -v g="$1" '$1 == g { print $4, $2, $3 }' "$tmp/map" | sort -n -k 1,1 -s
		for d in "$ibdir"/*; do
			[ -e "$d" ] && echo "9 ${d##*/} -"
		done
	} | awk '!seen[$2]++ { print $2, $3 }' >"$tmp/cands"
	first=
	while read -r d c; do
		port_state "$d"
		[ -n "$first" ] || first="$d $c"
		if [ "$pstate" = ACTIVE ]; then
			nic=$d
			[ "$c" = - ] || nic_class=$c
			nic_how="the nearest RDMA device with an ACTIVE port"
			[ "$d $c" = "$first" ] || nic_how="$nic_how; nearer ones have none"
			return
		fi
	done <"$tmp/cands"
	[ -n "$first" ] || return 0
	# None ACTIVE: the nearest, whose port state the caller reports.
	nic=${first%% *}
	c=${first#* }
	[ "$c" = - ] || nic_class=$c
	nic_how="the nearest RDMA device; no port of any is ACTIVE"
	port_state "$nic"
}
# Register $1 (a spec) through route $2 on $nic; one line for the route,
# labelled $3 ("" or "near pair: " / "far pair: ").
nic_route() {
	j=$tmp/nic-$2.json
	rm -f "$j"
	$limit "$wbw" --loopback -d "$nic" --mem="$1:$2" --phases="$phases" --verify \
		-n 10 -s 64K --out_json_file="$j" >"$log" 2>&1
	rc=$?
	# The route record's reason, in the header also when the
	# registration failed (route_why, and "route": "none: ..."), else in
	# a buffer's evidence. "although" names the missing piece; a route
	# that registered and then failed is broken, whatever it says.
	why=$(grep -o '"\(route_\)\{0,1\}why": *"requested (:'"$2"')[^"]*"' "$j" 2>/dev/null |
		head -n 1 | sed 's/^"[a-z_]*": *"//; s/"$//; s|\\/|/|g')
	err=$(grep -i 'error\|failed\|unavailable' "$log" | head -n 1)
	what="$3NIC $nic, $1 route $2"
	if [ "$rc" -eq 0 ]; then
		echo "PASS $what: registered, 10 writes of 64 KiB verified ($phases)"
		passed=$((passed + 1))
	elif [ -n "$why" ] && [ "$why" != "${why#*) although }" ] &&
		grep -q '"route": *"none' "$j" 2>/dev/null; then
		echo "INFO $what: not available: ${why#*) although }"
		[ -z "$err" ] || echo "INFO   its failure: $err"
	elif [ "$2" = dmabuf ] && echo "$err" | grep -q 'errno 524'; then
		echo "INFO $what: not available: the GPU driver (the exporter) refused the DMA-BUF attach with 524 (the proprietary kernel module, or a PCI topology it does not support): $err"
	else
		echo "FAIL $what (exit $rc): ${err:-see below}"
		[ -z "$why" ] || echo "INFO   route record: $why"
		[ -n "$err" ] || tail -n 5 "$log"
		failed=$((failed + 1))
	fi
}
# Both routes of spec $1 on $nic, after a line naming the pair ($2).
nic_pair() {
	echo "== NIC registration, $2$1 on $nic: $wbw --loopback -d $nic --mem=$1:ROUTE --phases=$phases --verify -n 10 -s 64K"
	nic_route "$1" dmabuf "$2"
	nic_route "$1" peermem "$2"
}
# The bus id of the GPU cuda-smoke run $1 reported.
smoke_bdf() {
	grep '^INFO gpu ' "$tmp/smoke.$1" 2>/dev/null |
		grep -o '[0-9a-f]\{4\}:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]\.[0-7]' | head -n 1
}
if [ -n "$cuinit_failed" ]; then
	echo "INFO the other checks and the NIC part left out: cuInit failed (above)"
elif [ -z "$nogpu" ]; then
	wbw=${GD_GPU_WRITE_BW:-}
	if [ -n "$wbw" ]; then
		:
	elif [ -n "$builddir" ] && [ -x "$builddir/gd_write_bw" ]; then
		wbw=$builddir/gd_write_bw
	elif command -v gd_write_bw >/dev/null; then
		wbw=gd_write_bw
	fi
	doctor=${GD_GPU_DOCTOR:-}
	if [ -n "$doctor" ]; then
		:
	elif [ -n "$builddir" ] && [ -x "$builddir/gd_doctor" ]; then
		doctor=$builddir/gd_doctor
	elif command -v gd_doctor >/dev/null; then
		doctor=gd_doctor
	fi
	doctor_root=
	[ -z "${GD_SYSFS_ROOT:-}" ] || doctor_root=--root=$GD_SYSFS_ROOT
	nics=$(ls "$ibdir" 2>/dev/null)
	if [ "${GD_GPU_NIC:-}" = no ]; then
		echo "INFO NIC registration left out (GD_GPU_NIC=no)"
	elif [ -n "${GD_GPU_FAKE:-}${GD_CUDA_LIBRARY:-}" ] && [ -z "${GD_GPU_WRITE_BW:-}" ]; then
		echo "INFO NIC registration left out: a fake driver's memory is never registered with a real NIC"
	elif [ -z "$nics" ] && [ -z "${GD_GPU_NIC:-}" ]; then
		echo "INFO no RDMA device ($ibdir is empty or absent): GPU memory not registered with a NIC; the CUDA-only checks above stand"
	elif [ -z "$wbw" ]; then
		echo "INFO RDMA device(s) $(echo "$nics" | tr '\n' ' ')found, but no gd_write_bw (give a configured BUILDDIR or put gdperf on PATH): NIC registration not tested"
	else
		doctor_map
		[ -s "$tmp/map" ] || echo "INFO no GPU-to-NIC map (${doctor:-no gd_doctor in BUILDDIR or on PATH}${doctor:+ printed none}): NICs taken in their sysfs order"
		ngpus=$(sed -n 's/^PASS \([0-9]*\) GPU(s) visible$/\1/p' "$tmp/smoke.1" | head -n 1)
		n=0
		for spec in "$@"; do
			n=$((n + 1))
			bdf=$(smoke_bdf "$n")
			pick_nic "$bdf"
			phases=DD
			if grep -q 'compute mode EXCLUSIVE_PROCESS' "$tmp/smoke.$n"; then
				phases=HD,DH
				echo "INFO $spec is in EXCLUSIVE_PROCESS compute mode: one process at a time may use it, so the NIC checks run --phases=HD,DH (one half of the loopback pair in host memory)"
			fi
			echo "INFO NIC for $spec (${bdf:-bus id unknown}): ${nic:-none}, port ${pport:-?} $pstate, GPU-NIC path ${nic_class} ($nic_how)"
			if [ -z "$nic" ]; then
				echo "INFO no RDMA device: GPU memory not registered with a NIC"
				continue
			fi
			if [ "$pstate" != ACTIVE ]; then
				echo "SKIP NIC $nic port ${pport:-?} is $pstate: $spec not registered (a down port is not a GPU-path fault: cable the port or choose an ACTIVE one with GD_GPU_NIC=<dev>)"
				continue
			fi
			label=
			[ "${ngpus:-1}" -le 1 ] || label="near pair: "
			nic_pair "$spec" "$label"
			# With several GPUs: the GPU farthest from this NIC, when
			# it is farther than this one.
			if [ "${ngpus:-1}" -le 1 ] || [ "$n" -ne 1 ]; then
				continue
			fi
			near=$(awk -v g="$bdf" -v d="$nic" '$1 == g && $2 == d { print $4 }' "$tmp/map")
			far=$(awk -v g="$bdf" -v d="$nic" '$2 == d && $1 != g { print $4, $1, $3 }' "$tmp/map" |
				sort -n -r -k 1,1 | head -n 1)
			if [ -z "$far" ] || [ "${far%% *}" -le "${near:-9}" ]; then
				echo "INFO no far pair: no GPU in gd_doctor's map is farther from $nic than $spec"
				continue
			fi
			fbdf=$(echo "$far" | awk '{ print $2 }')
			echo "INFO far pair: cuda:$fbdf on $nic, GPU-NIC path $(echo "$far" | awk '{ print $3 }') (the near pair above: $nic_class)"
			nic_pair "cuda:$fbdf" "far pair: "
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
