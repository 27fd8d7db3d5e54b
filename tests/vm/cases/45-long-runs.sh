# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Runs longer than the side-channel silence limit (--timeout): the waiting
# end must hear heartbeats, the initiator must honour -D even while
# completions keep coming, and large messages must not look like a dead
# peer. Each was a real failure once.
. /gd/guest-lib.sh

# read bandwidth target only waits on the side channel: ~1.5 s of traffic
# against a 1000 ms silence limit
out=$WORK/long_read_bw
run_bounded 90 "$out.txt" gd_read_bw --loopback -d rxe0 -x 1 -s 4096 -n 30000 \
	--timeout 1000 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 4096 30000)" && st=0
tap_check $st "gd_read_bw -n 30000 --timeout 1000 outlives the silence limit (exit $rc)" "$out.txt"

# duration mode with steady completions ends on time: the measured window
# overshoots -D 2 by less than 2 s (HACKING, "Timing in the tests", gives
# the overshoot measured beside busy CPUs); the run's whole time is printed
out=$WORK/long_write_d
start=$(date +%s)
run_bounded 90 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -s 4096 -D 2 \
	--timeout 500 --out_json_file="$out.json"
rc=$?
took=$(($(date +%s) - start))
st=1
[ $rc = 0 ] && json_ok "$out.json" \
	'.phases[0].status == "ok" and .phases[0].results[0].iterations > 1000 and
	 .phases[0].results[0].elapsed_s >= 1.9 and .phases[0].results[0].elapsed_s < 4' && st=0
el=$(jq -r '.phases[0].results[0].elapsed_s' "$out.json" 2>/dev/null)
tap_check $st "gd_write_bw -D 2 --timeout 500: ends on time (exit $rc, window ${el:-none} s, ${took} s in all)" "$out.txt"

# read latency target waits too: heartbeats from the latency loop
out=$WORK/long_read_lat
run_bounded 90 "$out.txt" gd_read_lat --loopback -d rxe0 -x 1 -n 60000 \
	--timeout 500 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_lat_filter 2 60000)" && st=0
tap_check $st "gd_read_lat -n 60000 --timeout 500 outlives the silence limit (exit $rc)" "$out.txt"

# 8 MiB messages: with -Q 100 the first completion would come after 800 MiB
out=$WORK/long_big
run_bounded 120 "$out.txt" gd_send_bw --loopback -d rxe0 -x 1 -s 8M -n 60 \
	--timeout 1000 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 8388608 60)" && st=0
tap_check $st "gd_send_bw -s 8M -n 60 --timeout 1000: large messages are not a dead peer (exit $rc)" "$out.txt"
exit 0
