# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --bind_source_ip: a server given an address listens on it alone (not on
# every address of the guest), a client connects from it, and a client that
# tries another address of the same host is refused within its timeout.
. /gd/guest-lib.sh

PORT=$(next_port)
start_bounded 60 "$WORK/bind.server" gd_write_bw -d rxe0 -x 1 -p $PORT -n 200 \
	--bind_source_ip "$GD_VM_ADDR"
spid=$BG_PID
wait_listen $PORT || diag "bind: server did not listen on port $PORT"
netstat -ltn >"$WORK/bind.listen" 2>&1
st=1
grep -q "$GD_VM_ADDR:$PORT[[:space:]]" "$WORK/bind.listen" &&
	! grep -qE "(0\.0\.0\.0|::):$PORT[[:space:]]" "$WORK/bind.listen" && st=0
tap_check $st "--bind_source_ip $GD_VM_ADDR: the server listens on $GD_VM_ADDR:$PORT only" \
	"$WORK/bind.listen"

# The same host by another address (loopback) finds no listener there.
run_bounded 30 "$WORK/bind.refused" gd_write_bw -d rxe0 -x 1 -p $PORT -n 200 \
	--timeout 1000 127.0.0.1
rc=$?
st=1
[ $rc = 1 ] && grep -qi "cannot connect to 127.0.0.1:$PORT" "$WORK/bind.refused" && st=0
tap_check $st "a client for 127.0.0.1 is refused, exit $rc, naming the address" "$WORK/bind.refused"

# A client from the bound address to it runs the test.
run_bounded 60 "$WORK/bind.client" gd_write_bw -d rxe0 -x 1 -p $PORT -n 200 \
	--bind_source_ip "$GD_VM_ADDR" "$GD_VM_ADDR"
crc=$?
wait $spid
src=$?
st=1
[ $crc = 0 ] && [ $src = 0 ] && st=0
tap_check $st "client --bind_source_ip $GD_VM_ADDR to $GD_VM_ADDR: both exit 0 (server $src, client $crc)" \
	"$WORK/bind.server" "$WORK/bind.client"
