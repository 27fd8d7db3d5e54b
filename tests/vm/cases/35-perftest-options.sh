# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# perftest's options on rxe0: the refusals that ask the device say what rxe
# answers (ODP, the null MR, XRC, device memory, hardware rate limiting,
# the port count of -O), and what
# gdperf implements of perftest runs on rxe: -A CMP_AND_SWAP, -N, -H/-U/-C,
# -w/-y as gates (exit 3), -f with -D, --tclass, -W, --pin_cores,
# --report-both, --data_validation, --sizes, --reversed, -o (with and
# without -R, and above rxe's limit), --cqe_poll, --recv_post_list,
# --wait_destroy (a pair, and SIGINT during the wait).
# About 28 short loopback runs and two pairs:
# gd-case-timeout-s: 480
. /gd/guest-lib.sh

L="--loopback -d rxe0 -x 1"

# refused NAME CMD... -- PATTERN: exit 2, a perftest refusal on stderr
# whose text matches the extended regex PATTERN.
refused() {
	local n=$1 pat
	shift
	local args=""
	while [ "$1" != "--" ]; do
		args="$args $1"
		shift
	done
	pat=$2
	run_bounded 30 "$WORK/$n.txt" $args
	rc=$?
	st=1
	[ $rc = 2 ] && grep -q '(perftest: ' "$WORK/$n.txt" &&
		grep -Eq -- "$pat" "$WORK/$n.txt" && st=0
	tap_check $st "$args: exit $rc (2), the refusal says: $(grep -Eo -- "$pat" "$WORK/$n.txt" | head -1)" "$WORK/$n.txt"
}

# 1. Refusals decoded from the device.
refused odp gd_write_bw -d rxe0 --odp -- \
	'rxe0 does not support on-demand paging \(ibv_query_device_ex: odp_caps.general_caps 0x0; RC: none; UC: none; UD: none\)'
refused nullmr gd_read_bw --use-null-mr -d rxe0 -- \
	'rxe0 has no null MR \(ibv_alloc_null_mr: EOPNOTSUPP, '
refused dm gd_write_bw -d rxe0 --use_ib_dm_dmabuf=rxe0 -- \
	'rxe0 has 0 bytes of device memory \(max_dm_size\)'
refused rate gd_write_bw -d rxe0 --rate_limit=10 --rate_limit_type=HW -- \
	'rxe0 does not support QP rate limiting \(packet_pacing_caps: 0\.\.0 kbps\)'
refused dualport gd_write_bw -d rxe0 -O -- \
	'rxe0 has 1 port \(phys_port_cnt\)'
run_bounded 30 "$WORK/xrc.txt" gd_send_bw -d rxe0 -c XRC
rc=$?
st=1
[ $rc = 2 ] && grep -Eq 'rxe0 does not support XRC \(device_cap_flags 0x[0-9a-f]+, IBV_DEVICE_XRC clear\)' "$WORK/xrc.txt" && st=0
tap_check $st "gd_send_bw -c XRC: exit $rc (2), rxe0's XRC capability decoded" "$WORK/xrc.txt"

# 2. -A CMP_AND_SWAP, bandwidth and latency with every sample in cycles.
out=$WORK/cas_bw
run_bounded 90 "$out.txt" gd_atomic_bw $L -A CMP_AND_SWAP -n 200 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 8 200) and .test.atomic_type == \"CMP_AND_SWAP\"" && st=0
tap_check $st "gd_atomic_bw -A CMP_AND_SWAP: exit $rc, 8 B x 200 rows, test.atomic_type recorded" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
out=$WORK/cas_lat
run_bounded 90 "$out.txt" gd_atomic_lat $L -A CMP_AND_SWAP -n 200 -H -C --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_lat_filter 8 200) and .test.atomic_type == \"CMP_AND_SWAP\"
	and (.latency_samples | length) == 1
	and (.latency_samples[0] | .phase == \"HH\" and .size_bytes == 8 and .samples == 200
		and (.samples_sorted | length) == 200 and .one_way_divisor == 1
		and (.unit == \"cycles\" or .unit == \"ns\")
		and .samples_sorted == (.samples_sorted | sort)
		and .cycles.min <= .cycles.typical and .cycles.typical <= .cycles.max)" &&
	[ "$(grep -cE '^[0-9]+, [0-9.e+]+$' "$out.txt")" = 200 ] &&
	grep -Eq '^ Phase HH, 8 bytes in (cycles|ns) .* t_min [0-9]+ t_max' "$out.txt" && st=0
tap_check $st "gd_atomic_lat -A CMP_AND_SWAP -H -C: exit $rc, 200 sorted samples in the text and in latency_samples, a cycles line" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"

# 3. -U on read latency: the samples in the order measured.
out=$WORK/unsorted
run_bounded 90 "$out.txt" gd_read_lat $L -n 100 -U --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '(.latency_samples[0] | .unit == "usec"
		and (.samples_measured | length) == 100 and (has("samples_sorted") | not))' &&
	grep -q '^#, usec$' "$out.txt" && [ "$(grep -cE '^[0-9]+, [0-9.e+-]+$' "$out.txt")" = 100 ] && st=0
tap_check $st "gd_read_lat -U: exit $rc, '#, usec' and 100 samples as measured" "$out.txt"

# 4. -N: no peak computed, none claimed.
out=$WORK/nopeak
run_bounded 90 "$out.txt" gd_write_bw $L -N -n 200 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" 'all(.phases[0].results[]; .bw_peak_MiBps == 0 and .bw_avg_MiBps > 0) and .test.no_peak == true' && st=0
tap_check $st "gd_write_bw -N: exit $rc, BW peak 0 and the average measured" "$out.txt"

# 5. -w and -y: perftest's limits as gates, exit status 3 when one fails.
out=$WORK/limit_ok
run_bounded 90 "$out.txt" gd_write_bw $L -n 200 -w 1 -y 0.0001 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '([.gates[] | select(.gate == "limit_bw" or .gate == "limit_msgrate")] | length) == 2
	and all(.gates[]; .passed == true and .phase == "HH")
	and ([.gates[] | select(.gate == "limit_bw")][0] | .unit == "MiB/s" and .threshold == 1
		and .best_size_bytes == 65536 and .figure > 1)' && st=0
tap_check $st "gd_write_bw -w 1 -y 0.0001: exit $rc, two passed gate records" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
out=$WORK/limit_fail
run_bounded 90 "$out.txt" gd_write_bw $L -n 200 -w 100000000 --report_gbits --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 3 ] && json_ok "$out.json" '.exit_status == 3
	and ([.gates[] | select(.gate == "limit_bw")][0] | .passed == false and .unit == "Gb/s")
	and any(.verdicts[]; .code == "GD_GATE_FAIL")' && grep -q 'GD_GATE_FAIL' "$out.txt" && st=0
tap_check $st "gd_write_bw -w 1e8 --report_gbits: exit $rc (3), the limit_bw gate failed in Gb/s, GD_GATE_FAIL" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"

# 6. -f with -D: margins outside the figures, the receiver counts them too.
out=$WORK/margin
t0=$(cut -d. -f1 /proc/uptime)
run_bounded 90 "$out.txt" gd_send_bw $L -s 4K -D 4 -f 1 --out_json_file="$out.json"
rc=$?
took=$(($(cut -d. -f1 /proc/uptime) - t0))
st=1
[ $rc = 0 ] && [ "$took" -ge 4 ] && json_ok "$out.json" '.test.margin == 1 and .test.duration_s == 4
	and .test.warmup_iterations == 0
	and (.phases[0].results[0] | .bw_avg_MiBps > 0 and .messages_received == .messages_sent
		and .messages_sent > .iterations)' && st=0
tap_check $st "gd_send_bw -D 4 -f 1: exit $rc after ${took} s, margin messages sent and received beyond the measured $(jq -r '.phases[0].results[0].iterations' "$out.json" 2>/dev/null)" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"

# 7. --tclass: the GRH traffic class; not with -R.
out=$WORK/tclass
run_bounded 90 "$out.txt" gd_write_bw $L -n 200 --tclass=32 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.options.tclass == 32 and .options.tos == 32' && st=0
tap_check $st "gd_write_bw --tclass=32: exit $rc, recorded" "$out.txt"
run_bounded 30 "$WORK/tos_cm.txt" gd_write_bw $L -T 32 -R
rc=$?
st=1
[ $rc = 2 ] && grep -q 'does not set the rdma_cm ToS' "$WORK/tos_cm.txt" && st=0
tap_check $st "gd_write_bw -T 32 -R: exit $rc (2), the rdma_cm ToS is not set, said so" "$WORK/tos_cm.txt"

# 8. -W: named counters after each size; --pin_cores; --report-both -b.
out=$WORK/counters
run_bounded 90 "$out.txt" gd_write_bw $L -n 200 -b --report-both --pin_cores=0 \
	-W hw_counters/rcvd_pkts,counters/port_xmit_data --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && grep -Eq '^ Counters of phase HH:bidir, 65536 bytes: hw_counters/rcvd_pkts local \+[1-9][0-9]* remote \+[1-9][0-9]*; counters/port_xmit_data local absent remote absent$' "$out.txt" &&
	json_ok "$out.json" '.header.cpu_affinity == "0" and .options.cpu == 0' && st=0
tap_check $st "gd_write_bw -b --report-both --pin_cores=0 -W ...: exit $rc, the counters line, pinned to CPU 0" "$out.txt"

# 9. --data_validation is --verify.
out=$WORK/validation
run_bounded 90 "$out.txt" gd_read_bw $L -n 100 --data_validation --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.test.verify == true and all(.phases[0].steps[]; .verify.ok == true)
	and .header.outstanding_reads == 16 and .options.outs == 0' && st=0
tap_check $st "gd_read_bw --data_validation: exit $rc, every step verified, 16 outstanding reads without -o" "$out.txt"

# 10. --sizes and --reversed: planned by the sweep (gd_opts_sizes, the
# phases' direction).
out=$WORK/sizes
run_bounded 90 "$out.txt" gd_write_bw $L -n 50 --sizes=4K,64K,1M --out_json_file="$out.json"
rc=$?
if [ $rc = 0 ] && json_ok "$out.json" '.test.sizes_bytes == [4096, 65536, 1048576]
	and [.phases[0].results[].size_bytes] == [4096, 65536, 1048576] and .test.sizes == "4K,64K,1M"'; then
	tap_ok "gd_write_bw --sizes=4K,64K,1M: exit 0, exactly those sizes, the list recorded"
else
	tap_not_ok "gd_write_bw --sizes=4K,64K,1M: exit $rc"
	diag_file "$out.txt"
fi
out=$WORK/reversed
run_bounded 90 "$out.txt" gd_write_bw $L -n 100 --reversed --out_json_file="$out.json"
rc=$?
if [ $rc = 0 ] && json_ok "$out.json" '[.phases[].name] == ["HH:rev"] and .phases[0].direction == "reverse"'; then
	tap_ok "gd_write_bw --reversed: exit 0, one phase, the server initiating"
else
	tap_not_ok "gd_write_bw --reversed: exit $rc"
	diag_file "$out.txt"
fi
# 11. -o: the reads and atomics in flight per QP, one value on both ends
# (initiator depth and responder resources), in the header and the JSON;
# through rdma_cm too; above what rxe allows refused at device open.
for args in "gd_read_bw -o 1 -q 2 --verify" "gd_read_bw -o 4 --verify" \
	"gd_read_bw -o 2 -R --verify" "gd_atomic_bw -o 4"; do
	set -- $args
	n=$3
	out=$WORK/outs_$1_$n$4
	size=65536
	[ "$1" = gd_atomic_bw ] && size=8
	iters=200
	[ "$4" = -q ] && iters=$((200 * $5))
	run_bounded 90 "$out.txt" $args $L -n 200 --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter $size $iters)
		and .header.outstanding_reads == $n and .options.outs == $n
		and .test.outs == $n
		and all(.phases[0].steps[]; .status == \"ok\" and (.verify.ok != false))" &&
		grep -Eq "^ Outstand reads +: $n\$" "$out.txt" && st=0
	bw=$(jq -r '.phases[0].results[0].bw_avg_MiBps' "$out.json" 2>/dev/null)
	tap_check $st "$args: exit $rc, $n outstanding per QP in the header and the JSON ($bw MiB/s)" "$out.txt"
	[ $st = 0 ] || json_diag "$out.json"
done
out=$WORK/outs_over
run_bounded 60 "$out.txt" gd_read_bw $L -o 255 -n 100
rc=$?
st=1
pat='-o 255: rxe0 allows at most [0-9]+ outstanding reads/atomics per QP \(max_qp_rd_atom [0-9]+, max_qp_init_rd_atom [0-9]+\); give -o [0-9]+ or less'
[ $rc = 1 ] && grep -Eq -- "$pat" "$out.txt" && st=0
tap_check $st "gd_read_bw -o 255: exit $rc (1), refused at device open: $(grep -Eo -- 'rxe0 allows at most [0-9]+' "$out.txt" | head -1)" "$out.txt"

# 12. --recv_post_list and --cqe_poll: receives posted in lists of 8 (the
# last list shorter: -n is no multiple of 8), completions polled 4 at a time;
# every message received, on RC and on write with immediate.
for args in "gd_send_bw --recv_post_list=8 --cqe_poll=4 -n 1003" \
	"gd_send_bw --recv_post_list=8 --cqe_poll=1 -q 2 -n 301" \
	"gd_write_bw --write_with_imm --recv_post_list=4 --cqe_poll=2 -n 301"; do
	out=$WORK/rpl_$(echo "$args" | tr -dc 'a-z0-9')
	iters=$(echo "$args" | sed 's/.*-n \([0-9]*\).*/\1/')
	rpl=$(echo "$args" | sed 's/.*--recv_post_list=\([0-9]*\).*/\1/')
	cqe=$(echo "$args" | sed 's/.*--cqe_poll=\([0-9]*\).*/\1/')
	qps=1
	case $args in *"-q 2"*) qps=2 ;; esac
	run_bounded 120 "$out.txt" $args $L --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 65536 $((iters * qps)))
		and .test.recv_post_list == $rpl and .test.cqe_poll == $cqe
		and .options.recv_post_list == $rpl and .options.cqe_poll == $cqe
		and all(.phases[].results[]; (has(\"messages_received\") | not)
			or .messages_received == .messages_sent)" && st=0
	tap_check $st "$args: exit $rc, every message received" "$out.txt"
	[ $st = 0 ] || json_diag "$out.json"
done
# 13. --wait_destroy: the end given it waits that long after the run, its
# side channel closed first, so the peer ends as it does without it; a
# SIGINT during the wait ends it at once and the run stands (exit 0).
now_cs() {
	awk '{ printf "%d", $1 * 100 }' /proc/uptime
}
# wd_pair NAME SERVER_ARGS...: a write_bw pair; sets WD_RC_S, WD_RC_C and
# WD_S_CS, WD_C_CS (centiseconds from the client's start to each exit).
wd_pair() {
	local n=$1 spid t0
	shift
	PORT=$(next_port)
	start_bounded 60 "$WORK/$n.server" gd_write_bw -d rxe0 -x 1 -n 200 \
		-p $PORT --out_json_file="$WORK/$n.server.json" "$@"
	spid=$BG_PID
	wait_listen $PORT || diag "$n: server did not listen on port $PORT"
	t0=$(now_cs)
	run_bounded 60 "$WORK/$n.client" gd_write_bw -d rxe0 -x 1 -n 200 \
		-p $PORT --out_json_file="$WORK/$n.client.json" "$GD_VM_ADDR"
	WD_RC_C=$?
	WD_C_CS=$(($(now_cs) - t0))
	wait $spid
	WD_RC_S=$?
	WD_S_CS=$(($(now_cs) - t0))
}
wd_pair wd_base
base_s=$WD_S_CS base_c=$WD_C_CS
wd_pair wd_wait --wait_destroy=2
st=1
# Judged within the one run (two runs differ by more than the wait can
# show under a sanitizer): the client ends when the server closes the
# side channel, the server 2 s after that; 30 cs allowed for the client's
# own ending. The run without the option is shown for scale.
[ $WD_RC_S = 0 ] && [ $WD_RC_C = 0 ] && [ $((WD_S_CS - WD_C_CS)) -ge 170 ] &&
	json_ok "$WORK/wd_wait.server.json" '.exit_status == 0 and .options.wait_destroy == 2' &&
	json_ok "$WORK/wd_wait.client.json" '.exit_status == 0 and .options.wait_destroy == 0' &&
	grep -q -- '--wait_destroy: waiting 2 s before destroying the QPs, CQs, MRs and PD' "$WORK/wd_wait.server" && st=0
tap_check $st "gd_write_bw --wait_destroy=2 on the server: exits $WD_RC_S after $WD_S_CS cs (without: $base_s cs), the client $WD_RC_C after $WD_C_CS cs (without: $base_c cs)" \
	"$WORK/wd_wait.server" "$WORK/wd_wait.client"
[ $st = 0 ] || json_diag "$WORK/wd_wait.server.json"
out=$WORK/wd_int
start_bounded 90 "$out.txt" gd_write_bw $L -n 200 --wait_destroy=60 --out_json_file="$out.json"
wpid=$BG_PID
left=300
until grep -q -- '--wait_destroy: waiting 60 s' "$out.txt" || [ $left = 0 ]; do
	usleep 100000
	left=$((left - 1))
done
t0=$(now_cs)
kill -INT $wpid
wait $wpid
rc=$?
took=$(($(now_cs) - t0))
st=1
# ended by the signal, not by the wait's own end 60 s on (the message
# says which; the bound is that end, not a guess at how soon)
[ $left -gt 0 ] && [ $rc = 0 ] && [ $took -lt 5000 ] &&
	grep -Eq -- '--wait_destroy: SIGINT ended the wait after [0-9.]+ of 60 s; the results are complete' "$out.txt" &&
	json_ok "$out.json" "$(gd_json_bw_filter 65536 200) and .exit_status == 0 and .test.wait_destroy_s == 60" && st=0
tap_check $st "gd_write_bw --loopback --wait_destroy=60, SIGINT in the wait: exit $rc $took cs after the signal, the results stand" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
exit 0
