#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest-side runner: executes /payload/cases/*.sh in order, each in its own
# work directory under a time limit, and ends the TAP stream with the plan.
# GD_VM_CASES (space-separated globs) narrows the set, e.g. "00-*";
# GD_VM_SKIP_CASES leaves some out (reported as skips).
#
# On the host, from a build directory, it boots the guest for the cases it
# is given (names or globs), the developers' loop for one case:
#   tests/vm/run-cases.sh 36-perftest-verbs
#   ../tests/vm/run-cases.sh '10-*' 50-faults
if [ ! -f /gd/guest-lib.sh ]; then
	if [ $# = 0 ]; then
		echo "usage: $0 CASE... (names or globs of tests/vm/cases/*.sh; run from a build directory)" >&2
		exit 2
	fi
	GD_TOP_BUILDDIR=${GD_TOP_BUILDDIR:-$(pwd)}
	if [ ! -x "$GD_TOP_BUILDDIR/gd_write_bw" ]; then
		echo "run-cases.sh: no gd_write_bw in $GD_TOP_BUILDDIR: run it from a build directory after make (or set GD_TOP_BUILDDIR)" >&2
		exit 2
	fi
	[ -f "$GD_TOP_BUILDDIR/tests/fake_cuda/libfakecuda.so" ] ||
		echo "run-cases.sh: note: no tests/fake_cuda/libfakecuda.so (built by make check): the fake-CUDA cases skip" >&2
	for g in "$@"; do
		found=0
		for c in "$(dirname "$0")"/cases/*.sh; do
			n=${c##*/}
			# shellcheck disable=SC2254 # g is a glob on purpose
			case ${n%.sh} in $g) found=1 ;; esac
		done
		if [ $found = 0 ]; then
			echo "run-cases.sh: no case matches '$g' (see $(dirname "$0")/cases/)" >&2
			exit 2
		fi
	done
	GD_VM_CASES="$*"
	QEMU=${QEMU:-qemu-system-x86_64}
	GD_VM_REQUIRE=${GD_VM_REQUIRE:-1}
	export GD_TOP_BUILDDIR GD_VM_CASES QEMU GD_VM_REQUIRE
	exec "$(dirname "$0")/device-tests.tap"
fi
. /gd/guest-lib.sh

case_limit=${GD_VM_CASE_TIMEOUT_S:-150}
# A sanitizer build (device-tests.tap sets GD_VM_SANITIZED and points the
# ASan/UBSan log_path here): every program writes its reports to files, so
# a report cannot hide behind a case that expects a failing exit status.
[ -n "${GD_VM_SANITIZED:-}" ] && mkdir -p /tmp/san && chmod 1777 /tmp/san
for c in /payload/cases/*.sh; do
	name=${c##*/}
	name=${name%.sh}
	# GD_VM_SKIP_CASES: globs of cases left out, each reported as a skip
	skip=0
	for g in ${GD_VM_SKIP_CASES:-}; do
		case $name in $g) skip=1 ;; esac
	done
	if [ $skip = 1 ]; then
		tap_skip "$name" "left out by GD_VM_SKIP_CASES"
		continue
	fi
	if [ -n "${GD_VM_CASES:-}" ]; then
		sel=0
		for g in $GD_VM_CASES; do
			case $name in $g) sel=1 ;; esac
		done
		[ $sel = 1 ] || continue
	fi
	gd_stage "case $name"
	diag "case $name"
	WORK=/tmp/work/$name
	mkdir -p "$WORK"
	chmod 0777 "$WORK"
	# A case that needs longer says so in a "# gd-case-timeout-s: N" line.
	limit=$(sed -n 's/^# gd-case-timeout-s: *\([0-9][0-9]*\)$/\1/p' "$c" | head -1)
	limit=${limit:-$case_limit}
	# A case that measures timing says "# gd-case-build: plain": it runs
	# the plain build's programs when a sanitizer build brought them along
	# (gd-vm's GD_VM_PLAIN_BUILDDIR), in this same boot.
	build=sanitized
	[ -n "${GD_VM_SANITIZED:-}" ] || build=plain
	case_path=$PATH
	if grep -q '^# gd-case-build: plain$' "$c"; then
		if [ -d /gd/plain-bin ]; then
			case_path=/gd/plain-bin:$PATH
			build=plain
		elif [ $build = sanitized ]; then
			diag "case $name asks for the plain build, but none came along (GD_VM_PLAIN_BUILDDIR): it runs the sanitizer build"
		fi
	fi
	t0=$(cut -d. -f1 /proc/uptime)
	# Own session per case, so that servers it left behind (busy-polling
	# ones would slow every later case) can be stopped as one group.
	PATH=$case_path WORK=$WORK setsid sh -c 'echo $$ >/tmp/gd-case.pgid; exec timeout -k 5 "$0" sh "$1"' \
		"$limit" "$c" &
	wait $!
	st=$?
	kill -9 -- "-$(cat /tmp/gd-case.pgid)" 2>/dev/null
	t1=$(cut -d. -f1 /proc/uptime)
	took=$((t1 - t0))
	diag "case $name finished in $took s (status $st)"
	# The table at the end: every case's seconds against its limit. A case
	# that used more than half its limit is flagged there: one slow day
	# would turn it red, so its gd-case-timeout-s wants raising.
	flag=
	[ $((took * 2)) -le "$limit" ] || flag="  over half its limit: raise gd-case-timeout-s"
	printf '%-26s %5d %6d  %s%s\n' "$name" "$took" "$limit" "$build" "$flag" >>/tmp/gd-case-times
	# busybox timeout execs the case, so a timed-out case dies of TERM (143)
	# or KILL (137) rather than returning 124.
	if [ $st = 124 ] || [ $st = 137 ] || [ $st = 143 ]; then
		tap_not_ok "$name: case timed out after $limit s"
	elif [ $st != 0 ]; then
		tap_not_ok "$name: case script failed with status $st"
	fi
done
if [ -s /tmp/gd-case-times ]; then
	diag "seconds per case (guest clock) and each case's limit:"
	diag "$(printf '%-26s %5s %6s  %s' case took limit build)"
	while IFS= read -r line; do diag "$line"; done </tmp/gd-case-times
	diag "$(awk '{ s += $2 } END { printf "%-26s %5d", "all cases", s }' /tmp/gd-case-times)"
	cp /tmp/gd-case-times "$GD_VM_OUT/case-times" 2>/dev/null
fi
if [ -n "${GD_VM_SANITIZED:-}" ]; then
	nrep=$(ls /tmp/san | wc -l)
	if [ "$nrep" = 0 ]; then
		tap_ok "sanitizers: no ASan, UBSan or LSan report from any gd_* run"
	else
		for f in /tmp/san/*; do diag_file "$f"; done
		tap_not_ok "sanitizers: $nrep report file(s) from ASan/UBSan/LSan (above)"
	fi
	cp -r /tmp/san "$GD_VM_OUT/" 2>/dev/null
fi
# Keep every case's outputs for the host (tests/vm/cache/last-run).
cp -r /tmp/work "$GD_VM_OUT/" 2>/dev/null
echo "1..$(cat "$GD_TAP_COUNT_FILE" 2>/dev/null || echo 0)"
