#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest side of contrib/bench-four-curves: in one boot, for each -n, the
# four write-bandwidth curves (host and huge pages, each with either end
# initiating) as Debian's perftest runs them (four server+client runs of
# ib_write_bw -a) and as gdperf runs them (one gd_write_bw --loopback
# --mem=hugepage --reverse), alternately, BENCH_PASSES times. Wall times
# come from the guest's uptime clock; outputs go to /out/four for the host.
. /gd/guest-lib.sh

ITERS=${BENCH_ITERS:-5 100}
PASSES=${BENCH_PASSES:-2}
dir=$GD_VM_OUT/four
mkdir -p "$dir"
WORK=$dir
echo 64 >/proc/sys/vm/nr_hugepages

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# perftest N PASS: HH, huge pages, each twice (the second pair is the
# reversed roles of a loopback pair, which perftest runs the same way).
perftest_four() {
	local n=$1 pass=$2 t0 t1 k=0 hp
	t0=$(uptime_s)
	for hp in "" --use_hugepages "" --use_hugepages; do
		k=$((k + 1))
		PORT=$(next_port)
		PROG=ib_write_bw pair_run "pt-$n-$pass-$k" 600 -d rxe0 -x 1 -a -n "$n" $hp -p "$PORT" -- \
			-d rxe0 -x 1 -a -n "$n" $hp -p "$PORT"
		echo "$CLIENT_RC $SERVER_RC" >"$dir/pt-$n-$pass-$k.status"
	done
	t1=$(uptime_s)
	echo "perftest n=$n pass=$pass wall_s=$(echo "$t1 - $t0" | bc)" | tee -a "$dir/walls"
}

gdperf_four() {
	local n=$1 pass=$2 t0 t1 rc
	t0=$(uptime_s)
	timeout -k 5 1200 gd_write_bw --loopback -d rxe0 -x 1 -a -n "$n" --mem=hugepage \
		--reverse --out_json_file="$dir/gd-$n-$pass.json" >"$dir/gd-$n-$pass.txt" 2>&1
	rc=$?
	t1=$(uptime_s)
	echo "$rc" >"$dir/gd-$n-$pass.status"
	echo "gdperf n=$n pass=$pass wall_s=$(echo "$t1 - $t0" | bc) rc=$rc" | tee -a "$dir/walls"
}

for n in $ITERS; do
	pass=1
	while [ "$pass" -le "$PASSES" ]; do
		# alternate which tool goes first, so a drift favours neither
		if [ $((pass % 2)) = 1 ]; then
			perftest_four "$n" "$pass"
			gdperf_four "$n" "$pass"
		else
			gdperf_four "$n" "$pass"
			perftest_four "$n" "$pass"
		fi
		pass=$((pass + 1))
	done
done
exit 0
