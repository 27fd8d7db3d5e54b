# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --auth-key against a server with a key (issue 38): a key file others may
# read is refused before anything connects; a client without a key and one
# with another key are refused in the handshake, each with one line in the
# server's log (peer and reason), and the server goes on listening; the
# client with the right key runs to exit 0 with a document; so does a
# --loopback run with the key.
# gd-case-timeout-s: 150
. /gd/guest-lib.sh

has() {
	grep -qiE "$2" "$1"
}

PROG=gd_write_bw
printf '%s\n' 'gdperf guest key A 0123456789abcdef' >"$WORK/a.key"
printf '%s\n' 'gdperf guest key B fedcba9876543210' >"$WORK/b.key"
cp "$WORK/a.key" "$WORK/open.key"
chmod 600 "$WORK/a.key" "$WORK/b.key"
chmod 644 "$WORK/open.key"

PORT=$(next_port)
run_bounded 30 "$WORK/open.out" $PROG -d rxe0 -x 1 -p $PORT --auth-key="$WORK/open.key" "$GD_VM_ADDR"
rc=$?
st=1
[ $rc = 1 ] && has "$WORK/open.out" "open.key: .*chmod 600" && st=0
tap_check $st "a key file others may read: client exit $rc (1), the message names it and chmod 600" "$WORK/open.out"

start_bounded 120 "$WORK/srv.out" $PROG -d rxe0 -x 1 -p $PORT --handshake-timeout=2 --auth-key="$WORK/a.key"
spid=$BG_PID
wait_listen $PORT || diag "auth: server did not listen on TCP port $PORT within 20 s"

run_bounded 30 "$WORK/none.out" $PROG -d rxe0 -x 1 -p $PORT "$GD_VM_ADDR"
rc=$?
st=1
[ $rc = 1 ] && has "$WORK/none.out" 'requires authentication: give --auth-key' && st=0
tap_check $st "no key: client exit $rc (1), told the server requires one" "$WORK/none.out"

run_bounded 30 "$WORK/wrong.out" $PROG -d rxe0 -x 1 -p $PORT --auth-key="$WORK/b.key" "$GD_VM_ADDR"
rc=$?
st=1
[ $rc = 1 ] && has "$WORK/wrong.out" "refused this client's key" && st=0
tap_check $st "another key: client exit $rc (1), refused" "$WORK/wrong.out"

run_bounded 60 "$WORK/ok.out" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 50 \
	--auth-key="$WORK/a.key" --out_json_file="$WORK/ok.json" "$GD_VM_ADDR"
rc=$?
wait_bg $spid
src=$?
st=1
[ $rc = 0 ] && [ $src = 0 ] && json_ok "$WORK/ok.json" '.exit_status == 0' && st=0
tap_check $st "the right key: client exits $rc (0), the server $src (0), a document" \
	"$WORK/ok.out" "$WORK/srv.out"

# --loopback: both halves read the one key file and prove it to each other.
run_bounded 60 "$WORK/lb.out" $PROG -d rxe0 -x 1 -p $(next_port) --loopback -s 4096 -n 20 \
	--auth-key="$WORK/a.key"
rc=$?
st=1
[ $rc = 0 ] && st=0
tap_check $st "--loopback with --auth-key: exit $rc (0)" "$WORK/lb.out"

st=1
[ "$(grep -c 'closed the connection from' "$WORK/srv.out")" = 2 ] &&
	has "$WORK/srv.out" "from $GD_VM_ADDR:[0-9]+: the client gave no key" &&
	has "$WORK/srv.out" "did not prove it has this server's key" &&
	has "$WORK/srv.out" "only a client with this server's key \(--auth-key\)" &&
	! has "$WORK/srv.out" 'gdperf guest key' && st=0
tap_check $st "the server: its waiting line says a key is needed, one line per refused client (peer, reason), the key in none" "$WORK/srv.out"
exit 0
