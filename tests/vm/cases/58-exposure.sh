# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# What a peer can read of a server's registered buffer: a freshly started
# server, read before anything was written into it by RDMA, shows only the
# fill pattern, never stale process memory. gd_read_bw --verify makes the
# client check every byte it read, from the first step of the first size
# on, against the pattern the server filled its buffer with (every memory
# backend also fills its whole buffer at allocation: tests/mem_test.c and
# tests/mem_cuda_test.c check that part); two QPs read two slots.
. /gd/guest-lib.sh

# The latency tests have one QP (-q is a bandwidth option, as in perftest).
for t in read_bw:2 read_lat:1; do
	PROG=gd_${t%%:*}
	q=${t#*:}
	n=fresh_${t%%:*}
	PORT=$(next_port)
	qopt=
	[ $q = 1 ] || qopt="-q $q"
	pair_run $n 120 -d rxe0 -x 1 -p $PORT -a --max-size=1M -n 20 $qopt --verify \
		--out_json_file="$WORK/$n.server.json" -- \
		-d rxe0 -x 1 -p $PORT -a --max-size=1M -n 20 $qopt --verify \
		--out_json_file="$WORK/$n.client.json"
	st=1
	[ $CLIENT_RC = 0 ] && [ $SERVER_RC = 0 ] && st=0
	tap_check $st "$PROG --verify ${qopt:--q 1} against a fresh server: both exit 0 (server $SERVER_RC, client $CLIENT_RC)" \
		"$WORK/$n.server" "$WORK/$n.client"
	st=1
	json_ok "$WORK/$n.client.json" "[.phases[0].steps[]] as \$s | (\$s | length) == 20
		and all(\$s[]; .status == \"ok\" and .verify.ok == true
			and .verify.checked_bytes == .size_bytes * $q)" && st=0
	tap_check $st "$PROG --verify: the client checked every byte it read at each of the 20 sizes ($q QP), all the server's pattern"
	[ $st = 0 ] || json_diag "$WORK/$n.client.json"
done
exit 0
