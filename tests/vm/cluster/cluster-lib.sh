# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest-side helpers of the two-node cluster (busybox sh, sourced after
# /gd/guest-lib.sh): bring up eth0 and rxe0 on the link, and a barrier
# between the nodes over that link (each node serves /srv/flags with busybox
# httpd; a flag is a file, fetched by the peer over HTTP with nc).

CL_FLAGS=/srv/flags
CL_HTTP_PORT=8080
# iproute2's tc: busybox sh runs its own applets before PATH, and busybox's
# tc knows no netem.
CL_TC=/sbin/tc

# The host's control channel (gd-cluster's gd-hostctl on ttyS2): faults
# that must not run inside the guest, a link cut above all (see gd-hostctl).
CL_HOSTCTL=/dev/ttyS2
HC_SEQ=0

# host_ctl REQUEST...: one request to the host; its answer in HC_REPLY, and
# one line on the console (even under a redirection) with the guest's
# uptime and the host's time. Status 0 when the host did it, 1 when it
# refused or did not answer in 10 s.
host_ctl() {
	local line
	HC_SEQ=$((HC_SEQ + 1))
	HC_REPLY="no answer from the host within 10 s (is gd-hostctl running? see DIR/$GD_NODE.hostctl.log)"
	printf '%s %s\n' "$HC_SEQ" "$*" >&7 || { HC_REPLY="cannot write to $CL_HOSTCTL"; return 1; }
	while read -t 10 -r line <&7; do
		case $line in
		"$HC_SEQ ok "*) HC_REPLY=${line#"$HC_SEQ ok "} ;;
		"$HC_SEQ error "*) HC_REPLY=${line#"$HC_SEQ error "} ;;
		*) continue ;;
		esac
		diag "$GD_NODE: host: '$*' at $(cut -d' ' -f1 /proc/uptime) s: ${line#"$HC_SEQ "}" >/dev/console
		case $line in "$HC_SEQ ok "*) return 0 ;; esac
		return 1
	done
	diag "$GD_NODE: host: '$*' at $(cut -d' ' -f1 /proc/uptime) s: $HC_REPLY" >/dev/console
	return 1
}

# host_ctl_open: the channel, raw (an echo would send the host's answers
# back as requests), and one "hello" through it.
host_ctl_open() {
	[ -c "$CL_HOSTCTL" ] || { diag "$GD_NODE: no $CL_HOSTCTL for the host's control channel"; return 1; }
	stty -F "$CL_HOSTCTL" raw -echo 2>/dev/null
	exec 7<>"$CL_HOSTCTL"
	host_ctl hello
}

# cl_setup: hostname, name resolution, modules, eth0, rxe0 on eth0 (the
# dummy0 rxe0 of guest-init is replaced), the IPv4-mapped RoCE v2 GID
# (its index exported as GD_GID_INDEX, its value in CL_GID), the host's
# control channel, the flag server and a ping of the peer.
cl_setup() {
	local m i idx want
	hostname "$GD_NODE"
	printf '127.0.0.1 localhost\n10.0.3.1 node01\n10.0.3.2 node02\n' >/etc/hosts
	printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files\n' >/etc/nsswitch.conf
	for m in $(cat /etc/gd-cluster/modules); do
		# virtio_net without transmit NAPI orphans each skb as it queues
		# it: rdma_rxe's destructor drops the QP's reference there, not
		# when the ring is next cleaned. With NAPI (the default) the
		# last packets of a QP can sit in the ring past the 200 ms that
		# 6.1's rxe waits in destroy_qp; it then warns (WARNING in
		# __rxe_cleanup), frees the QP anyway, and the late destructor
		# uses the freed QP: the oops in rxe_skb_tx_dtor of CI 198c4c1
		# and d76ca9c, and the silently dead link of 828fb3f and e4e40d6.
		case $m in
		virtio_net.ko) insmod "/lib/gd-cluster/$m" napi_tx=0 || return 1 ;;
		*) insmod "/lib/gd-cluster/$m" || return 1 ;;
		esac
	done
	[ "$(cat /sys/module/virtio_net/parameters/napi_tx 2>/dev/null)" = N ] ||
		{ diag "virtio_net's napi_tx is not off (/sys/module/virtio_net/parameters/napi_tx): rxe's QPs would outlive their destroy"; return 1; }
	i=0
	until ip link show eth0 >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 100 ] && { diag "eth0 never appeared"; return 1; }
		usleep 100000
	done
	ip link set eth0 up
	ip addr add "$GD_NODE_ADDR/24" dev eth0 || return 1
	rdma link delete rxe0 2>/dev/null
	timeout 30 rdma link add rxe0 type rxe netdev eth0 || { diag "rdma link add rxe0 netdev eth0 failed"; return 1; }
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		$(echo "$GD_NODE_ADDR" | tr . ' '))
	i=0
	while :; do
		for idx in 0 1 2 3; do
			if [ "$(cat /sys/class/infiniband/rxe0/ports/1/gids/$idx 2>/dev/null)" = "$want" ]; then
				GD_GID_INDEX=$idx
				CL_GID=$want
				export GD_GID_INDEX
				break 2
			fi
		done
		i=$((i + 1))
		[ $i -gt 300 ] && { diag "rxe0 never showed the GID $want (30 s)"; return 1; }
		usleep 100000
	done
	chmod 0666 /dev/infiniband/* 2>/dev/null
	host_ctl_open || { diag "the host's control channel ($CL_HOSTCTL) does not answer: $HC_REPLY"; return 1; }
	mkdir -p "$CL_FLAGS"
	httpd -p "$CL_HTTP_PORT" -h "$CL_FLAGS" || return 1
	i=0
	until ping -c 1 -W 1 "$GD_PEER_ADDR" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 120 ] && { diag "$GD_PEER ($GD_PEER_ADDR) never answered ping"; return 1; }
	done
	return 0
}

# flag NAME [FILE]: publish NAME (FILE's content, else empty) to the peer.
flag() {
	if [ -n "${2:-}" ]; then
		cp "$2" "$CL_FLAGS/$1.tmp"
	else
		: >"$CL_FLAGS/$1.tmp"
	fi
	mv "$CL_FLAGS/$1.tmp" "$CL_FLAGS/$1"
}

uptime_s() {
	cut -d. -f1 /proc/uptime
}

# peer_get NAME DEST: one request for the peer's flag NAME. Status 0: it is
# there (its content in DEST); 1: the peer answered, no such flag; 2: no
# answer at all (the peer or the link is down).
peer_get() {
	# busybox-static's wget crashes in its resolver; nc speaks HTTP/1.0.
	printf 'GET /%s HTTP/1.0\r\n\r\n' "$1" |
		timeout 5 nc "$GD_PEER_ADDR" "$CL_HTTP_PORT" >"$2.http" 2>/dev/null
	if head -1 "$2.http" | grep -q '^HTTP/1\.[01] 200'; then
		tr -d '\r' <"$2.http" | sed '1,/^$/d' >"$2"
		rm -f "$2.http"
		return 0
	fi
	if [ -s "$2.http" ]; then
		rm -f "$2.http"
		return 1
	fi
	rm -f "$2.http"
	return 2
}

# peer_aborted: the peer has given up (its reason in /tmp/peer-abort).
peer_aborted() {
	peer_get abort /tmp/peer-abort
}

# cl_link_state: what a node that lost its peer can say of its own link,
# as comments: carrier, eth0's and rxe0's counters, the transmit queue's
# timeouts and the kernel's last lines.
cl_link_state() {
	local q
	diag "$GD_NODE link: carrier $(cat /sys/class/net/eth0/carrier 2>/dev/null), operstate $(cat /sys/class/net/eth0/operstate 2>/dev/null), rxe0 $(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)"
	diag "$GD_NODE link: eth0 $(cd /sys/class/net/eth0/statistics 2>/dev/null &&
		for q in tx_packets tx_dropped tx_errors rx_packets rx_dropped rx_errors; do printf '%s %s ' $q "$(cat $q)"; done)"
	for q in /sys/class/net/eth0/queues/tx-*/tx_timeout; do
		[ -f "$q" ] && diag "$GD_NODE link: $(basename "$(dirname "$q")") tx_timeout $(cat "$q")"
	done
	diag "$GD_NODE link: rxe0 sent_pkts $(hw_value sent_pkts) rcvd_pkts $(hw_value rcvd_pkts)"
	cl_kernel_report
	dmesg | tail -n 8 | sed "s/^/# $GD_NODE dmesg tail: /"
}

# cl_kernel_report: "NODE kernel: N warning(s) or oops(es)" on the console
# (cluster-tests.tap makes it a result of the run), then each one's first
# 40 lines, so the function that warned is named, not only the syscall.
# The console shows only errors (loglevel=4); a WARNING is below that.
cl_kernel_report() {
	local n
	n=$(dmesg | grep -c -e 'cut here' -e '\[#[0-9][0-9]*\]')
	diag "$GD_NODE kernel: $n warning(s) or oops(es) in dmesg"
	[ "$n" = 0 ] && return 0
	dmesg | grep -A 40 -e 'cut here' -e '\[#[0-9][0-9]*\]' | head -n 120 |
		sed "s/^/# $GD_NODE dmesg: /"
}

hw_value() {
	cat "/sys/class/infiniband/rxe0/ports/1/hw_counters/$1" 2>/dev/null
}

# cl_bail REASON: this node gives up. It tells the peer (flag abort), says
# why (node01 as a TAP failure), keeps its work files, and exits 1 once the
# peer has seen it (its own abort flag appears, or it stops answering) or
# after 20 s, so neither node waits for the other until the guest timeout.
cl_bail() {
	# to stderr, the console: callers of wait_flag discard its stdout
	diag "$GD_NODE: giving up: $1" >&2
	printf '%s: %s\n' "$GD_NODE" "$1" >/tmp/abort.txt
	flag abort /tmp/abort.txt
	[ "$GD_NODE" = node01 ] && tap_not_ok "$GD_NODE stopped the cluster test: $1" >&2
	cl_link_state >&2
	cp -r "$WORK" "$GD_VM_OUT/" 2>/dev/null
	local t0 st
	t0=$(uptime_s)
	while [ $(($(uptime_s) - t0)) -lt 20 ]; do
		peer_get abort /tmp/peer-abort
		st=$?
		[ $st = 1 ] || break
		sleep 1
	done
	exit 1
}

# wait_flag NAME SECS [DEST]: until the peer has published NAME; its content
# goes to DEST when given. Gives up (cl_bail) when the peer gave up, when it
# has not answered for CL_GONE_S seconds (powered off, or its link down for
# longer than any fault here), or after SECS seconds.
CL_GONE_S=${CL_GONE_S:-60}
wait_flag() {
	local name=$1 secs=$2 dest=${3:-/tmp/flag.$1} t0 now heard st
	t0=$(uptime_s)
	heard=$t0
	while :; do
		peer_get "$name" "$dest"
		st=$?
		[ $st = 0 ] && return 0
		now=$(uptime_s)
		if [ $st = 1 ]; then
			heard=$now
			peer_aborted && cl_bail "$GD_PEER gave up ($(cat /tmp/peer-abort)) while $GD_NODE waited for '$name'"
		elif [ $((now - heard)) -ge "$CL_GONE_S" ]; then
			cl_bail "$GD_PEER ($GD_PEER_ADDR) has not answered for $((now - heard)) s while $GD_NODE waited for '$name'"
		fi
		[ $((now - t0)) -lt "$secs" ] || cl_bail "no flag '$name' from $GD_PEER within $secs s"
		usleep 500000
	done
}

# gather DIR: node02's files under DIR (the same path there) copied into
# DIR here over ssh, standing in for the shared file system the launch
# files ask for. Status of the transfer.
gather() {
	ssh -y -y -i /root/.ssh/id_dropbear node02 "tar -C $1 -cf - ." 2>"$1.gather.err" | tar -C "$1" -xf -
}

# to_peer FILE...: the files copied to the same paths on node02 (ssh).
to_peer() {
	local f
	for f in "$@"; do
		ssh -y -y -i /root/.ssh/id_dropbear node02 "mkdir -p $(dirname "$f") && cat >$f" <"$f" || return 1
	done
}

# report_outcome JSON: gd_report's outcome in one line (pass, each
# execution's status, coverage gate, failure domains), for comparing two
# campaigns of the same plan.
report_outcome() {
	jq -c '{pass, executions: [.executions[] | {id, status}] | sort_by(.id),
		coverage: [.acceptance.gates[] | select(.name == "coverage") | .pass],
		domains: [.domains[] | {unit, name}]}' "$1" 2>/dev/null
}

# hw_delta BEFORE AFTER NAME: the counter's change between two snapshots.
hw_delta() {
	awk -v n="$3" 'FNR == NR && $1 == n { b = $2 } FNR != NR && $1 == n { a = $2 }
		END { print a - b }' "$1" "$2"
}
