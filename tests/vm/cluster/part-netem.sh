# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Part "netem" of the cluster test (sourced by node.sh, last: it breaks the
# link on purpose): faults on the cluster's one link. tc netem on node02's
# eth0 drops, reorders or duplicates what node02 sends; node01's link goes
# down for 2 s in the middle of a -D run, node02's for good. Each fault gets
# one client (node02) / server (node01) pair with --verify over HH, DD and
# both directions; node02 sends back its document, sysfs snapshots and
# timings, node01 checks (check-netem.sh).
# A link goes down from the host (host_ctl: qemu's set_link on the node's
# netdev), never with "ip link set eth0 down/up" in the guest: the guest
# sees carrier loss, rxe's port goes down (link_downed), and virtio-net's
# close/open path never runs. That path freed packets of a QP freed before
# (Debian's 6.1 kernel oopsed in rxe_skb_tx_dtor() at "ip link set eth0
# up", from virtnet_open, whenever the guest ran slowly enough for a
# packet to outlive its QP in the transmit ring). Each cut is still on the
# node that only acknowledges in that phase, as the checks expect.
D=$WORK/netem
mkdir -p "$D"
NM_HW=/sys/class/infiniband/rxe0/ports/1/hw_counters
# --warmup=0: the bytes cross-check expects the measured messages' packets,
# and the counter window would otherwise hold the warm-up's as well.
NM_ARGS="-d rxe0 -x $GD_GID_INDEX --mem=hugepage --verify --warmup=0 -s 65536"
NM_PORT=18700
NM_T0=$(uptime_s)
NM_SUMMARY=
rm -f "$D"/expect.*

uptime_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

hw() {
	cat "$NM_HW/$1"
}

# nm_wait_traffic PID sent|rcvd: until, over 0.2 s, node02's rxe0 sent (or
# received) more than 200 packets (1 MiB/s) and more than it received (or
# sent; ACKs are a few per cent): the data of a forward (or reverse) phase
# is flowing. Status 1 when PID ended.
nm_wait_traffic() {
	local s0 r0 s1 r1 ds dr
	s0=$(hw sent_pkts)
	r0=$(hw rcvd_pkts)
	while kill -0 "$1" 2>/dev/null; do
		usleep 200000
		s1=$(hw sent_pkts)
		r1=$(hw rcvd_pkts)
		ds=$((s1 - s0))
		dr=$((r1 - r0))
		[ "$2" = sent ] && [ $ds -gt 200 ] && [ $ds -gt $dr ] && return 0
		[ "$2" = rcvd ] && [ $dr -gt 200 ] && [ $dr -gt $ds ] && return 0
		s0=$s1
		r0=$r1
	done
	return 1
}

# nm_dmesg CS: the kernel's lines since uptime CS (1/100 s), as key=value.
nm_dmesg() {
	dmesg | awk -v t="$1" '{ ts = substr($0, 2, index($0, "]") - 2) + 0 }
		ts * 100 >= t { sub(/^\[ */, "["); print "kernel=" $0 }' | tail -12
}

# nm_link_back: the host puts the link back; the carrier, rxe0's port and
# GID are back, the peer answers ping.
nm_link_back() {
	local i=0
	host_ctl link on || { echo "link: the host did not put the link back: $HC_REPLY"; return 1; }
	echo "host_up=$HC_REPLY"
	until [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" = 1 ] &&
		grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null &&
		[ "$(cat /sys/class/infiniband/rxe0/ports/1/gids/$GD_GID_INDEX 2>/dev/null)" = "$CL_GID" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "link: carrier, rxe0 ACTIVE and GID $GD_GID_INDEX not all back 10 s after the host's set_link on"; break; }
		usleep 100000
	done
	i=0
	until ping -c 1 -W 1 "$GD_PEER_ADDR" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 30 ] && { echo "link: $GD_PEER does not answer ping after the link came back"; return 1; }
	done
	echo "link: back after $i pings, rxe0 $(cat /sys/class/infiniband/rxe0/ports/1/state)"
}

# nm_carrier_lost: until eth0's carrier reads 0 (the host's set_link off
# reaches the guest as a config interrupt, rxe0's port through linkwatch,
# within about 1 s); "carrier_off_cs=" (1/100 s after the request) or a
# note after 5 s.
nm_carrier_lost() {
	local i=0 t=$(uptime_cs)
	until [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" = 0 ]; do
		i=$((i + 1))
		[ $i -gt 50 ] && { echo "carrier_note=eth0's carrier still up 5 s after the host's set_link off"; return 1; }
		usleep 100000
	done
	echo "carrier_off_cs=$(($(uptime_cs) - t))"
}

# nm_fault_link PID T0 flap|down: this node's link down (from the host)
# while PID's run is in the middle of a phase where this node only
# acknowledges. flap (node01): 1 s into DD (a -D 4 run: HH's data seen
# arriving, then 5 s), up again 2 s later; down (node02): 0.5 s into
# HH:rev, up only once PID has ended. Lines "key=value" (times in 1/100 s
# from T0).
nm_fault_link() {
	local t
	if [ "$3" = flap ]; then
		nm_wait_traffic "$1" rcvd || { echo "fault_missed=the run ended before its data flowed"; return 1; }
		sleep 5
	else
		nm_wait_traffic "$1" rcvd || { echo "fault_missed=the run ended before a reverse phase"; return 1; }
		usleep 500000
	fi
	kill -0 "$1" 2>/dev/null || { echo "fault_missed=the run ended before the fault"; return 1; }
	host_ctl link off || { echo "fault_missed=the host did not take the link down: $HC_REPLY"; return 1; }
	t=$(uptime_cs)
	echo "down_cs=$((t - $2))"
	echo "host_down=$HC_REPLY"
	nm_carrier_lost
	if [ "$3" = flap ]; then
		sleep 2
	else
		while kill -0 "$1" 2>/dev/null; do usleep 100000; done
		echo "ended_down_cs=$(($(uptime_cs) - $2))"
	fi
	echo "up_cs=$(($(uptime_cs) - $2))"
	echo "link_downed=$(hw link_downed)"
	nm_link_back
}

# nm_client NAME TOOL SECS FAULT CLIENT_ARGS: node02's side of one fault.
nm_client() {
	local name=$1 tool=$2 secs=$3 fault=$4 cargs=$5 pre=$D/$1 t0 cpid rc f
	wait_flag "netem-$name-listen" 120 >/dev/null
	counters_snapshot "$pre.b.hw0"
	: >"$pre.fault"
	case $fault in
	netem*) "$CL_TC" qdisc add dev eth0 root $fault >>"$pre.fault" 2>&1 ||
		echo "tc_failed=tc qdisc add dev eth0 root $fault" >>"$pre.fault" ;;
	esac
	t0=$(uptime_cs)
	start_bounded "$secs" "$pre.client.txt" "$tool" $NM_ARGS $cargs --phases=HH,DD --reverse \
		-p "$NM_PORT" --label=netem="$name" --out_json_file="$pre.client.json" node01
	cpid=$BG_PID
	[ "$fault" = down ] && nm_fault_link $cpid "$t0" down >>"$pre.fault" 2>&1
	wait_bg $cpid
	rc=$?
	echo "elapsed_cs=$(($(uptime_cs) - t0))" >>"$pre.fault"
	case $fault in
	netem*)
		echo "qdisc=$("$CL_TC" -s qdisc show dev eth0 | tr '\n' ' ')" >>"$pre.fault"
		"$CL_TC" qdisc del dev eth0 root >>"$pre.fault" 2>&1
		;;
	esac
	nm_dmesg "$t0" | grep -v 'speed is unknown' >>"$pre.fault"
	echo "t0_cs=$t0" >>"$pre.fault"
	echo "rc=$rc" >>"$pre.fault"
	counters_snapshot "$pre.b.hw1"
	diag "netem $name: client exit $rc; $(tr '\n' ' ' <"$pre.fault" | cut -c1-600)"
	for f in client.txt client.json b.hw0 b.hw1 fault; do
		[ -f "$pre.$f" ] || : >"$pre.$f"
		flag "netem-$name-$f" "$pre.$f"
	done
}

# nm_server NAME TOOL SECS CLIENT_ARGS FAULT: node01's side, then the checks.
nm_server() {
	local name=$1 tool=$2 secs=$3 pre=$D/$1 t0 spid f sargs
	# the side-channel limit is the server's own: give it the client's
	case $4 in *--timeout=*) sargs="--timeout=${4##*--timeout=}" ;; *) sargs= ;; esac
	counters_snapshot "$pre.a.hw0"
	t0=$(uptime_cs)
	start_bounded "$secs" "$pre.server.txt" "$tool" $NM_ARGS $sargs -p "$NM_PORT" \
		--out_json_file="$pre.server.json"
	spid=$BG_PID
	wait_listen "$NM_PORT" || diag "netem $name: server did not listen on $NM_PORT within 20 s"
	flag "netem-$name-listen"
	: >"$pre.a.fault"
	[ "$5" = flap ] && nm_fault_link $spid "$t0" flap >>"$pre.a.fault" 2>&1
	wait_bg $spid
	SRV_RC=$?
	SRV_CS=$(($(uptime_cs) - t0))
	counters_snapshot "$pre.a.hw1"
	nm_dmesg "$t0" | grep -v 'speed is unknown' >"$pre.a.dmesg"
	for f in client.txt client.json b.hw0 b.hw1 fault; do
		wait_flag "netem-$name-$f" 300 "$pre.$f" >/dev/null || break
	done
	NM=$name
	NM_TOOL=$tool
	. "$GD_VM_PAYLOAD/check-netem.sh"
}

# nm_case NAME TOOL SECS FAULT EXPECT CLIENT_ARGS: one fault on both nodes.
# EXPECT: complete (the run must survive it), error (must end with a clear
# error on both ends), either (one of the two, each checked in full).
nm_case() {
	NM_EXPECT=$5
	NM_FAULT=$4
	if [ "$GD_NODE" = node01 ]; then
		nm_server "$1" "$2" "$3" "$6" "$4"
	else
		nm_client "$1" "$2" "$3" "$4" "$6"
	fi
	NM_PORT=$((NM_PORT + 1))
}

nm_case loss1 gd_write_bw 90 "netem loss 1%" complete "-n 100"
nm_case loss5 gd_read_bw 120 "netem loss 5%" complete "-n 50"
nm_case reorder gd_write_bw 120 "netem delay 5ms reorder 25% 50%" complete "-n 30"
nm_case dup gd_send_bw 90 "netem duplicate 5%" complete "-n 100"
nm_case flap gd_write_bw 90 flap complete "-D 4"
nm_case down gd_write_bw 90 down error "-D 3 --timeout=5000"
if [ "$GD_NODE" = node01 ]; then
	nm_expect_report verdict "a verdict names the retransmissions (or the link_downed) of every run that completed over a faulty link"
	nm_expect_report judged "a run that failed still judges the phases it kept: port_check on each, an error verdict"
	nm_expect_report window "the phase a link fault failed keeps its counter window (link_downed)"
	nm_expect_report relay "after a 2 s flap the end that stopped second names the first one's error, not a reset"
	diag "node01: netem summary: $(($(uptime_s) - NM_T0)) s for 6 faults:$NM_SUMMARY"
fi
