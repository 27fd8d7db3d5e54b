# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --loopback for all eight binaries (both ends in one invocation on rxe0) and
# bounded -a sweeps, loopback and client/server: every size present, in
# order, in the JSON document and in the text table.
. /gd/guest-lib.sh

bad_role=""
for t in write_bw:bw:65536 read_bw:bw:65536 send_bw:bw:65536 atomic_bw:bw:8 \
	write_lat:lat:2 read_lat:lat:2 send_lat:lat:2 atomic_lat:lat:8; do
	name=${t%%:*}
	rest=${t#*:}
	measure=${rest%%:*}
	size=${rest#*:}
	out=$WORK/lb_$name
	run_bounded 120 "$out.txt" gd_$name --loopback -d rxe0 -x 1 -n 100 --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_${measure}_filter "$size" 100)" && st=0
	tap_check $st "gd_$name --loopback -n 100: exit $rc, JSON has $size B x 100 $measure rows" "$out.txt"
	[ $st = 0 ] || json_diag "$out.json"
	json_ok "$out.json" '.role == "loopback"' || bad_role="$bad_role $name"
done
[ -z "$bad_role" ]
tap_check $? "--loopback documents say role \"loopback\" (top-level .role, src/report/report.h)${bad_role:+; not in:$bad_role}"

# pow2_list FROM_EXP TO_EXP: jq array literal of 2^FROM .. 2^TO.
pow2_list() {
	echo "[range($1; $(($2 + 1))) | pow(2; .)]"
}

# Full perftest -a range (2 B .. 8 MiB, 23 sizes) kept short by -n 20.
out=$WORK/sweep_full
run_bounded 240 "$out.txt" gd_write_bw --loopback -a -n 20 -d rxe0 -x 1 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "[.phases[0].results[].size_bytes] == $(pow2_list 1 23)
	and all(.phases[0].results[]; .bw_avg_MiBps > 0 and .iterations == 20)" && st=0
tap_check $st "gd_write_bw --loopback -a -n 20: exit $rc, JSON rows for 2 B .. 8 MiB in order" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
rows=$(grep -cE '^ *[0-9]+ +20 +[0-9.]+ +[0-9.]+ +[0-9.]+ *$' "$out.txt")
st=1
grep -q 'BW average\[MiB/sec\]' "$out.txt" && [ "$rows" = 23 ] && st=0
tap_check $st "gd_write_bw -a text table: perftest column header and 23 rows (found $rows)" "$out.txt"

# Live rows: each line of stdout stamped with the guest's uptime as it
# arrives (the row is flushed when its size is complete, stdout a pipe).
# The 4 KiB row must be out while the 1 MiB step still runs: its stamp at
# least half that step's measured window (elapsed_s, from the JSON) before
# the 1 MiB row's. A row held back to the end prints with the last one
# (0 s apart); a live one prints a whole window (and the step's set-up)
# before it, so only a reader late by half a window could fail this.
# (The bound was the whole window less 0.1 s: ci-fresh on 6a1dfb4 missed
# it by 0.3 ms on a loaded host.) One awk stamps every line.
out=$WORK/live
(gd_write_bw --loopback -d rxe0 -x 1 --sizes=4K,1M -n 200 --out_json_file="$out.json" 2>"$out.err"
	echo "rc=$?" >"$out.rc") | awk '{
	getline up < "/proc/uptime"; close("/proc/uptime")
	split(up, f, " "); print f[1], $0 }' >"$out.txt"
t1=$(awk '$2 == "4096" && $3 == "200" { print $1; exit }' "$out.txt")
t2=$(awk '$2 == "1048576" && $3 == "200" { print $1; exit }' "$out.txt")
e2=$(jq -r '.phases[0].results[] | select(.size_bytes == 1048576) | .elapsed_s' "$out.json" 2>/dev/null)
awk -v a="${t1:-x}" -v b="${t2:-x}" -v e="${e2:-x}" 'BEGIN {
	if (a == "x" || b == "x" || e == "x" || e < 0.5) exit 1
	exit !(b - a >= e / 2) }'
tap_check $? "live rows: the 4 KiB row printed at uptime ${t1:-none} s, the 1 MiB row at ${t2:-none} s, ${e2:-no} s of 1 MiB measured window between them ($(cat "$out.rc" 2>/dev/null))" "$out.txt" "$out.err"

# --brief on the issue's shape: -a with --reverse, four phases, 23 sizes.
out=$WORK/brief
echo 64 >/proc/sys/vm/nr_hugepages
run_bounded 240 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -a -n 5 --mem=hugepage --reverse --brief --out_json_file="$out.json"
rc=$?
n=$(wc -l <"$out.txt")
[ $rc = 0 ] && [ "$n" -le 40 ] && grep -q 'GD_' "$out.txt" && json_ok "$out.json" '(.phases | length) == 4 and all(.phases[]; (.results | length) == 23)'
tap_check $? "--brief -a --reverse (4 phases x 23 sizes): exit $rc, $n lines (at most 40), a verdict, the JSON whole" "$out.txt"

out=$WORK/sweep_lat
run_bounded 240 "$out.txt" gd_read_lat --loopback -a --max-size=4K -n 20 -d rxe0 -x 1 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "[.phases[0].results[].size_bytes] == $(pow2_list 1 12)
	and all(.phases[0].results[]; .lat_min_us > 0 and .lat_min_us <= .lat_max_us)" && st=0
tap_check $st "gd_read_lat --loopback -a --max-size=4K -n 20: exit $rc, rows 2 B .. 4 KiB" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
grep -q 't_typical\[usec\]' "$out.txt"
tap_check $? "gd_read_lat text table has perftest's t_typical[usec] column" "$out.txt"

# Client/server sweep: the size range travels to the server with the test.
PROG=gd_send_bw
PORT=$(next_port)
pair_run sweep_pair 240 -d rxe0 -x 1 -p $PORT -a --max-size=16K -n 20 \
	--out_json_file="$WORK/sweep_pair.server.json" -- \
	-d rxe0 -x 1 -p $PORT -a --max-size=16K -n 20 \
	--out_json_file="$WORK/sweep_pair.client.json"
st=1
[ $CLIENT_RC = 0 ] && [ $SERVER_RC = 0 ] &&
	json_ok "$WORK/sweep_pair.client.json" "[.phases[0].results[].size_bytes] == $(pow2_list 1 14)" && st=0
tap_check $st "gd_send_bw -a --max-size=16K client/server: exits $SERVER_RC/$CLIENT_RC, rows 2 B .. 16 KiB" \
	"$WORK/sweep_pair.client" "$WORK/sweep_pair.server"
[ $st = 0 ] || json_diag "$WORK/sweep_pair.client.json"
json_ok "$WORK/sweep_pair.client.json" ".test.sizes_bytes == $(pow2_list 1 14)"
tap_check $? "gd_send_bw -a --max-size=16K: test.sizes_bytes lists the 14 sizes (src/report/report.h)"
exit 0
