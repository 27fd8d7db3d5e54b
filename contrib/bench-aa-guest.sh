#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest side of contrib/bench-aa: AA_RUNS A/A quickstart sweeps on rxe0 (H =
# host memory, D = huge pages: the same CPU path), each with --repeat=3
# --reverse --expect-ratio=0.8 at -n AA_ITERS; every document and text
# report kept under /out/aa for the host.
. /gd/guest-lib.sh

runs=${AA_RUNS:-3}
iters=${AA_ITERS:-20}
dir=$GD_VM_OUT/aa
mkdir -p "$dir"
echo 64 >/proc/sys/vm/nr_hugepages
i=1
while [ $i -le "$runs" ]; do
	gd_stage "A/A sweep $i of $runs"
	t0=$(cut -d. -f1 /proc/uptime)
	run_bounded 900 "$dir/aa_$i.txt" gd_write_bw --loopback -d rxe0 -x 1 -a \
		-n "$iters" --repeat=3 --mem=hugepage --reverse --expect-ratio=0.8 \
		--out_json_file="$dir/aa_$i.json"
	rc=$?
	echo "aa_$i exit=$rc seconds=$(($(cut -d. -f1 /proc/uptime) - t0))"
	i=$((i + 1))
done
exit 0
