# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# perftest's options that shape the verbs objects, on rxe0: -X against
# rxe's completion vectors, --send_with_imm (RC, UD, latency), --use-srq
# (4 QPs, with -R, --verify, latency), --flow_label as ibv_query_qp reads it back,
# --ipv6 (the fe80:: GID), --ipv6-addr (::1, and an IPv4 address refused),
# --mmap/--mmap-offset as device memory (and a file too short), and
# --payload_file_path whose words arrive in a server's mmap'ed file, and
# --numa_node (node 0's CPUs, MPOL_BIND read back; a missing node refused),
# --pkey_index against rxe0's P_Key table, --dlid refused on RoCE, and
# --mr_per_qp (write, read, send with --verify; one end only in a pair).
# About 25 short loopback runs and three pairs:
# gd-case-timeout-s: 420
. /gd/guest-lib.sh

L="--loopback -d rxe0 -x 1"

# 1. -X: vector 0 with -e; one past rxe's count refused at device open,
# naming it; the last vector when there are two or more.
out=$WORK/vec_bad
run_bounded 30 "$out.txt" gd_send_bw $L -e -X 4096 -n 50
rc=$?
nvec=$(sed -n 's/.*rxe0 has \([0-9]*\) completion vectors\{0,1\} (num_comp_vectors).*/\1/p' "$out.txt" | head -1)
st=1
[ $rc = 1 ] && [ -n "$nvec" ] && st=0
tap_check $st "gd_send_bw -e -X 4096: exit $rc (1), refused naming rxe0's $nvec completion vectors" "$out.txt"
last=0
[ -n "$nvec" ] && [ "$nvec" -ge 2 ] && last=$((nvec - 1))
for x in 0 $last; do
	out=$WORK/vec_$x
	run_bounded 90 "$out.txt" gd_read_bw $L -e -X $x -n 200 --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 65536 200) and .options.vector == $x and .options.events == true" && st=0
	tap_check $st "gd_read_bw -e -X $x: exit $rc, events on completion vector $x" "$out.txt"
	[ $st = 0 ] || json_diag "$out.json"
	[ "$last" = 0 ] && break
done

# 2. --send_with_imm: every receive carries the immediate (the receiver
# fails the phase otherwise), RC and UD bandwidth, and latency.
for args in "gd_send_bw -n 200" "gd_send_bw -c UD -s 512 -n 200" "gd_send_lat -n 200"; do
	set -- $args
	out=$WORK/imm_$1_$3
	run_bounded 90 "$out.txt" $args $L --send_with_imm --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" "$GD_JSON_COMMON and .options.send_with_imm == true
		and all(.phases[0].steps[]; .status == \"ok\")" && st=0
	tap_check $st "$args --send_with_imm: exit $rc, every message with its immediate data" "$out.txt"
	[ $st = 0 ] || json_diag "$out.json"
done

# 3. --use-srq: 4 QPs on one SRQ of -r entries, every message received;
# with --verify on one QP; latency.
out=$WORK/srq_q4
run_bounded 90 "$out.txt" gd_send_bw $L --use-srq -q 4 -r 64 -n 200 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 65536 800) and .endpoints.local.srq == true
	and .options.use_srq == true
	and (.phases[0].results[0] | .messages_received == .messages_sent)" && st=0
tap_check $st "gd_send_bw --use-srq -q 4 -r 64: exit $rc, 800 messages through one SRQ" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
# ... and rdma_cm's QPs (-R) created on the SRQ.
out=$WORK/srq_cm
run_bounded 90 "$out.txt" gd_send_bw $L -R --use-srq -q 2 -r 64 -n 200 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 65536 400) and .options.use_srq == true
	and .options.rdma_cm == true
	and (.phases[0].results[0] | .messages_received == .messages_sent)" && st=0
tap_check $st "gd_send_bw -R --use-srq -q 2 -r 64: exit $rc, 400 messages through one SRQ under rdma_cm's QPs" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
out=$WORK/srq_verify
run_bounded 90 "$out.txt" gd_send_bw $L --use-srq --verify -a --max-size=64K -n 50 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.endpoints.local.srq == true and all(.phases[0].steps[]; .verify.ok == true)' && st=0
tap_check $st "gd_send_bw --use-srq --verify -a: exit $rc, every size verified" "$out.txt"
out=$WORK/srq_lat
run_bounded 90 "$out.txt" gd_send_lat $L --use-srq -n 200 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_lat_filter 2 200) and .endpoints.local.srq == true" && st=0
tap_check $st "gd_send_lat --use-srq: exit $rc" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"

# 4. --flow_label: round robin over 3 QPs, as the device reports it.
out=$WORK/flow
run_bounded 90 "$out.txt" gd_write_bw $L -q 3 --flow_label=5,0x12345 -n 100 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.endpoints.local.grh_flow_labels == [5, 74565, 5]' && st=0
tap_check $st "gd_write_bw -q 3 --flow_label=5,0x12345: exit $rc, ibv_query_qp reports $(jq -c '.endpoints.local.grh_flow_labels' "$out.json" 2>/dev/null)" "$out.txt"

# 5. --ipv6: the first RoCE v2 GID that is no IPv4-mapped one (fe80::).
out=$WORK/ipv6_gid
run_bounded 90 "$out.txt" gd_write_bw --loopback -d rxe0 --ipv6 -n 100 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '(.endpoints.local.gid | startswith("fe80:")) and .endpoints.local.gid_type == "RoCE v2"' && st=0
tap_check $st "gd_write_bw --ipv6: exit $rc, GID $(jq -r '.endpoints.local | "\(.gid_index) \(.gid)"' "$out.json" 2>/dev/null)" "$out.txt"

# 6. --ipv6-addr: the side channel over ::1 in --loopback; a pair whose
# server listens on IPv6 only, and a client asked to reach an IPv4
# address over IPv6 refused with the next check.
out=$WORK/ipv6_addr
run_bounded 90 "$out.txt" gd_write_lat $L --ipv6-addr -n 100 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.header.peer | startswith("[::1]:")' && st=0
tap_check $st "gd_write_lat --loopback --ipv6-addr: exit $rc, peer $(jq -r '.header.peer' "$out.json" 2>/dev/null)" "$out.txt"
PROG=gd_write_bw
PORT=$(next_port)
start_bounded 60 "$WORK/v6.server" gd_write_bw -d rxe0 -x 1 -p $PORT --ipv6-addr -n 100
spid=$BG_PID
wait_listen $PORT || diag "the --ipv6-addr server did not listen on $PORT"
run_bounded 30 "$WORK/v6.client4" gd_write_bw -d rxe0 -x 1 -p $PORT --ipv6-addr -n 100 127.0.0.1
rc4=$?
run_bounded 60 "$WORK/v6.client" gd_write_bw -d rxe0 -x 1 -p $PORT --ipv6-addr -n 100 ::1
rc=$?
wait_bg $spid
src=$?
st=1
[ $rc4 != 0 ] && grep -q 'to an IPv6 address (--ipv6-addr)' "$WORK/v6.client4" && [ $rc = 0 ] && [ $src = 0 ] && st=0
tap_check $st "--ipv6-addr pair: 127.0.0.1 refused ($rc4, names --ipv6-addr), ::1 client $rc, server $src" "$WORK/v6.client4"
[ $st = 0 ] || diag_file "$WORK/v6.server"

# 7. --mmap: a file as device memory (D), from an offset, in a pair (each
# end its own file: --loopback would share one range and is refused); a
# file too short for the server fails only the DD phase, saying how large
# it must be.
f=/tmp/gd-mmap.buf
f2=/tmp/gd-mmap-client.buf
rm -f $f $f2
dd if=/dev/zero of=$f bs=1M count=3 2>/dev/null
dd if=/dev/zero of=$f2 bs=1M count=1 2>/dev/null
run_bounded 30 "$WORK/mmap_loop.txt" gd_write_bw $L --mmap=$f
rc=$?
st=1
[ $rc = 2 ] && grep -q 'both halves would map the same range' "$WORK/mmap_loop.txt" && st=0
tap_check $st "gd_write_bw --loopback --mmap=FILE: exit $rc (2), refused: both halves would share the file" "$WORK/mmap_loop.txt"
PROG=gd_write_bw
PORT=$(next_port)
pair_run mmap 90 -d rxe0 -x 1 -p $PORT --mmap=$f --mmap-offset=1M -n 100 \
	-- -d rxe0 -x 1 -p $PORT --mmap=$f2 -n 100 --verify --out_json_file="$WORK/mmap.json"
st=1
[ $SERVER_RC = 0 ] && [ $CLIENT_RC = 0 ] && json_ok "$WORK/mmap.json" "([.phases[].name] == [\"HH\", \"DD\"])
	and ([.phases[] | select(.name == \"DD\") | .memory | (.local | .kind == \"mmap\" and .file == \"$f2\"
		and .offset_bytes == 0 and .registered == true)
		and (.remote | .kind == \"mmap\" and .file == \"$f\" and .offset_bytes == 1048576)] | all)
	and all(.phases[].steps[]; .verify.ok == true)" && st=0
tap_check $st "gd_write_bw --mmap pair (server's file from 1 MiB) --verify: exit $CLIENT_RC/$SERVER_RC, DD between the mapped files, verified" "$WORK/mmap.client"
[ $st = 0 ] || { diag_file "$WORK/mmap.server"; json_diag "$WORK/mmap.json"; }
PORT=$(next_port)
pair_run mmap_short 90 -d rxe0 -x 1 -p $PORT --mem=mmap:$f --mmap-offset=3M -n 100 \
	-- -d rxe0 -x 1 -p $PORT --mmap=$f2 -n 100 --out_json_file="$WORK/mmap_short.json"
st=1
[ $CLIENT_RC = 1 ] && grep -q "grow it (truncate -s" "$WORK/mmap_short.server" &&
	json_ok "$WORK/mmap_short.json" '([.phases[] | select(.name == "HH") | .status] == ["ok"])
		and ([.phases[] | select(.name == "DD") | .status] != ["ok"])' && st=0
tap_check $st "gd_write_bw pair, the server's --mem=mmap:FILE past its end: client exit $CLIENT_RC (1), HH still measured, the server named the size to grow it to" "$WORK/mmap_short.server"
[ $st = 0 ] || json_diag "$WORK/mmap_short.json"
rm -f $f2

# 8. --payload_file_path: the client's words arrive, least significant
# byte first, in the server's receive buffer, an mmap'ed file (phase HD:
# device memory on the server only).
pf=/tmp/gd-payload.txt
echo "0x11223344,0xa1b2c3d4" >$pf
rm -f $f
dd if=/dev/zero of=$f bs=1M count=1 2>/dev/null
PROG=gd_send_bw
PORT=$(next_port)
pair_run payload 60 -d rxe0 -x 1 -p $PORT --mmap=$f -s 4096 -n 100 \
	-- -d rxe0 -x 1 -p $PORT --phases=HD -s 4096 -n 100 --payload_file_path=$pf \
	--out_json_file="$WORK/payload.json"
head8=$(od -An -tx1 -N8 $f | tr -d ' \n')
sum=$(printf '\104\063\042\021\324\303\262\241' | sha256sum | cut -d' ' -f1)
st=1
[ $SERVER_RC = 0 ] && [ $CLIENT_RC = 0 ] && [ "$head8" = 44332211d4c3b2a1 ] &&
	json_ok "$WORK/payload.json" ".test.payload.bytes == 8 and .test.payload.sha256 == \"$sum\"
		and [.phases[].name] == [\"HD\"]" && st=0
tap_check $st "gd_send_bw --payload_file_path (client) to an --mmap server: exit $CLIENT_RC/$SERVER_RC, the file begins $head8, the payload's SHA-256 recorded" "$WORK/payload.client"
[ $st = 0 ] || diag_file "$WORK/payload.server"
rm -f $f $pf

# 9. --numa_node: both loopback halves on node 0's CPUs with memory bound
# there (as get_mempolicy reads it back); node 1 does not exist here.
out=$WORK/numa
cpus=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)
run_bounded 90 "$out.txt" gd_write_bw $L --numa_node=0 -n 100 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && [ -n "$cpus" ] && json_ok "$out.json" "$(gd_json_bw_filter 65536 100)
	and .header.numa_node == \"node 0, memory bound (MPOL_BIND)\"
	and .header.cpu_affinity == \"$cpus\"" && st=0
tap_check $st "gd_write_bw --numa_node=0: exit $rc, on node 0's CPUs ($cpus), memory bound" "$out.txt"
[ $st = 0 ] || json_diag "$out.json"
run_bounded 30 "$WORK/numa1.txt" gd_write_bw $L --numa_node=1
rc=$?
st=1
[ $rc = 2 ] && grep -q -- '--numa_node 1: no such NUMA node (online nodes: 0)' "$WORK/numa1.txt" && st=0
tap_check $st "gd_write_bw --numa_node=1: exit $rc (2), no such node, the online ones named" "$WORK/numa1.txt"

# 10. --pkey_index: index 0 is rxe0's default partition, recorded; one
# past its P_Key table refused at device open; --dlid refused on RoCE.
npk=$(ls /sys/class/infiniband/rxe0/ports/1/pkeys 2>/dev/null | wc -l)
out=$WORK/pkey
run_bounded 90 "$out.txt" gd_send_bw $L --pkey_index=0 -n 100 --out_json_file="$out.json"
rc=$?
st=1
[ $rc = 0 ] && json_ok "$out.json" '.endpoints.local.pkey == "0xffff"' && st=0
tap_check $st "gd_send_bw --pkey_index=0: exit $rc, P_Key $(jq -r '.endpoints.local.pkey' "$out.json" 2>/dev/null) recorded" "$out.txt"
run_bounded 30 "$WORK/pkey_bad.txt" gd_send_bw $L --pkey_index=$npk -n 100
rc=$?
st=1
[ $rc = 1 ] && grep -q -- "--pkey_index $npk: rxe0 port 1 has $npk P_Key table entr" "$WORK/pkey_bad.txt" && st=0
tap_check $st "gd_send_bw --pkey_index=$npk: exit $rc (1), past rxe0's $npk-entry P_Key table, said so" "$WORK/pkey_bad.txt"
run_bounded 30 "$WORK/dlid.txt" gd_write_bw $L --dlid=1 -n 100
rc=$?
st=1
[ $rc = 1 ] && grep -q 'is Ethernet (RoCE), where the peer is addressed by its GID' "$WORK/dlid.txt" && st=0
tap_check $st "gd_write_bw --dlid=1 on rxe0: exit $rc (1), refused: RoCE addresses by GID" "$WORK/dlid.txt"

# 11. --mr_per_qp: each QP's slot its own MR on both ends (distinct keys,
# both ends' in the document; the whole buffer's MR is gone, so a passing
# post used them), every step verified; in a pair only the
# server registers per QP and the client posts with its keys.
for t in gd_write_bw gd_read_bw gd_send_bw; do
	out=$WORK/mrqp_$t
	run_bounded 90 "$out.txt" $t $L --mr_per_qp -q 3 -n 100 --verify --out_json_file="$out.json"
	rc=$?
	st=1
	[ $rc = 0 ] && json_ok "$out.json" "$(gd_json_bw_filter 65536 300)
		and all(.phases[].memory; (.local.qp_rkeys | length) == 3
			and (.local.qp_rkeys | unique | length) == 3
			and (.remote.qp_rkeys | length) == 3)
		and all(.phases[].steps[]; .verify.ok == true)" && st=0
	tap_check $st "$t --mr_per_qp -q 3 --verify: exit $rc, keys $(jq -c '.phases[0].memory.local.qp_rkeys' "$out.json" 2>/dev/null), verified" "$out.txt"
	[ $st = 0 ] || json_diag "$out.json"
done
PROG=gd_write_bw
PORT=$(next_port)
pair_run mrqp_pair 60 -d rxe0 -x 1 -p $PORT --mr_per_qp -q 2 -n 100 \
	-- -d rxe0 -x 1 -p $PORT -q 2 -n 100 --verify --out_json_file="$WORK/mrqp_pair.json"
st=1
[ $SERVER_RC = 0 ] && [ $CLIENT_RC = 0 ] && json_ok "$WORK/mrqp_pair.json" '(.phases[0].memory.remote.qp_rkeys | length) == 2
	and (.phases[0].memory.local | has("qp_rkeys") | not)
	and all(.phases[].steps[]; .verify.ok == true)' && st=0
tap_check $st "gd_write_bw pair, --mr_per_qp on the server only: exit $CLIENT_RC/$SERVER_RC, the client wrote with the server's 2 per-QP keys, verified" "$WORK/mrqp_pair.client"
[ $st = 0 ] || diag_file "$WORK/mrqp_pair.server"
