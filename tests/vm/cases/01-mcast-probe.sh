# temporary probe, not committed
. /gd/guest-lib.sh
PROG=ib_send_bw
try() {
	local name=$1; shift
	PORT=$(next_port)
	pair_run $name 40 -d rxe0 -c UD -g -n 50 -p $PORT "$@" -- -d rxe0 -c UD -g -n 50 -p $PORT "$@"
	diag "$name: client $CLIENT_RC server $SERVER_RC"
	diag_file "$WORK/$name.client" | tail -6
	diag_file "$WORK/$name.server" | tail -6
}
ls /payload | sed 's/^/# payload: /'
/payload/mcjoin 239.1.1.1 10.0.2.15 100 > $WORK/join.txt 2>&1 &
sleep 1
diag_file $WORK/join.txt
cat /proc/net/igmp | sed 's/^/# igmp: /'
try v4join -x 1 -M 0:0:0:0:0:0:0:0:0:0:255:255:239:1:1:1
cat /sys/class/infiniband/rxe0/ports/1/hw_counters/* 2>/dev/null | head -0
for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do echo "# $(basename $f) $(cat $f)"; done
tap_check 0 "probe"
