# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Helpers sourced by the guest-side test cases (busybox sh): TAP result
# lines with one global counter, bounded commands with captured output,
# server start-up waits and rxe0 hw_counters snapshots.

GD_TAP_COUNT_FILE=/tmp/gd-tap-count
GD_HW_COUNTERS=/sys/class/infiniband/${GD_VM_DEV:-rxe0}/ports/1/hw_counters

gd_stage() {
	[ -n "$GD_VM_CTL" ] && echo "GD_VM_STAGE=$1" >"$GD_VM_CTL"
}

diag() {
	printf '# %s\n' "$*"
}

# diag_file FILE [LABEL]: show a captured output, each line a TAP comment.
diag_file() {
	[ -f "$1" ] || return 0
	sed "s/^/# ${2:-${1##*/}}: /" "$1"
}

gd_tap_next() {
	local n
	n=$(cat "$GD_TAP_COUNT_FILE" 2>/dev/null || echo 0)
	n=$((n + 1))
	echo $n >"$GD_TAP_COUNT_FILE"
	echo $n
}

tap_ok() {
	echo "ok $(gd_tap_next) - $*"
}

tap_not_ok() {
	echo "not ok $(gd_tap_next) - $*"
}

tap_skip() {
	local name=$1
	shift
	echo "ok $(gd_tap_next) - $name # SKIP $*"
}

# tap_check COND_STATUS NAME [FILE...]: ok when status is 0, else not ok and
# the captured files as diagnostics.
tap_check() {
	local st=$1 name=$2 f
	shift 2
	if [ "$st" -eq 0 ]; then
		tap_ok "$name"
	else
		tap_not_ok "$name"
		for f in "$@"; do diag_file "$f"; done
	fi
}

# run_bounded SECS OUT CMD...: run CMD with a time limit, stdout+stderr to
# OUT; returns CMD's status (143 or 137 when it had to be stopped: busybox
# timeout execs CMD, so CMD itself receives the signal).
run_bounded() {
	local secs=$1 out=$2
	shift 2
	timeout -k 5 "$secs" "$@" >"$out" 2>&1
}

# start_bounded SECS OUT CMD...: the same in the background; sets BG_PID.
start_bounded() {
	local secs=$1 out=$2
	shift 2
	timeout -k 5 "$secs" "$@" >"$out" 2>&1 &
	BG_PID=$!
}

# wait_bg PID: exit status of a background job started by start_bounded.
wait_bg() {
	wait "$1"
}

# wait_listen PORT [TENTHS]: until something listens on TCP PORT.
wait_listen() {
	local port=$1 left=${2:-200}
	while [ "$left" -gt 0 ]; do
		netstat -ltn 2>/dev/null | grep -q "[:.]$port[[:space:]]" && return 0
		usleep 100000
		left=$((left - 1))
	done
	return 1
}

# Fresh port per pair (a server that just exited may leave TIME_WAIT behind);
# a file, because callers use $(next_port), a subshell.
GD_PORT_FILE=/tmp/gd-next-port
next_port() {
	local p
	p=$(cat "$GD_PORT_FILE" 2>/dev/null || echo 18600)
	p=$((p + 1))
	echo $p >"$GD_PORT_FILE"
	echo $p
}

# counters_snapshot FILE: "name value" for every rxe0 hw counter.
counters_snapshot() {
	local c
	for c in "$GD_HW_COUNTERS"/*; do
		echo "${c##*/} $(cat "$c")"
	done >"$1"
}

# counters_moved BEFORE AFTER NAME...: prints "name before->after" for each
# listed counter that changed; status 0 when none moved.
counters_moved() {
	local before=$1 after=$2 moved=0 name b a
	shift 2
	for name in "$@"; do
		b=$(awk -v n="$name" '$1 == n { print $2 }' "$before")
		a=$(awk -v n="$name" '$1 == n { print $2 }' "$after")
		if [ "$b" != "$a" ]; then
			echo "$name $b->$a"
			moved=1
		fi
	done
	return $moved
}

# perftest_clock_refused FILE...: did Debian's perftest refuse its report
# because its cycle counter would not calibrate against the clock ("Correlation
# coefficient r^2: ... < 0.9", "Can't produce a report")? A loaded guest makes
# that line crooked after the traffic has run: perftest's clock, not the case
# under test, so callers try again or count the traffic as sent.
perftest_clock_refused() {
	grep -qs "Correlation coefficient" "$@"
}

# pair_run NAME SECS SERVER_ARGS -- CLIENT_ARGS: runs "$PROG SERVER_ARGS" in
# the background, waits for it to listen on $PORT, then "$PROG CLIENT_ARGS
# $GD_VM_ADDR"; outputs in $WORK/NAME.server and $WORK/NAME.client; sets
# SERVER_RC and CLIENT_RC.
pair_run() {
	local pname=$1 psecs=$2 sargs="" spid
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		sargs="$sargs $1"
		shift
	done
	[ "${1:-}" = "--" ] && shift
	start_bounded "$psecs" "$WORK/$pname.server" $PROG $sargs
	spid=$BG_PID
	case " $sargs " in
	*" -R "*)
		# rdma_cm listens outside TCP; give the server a moment instead.
		wait_listen "$PORT" 30 || true
		;;
	*)
		wait_listen "$PORT" || diag "$pname: server did not listen on TCP port $PORT within 20 s"
		;;
	esac
	run_bounded "$psecs" "$WORK/$pname.client" $PROG "$@" "$GD_VM_ADDR"
	CLIENT_RC=$?
	wait_bg $spid
	SERVER_RC=$?
}

# json_ok FILE FILTER: jq -e FILTER is true on FILE.
json_ok() {
	[ -s "$1" ] && jq -e "$2" "$1" >/dev/null 2>&1
}

GD_JSON_COMMON='.schema == "gdperf.run/4" and .exit_status == 0 and .error == null
	and .units.size == "bytes" and (.phases | length) >= 1
	and ([.phases[].results[]] | length) >= 1'

# BW rows: every result has the size and iteration count asked for, positive
# numbers, peak >= average, and Gb/s = MiB/s * 2^20 * 8 / 10^9 within 1 %.
gd_json_bw_filter() {
	echo "$GD_JSON_COMMON and .units.bw == \"MiB/s\" and .units.msg_rate == \"Mpps\"
	and all(.phases[].results[]; .size_bytes == $1 and .iterations == $2
		and .bw_avg_MiBps > 0 and .bw_peak_MiBps >= .bw_avg_MiBps
		and .msg_rate_Mpps > 0
		and ((.bw_avg_Gbps - .bw_avg_MiBps * 1048576 * 8 / 1e9) | fabs)
			<= .bw_avg_Gbps * 0.01)"
}

# Latency rows: ordered statistics min <= typical, avg, p99 <= p99.9 <= max.
gd_json_lat_filter() {
	echo "$GD_JSON_COMMON and .units.lat == \"usec\"
	and all(.phases[].results[]; .size_bytes == $1 and .iterations == $2
		and .lat_min_us > 0 and .lat_min_us <= .lat_typical_us
		and .lat_typical_us <= .lat_max_us
		and .lat_avg_us >= .lat_min_us and .lat_avg_us <= .lat_max_us
		and .lat_p99_us <= .lat_p999_us and .lat_p999_us <= .lat_max_us
		and .lat_stdev_us >= 0)"
}

# json_diag FILE: the parts of a document worth seeing when a check fails.
json_diag() {
	if [ ! -s "$1" ]; then
		diag "${1##*/}: missing or empty"
		return
	fi
	jq -c '{schema, role, exit_status, error, units,
		results: [.phases[]? | {name, status, results}]}' "$1" 2>&1 |
		cut -c1-1500 | sed "s/^/# ${1##*/}: /"
}

# gd_pair_test NAME PROG MEASURE SIZE ITERS [ARGS...]: server and client of
# PROG over rxe0 (ARGS on both ends), both must exit 0, the client's JSON must
# hold SIZE x ITERS rows of the MEASURE ("bw" or "lat") kind, the server's
# JSON must be a clean document, and no error counter may move.
gd_pair_test() {
	local tname=$1 measure=$3 tsize=$4 titers=$5 st filter moved
	PROG=$2
	shift 5
	local attempt
	# GD_PAIR_RETRY=1: one more try. Only for ping-pong over UC/UD, where
	# the transport does not retransmit and one lost message stalls the
	# ping-pong until the silence limit (perftest hangs there for good).
	for attempt in 1 2; do
		PORT=$(next_port)
		counters_snapshot "$WORK/$tname.hw0"
		pair_run "$tname" 60 -d rxe0 -x 1 -n "$titers" -p "$PORT" "$@" \
			--out_json_file="$WORK/$tname.server.json" -- \
			-d rxe0 -x 1 -n "$titers" -p "$PORT" "$@" \
			--out_json_file="$WORK/$tname.client.json"
		counters_snapshot "$WORK/$tname.hw1"
		[ "$CLIENT_RC" = 0 ] && [ "$SERVER_RC" = 0 ] && break
		[ "${GD_PAIR_RETRY:-0}" = 1 ] && [ $attempt = 1 ] || break
		diag "$tname: attempt 1 failed (server $SERVER_RC, client $CLIENT_RC): unreliable transport, trying once more"
		diag_file "$WORK/$tname.client"
	done
	st=1
	[ "$CLIENT_RC" = 0 ] && [ "$SERVER_RC" = 0 ] && st=0
	tap_check $st "$tname: $PROG $* server and client exit 0 (server $SERVER_RC, client $CLIENT_RC)" \
		"$WORK/$tname.server" "$WORK/$tname.client"
	[ "$st" = 0 ] || return 0
	grep -E '^ *[0-9]+ +[0-9]+ ' "$WORK/$tname.client" | head -3 | sed "s/^/# $tname: /"
	filter=$(gd_json_${measure}_filter "$tsize" "$titers")
	st=1
	json_ok "$WORK/$tname.client.json" "$filter" && st=0
	tap_check $st "$tname: client JSON has $tsize B x $titers $measure rows with consistent numbers"
	[ "$st" = 0 ] || json_diag "$WORK/$tname.client.json"
	json_ok "$WORK/$tname.client.json" '.role == "client"'
	tap_check $? "$tname: client JSON says role \"client\" (top-level .role, src/report/report.h)"
	st=1
	json_ok "$WORK/$tname.server.json" '.schema == "gdperf.run/4" and .role == "server" and .exit_status == 0 and .error == null' && st=0
	tap_check $st "$tname: server JSON is a clean gdperf.run/4 document"
	[ "$st" = 0 ] || json_diag "$WORK/$tname.server.json"
	moved=$(counters_moved "$WORK/$tname.hw0" "$WORK/$tname.hw1" \
		retry_exceeded_err retry_rnr_exceeded_err send_err)
	tap_check $? "$tname: no *_exceeded_err or send_err moved ${moved:+($moved)}"
}
