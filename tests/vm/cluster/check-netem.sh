# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Checks of one fault of part "netem" on node01 (sourced with NM, NM_TOOL,
# NM_FAULT, NM_EXPECT, SRV_RC and SRV_CS set): node02's client document,
# sysfs snapshots and timings, fetched over the link once it was whole
# again, and node01's own in $D. A run that completed must have verified
# every step, and its counters must account for the fault; a run that ended
# must have ended on both nodes within its silence limit, with an error that
# says what happened, the phases before the fault kept and valid JSON.
# Expectations that hold across faults go to a ledger (nm_expect), reported
# once at the end of the part (nm_expect_report).
P=$D/$NM
CJ=$P.client.json
SJ=$P.server.json
nm_val() { # KEY [a]: from node02's fault log, or node01's with "a"
	sed -n "s/^$1=//p" "$P.${2:+$2.}fault" 2>/dev/null | tail -1
}
nm_s() { # 1/100 s as seconds with one decimal
	[ -n "$1" ] && echo "$(($1 / 100)).$(($1 % 100 / 10))"
}
# nm_expect KEY STATUS DETAIL: one case's result for an expectation.
nm_expect() {
	echo "$NM $2 $3" >>"$D/expect.$1"
}
CRC=$(nm_val rc)
C_CS=$(nm_val elapsed_cs)
case $NM_FAULT in
flap)
	what="node01's link down (the host's set_link) for 2 s in the middle of DD"
	DOWN_CS=$(nm_val down_cs a)
	;;
down)
	what="node02's link down (the host's set_link) for good from the middle of HH:rev"
	DOWN_CS=$(nm_val down_cs)
	;;
*) what="tc qdisc add dev eth0 root $NM_FAULT on node02" ;;
esac
what="netem $NM ($what)"
T_S=$(jq -r '.options.timeout // 10000' "$CJ" 2>/dev/null)
T_S=$((${T_S:-10000} / 1000))
outcome=ended
[ "$CRC" = 0 ] && [ "$SRV_RC" = 0 ] && outcome=completed
[ -n "$(nm_val fault_missed)$(nm_val fault_missed a)$(nm_val tc_failed)" ] && outcome=missed
# the error as one short line ('#' would start a TAP directive)
nm_err() {
	jq -r '.error.message // "none"' "$1" 2>/dev/null | tr -d '#' | cut -c1-220
}

# Valid JSON on both ends, whatever the outcome: one document per end, the
# case's label carried, four phases, verdicts well formed.
json_ok "$CJ" ".role == \"client\" and .hostname == \"node02\" and .labels.netem == \"$NM\"
	and [.phases[].name] == [\"HH\", \"DD\", \"HH:rev\", \"DD:rev\"]
	and (.verdicts == null or ((.verdicts | type) == \"array\"
		and all(.verdicts[]; (.code | type) == \"string\" and (.severity | type) == \"string\"
			and (.summary | type) == \"string\")))
	and .exit_status == ${CRC:-null} and ((.exit_status == 0) == (.error == null))"
c1=$?
json_ok "$SJ" ".role == \"server\" and .hostname == \"node01\"
	and .exit_status == $SRV_RC and ((.exit_status == 0) == (.error == null))"
c2=$?
st=1
[ $c1 = 0 ] && [ $c2 = 0 ] && [ "$outcome" != missed ] && st=0
tap_check $st "$what: $NM_TOOL client and server documents are valid JSON (jq), exit status ($CRC, $SRV_RC) and error agree, label netem=$NM, phases HH DD HH:rev DD:rev, verdicts (if any) well formed" \
	"$P.fault" "$P.client.txt" "$P.server.txt"
[ $c1 = 0 ] || json_diag "$CJ"
[ $c2 = 0 ] || json_diag "$SJ"

# What each phase's counters say, for the record.
diag "netem $NM phases: $(jq -c '[.phases[] | {n: .name, st: .status, snd: .port_check.sender,
	ratio: ((.port_check.packets_ratio // 0) * 1000 | round / 1000), exp: .port_check.expected_packets,
	l_tx: .counters.local.tx_packets, l_rx: .counters.local.rx_packets,
	r_tx: .counters.remote.tx_packets, r_rx: .counters.remote.rx_packets,
	retr: ([.counters.local, .counters.remote | .counters[]? | select(.class == "retry" and .delta > 0)
		| "\(.name)+\(.delta)"] | join(" ")),
	err: ([.counters.local.errors_moved[]?, .counters.remote.errors_moved[]?] | join(" ")),
	bw: (.results[0].bw_avg_MiBps // 0 | . * 10 | round / 10)}]' "$CJ" 2>&1 | cut -c1-1800)"
moved() { # sysfs deltas of the retransmission counters on one node
	for c in duplicate_request out_of_seq_request rcvd_seq_err completer_retry_err \
		retry_exceeded_err send_err link_downed sent_pkts rcvd_pkts; do
		printf '%s+%s ' $c "$(hw_delta "$P.$1.hw0" "$P.$1.hw1" $c)"
	done
}
diag "netem $NM sysfs: node02 $(moved b); node01 $(moved a)"
diag "netem $NM node02: $(grep -v '^rc=\|^elapsed_cs=\|^kernel=' "$P.fault" | tr '\n' ' ' | cut -c1-600)"
[ -s "$P.a.fault" ] && diag "netem $NM node01: $(tr '\n' ' ' <"$P.a.fault" | cut -c1-600)"
grep '^kernel=' "$P.fault" | sed "s/^kernel=/# netem $NM node02 kernel: /"
sed "s/^kernel=/# netem $NM node01 kernel: /" "$P.a.dmesg" 2>/dev/null

if [ "$outcome" = completed ]; then
	# Every phase ran in full and every step's data was checked.
	n=$(jq '.options.iters' "$CJ" 2>/dev/null)
	dur=$(jq '.options.duration' "$CJ" 2>/dev/null)
	json_ok "$CJ" "all(.phases[]; .status == \"ok\" and (.results | length) == 1
		and .results[0].bw_avg_MiBps > 0
		and (${dur:-0} > 0 or .app_bytes == ${n:-0} * 65536)
		and (.steps | length) == 1
		and all(.steps[]; .status == \"ok\" and .verify.ok == true and .verify.checked_bytes == 65536))"
	st=$?
	[ "$NM_EXPECT" = error ] && st=1
	tap_check $st "$what: completed: $NM_TOOL client and server exit 0 (client $(nm_s "$C_CS") s, server $(nm_s "$SRV_CS") s), all four phases ok, every step verified (--verify: verify.ok, 65536 B checked)" \
		"$P.client.txt" "$P.server.txt"
	[ $st = 0 ] || json_diag "$CJ"
	# The phases whose data node02 sent (sender local) crossed the fault:
	# per phase the packets node02 sent, node01 received and the messages
	# needed, and the retransmission counters of both ends.
	jq -r '.phases[] | select(.port_check.sender == "local")
		| def c($s; $n): ([$s.counters[]? | select(.name == $n) | .delta] | add // 0);
		.counters.local as $l | .counters.remote as $r
		| [.name, .port_check.expected_packets, $l.tx_packets, $r.rx_packets,
		   c($l; "completer_retry_err"), c($l; "rcvd_seq_err"), c($l; "duplicate_request"),
		   c($r; "completer_retry_err"), c($r; "out_of_seq_request"), c($r; "duplicate_request"),
		   (.port_check.packets_ratio * 100 | round / 100),
		   ([$l.errors_moved[], $r.errors_moved[]] | join(","))]
		| map(tostring) | join(" ")' "$CJ" >"$P.cross" 2>&1
	# rxe resends from the first unacknowledged packet, at most its window
	# of 128 packets (RXE_MAX_UNACKED_PSNS) per retry of the requester.
	st=0
	nph=0
	why=
	while read -r ph exp tx rx lretry nak ldup rretry oos dup ratio errs; do
		nph=$((nph + 1))
		lost=$((tx - rx))
		extra=$((tx - exp))
		ok=1
		case $NM_FAULT in
		*loss*)
			[ $lost -gt 0 ] && [ $extra -ge $lost ] || ok=0
			if [ "$NM_TOOL" = gd_read_bw ]; then
				[ "$rretry" -gt 0 ] || ok=0
				why="$why $ph: node02 sent $tx packets for $exp, node01 got $rx ($lost lost), node01 (reading) retried $rretry times, node02 answered $ldup duplicate requests (duplicate_request) again, packets_ratio $ratio;"
			else
				[ "$oos" -gt 0 ] && [ $extra -le $((128 * lretry)) ] || ok=0
				why="$why $ph: node02 sent $tx packets for $exp, node01 got $rx ($lost lost, $oos gaps: out_of_seq_request), node02 took $nak NAKs (rcvd_seq_err) and resent $extra packets in $lretry retries (<= 128 each), packets_ratio $ratio;"
			fi
			;;
		*reorder*)
			# nothing dropped; a copy still in netem's queue when the
			# window closed may land in the next one
			[ $lost -le 5 ] && [ $lost -ge -5 ] && [ "$oos" -gt 0 ] && [ $extra -gt 0 ] &&
				[ $extra -le $((128 * lretry)) ] || ok=0
			why="$why $ph: nothing lost (node02 sent $tx, node01 got $rx), $oos out-of-order arrivals (out_of_seq_request), $nak NAKs, $extra packets resent in $lretry retries (<= 128 each), packets_ratio $ratio;"
			;;
		*duplicate*)
			[ $((rx - tx)) -gt 0 ] && [ "$dup" -ge $((rx - tx)) ] || ok=0
			why="$why $ph: node01 got $rx packets of the $tx node02 sent ($((rx - tx)) duplicates) and counted $dup duplicate_request (the copies and $extra resent packets), packets_ratio $ratio;"
			;;
		flap)
			case ",$errs," in *,link_downed,*) [ "$lretry" -gt 0 ] || ok=0 ;; esac
			why="$why $ph: errors moved: ${errs:-none}, node02 resent $extra packets in $lretry retries, node01 counted $dup duplicate_request, packets_ratio $ratio;"
			;;
		esac
		case ",$errs," in ,, | ,link_downed,) ;; *) ok=0 ;; esac
		[ $ok = 1 ] || st=1
	done <"$P.cross"
	[ $nph = 2 ] || st=1
	[ "$NM_FAULT" = flap ] && ! grep -q link_downed "$P.cross" && st=1
	[ "$NM_EXPECT" = error ] && st=1
	tap_check $st "$what: the counters of the phases node02 sent account for the fault:$why no error counter moved" \
		"$P.cross"
	if [ "$NM_TOOL" = gd_send_bw ]; then
		json_ok "$CJ" 'all(.phases[].results[]; .messages_received == .messages_sent and .lost_pct == 0)'
		tap_check $? "$what: no duplicate became a message: every phase received exactly the messages sent ($(jq -c '[.phases[].results[0] | "\(.messages_received)/\(.messages_sent)"]' "$CJ" 2>/dev/null))"
	fi
	# rxe's retransmissions are in the counters, but only errors_moved and
	# congestion_moved make a verdict (gd_judge_counters, verdict.c).
	json_ok "$CJ" '[.verdicts[] | .summary, (.evidence[]? // empty)] | map(ascii_downcase)
		| any(test("retrans|retr(y|ies)|duplicate_request|out_of_seq|rcvd_seq_err|link_downed"))'
	nm_expect verdict $? "$(jq -r '[.verdicts[].code] | join(",")' "$CJ" 2>/dev/null)"
	NM_SUMMARY="$NM_SUMMARY $NM completed+verified in $(nm_s "$C_CS") s (ratio $(awk '{ printf "%s ", $11 }' "$P.cross"| sed 's/ $//'));"
else
	# Ended: on both ends, with an error, within the silence limit. The
	# end on the node of the cut is timed from it (its own clock), the
	# other by its whole run (it started later, and ends after the first).
	after=
	if [ "$NM_FAULT" = flap ]; then
		who=server
		[ -n "$DOWN_CS" ] && after=$((SRV_CS - DOWN_CS))
		other="client exit $CRC after $(nm_s "$C_CS") s"
		[ -n "$C_CS" ] && [ "$C_CS" -le $((SRV_CS + (T_S + 10) * 100)) ] || after=
	else
		who=client
		[ -n "$DOWN_CS" ] && [ -n "$C_CS" ] && after=$((C_CS - DOWN_CS))
		other="server exit $SRV_RC after $(nm_s "$SRV_CS") s"
		[ "$SRV_CS" -le $((${C_CS:-0} + (T_S + 10) * 100)) ] || after=
	fi
	st=1
	[ "$outcome" = ended ] && [ "$NM_EXPECT" != complete ] && [ "$CRC" = 1 ] && [ "$SRV_RC" = 1 ] &&
		[ -n "$after" ] && [ "$after" -le $(((T_S + 10) * 100)) ] && st=0
	tap_check $st "$what: ended on both nodes: $who exit $([ $who = server ] && echo "$SRV_RC" || echo "$CRC") $(nm_s "$after") s after the link went down, $other; bound: --timeout $T_S s + 10 s" \
		"$P.fault" "$P.a.fault" "$P.client.txt" "$P.server.txt"
	cerr=$(nm_err "$CJ")
	serr=$(nm_err "$SJ")
	pat='retry|acknowledg|no completion|no message arrived|frame from peer|closed the connection|failed during the step|work completion failed|link|port'
	st=1
	printf '%s\n' "$cerr" | grep -qiE "$pat" && printf '%s\n' "$serr" | grep -qiE "$pat" && st=0
	tap_check $st "$what: each end says what happened: client: '$cerr'; server: '$serr'"
	# The phases before the fault are kept with their verified data; the
	# one it hit failed with the error, the rest are marked not run.
	want=HH:rev
	[ "$NM_FAULT" = flap ] && want=DD
	json_ok "$CJ" "(.phases | map(.status == \"ok\") | index(false)) as \$k | \$k != null and \$k >= 1
		and .phases[\$k].name == \"$want\"
		and all(.phases[:\$k][]; (.results | length) == 1 and .results[0].bw_avg_MiBps > 0
			and all(.steps[]; .verify.ok == true))
		and all(.phases[\$k:][]; .status == \"failed\" and (.error.message | length) > 0)
		and all(.phases[\$k+1:][]; .error.message | startswith(\"not run\"))"
	st=$?
	tap_check $st "$what: the phases before the fault are kept (results, verify.ok), $want failed with the error, the later ones say 'not run'"
	[ $st = 0 ] || json_diag "$CJ"
	# What the document should still say about a run that failed.
	json_ok "$CJ" "(.phases | map(.status == \"ok\") | index(false)) as \$k
		| all(.phases[:\$k][]; .port_check.packets_ratio >= 1)
		and any(.verdicts[]; .severity == \"error\")"
	nm_expect judged $? "verdicts $(jq -c 'if .verdicts then [.verdicts[].code] else null end' "$CJ" 2>/dev/null), port_check on $(jq -c '[.phases[] | select(.port_check) | .name]' "$CJ" 2>/dev/null)"
	json_ok "$CJ" "any(.phases[] | select(.name == \"$want\") | .counters.local.errors_moved[]?, .counters.remote.errors_moved[]?; . == \"link_downed\")"
	nm_expect window $? "$want: counters $(jq -c ".phases[] | select(.name == \"$want\") | .counters.local | type" "$CJ" 2>/dev/null), sysfs link_downed node01 +$(hw_delta "$P.a.hw0" "$P.a.hw1" link_downed) node02 +$(hw_delta "$P.b.hw0" "$P.b.hw1" link_downed)"
	if [ "$NM_FAULT" = flap ]; then
		# The link came back: the end that stopped second can say why
		# the first one did.
		cwhy=$(printf '%s' "$cerr" | cut -c1-40)
		swhy=$(printf '%s' "$serr" | cut -c1-40)
		st=1
		case $serr in *"$cwhy"*) st=0 ;; esac
		case $cerr in *"$swhy"*) st=0 ;; esac
		nm_expect relay $st "server: '$(printf '%s' "$serr" | cut -c1-60)...'"
	fi
	NM_SUMMARY="$NM_SUMMARY $NM ended (exit $CRC/$SRV_RC) $(nm_s "$after") s after the cut;"
fi

# nm_expect_report KEY DESCRIPTION: one result line for an expectation over
# every case that had it; not ok, naming the cases, when some case fails it.
nm_expect_report() {
	local bad good
	[ -f "$D/expect.$1" ] || return 0
	bad=$(awk '$2 != 0 { printf "%s%s (%s)", n++ ? "; " : "", $1, substr($0, index($0, $3)) }' "$D/expect.$1" | tr -d '#')
	good=$(awk '$2 == 0 { printf "%s%s", n++ ? " " : "", $1 }' "$D/expect.$1")
	if [ -z "$bad" ]; then
		tap_ok "netem: $2 (${good})"
	else
		tap_not_ok "netem: $2 (${good:+ok: $good; }not: $bad)"
	fi
}
