# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Harness sanity with Debian's perftest on rxe0: RC write bandwidth and
# latency between a server and a client on the guest's own address, and the
# error counters that must not move on a clean run.
. /gd/guest-lib.sh

PROG=ib_write_bw
PORT=$(next_port)
counters_snapshot "$WORK/hw.before"
pair_run write_bw 120 -d rxe0 -x 1 -n 200 -p $PORT -- -d rxe0 -x 1 -n 200 -p $PORT
# perftest's result row: "65536 200 peak avg msgrate" (five numeric columns).
row=$(awk '$1 == 65536 && NF == 5 { print }' "$WORK/write_bw.client")
st=1
[ $CLIENT_RC = 0 ] && [ $SERVER_RC = 0 ] && [ -n "$row" ] && st=0
tap_check $st "perftest ib_write_bw RC 64 KiB x 200 on rxe0 (client $CLIENT_RC, server $SERVER_RC)" \
	"$WORK/write_bw.client" "$WORK/write_bw.server"
[ -n "$row" ] && diag "ib_write_bw: $row"
avg=$(echo "$row" | awk '{ print $4 }')
st=1
awk -v a="${avg:-0}" 'BEGIN { exit !(a > 0) }' && st=0
tap_check $st "perftest ib_write_bw reports a positive average bandwidth (${avg:-none} MiB/s)"

counters_snapshot "$WORK/hw.after"
moved=$(counters_moved "$WORK/hw.before" "$WORK/hw.after" retry_exceeded_err retry_rnr_exceeded_err send_err)
tap_check $? "no *_exceeded_err or send_err moved during the perftest run ${moved:+($moved)}"
pk=$(awk '$1 == "sent_pkts" { print $2 }' "$WORK/hw.after")
pk0=$(awk '$1 == "sent_pkts" { print $2 }' "$WORK/hw.before")
# 200 x 64 KiB at MTU 1024 is 12,800 data packets from the client alone.
st=1
[ $((pk - pk0)) -ge 12800 ] && st=0
tap_check $st "rxe0 sent_pkts moved by at least 12800 ($pk0 -> $pk)"

PROG=ib_write_lat
PORT=$(next_port)
pair_run write_lat 120 -d rxe0 -x 1 -n 200 -p $PORT -- -d rxe0 -x 1 -n 200 -p $PORT
row=$(awk '$1 == 2 && $2 == 200 && NF >= 8 { print }' "$WORK/write_lat.client")
st=1
[ $CLIENT_RC = 0 ] && [ $SERVER_RC = 0 ] && [ -n "$row" ] && st=0
tap_check $st "perftest ib_write_lat RC 2 B x 200 on rxe0 (client $CLIENT_RC, server $SERVER_RC)" \
	"$WORK/write_lat.client" "$WORK/write_lat.server"
[ -n "$row" ] && diag "ib_write_lat: $row"

# The unprivileged user exists, can open rxe0, and a 64 KiB memlock limit
# stops a 1 MiB registration: the ground the memlock diagnosis test stands on.
chmod 0777 "$WORK"
# perftest calibrates its cycle counter against the clock first and gives up
# ("Correlation coefficient r^2: ... < 0.9", "Can't produce a report") when
# the guest is too loaded for a straight line: that is perftest's clock, not
# the memlock limit, so that one failure is tried again, at most twice.
tries=0
while :; do
	tries=$((tries + 1))
	run_bounded 60 "$WORK/memlock_ok.out" su -s /bin/sh gduser -c \
		"ib_write_bw -d rxe0 -x 1 -s 1048576 -n 5 -p 18599 & sleep 2;
		 ib_write_bw -d rxe0 -x 1 -s 1048576 -n 5 -p 18599 $GD_VM_ADDR; rc=\$?; wait; exit \$rc"
	rc=$?
	[ $rc != 0 ] && [ $tries -lt 3 ] && perftest_clock_refused "$WORK/memlock_ok.out" ||
		break
	diag "perftest could not calibrate its clock (try $tries), again"
	sleep 1
done
tap_check $rc "perftest as gduser (uid 1000) with the default memlock limit: 1 MiB write runs (try $tries)" "$WORK/memlock_ok.out"
run_bounded 60 "$WORK/memlock.out" su -s /bin/sh gduser -c \
	"ulimit -l 64 || exit 99; ib_write_bw -d rxe0 -x 1 -s 1048576 -n 5 -p 18598 & sleep 2;
	 ib_write_bw -d rxe0 -x 1 -s 1048576 -n 5 -p 18598 $GD_VM_ADDR; rc=\$?; wait; exit \$rc"
rc=$?
st=1
[ $rc != 0 ] && grep -q "Couldn't allocate MR" "$WORK/memlock.out" && st=0
tap_check $st "perftest as gduser with ulimit -l 64: MR registration refused (exit $rc)" "$WORK/memlock.out"
exit 0
