# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --persist (issue 38): one server serves client after client, each a run
# with its own numbered document; garbage and a request over a limit are
# closed without counting; a client that connects while another runs waits
# in the accept queue and is served next; an interrupted client fails its
# own run only; SIGTERM between clients ends the server with one summary
# line (exit 1: a client failed). --max-clients=1 ends by itself with 0.
# gd-case-timeout-s: 180
. /gd/guest-lib.sh

has() {
	grep -qiE "$2" "$1"
}

# Until a client's side channel to PORT is up (the listen socket is kept,
# so the kernel completes the connection even while another client runs).
wait_connected() {
	for i in $(seq 1 100); do
		netstat -tn 2>/dev/null | grep -q "[:.]$1[[:space:]].*ESTABLISHED" && return 0
		usleep 100000
	done
	return 1
}

PROG=gd_write_bw
PORT=$(next_port)
start_bounded 150 "$WORK/srv.out" $PROG -d rxe0 -x 1 -p $PORT --persist \
	--handshake-timeout=2 --out_json_file="$WORK/srv.json"
spid=$BG_PID
wait_listen $PORT || diag "persist: server did not listen on TCP port $PORT within 20 s"

# Client 1 runs; client 2 connects meanwhile and waits its turn (its
# --timeout covers client 1's run under TCG).
start_bounded 60 "$WORK/c1.out" $PROG -d rxe0 -x 1 -p $PORT -s 8192 -D 2 \
	--out_json_file="$WORK/c1.json" "$GD_VM_ADDR"
c1=$BG_PID
wait_connected $PORT || diag "persist: client 1 did not connect within 10 s"
start_bounded 90 "$WORK/c2.out" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 40 \
	--timeout=60000 --out_json_file="$WORK/c2.json" "$GD_VM_ADDR"
c2=$BG_PID
wait_bg $c1
rc1=$?
wait_bg $c2
rc2=$?
st=1
[ $rc1 = 0 ] && [ $rc2 = 0 ] &&
	json_ok "$WORK/srv-0001.json" '.exit_status == 0 and .role == "server" and .test.size_bytes == 8192' &&
	json_ok "$WORK/srv-0002.json" '.exit_status == 0 and .test.size_bytes == 4096' && st=0
tap_check $st "two clients, the second queued while the first ran: exits $rc1, $rc2 (0, 0); the server wrote srv-0001.json (8192 B) and srv-0002.json (4096 B)" \
	"$WORK/srv.out" "$WORK/c1.out" "$WORK/c2.out"

# Garbage and a request over --max-qps are closed and do not count.
printf 'GET / HTTP/1.0\r\n\r\n' | timeout 10 nc "$GD_VM_ADDR" $PORT >/dev/null 2>&1
run_bounded 30 "$WORK/qps.out" $PROG -d rxe0 -x 1 -p $PORT -q 64 "$GD_VM_ADDR"
rcq=$?
run_bounded 60 "$WORK/c3.out" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 40 "$GD_VM_ADDR"
rc3=$?
st=1
[ $rcq = 1 ] && [ $rc3 = 0 ] && [ -s "$WORK/srv-0003.json" ] && [ ! -e "$WORK/srv-0004.json" ] &&
	has "$WORK/qps.out" 'max-qps' && st=0
tap_check $st "garbage and -q 64 closed without counting (client exit $rcq), the next valid client served as client 3 (exit $rc3)" \
	"$WORK/srv.out" "$WORK/qps.out" "$WORK/c3.out"

# Client 4 is interrupted midway: its run fails here too, and the server
# goes on to wait for client 5.
start_bounded 60 "$WORK/c4.out" $PROG -d rxe0 -x 1 -p $PORT -s 8192 -D 3 "$GD_VM_ADDR"
c4=$BG_PID
wait_connected $PORT || diag "persist: client 4 did not connect within 10 s"
sleep 2
kill -INT $c4
wait_bg $c4
rc4=$?

# SIGTERM while it waits for client 5: exit 1 (client 4 failed), one
# summary line.
for i in $(seq 1 50); do
	has "$WORK/srv.out" '^ Waiting for client 5 on port' && break
	usleep 200000
done
kill -TERM $spid
wait_bg $spid
src=$?
st=1
[ $rc4 = 130 ] && [ $src = 1 ] && [ -s "$WORK/srv-0004.json" ] && [ ! -e "$WORK/srv-0005.json" ] &&
	json_ok "$WORK/srv-0004.json" '.exit_status == 1 and .interrupted.received_by == "client"' &&
	has "$WORK/srv.out" '^ Waiting for client 2 on port [0-9]+ \(gd_write_bw on rxe0 port 1' &&
	has "$WORK/srv.out" 'persist: client 2 \([0-9.]+:[0-9]+\) ended with exit 0 here, document .*/srv-0002\.json; waiting for the next' &&
	has "$WORK/srv.out" 'persist: client 4 \([0-9.]+:[0-9]+\) ended with exit 1 here' &&
	has "$WORK/srv.out" 'served 4 client\(s\), 1 of them failed here; ended by SIGTERM' &&
	[ "$(grep -c 'closed the connection from' "$WORK/srv.out")" = 2 ] && st=0
tap_check $st "client 4 interrupted (exit $rc4, 130) fails its run, not the server; SIGTERM between clients: server exit $src (1: a client failed), 'served 4 client(s), 1 of them failed', two closed connections logged" \
	"$WORK/srv.out" "$WORK/c4.out"

# --max-clients=1: the server ends after its client, with the run's status.
PORT=$(next_port)
start_bounded 60 "$WORK/one.out" $PROG -d rxe0 -x 1 -p $PORT --persist --max-clients=1
spid=$BG_PID
wait_listen $PORT || diag "persist: server did not listen on TCP port $PORT within 20 s"
run_bounded 60 "$WORK/c5.out" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 40 "$GD_VM_ADDR"
rc5=$?
wait_bg $spid
src=$?
st=1
[ $rc5 = 0 ] && [ $src = 0 ] && has "$WORK/one.out" 'served 1 client\(s\), 0 of them failed here; ended by --max-clients' && st=0
tap_check $st "--max-clients=1: client exit $rc5, the server ends by itself with $src (0)" "$WORK/one.out" "$WORK/c5.out"
exit 0
