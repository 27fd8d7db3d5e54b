#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# under-load.sh REPEAT COMMAND...: run COMMAND REPEAT times with every CPU
# kept busy by a plain busy loop (GD_LOAD_CPUS of them, default nproc),
# printing each run's result with the load average, then "N of M runs
# passed". The loops are killed on every way out. make check-under-load.
set -u
repeat=${1:?usage: under-load.sh REPEAT COMMAND...}
shift
case $repeat in '' | *[!0-9]* | 0)
	echo "under-load.sh: REPEAT must be a whole number of runs from 1, not '$repeat'" >&2
	exit 2 ;;
esac
cpus=${GD_LOAD_CPUS:-$(nproc)}
pids=
stop_loops() {
	# shellcheck disable=SC2086 # one word per PID
	[ -z "$pids" ] || kill $pids 2>/dev/null
	pids=
}
trap stop_loops EXIT
trap 'stop_loops; exit 130' INT
trap 'stop_loops; exit 143' TERM
i=0
while [ "$i" -lt "$cpus" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "under load: $cpus busy loop(s) (pids$pids), $repeat run(s) of: $*"
passed=0
run=1
while [ "$run" -le "$repeat" ]; do
	if "$@" >"under-load-$run.log" 2>&1; then
		passed=$((passed + 1))
		what=passed
	else
		what="FAILED (under-load-$run.log)"
	fi
	echo "under load: run $run of $repeat $what; load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
	grep -E '^# (TOTAL|PASS|FAIL|ERROR):' "under-load-$run.log" | tr '\n' ' '
	echo
	run=$((run + 1))
done
stop_loops
echo "under load: $passed of $repeat runs passed"
[ "$passed" = "$repeat" ]
