#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# make vm-cluster-repeat: the two-node cluster test (cluster-tests.tap) N
# times in a row beside busy CPUs, as on a CI machine with other work on
# it, where a guest runs slower and any timing assumption in a fault shows.
# Reports, per part of node.sh, in how many runs every result passed, in
# how many one failed and in how many the part never ran; the first lines
# of any guest oops or panic; each run's seconds. Keeps every run's TAP
# output and consoles in the folder it names.
# Environment: GD_CLUSTER_REPEAT (runs, 5), GD_CLUSTER_BUSY (busy loops
# at normal priority, 1), GD_CLUSTER_REPEAT_DIR (where the runs' files go,
# a new folder under $TMPDIR if unset), and what cluster-tests.tap reads.
# Exit status: 0 when every run passed every result, else 1.
set -u

cldir=$(cd "$(dirname "$0")" && pwd)
runs=${GD_CLUSTER_REPEAT:-5}
busy=${GD_CLUSTER_BUSY:-1}
export GD_TOP_BUILDDIR=${GD_TOP_BUILDDIR:-$(pwd)}
cache=${GD_VM_CACHE:-$GD_TOP_BUILDDIR/tests/vm/cache}
keep=${GD_CLUSTER_REPEAT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/gd-cluster-repeat.XXXXXX")}
mkdir -p "$keep"
case $runs in '' | *[!0-9]* | 0) echo "repeat: GD_CLUSTER_REPEAT must be a whole number of runs, not '$runs'" >&2; exit 2 ;; esac
case $busy in '' | *[!0-9]*) echo "repeat: GD_CLUSTER_BUSY must be a whole number of busy loops, not '$busy'" >&2; exit 2 ;; esac

# The busy loops: plain shell loops at normal priority, the same on every
# machine (stress-ng --cpu 1 loads a CPU alike, but is one more package).
busy_pids=()
for _ in $(seq 1 "$busy"); do
	bash -c 'while :; do :; done' &
	busy_pids+=($!)
done
trap '[ ${#busy_pids[@]} -eq 0 ] || kill "${busy_pids[@]}" 2>/dev/null' EXIT

# part_results RUNDIR: "PART ok|fail" for each result of the run, the part
# being the one node01 had begun (node.sh's "part X begins") when it
# printed the result; results that only the host prints (node02's status,
# the run's status, the schema check) go to part "end".
part_results() {
	awk '
	FNR == NR {
		sub(/\r$/, "")
		if (match($0, /^# node01: part [a-z]+ begins/)) { part = $4; next }
		if ($1 == "ok") num[$2] = part == "" ? "setup" : part
		else if ($1 == "not" && $2 == "ok") num[$3] = part == "" ? "setup" : part
		next
	}
	$1 == "ok" { p = ($2 in num) ? num[$2] : "end"; print p, "ok" }
	$1 == "not" && $2 == "ok" { p = ($3 in num) ? num[$3] : "end"; print p, "fail" }
	' "$1/node01.log" "$1/run.tap"
}

# oops RUNDIR: the first lines of each node's kernel oops or panic.
oops() {
	local f
	for f in "$1"/node01.log "$1"/node02.log; do
		[ -f "$f" ] || continue
		tr -d '\r' <"$f" | grep -E 'BUG: |Oops|Kernel panic|RIP: |general protection' | head -n 6 |
			sed "s|^|  $(basename "$f" .log): |"
	done
}

echo "repeat: $runs runs of the two-node cluster test beside $busy busy loop(s); files in $keep"
failed_runs=0
for i in $(seq 1 "$runs"); do
	d=$keep/run$i
	mkdir -p "$d"
	t0=$SECONDS
	"$cldir/cluster-tests.tap" >"$d/run.tap" 2>&1
	took=$((SECONDS - t0))
	for f in node01.log node02.log node01.hostctl.log node02.hostctl.log; do
		cp "$cache/cluster-last-run/$f" "$d/" 2>/dev/null || : >"$d/$f"
	done
	part_results "$d" >"$d/parts"
	nok=$(grep -c ' ok$' "$d/parts")
	nfail=$(grep -c ' fail$' "$d/parts")
	[ "$nfail" = 0 ] && [ "$nok" -gt 0 ] || failed_runs=$((failed_runs + 1))
	echo "run $i: $took s, $nok results passed, $nfail failed$(awk '$2 == "fail" { printf " [%s]", $1 }' "$d/parts" | sort -u | tr -d '\n')"
	grep '^not ok' "$d/run.tap" | cut -c1-300 | sed 's/^/  /'
	oops "$d"
done

# per part: runs where all its results passed, runs where one failed, runs
# where it printed nothing
echo "per part, over $runs runs (passed / failed / never ran):"
parts=$(for i in $(seq 1 "$runs"); do awk '{ print $1 }' "$keep/run$i/parts"; done | awk '!s[$0]++')
for p in $parts; do
	pass=0 fail=0 none=0
	for i in $(seq 1 "$runs"); do
		f=$keep/run$i/parts
		if grep -q "^$p fail$" "$f"; then
			fail=$((fail + 1))
		elif grep -q "^$p ok$" "$f"; then
			pass=$((pass + 1))
		else
			none=$((none + 1))
		fi
	done
	printf '  %-8s %d / %d / %d\n' "$p" "$pass" "$fail" "$none"
done
echo "repeat: $((runs - failed_runs)) of $runs runs passed every result"
[ "$failed_runs" = 0 ]
