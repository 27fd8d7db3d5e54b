# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A server no peer can hold (issue 48): a peer that only beats, and one that
# says hello and then beats for ever, are closed (a heartbeat before the
# hellos is refused, the handshake has one deadline); the real client that
# comes while both still beat is served. Under --persist, a client refused
# for its --sizes leaves nothing for the default client after it.
# gd-case-timeout-s: 150
. /gd/guest-lib.sh

has() {
	grep -qiE "$2" "$1"
}

# One frame: "GDPF", version 2, TYPE (octal escape), the payload's length.
frame() {
	local type=$1 body=$2 n=${#2}
	# shellcheck disable=SC2059
	printf "GDPF\\000\\002\\000\\$type\\000\\000\\$(printf %03o $((n / 256)))\\$(printf %03o $((n % 256)))"
	printf '%s' "$body"
}

# A heartbeat (type 10) a second for 90 s, after HELLO (type 1) when $1
# (killed at the end of the case).
beater() {
	[ -n "$1" ] &&
		frame 001 "{\"tool\":\"$PROG\",\"version\":\"0\",\"protocol\":2}"
	for _ in $(seq 1 90); do
		frame 012 '{}'
		sleep 1
	done
}

PROG=gd_write_bw
PORT=$(next_port)
start_bounded 140 "$WORK/srv.out" $PROG -d rxe0 -x 1 -p $PORT --persist \
	--max-clients=2 --out_json_file="$WORK/srv.json"
spid=$BG_PID
wait_listen $PORT || diag "hold: server did not listen on TCP port $PORT within 20 s"

beater | timeout 100 nc "$GD_VM_ADDR" $PORT >/dev/null 2>&1 &
b1=$!
sleep 1
beater hello | timeout 100 nc "$GD_VM_ADDR" $PORT >/dev/null 2>&1 &
b2=$!
sleep 1
t0=$(date +%s)
run_bounded 60 "$WORK/c1.out" $PROG -d rxe0 -x 1 -p $PORT -s 4096 -n 20 \
	--timeout 30000 "$GD_VM_ADDR"
rc=$?
took=$(($(date +%s) - t0))
# the beaters go on for 90 s, past the client's 30 s --timeout: it
# succeeds only when the server closed them first (two handshake
# deadlines of 5 s, about 8 s of the client's wait; 30 s leaves a slow
# guest room without letting a held server pass)
st=1
[ $rc = 0 ] &&
	has "$WORK/srv.out" 'sent a heartbeat before the hellos' &&
	has "$WORK/srv.out" 'no hello and test within 5 s \(--handshake-timeout\)' && st=0
tap_check $st "a heartbeat-only peer, then one beating after its hello: both closed, the real client served (exit $rc, 0; $took s)" \
	"$WORK/c1.out" "$WORK/srv.out"

run_bounded 30 "$WORK/big.out" $PROG -d rxe0 -x 1 -p $PORT --sizes=1G,4G "$GD_VM_ADDR"
rc=$?
run_bounded 60 "$WORK/c2.out" $PROG -d rxe0 -x 1 -p $PORT -n 20 \
	--out_json_file="$WORK/c2.json" "$GD_VM_ADDR"
rc2=$?
wait_bg $spid
src=$?
st=1
[ $rc = 1 ] && has "$WORK/big.out" 'max-memory' && [ $rc2 = 0 ] && [ $src = 0 ] &&
	json_ok "$WORK/c2.json" '.exit_status == 0' && st=0
tap_check $st "--persist: a client refused for --sizes=1G,4G (exit $rc, 1), then a default client served (exit $rc2, 0); server exit $src (0)" \
	"$WORK/big.out" "$WORK/c2.out" "$WORK/srv.out"
kill $b1 $b2 2>/dev/null
exit 0
