# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Guest-side helpers of the two-node cluster (busybox sh, sourced after
# /gd/guest-lib.sh): bring up eth0 and rxe0 on the link, and a barrier
# between the nodes over that link (each node serves /srv/flags with busybox
# httpd; a flag is a file, fetched by the peer over HTTP with nc).

CL_FLAGS=/srv/flags
CL_HTTP_PORT=8080

# cl_setup: hostname, name resolution, modules, eth0, rxe0 on eth0 (the
# dummy0 rxe0 of guest-init is replaced), the IPv4-mapped RoCE v2 GID
# (exported as GD_GID_INDEX), the flag server and a ping of the peer.
cl_setup() {
	local m i idx want
	hostname "$GD_NODE"
	printf '127.0.0.1 localhost\n10.0.3.1 node01\n10.0.3.2 node02\n' >/etc/hosts
	printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files\n' >/etc/nsswitch.conf
	for m in $(cat /etc/gd-cluster/modules); do
		insmod "/lib/gd-cluster/$m" || return 1
	done
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
				export GD_GID_INDEX
				break 2
			fi
		done
		i=$((i + 1))
		[ $i -gt 300 ] && { diag "rxe0 never showed the GID $want (30 s)"; return 1; }
		usleep 100000
	done
	chmod 0666 /dev/infiniband/* 2>/dev/null
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

# wait_flag NAME SECS [DEST]: until the peer has published NAME; its content
# goes to DEST when given. Status 1 after SECS seconds.
wait_flag() {
	local name=$1 left=$(($2 * 2)) dest=${3:-/tmp/flag.$1}
	while [ $left -gt 0 ]; do
		# busybox-static's wget crashes in its resolver; nc speaks HTTP/1.0.
		printf 'GET /%s HTTP/1.0\r\n\r\n' "$name" |
			timeout 10 nc "$GD_PEER_ADDR" "$CL_HTTP_PORT" >"$dest.http" 2>/dev/null
		if head -1 "$dest.http" | grep -q '^HTTP/1\.[01] 200'; then
			tr -d '\r' <"$dest.http" | sed '1,/^$/d' >"$dest"
			rm -f "$dest.http"
			return 0
		fi
		rm -f "$dest.http"
		usleep 500000
		left=$((left - 1))
	done
	diag "$GD_NODE: no flag '$name' from $GD_PEER within $2 s"
	return 1
}

# hw_delta BEFORE AFTER NAME: the counter's change between two snapshots.
hw_delta() {
	awk -v n="$3" 'FNR == NR && $1 == n { b = $2 } FNR != NR && $1 == n { a = $2 }
		END { print a - b }' "$1" "$2"
}
