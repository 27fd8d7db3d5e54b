# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Bad input and faults: each must end with a clear message and the right exit
# status on every side, within a bounded time, never a hang.
. /gd/guest-lib.sh

# has OUT REGEX: the captured output matches (extended, case-insensitive).
has() {
	grep -qiE "$2" "$1"
}

# Mismatched options: the server refuses the client's test description,
# both ends say which field differs and both values, and the server goes
# on listening (issue 38): a matching client that comes next is served.
PROG=gd_write_bw
PORT=$(next_port)
start_bounded 60 "$WORK/mismatch.server" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 100
spid=$BG_PID
wait_listen $PORT || diag "mismatch: server did not listen on TCP port $PORT within 20 s"
run_bounded 60 "$WORK/mismatch.client" $PROG -d rxe0 -x 1 -p $PORT -s 65536 -n 100 "$GD_VM_ADDR"
CLIENT_RC=$?
run_bounded 60 "$WORK/mismatch.next" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 100 "$GD_VM_ADDR"
NEXT_RC=$?
wait_bg $spid
SERVER_RC=$?
st=1
[ $CLIENT_RC = 1 ] && [ $NEXT_RC = 0 ] && [ $SERVER_RC = 0 ] &&
	has "$WORK/mismatch.server" 'closed the connection from .*waiting for the next client' && st=0
tap_check $st "mismatched -s: client exits 1, the server closes it, serves the next matching client and exits 0 (client $CLIENT_RC, next $NEXT_RC, server $SERVER_RC)" \
	"$WORK/mismatch.server" "$WORK/mismatch.client" "$WORK/mismatch.next"
for side in server client; do
	st=1
	has "$WORK/mismatch.$side" 'size' && has "$WORK/mismatch.$side" '4096' &&
		has "$WORK/mismatch.$side" '65536' && st=0
	tap_check $st "mismatched -s: $side message names the size field and both values" "$WORK/mismatch.$side"
done

# Server killed in the middle of a run: the client must end with an error
# by itself, not hang: its status 1 is its own (the harness's timeout at
# 90 s would give 124 or 137); the seconds are printed, not bounded.
PORT=$(next_port)
start_bounded 120 "$WORK/killed.server" gd_write_bw -d rxe0 -x 1 -p $PORT -n 100000000
spid=$BG_PID
wait_listen $PORT || diag "killed: server did not listen on port $PORT"
t0=$(cut -d. -f1 /proc/uptime)
start_bounded 90 "$WORK/killed.client" gd_write_bw -d rxe0 -x 1 -p $PORT -n 100000000 --timeout 5000 "$GD_VM_ADDR"
cpid=$BG_PID
sleep 4
# busybox timeout execs the program in its own process: $spid is the server.
kill -9 $spid
wait $cpid
crc=$?
wait $spid
t1=$(cut -d. -f1 /proc/uptime)
st=1
[ $crc = 1 ] && st=0
tap_check $st "server killed mid-run: client exits 1 by itself (status $crc after $((t1 - t0)) s)" "$WORK/killed.client"
st=1
has "$WORK/killed.client" 'peer|server|remote|retry|connection|closed' && st=0
tap_check $st "server killed mid-run: client message says what happened to the peer" "$WORK/killed.client"

# Server frozen (SIGSTOP) mid-run: its heartbeat thread stops with it, so
# the client, done with its -D 3 run, must hear silence and give up within
# its --timeout instead of waiting for the results forever. (rxe answers
# the writes from the kernel, so the transport alone would not notice.)
PORT=$(next_port)
start_bounded 120 "$WORK/frozen.server" gd_write_bw -d rxe0 -x 1 -p $PORT -D 3 --timeout 2000
spid=$BG_PID
wait_listen $PORT || diag "frozen: server did not listen on port $PORT"
t0=$(cut -d. -f1 /proc/uptime)
start_bounded 90 "$WORK/frozen.client" gd_write_bw -d rxe0 -x 1 -p $PORT -D 3 --timeout 2000 "$GD_VM_ADDR"
cpid=$BG_PID
sleep 2
kill -STOP $spid
wait $cpid
crc=$?
t1=$(cut -d. -f1 /proc/uptime)
kill -CONT $spid
kill $spid 2>/dev/null
wait $spid
st=1
[ $crc = 1 ] && has "$WORK/frozen.client" 'within 2000 ms' && st=0
tap_check $st "server frozen mid-run: client exits 1 on silence within its timeout (status $crc after $((t1 - t0)) s)" "$WORK/frozen.client"

# No server at all: bounded connect with retry, then a clear error (its
# own status 1, not the harness's 124 at 60 s).
PORT=$(next_port)
t0=$(cut -d. -f1 /proc/uptime)
run_bounded 60 "$WORK/noserver.out" gd_write_bw -d rxe0 -x 1 -p $PORT -n 100 --timeout 3000 "$GD_VM_ADDR"
rc=$?
t1=$(cut -d. -f1 /proc/uptime)
st=1
[ $rc = 1 ] && has "$WORK/noserver.out" "$GD_VM_ADDR|$PORT" && st=0
tap_check $st "no server listening: client exits 1 within its timeout naming the peer (status $rc, $((t1 - t0)) s)" "$WORK/noserver.out"

# Unknown device: exit 1 or 2 (bad input), and the message lists the device that exists.
run_bounded 30 "$WORK/nodev.out" gd_write_bw -d nosuch0 --loopback -n 10
rc=$?
st=1
{ [ $rc = 1 ] || [ $rc = 2 ]; } && has "$WORK/nodev.out" 'nosuch0' && has "$WORK/nodev.out" 'rxe0' && st=0
tap_check $st "-d nosuch0: exit $rc, message names nosuch0 and lists rxe0" "$WORK/nodev.out"

# Bad GID index: exit 1 or 2, and the message lists the valid indexes (0, 1).
run_bounded 30 "$WORK/badgid.out" gd_write_bw -d rxe0 -x 99 --loopback -n 10
rc=$?
st=1
{ [ $rc = 1 ] || [ $rc = 2 ]; } && has "$WORK/badgid.out" '99' &&
	has "$WORK/badgid.out" 'valid' && has "$WORK/badgid.out" '(^|[^0-9])1([^0-9]|$)' && st=0
tap_check $st "-x 99: exit $rc, message names 99 and lists the valid GID indexes" "$WORK/badgid.out"

# Impossible combinations are refused as usage errors before any device use.
run_bounded 30 "$WORK/atomic_uc.out" gd_atomic_bw -c UC --loopback -d nosuch0
rc=$?
st=1
[ $rc = 2 ] && has "$WORK/atomic_uc.out" 'UC' && st=0
tap_check $st "gd_atomic_bw -c UC: usage error (exit $rc) naming UC, before opening the device" "$WORK/atomic_uc.out"
run_bounded 30 "$WORK/write_ud.out" gd_write_bw -c UD --loopback -d nosuch0
rc=$?
st=1
[ $rc = 2 ] && has "$WORK/write_ud.out" 'UD' && st=0
tap_check $st "gd_write_bw -c UD: usage error (exit $rc) naming UD" "$WORK/write_ud.out"

# Memlock: an unprivileged user registers 1 MiB buffers under the guest's
# default 8 MiB limit, and fails with a locked-memory diagnosis at 64 KiB.
chmod 0777 "$WORK"
run_bounded 60 "$WORK/memlock_ok.out" su -s /bin/sh gduser -c \
	"gd_write_bw -d rxe0 -x 1 --loopback -s 1M -n 20"
rc=$?
tap_check $rc "as gduser with the default memlock limit: --loopback -s 1M runs (exit $rc)" "$WORK/memlock_ok.out"
run_bounded 60 "$WORK/memlock.out" su -s /bin/sh gduser -c \
	"ulimit -l 64 && gd_write_bw -d rxe0 -x 1 --loopback -s 1M -n 20 --out_json_file=$WORK/memlock.json"
rc=$?
st=1
[ $rc = 1 ] && has "$WORK/memlock.out" 'memlock|locked.memory|ulimit -l' && st=0
tap_check $st "as gduser with ulimit -l 64: exit $rc and a locked-memory message" "$WORK/memlock.out"
st=1
json_ok "$WORK/memlock.json" '.exit_status == 1 and (.error.errno_name == "ENOMEM") and (.error.message | test("locked|memlock"; "i"))' && st=0
tap_check $st "memlock failure recorded in the JSON error object (ENOMEM)"
[ $st = 0 ] || json_diag "$WORK/memlock.json"
exit 0
