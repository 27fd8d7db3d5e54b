#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest-side runner: executes /payload/cases/*.sh in order, each in its own
# work directory under a time limit, and ends the TAP stream with the plan.
# GD_VM_CASES (space-separated globs) narrows the set, e.g. "00-*";
# GD_VM_SKIP_CASES leaves some out (reported as skips).
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
	t0=$(cut -d. -f1 /proc/uptime)
	# Own session per case, so that servers it left behind (busy-polling
	# ones would slow every later case) can be stopped as one group.
	WORK=$WORK setsid sh -c 'echo $$ >/tmp/gd-case.pgid; exec timeout -k 5 "$0" sh "$1"' \
		"$limit" "$c" &
	wait $!
	st=$?
	kill -9 -- "-$(cat /tmp/gd-case.pgid)" 2>/dev/null
	t1=$(cut -d. -f1 /proc/uptime)
	diag "case $name finished in $((t1 - t0)) s (status $st)"
	# busybox timeout execs the case, so a timed-out case dies of TERM (143)
	# or KILL (137) rather than returning 124.
	if [ $st = 124 ] || [ $st = 137 ] || [ $st = 143 ]; then
		tap_not_ok "$name: case timed out after $limit s"
	elif [ $st != 0 ]; then
		tap_not_ok "$name: case script failed with status $st"
	fi
done
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
