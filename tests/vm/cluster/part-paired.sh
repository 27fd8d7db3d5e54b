# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "paired" of the cluster test (sourced by node.sh): gd_write_bw server
# on node01, client on node02, host memory against huge-page memory (D), both
# directions. The client's document holds both ends' counters: local is
# node02's rxe0, remote node01's; each node also snapshots its own sysfs
# hw_counters around the run, so the document's figures are checked against
# the device they claim to come from.
D=$WORK/paired
mkdir -p "$D"
PORT=18515
if [ "$GD_NODE" = node01 ]; then
	counters_snapshot "$D/a.hw0"
	start_bounded 300 "$D/server.txt" gd_write_bw -d rxe0 -x "$GD_GID_INDEX" -p $PORT \
		--mem=hugepage --out_json_file="$D/server.json"
	spid=$BG_PID
	wait_listen $PORT || diag "paired: server did not listen on $PORT within 20 s"
	flag paired-listen
	wait_bg $spid
	SRV_RC=$?
	counters_snapshot "$D/a.hw1"
	for f in b.hw0 b.hw1 client.txt client.rc client.json; do
		wait_flag "paired-$f" 300 "$D/$f" || break
	done
	. "$GD_VM_PAYLOAD/check-paired.sh"
else
	wait_flag paired-listen 300 >/dev/null
	counters_snapshot "$D/b.hw0"
	run_bounded 300 "$D/client.txt" gd_write_bw -d rxe0 -x "$GD_GID_INDEX" -p $PORT \
		--mem=hugepage --reverse -n 200 -s 65536 --out_json_file="$D/client.json" node01
	echo $? >"$D/client.rc"
	counters_snapshot "$D/b.hw1"
	cat "$D/client.txt"
	for f in b.hw0 b.hw1 client.txt client.rc client.json; do
		[ -f "$D/$f" ] || : >"$D/$f"
		flag "paired-$f" "$D/$f"
	done
fi
