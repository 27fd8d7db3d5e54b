# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# SIGINT and SIGTERM mid-sweep to the client, to the server and to a
# --loopback run: the interrupted end exits 128 + the signal, the other end
# ends by itself because it was told over the side channel (its message
# names the peer's signal; a peer left to its --timeout would name the
# silence instead), and
# both documents are valid JSON marked interrupted, with the results
# measured before and the steps not run. Then a full disk for
# --out_json_file: a clear error and the results on stdout. And one error
# line per failure in --loopback.
# gd-case-timeout-s: 240
. /gd/guest-lib.sh

# Centiseconds since boot: how long each end took, printed. No check here
# bounds it from above: each "at once" is proven by what the end says or
# by the end it would otherwise have met (HACKING, "Timing in the tests").
now_cs() {
	awk '{ printf "%d", $1 * 100 }' /proc/uptime
}

# A sweep long enough (-a to 8 MiB, -n 200: about a minute here) that the
# signal lands in its middle, at sizes whose steps are short: it is sent
# once the first row is out (wait_row), not after a fixed sleep, which on
# a busy host landed before any result (a run with no results kept).
SWEEP="-d rxe0 -x 1 -a -n 200 --timeout 5000"

# interrupted_doc FILE SIGNAL RECEIVED_BY STATUS: the document is valid,
# marked interrupted, keeps results and says which steps did not run.
interrupted_doc() {
	json_ok "$1" ".interrupted.signal == \"$2\"
		and .interrupted.received_by == \"$3\"
		and (.interrupted.during | test(\"^phase HH size [0-9]+ round 1$\"))
		and .exit_status == $4 and .error.errno_name == \"EINTR\"
		and ([.phases[].results[]] | length) >= 1
		and ([.phases[].steps[] | select((.error // \"\") | test(\"^not run: interrupted\"))]
			| length) >= 1"
}

# pair_interrupt NAME WHO SIGNAL: a write_bw pair, WHO (client|server) gets
# SIGNAL 3 s into the sweep; sets RC_SIG (the signalled end's status),
# RC_PEER, SIG_CS and PEER_CS (centiseconds from the signal to each end's
# exit).
pair_interrupt() {
	local n=$1 who=$2 sig=$3 spid cpid t0 t1 ts
	PORT=$(next_port)
	start_bounded 90 "$WORK/$n.server" gd_write_bw $SWEEP -p $PORT \
		--out_json_file="$WORK/$n.server.json"
	spid=$BG_PID
	wait_listen $PORT || diag "$n: server did not listen on port $PORT"
	start_bounded 90 "$WORK/$n.client" gd_write_bw $SWEEP -p $PORT \
		--out_json_file="$WORK/$n.client.json" "$GD_VM_ADDR"
	cpid=$BG_PID
	wait_row "$WORK/$n.client"
	t0=$(now_cs)
	if [ "$who" = client ]; then
		kill -$sig $cpid
		wait $cpid
		RC_SIG=$?
		ts=$(now_cs)
		wait $spid
		RC_PEER=$?
	else
		kill -$sig $spid
		wait $spid
		RC_SIG=$?
		ts=$(now_cs)
		wait $cpid
		RC_PEER=$?
	fi
	t1=$(now_cs)
	SIG_CS=$((ts - t0))
	PEER_CS=$((t1 - t0))
}

# wait_row FILE: until FILE holds a result row (live rows: a size, the
# iterations, then figures) or 60 s pass; the signal then lands mid-sweep
# with at least one result kept, however slow the host.
wait_row() {
	local left=600
	while [ $left -gt 0 ]; do
		grep -Eq '^ *[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+' "$1" 2>/dev/null && return 0
		usleep 100000
		left=$((left - 1))
	done
	diag "no result row in $1 after 60 s"
	return 1
}

# wait_traffic: until rxe0 has sent 2000 packets more than when called, or
# 60 s pass: a measured step is running (the header is not a sign: stdout
# to a file is flushed with the first row, after the step).
wait_traffic() {
	local left=600 base now
	base=$(cat "$GD_HW_COUNTERS/sent_pkts")
	while [ $left -gt 0 ]; do
		now=$(cat "$GD_HW_COUNTERS/sent_pkts")
		[ $((now - base)) -gt 2000 ] && return 0
		usleep 100000
		left=$((left - 1))
	done
	diag "rxe0 sent no traffic in 60 s"
	return 1
}

# errors_printed FILE: how many "error:" lines the run printed.
errors_printed() {
	grep -c 'error:' "$1"
}

pair_interrupt cint client INT
st=1
[ $RC_SIG = 130 ] && [ $RC_PEER = 1 ] && st=0
tap_check $st "SIGINT to the client mid-sweep: client exits 130 ($RC_SIG after $SIG_CS cs), server 1 ($RC_PEER)" \
	"$WORK/cint.client" "$WORK/cint.server"
st=1
grep -q 'was interrupted by SIGINT' "$WORK/cint.server" && ! grep -q 'within 5000 ms' "$WORK/cint.server" && st=0
tap_check $st "SIGINT to the client: the server was told and ended $PEER_CS cs after the signal (its message names SIGINT, not its 5 s --timeout)" "$WORK/cint.server"
st=1
interrupted_doc "$WORK/cint.client.json" SIGINT client 130 && st=0
tap_check $st "SIGINT to the client: its JSON is valid, marked interrupted (SIGINT, by the client, during a step), results kept, later steps 'not run: interrupted'"
[ $st = 0 ] || json_diag "$WORK/cint.client.json"
json_ok "$WORK/cint.server.json" '.interrupted.signal == "SIGINT" and .interrupted.received_by == "client"
	and .exit_status == 1 and (.error.message | test("was interrupted by SIGINT"))'
tap_check $? "SIGINT to the client: the server's JSON says the client was interrupted"
[ "$(errors_printed "$WORK/cint.client")" = 1 ]
tap_check $? "SIGINT to the client: one error line on the client" "$WORK/cint.client"

pair_interrupt sterm server TERM
st=1
[ $RC_SIG = 143 ] && [ $RC_PEER = 1 ] && st=0
tap_check $st "SIGTERM to the server mid-sweep: server exits 143 ($RC_SIG after $SIG_CS cs), client 1 ($RC_PEER)" \
	"$WORK/sterm.server" "$WORK/sterm.client"
st=1
grep -q 'was interrupted by SIGTERM' "$WORK/sterm.client" && ! grep -q 'within 5000 ms' "$WORK/sterm.client" && st=0
tap_check $st "SIGTERM to the server: the client was told and ended $PEER_CS cs after the signal (its message names SIGTERM, not its 5 s --timeout)" "$WORK/sterm.client"
st=1
interrupted_doc "$WORK/sterm.client.json" SIGTERM server 1 && st=0
tap_check $st "SIGTERM to the server: the client's JSON is valid, marked interrupted by the server's SIGTERM, results kept, later steps not run"
[ $st = 0 ] || json_diag "$WORK/sterm.client.json"
json_ok "$WORK/sterm.server.json" '.interrupted.signal == "SIGTERM" and .interrupted.received_by == "server"
	and .exit_status == 143'
tap_check $? "SIGTERM to the server: its own JSON is valid and marked interrupted"
grep -q 'was interrupted by SIGTERM during phase HH size' "$WORK/sterm.client"
tap_check $? "SIGTERM to the server: the client says the server was interrupted, and when" "$WORK/sterm.client"

# One long step (-D 60): the measured loops must look at the stop request
# themselves (every 10 ms in the bandwidth loops, every 16 turns of a
# latency one: gd_step_check_stop in engine/loop.c), or the interrupted
# end would only stop when its step ends, at least 57 s after the signal
# (sent 1 s into the step's traffic). The bound is that end: a loop that
# looks stops long before it, however busy the machine; one that does not
# look cannot stop before it. A working run costs no more than -D 10 did.
for t in "gd_write_bw -D 60 -s 4096" "gd_read_lat -D 60 -s 4096"; do
	prog=${t%% *}
	n=long_${prog#gd_}
	PORT=$(next_port)
	start_bounded 90 "$WORK/$n.server" $t -d rxe0 -x 1 \
		--timeout 5000 -p $PORT --out_json_file="$WORK/$n.server.json"
	spid=$BG_PID
	wait_listen $PORT || diag "$n: server did not listen on port $PORT"
	start_bounded 90 "$WORK/$n.client" $t -d rxe0 -x 1 \
		--timeout 5000 -p $PORT --out_json_file="$WORK/$n.client.json" "$GD_VM_ADDR"
	cpid=$BG_PID
	wait_traffic
	sleep 1
	t0=$(now_cs)
	kill -TERM $cpid
	wait $cpid
	rc=$?
	t1=$(now_cs)
	wait $spid
	src=$?
	t2=$(now_cs)
	st=1
	[ $rc = 143 ] && [ $src = 1 ] && [ $((t1 - t0)) -lt 5700 ] && st=0
	if [ $st = 0 ]; then
		tap_ok "SIGTERM 1 s into the traffic of a long step of $t: the client stops in $((t1 - t0)) cs (exit $rc), the server in $((t2 - t0)) cs (exit $src)"
	else
		tap_not_ok "SIGTERM 1 s into the traffic of a long step of $t: the client stops in $((t1 - t0)) cs (exit $rc), the server in $((t2 - t0)) cs (exit $src)"
	fi
	st=1
	json_ok "$WORK/$n.client.json" '.interrupted.signal == "SIGTERM" and .exit_status == 143
		and (.interrupted.during | test("^phase HH size 4096 round 1$"))' &&
		grep -q 'was interrupted by SIGTERM' "$WORK/$n.server" && st=0
	tap_check $st "SIGTERM in a long step of $t: the client's JSON is marked interrupted, the server was told and ended $((t2 - t1)) cs after the client" \
		"$WORK/$n.client" "$WORK/$n.server"
done

# --loopback: the signal to the invocation (the client half, which forked
# the server half); the server half must not outlive it.
for sig in TERM INT; do
	n=lb_$sig
	start_bounded 90 "$WORK/$n.out" gd_write_bw --loopback $SWEEP \
		--out_json_file="$WORK/$n.json"
	lpid=$BG_PID
	wait_row "$WORK/$n.out"
	t0=$(now_cs)
	kill -$sig $lpid
	wait $lpid
	rc=$?
	t1=$(now_cs)
	want=143
	[ $sig = INT ] && want=130
	sleep 1
	left=$(ps | grep -c '[g]d_write_bw --loopback')
	st=1
	[ $rc = $want ] && [ "$left" = 0 ] && st=0
	tap_check $st "SIG$sig to a --loopback run: exit $rc (want $want) after $((t1 - t0)) cs, $left process(es) left" "$WORK/$n.out"
	st=1
	interrupted_doc "$WORK/$n.json" SIG$sig client $want && st=0
	tap_check $st "SIG$sig to a --loopback run: JSON valid, marked interrupted, results kept, later steps not run"
	[ $st = 0 ] || json_diag "$WORK/$n.json"
	[ "$(errors_printed "$WORK/$n.out")" = 1 ]
	tap_check $? "SIG$sig to a --loopback run: the interruption is printed once" "$WORK/$n.out"
done

# Not an interruption, but how --loopback reports: a failure both halves
# see (a GID index neither has) is printed once, not once per half.
run_bounded 30 "$WORK/lb_badgid.out" gd_write_bw --loopback -d rxe0 -x 99 -n 10
rc=$?
st=1
[ $rc = 1 ] && [ "$(errors_printed "$WORK/lb_badgid.out")" = 1 ] &&
	! grep -q '(server)' "$WORK/lb_badgid.out" && st=0
tap_check $st "--loopback -x 99: exit $rc, the error printed once" "$WORK/lb_badgid.out"

# --run_infinitely ends on the signal too, within a pass or between two,
# with every pass reported.
start_bounded 90 "$WORK/inf.out" gd_write_bw --loopback -d rxe0 -x 1 -s 65536 -n 500 \
	--run_infinitely --timeout 5000 --out_json_file="$WORK/inf.json"
ipid=$BG_PID
wait_row "$WORK/inf.out"
kill -INT $ipid
wait $ipid
rc=$?
st=1
[ $rc = 130 ] && json_ok "$WORK/inf.json" '.interrupted.signal == "SIGINT" and .exit_status == 130
	and ([.phases[].results[]] | length) >= 1' && st=0
tap_check $st "SIGINT to --run_infinitely: exit $rc, JSON marked interrupted with the passes measured" "$WORK/inf.out"
[ $st = 0 ] || json_diag "$WORK/inf.json"

# A server still waiting for its client: the waiting line, then an end on
# SIGINT (exit 130: without the signal it waits for ever, and the
# harness's 60 s would end it with 124).
PORT=$(next_port)
start_bounded 60 "$WORK/waiting.out" gd_write_bw -d rxe0 -x 1 -p $PORT \
	--out_json_file="$WORK/waiting.json"
spid=$BG_PID
wait_listen $PORT || diag "waiting: server did not listen on port $PORT"
# The port listens a moment before the line is written: give it 2 s.
st=1
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -q "^ Waiting for client on port $PORT (gd_write_bw on rxe0 port 1, memory: host, the test travels from the client; anyone who can reach this port may run one within this server's limits)\.\.\.$" \
		"$WORK/waiting.out" && { st=0; break; }
	usleep 200000
done
tap_check $st "a waiting server prints perftest's kind of waiting line on stdout" "$WORK/waiting.out"
t0=$(now_cs)
kill -INT $spid
wait $spid
rc=$?
t1=$(now_cs)
st=1
[ $rc = 130 ] &&
	json_ok "$WORK/waiting.json" '.interrupted.signal == "SIGINT" and (.interrupted.during | test("waiting for a client"))
		and .exit_status == 130' && st=0
tap_check $st "SIGINT to a waiting server: exit $rc after $((t1 - t0)) cs, JSON says it was waiting for a client" "$WORK/waiting.out"

# A server that is bound to fail says so at once, with no client: a
# missing RDMA device, a GPU that is not there (no CUDA driver in the
# guest), a memory spec that does not parse. Each non-zero before it
# waits (no waiting line, not the 124 of timeout's 20 s), naming what to
# check; the time it took is printed.
fail_fast() {
	local name=$1 want=$2 t0 t1 rc
	shift 2
	t0=$(now_cs)
	timeout -k 2 20 gd_write_bw -p "$(next_port)" "$@" >"$WORK/ff-$name.out" 2>&1
	rc=$?
	t1=$(now_cs)
	st=1
	[ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ] &&
		! grep -q 'Waiting for client' "$WORK/ff-$name.out" &&
		grep -Eq "$want" "$WORK/ff-$name.out" && st=0
	tap_check $st "a server with $name fails at once: exit $rc after $((t1 - t0)) cs, no waiting line" \
		"$WORK/ff-$name.out"
}
fail_fast "a missing device (-d mlx5_0)" "mlx5_0.*not found.*rxe0" -d mlx5_0
fail_fast "a missing GPU (--mem=cuda:0)" "cuda" -d rxe0 -x 1 --mem=cuda:0
fail_fast "--mem=bogus" "bogus" -d rxe0 -x 1 --mem=bogus

# A full disk for --out_json_file: the file and the cause named, the
# table and the document on stdout, exit 1.
mkdir -p /tmp/full
if mount -t tmpfs -o size=16k tmpfs /tmp/full; then
	timeout -k 5 60 gd_write_bw --loopback -d rxe0 -x 1 -s 65536 -n 200 \
		--out_json_file=/tmp/full/run.json >"$WORK/full.stdout" 2>"$WORK/full.stderr"
	rc=$?
	st=1
	[ $rc = 1 ] && grep -qi 'no space' "$WORK/full.stderr" &&
		grep -q '/tmp/full/run.json' "$WORK/full.stderr" && st=0
	tap_check $st "--out_json_file on a full disk: exit $rc, the error names the file and 'no space'" \
		"$WORK/full.stderr"
	st=1
	grep -qE '^ *65536 +200 +[0-9.]+ +[0-9.]+ +[0-9.]+ *$' "$WORK/full.stdout" &&
		sed -n '/^{/,$p' "$WORK/full.stdout" >"$WORK/full.json" &&
		json_ok "$WORK/full.json" '.exit_status == 1 and (.error.message | test("No space"))
			and (.phases[0].results | length) == 1' && st=0
	tap_check $st "--out_json_file on a full disk: the table row and the whole document still reach stdout" \
		"$WORK/full.stdout"
	[ -z "$(ls /tmp/full)" ]
	tap_check $? "--out_json_file on a full disk: no partial file left behind ($(ls /tmp/full | tr '\n' ' '))"
	umount /tmp/full
else
	tap_skip "--out_json_file on a full disk" "cannot mount a 16 KiB tmpfs"
fi
exit 0
