# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Checks of part "paired" on node01 (sourced): node02's client document and
# sysfs snapshots, fetched over the link, and node01's own in $D.
CRC=$(cat "$D/client.rc" 2>/dev/null)
st=1
[ "$SRV_RC" = 0 ] && [ "$CRC" = 0 ] && st=0
tap_check $st "paired: gd_write_bw server on node01 and client on node02 (--mem=hugepage --reverse -n 200 -s 64K) exit 0 (server $SRV_RC, client $CRC)" \
	"$D/server.txt" "$D/client.txt"

pcheck() {
	st=1
	json_ok "$D/client.json" "$1" && st=0
	tap_check $st "paired: $2"
	[ $st = 0 ] || json_diag "$D/client.json"
}

pcheck '.hostname == "node02" and .role == "client"
	and .endpoints.local.gid == "::ffff:10.0.3.2" and .endpoints.remote.gid == "::ffff:10.0.3.1"
	and .endpoints.local.device == "rxe0" and .endpoints.remote.device == "rxe0"' \
	"client document from node02: local endpoint GID ::ffff:10.0.3.2 (node02), remote ::ffff:10.0.3.1 (node01)"
pcheck '[.phases[].name] == ["HH", "DD", "HH:rev", "DD:rev"]
	and all(.phases[]; .status == "ok" and .app_bytes == 13107200)
	and all(.phases[] | select(.placement == "DD") | .memory.local, .memory.remote; .kind == "hugepage")
	and all(.phases[] | select(.placement == "HH") | .memory.local, .memory.remote; .kind == "host")' \
	"phases HH DD HH:rev DD:rev ok, 200 x 65536 B each; D is huge-page memory on both nodes, H host memory"
# One device read twice (loopback) counts the same packets as sent and
# received; two devices do not: the initiator sends the data packets and
# receives only ACKs, the target the opposite, and what one sent the other
# received.
pcheck 'all(.phases[]; .counters.local as $l | .counters.remote as $r
	| (if .direction == "forward" then [$l, $r] else [$r, $l] end) as [$s, $t]
	| $s.tx_packets >= 12800 and $t.rx_packets >= 12800
	and $s.rx_packets * 10 < $s.tx_packets and $t.tx_packets * 10 < $t.rx_packets
	and $t.rx_packets <= $s.tx_packets and $t.rx_packets * 1.05 >= $s.tx_packets
	and $s.rx_packets <= $t.tx_packets)' \
	"two devices' counters: per phase the initiator's sent_pkts >= 12800 and about the target's rcvd_pkts (within 5 %), each side's reverse traffic (ACKs) under a tenth"
pcheck '[.phases[].port_check.sender] == ["local", "local", "remote", "remote"]
	and all(.phases[].port_check; .app_bytes == 13107200 and .expected_packets == 12800
		and .packets_ratio >= 1 and .packets_ratio <= 3)
	and all(.phases[].counters.local, .phases[].counters.remote; .errors_moved == [])' \
	"bytes cross-check on each end: node02 sends forward, node01 in reverse, packets/expected in [1, 3]; no error counter moved on either end"

# The document's per-phase deltas, summed, against each node's own sysfs
# counters over the whole run: the remote figures must be node01's device.
for side in local:b remote:a; do
	who=${side%%:*}
	snap=${side##*:}
	for c in sent_pkts rcvd_pkts; do
		sum=$(jq "[.phases[].counters.$who.counters[] | select(.name == \"$c\") | .delta] | add" "$D/client.json" 2>/dev/null)
		sys=$(hw_delta "$D/$snap.hw0" "$D/$snap.hw1" "$c")
		st=1
		[ -n "$sum" ] && [ "$sum" != null ] && [ "$sum" -le "$sys" ] && [ "$sum" -ge $((2 * 12800)) ] && st=0
		node=node02
		[ "$snap" = a ] && node=node01
		tap_check $st "counters: the document's $who $c ($sum over 4 phases) is within $node's own rxe0 sysfs delta over the run ($sys), >= 2 x 12800"
	done
done
moved=$(counters_moved "$D/a.hw0" "$D/a.hw1" retry_exceeded_err retry_rnr_exceeded_err send_err)
st=$?
moved2=$(counters_moved "$D/b.hw0" "$D/b.hw1" retry_exceeded_err retry_rnr_exceeded_err send_err)
[ $? = 0 ] || st=1
tap_check $st "no *_exceeded_err or send_err moved on node01 ($moved) or node02 ($moved2)"
json_ok "$D/server.json" '(.schema | startswith("gdperf.run/")) and .role == "server" and .hostname == "node01" and .exit_status == 0 and .error == null'
tap_check $? "server document on node01: clean gdperf.run document, hostname node01" "$D/server.txt"
diag "paired figures: $(jq -c '[.phases[] | {(.name): {bw_MiBps: .results[0].bw_avg_MiBps, node02_tx: .counters.local.tx_packets, node02_rx: .counters.local.rx_packets, node01_tx: .counters.remote.tx_packets, node01_rx: .counters.remote.rx_packets}}] | add' "$D/client.json" 2>&1)"
diag "sysfs over the run: node01 sent $(hw_delta "$D/a.hw0" "$D/a.hw1" sent_pkts) rcvd $(hw_delta "$D/a.hw0" "$D/a.hw1" rcvd_pkts); node02 sent $(hw_delta "$D/b.hw0" "$D/b.hw1" sent_pkts) rcvd $(hw_delta "$D/b.hw0" "$D/b.hw1" rcvd_pkts)"
