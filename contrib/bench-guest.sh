#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest side of contrib/bench-vs-perftest: for each point runs Debian's
# perftest (A) and ours (B) alternately, A B A B..., server and client on
# rxe0, and keeps every client's output under /out/bench for the host.
. /gd/guest-lib.sh

PAIRS=${BENCH_PAIRS:-3}
dir=$GD_VM_OUT/bench
mkdir -p "$dir"
WORK=$dir

# iters_for SIZE: about 64 MiB per bandwidth run (100 .. 5000 iterations),
# so every point takes roughly a second under TCG.
iters_for() {
	n=$((67108864 / $1))
	[ $n -gt 5000 ] && n=5000
	[ $n -lt 100 ] && n=100
	echo $n
}

# one TOOL SIZE ITERS PAIR: perftest then ours, same flags.
one() {
	tool=$1
	size=$2
	iters=$3
	pair=$4
	for side in perftest ours; do
		tag=${tool}_${size}_${pair}_$side
		gd_stage "bench $tag"
		PORT=$(next_port)
		if [ $side = perftest ]; then
			PROG=ib_$tool
			json=""
		else
			PROG=gd_$tool
			json="--out_json_file=$dir/$tag.json"
		fi
		# One retry: Debian's perftest send_bw occasionally fails to start
		# under TCG; a failure twice in a row is reported as failed.
		for attempt in 1 2; do
			pair_run "$tag" 180 -d rxe0 -x 1 -s "$size" -n "$iters" -p "$PORT" -- \
				-d rxe0 -x 1 -s "$size" -n "$iters" -p "$PORT" $json
			echo "$tag client=$CLIENT_RC server=$SERVER_RC attempt=$attempt"
			[ "$CLIENT_RC" = 0 ] && [ "$SERVER_RC" = 0 ] && break
			PORT=$(next_port)
		done
		echo "$CLIENT_RC $SERVER_RC" >"$dir/$tag.status"
		mv "$dir/$tag.client" "$dir/$tag.txt"
	done
}

for tool in write_bw send_bw; do
	for size in 2 64 4096 65536 1048576; do
		p=1
		while [ $p -le "$PAIRS" ]; do
			one $tool $size "$(iters_for $size)" $p
			p=$((p + 1))
		done
	done
done
for tool in write_lat read_lat send_lat; do
	for size in 2 4096; do
		p=1
		while [ $p -le "$PAIRS" ]; do
			one $tool $size 1000 $p
			p=$((p + 1))
		done
	done
done
exit 0
