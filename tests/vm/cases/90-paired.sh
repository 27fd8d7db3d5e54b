# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The paired run on rxe0: host (HH) against the fake CUDA driver's memory
# (DD; a TEST DOUBLE in lenient mode, backed by host memory, so this proves
# the pairing, counters, comparison and gates, not a GPU path), both
# directions.
# In --loopback both ends use the same rxe0, so the "local" and "remote"
# counter deltas read the same device: each holds the packets of both
# directions (data and ACKs), and which side sends is checked through the
# phase direction and the port cross-check rather than through the counters.
. /gd/guest-lib.sh

FAKE=$GD_VM_PAYLOAD/libfakecuda.so
# The fake driver's LENIENT mode: rxe (Soft-RoCE) pins and reads a
# registered buffer with the CPU, which the strict fake's PROT_NONE device
# pointers forbid; lenient, its device memory is plain host memory.
export GD_FAKE_CUDA_LENIENT=1
if [ ! -f "$FAKE" ]; then
	tap_skip "paired host/cuda runs" "$FAKE not in the payload (make check builds tests/fake_cuda/libfakecuda.so)"
	exit 0
fi
export GD_CUDA_LIBRARY=$FAKE

# check NAME FILTER DESCRIPTION: one TAP line for a jq check of NAME.json.
check() {
	st=1
	json_ok "$WORK/$1.json" "$2" && st=0
	tap_check $st "$3" "$WORK/$1.txt"
	[ $st = 0 ] || json_diag "$WORK/$1.json"
}

paired() {
	pname=$1
	shift
	run_bounded 120 "$WORK/$pname.txt" gd_write_bw --loopback -d rxe0 -x 1 \
		--mem=cuda:0:peermem --reverse "$@" --out_json_file="$WORK/$pname.json"
	RC=$?
}

PHASES='[.phases[].name] == ["HH", "DD", "HH:rev", "DD:rev"]
	and [.phases[].direction] == ["forward", "forward", "reverse", "reverse"]'

# One size, 200 x 64 KiB per phase: 13107200 application bytes, which at
# the active MTU of 1024 bytes is 12800 data packets at least. Each window
# lasts over 100 ms, well past the 10 ms that ib_core caches hw_counters.
n=pair
counters_snapshot "$WORK/$n.hw0"
paired $n -n 200 -s 65536
counters_snapshot "$WORK/$n.hw1"
check $n "$RC == 0 and .exit_status == 0 and .error == null and $PHASES
	and all(.phases[]; .status == \"ok\" and .error == null
		and (.results | length) == 1 and .results[0].size_bytes == 65536
		and .results[0].iterations == 200 and .results[0].bw_avg_MiBps > 0
		and .app_bytes == 13107200)" \
	"gd_write_bw --mem=cuda:0:peermem --reverse -n 200: exit $RC, HH DD HH:rev DD:rev all ok, 200 x 65536 B = 13107200 app bytes each"
check $n 'all(.phases[]; .memory as $m | if .placement == "DD"
		then all($m.local, $m.remote; .kind == "cuda" and .route == "peermem")
		else all($m.local, $m.remote; .kind == "host" and .route == "plain") end)' \
	"every phase records its memory per side: DD cuda/peermem, HH host/plain, in both directions"
check $n '.header.active_mtu_bytes == 1024
	and all(.phases[]; .counters.local != null and .counters.remote != null
		and all(.counters.local, .counters.remote;
			(.counters[] | select(.name == "sent_pkts") | .delta) as $tx
			| (.counters[] | select(.name == "rcvd_pkts") | .delta) as $rx
			| .tx_packets == $tx and .rx_packets == $rx
			and $tx >= 12800 and $tx <= 3 * 12800
			and $rx >= 12800 and $rx <= 3 * 12800))' \
	"sent_pkts/rcvd_pkts deltas on both ends: >= 12800 (13107200 B at MTU 1024) and <= 3x (ACKs, retries) in every phase"
check $n '[.phases[].port_check.sender] == ["local", "local", "remote", "remote"]
	and all(.phases[].port_check; .app_bytes == 13107200 and .expected_packets == 12800
		and .packets_ratio >= 1 and .packets_ratio <= 3)' \
	"reversed phases swap the initiator: port check counts the local side sending forward, the remote side in reverse; packets/expected in [1, 3]"
check $n '(.comparison | length) == 2
	and [.comparison[].direction] == ["forward", "reverse"]
	and all(.comparison[]; .size_bytes == 65536 and .measure == "bw"
		and .phases.HH.status == "ok" and .phases.DD.status == "ok"
		and .gate_failures == []
		and ((.ratios."DD/HH" - .phases.DD.bw_avg_MiBps / .phases.HH.bw_avg_MiBps) | fabs) < 1e-9)
	and ([[.comparison[].phases.HH.bw_avg_MiBps, .comparison[].phases.DD.bw_avg_MiBps],
		[.phases[0,2,1,3].results[0].bw_avg_MiBps]] | transpose
		| all(.[]; ((.[0] - .[1]) | fabs) <= .[1] * 1e-9))' \
	"comparison[]: one row per direction at 65536 B, HH and DD figures equal to the phase results, DD/HH = DD / HH, no gate failure"
check $n '(.verdicts | length) >= 1
	and all(.verdicts[]; .severity != "error" and (.code | startswith("GD_"))
		and (.summary | length) > 0 and (.evidence | length) > 0
		and (.next_check | length) > 0)
	and all(.verdicts[]; .code != "GD_GPU_SLOWER")
	and any(.verdicts[]; .code == "GD_INCONCLUSIVE")
	and all(.statistics.assessments[]; .decision == "inconclusive" and .sizes == 1 and .rounds == 1)' \
	"verdicts[]: one size measured once can neither show nor rule out a difference: GD_INCONCLUSIVE, never GD_GPU_SLOWER, none at error level, each with evidence and a next check"
grep -q '^ *Direction: reverse' "$WORK/$n.txt" && grep -q 'DD-rev remote' "$WORK/$n.txt"
tap_check $? "text report: a reverse-direction table and DD-rev counter columns" "$WORK/$n.txt"
moved=$(counters_moved "$WORK/$n.hw0" "$WORK/$n.hw1" \
	retry_exceeded_err retry_rnr_exceeded_err send_err)
st=$?
[ $st = 0 ] && ! json_ok "$WORK/$n.json" 'all(.phases[].counters[]; .errors_moved == [])' && st=1
tap_check $st "paired run: no *_exceeded_err or send_err moved, errors_moved empty on both ends ${moved:+($moved)}"

# A short -a sweep, 2 B .. 64 KiB (16 sizes), 20 iterations per size,
# while another reader polls rxe0's hw_counters the way a monitoring agent
# does. Each read refreshes the kernel's sysfs copy (10 ms lifespan), so a
# closing snapshot read from the files right after the traffic would get
# values from before its last packets. gdperf reads hw_counters over RDMA
# netlink, which asks the driver each time; with GD_COUNTERS_NETLINK=0 it
# reads the files and waits a lifespan after the traffic. Both must count
# every packet.
HWC=/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts
# polled NAME ARGS...: the paired run beside the poller.
polled() {
	: >"$WORK/$1.poll"
	(while [ -e "$WORK/$1.poll" ]; do read -r _ <"$HWC"; usleep 2000; done) &
	POLLER=$!
	paired "$@"
	rm -f "$WORK/$1.poll"
	wait $POLLER
}
n=sweep
polled $n -a --max-size=64K -n 20
check $n "$RC == 0 and $PHASES
	and all(.phases[]; .status == \"ok\"
		and [.results[].size_bytes] == [range(1; 17) | pow(2; .)]
		and all(.results[]; .iterations == 20 and .bw_avg_MiBps > 0)
		and .app_bytes == 2621400)" \
	"paired -a --max-size=64K -n 20 --reverse: exit $RC, 4 phases x 16 sizes ok, 20 x (2^17 - 2) = 2621400 app bytes each"
check $n '(.comparison | length) == 32
	and ([.comparison[] | select(.direction == "forward") | .size_bytes]
		== [range(1; 17) | pow(2; .)])
	and ([.comparison[] | select(.direction == "reverse") | .size_bytes]
		== [range(1; 17) | pow(2; .)])
	and all(.comparison[]; .ratios."DD/HH" > 0 and .gate_failures == [])' \
	"sweep comparison[]: 16 forward + 16 reverse rows with a DD/HH ratio each"
# Every step from 8 KiB up sent at least its data packets, warm-up
# included (-n 20: 2 warm-up messages, n/10), at MTU 1024; ACKs and resends
# come on top. A stale closing snapshot loses a step's last milliseconds:
# at 64 KiB, some 70 packets a millisecond against about 13 ACKs.
# exact NAME VIA: that check on NAME.json, every window read through VIA.
exact() {
	check $1 '.test.warmup_iterations as $w | $w == 2
		and all(.phases[].steps[] | select(.size_bytes >= 8192);
			.counters_local.tx_packets >= (20 + $w) * .size_bytes / 1024)
		and all(.phases[].steps[]; .counters_local.hw_counters_via == "'$2'"
			and .counters_remote.hw_counters_via == "'$2'")
		and all(.phases[].counters[]; .hw_counters_via == "'$2'")' \
		"$1: under a concurrent hw_counters reader, hw_counters read through $2 in every window, and every step from 8 KiB counted at least its (20 + 2 warm-up) x size / 1024 data packets in sent_pkts"
	diag "$1 steps from 8 KiB, sent_pkts / data packets: $(jq -c '.test.warmup_iterations as $w | [.phases[] | {(.name): [.steps[] | select(.size_bytes >= 8192) | .counters_local.tx_packets / ((20 + $w) * .size_bytes / 1024) * 1000 | round / 1000]}] | add' "$WORK/$1.json" 2>&1); counter snapshots $(jq -r '.time_account.steps.counters_s * 100 | round / 100' "$WORK/$1.json" 2>&1) s"
}
exact $n netlink
n=sweep_sysfs
export GD_COUNTERS_NETLINK=0
polled $n -a --max-size=64K -n 20
unset GD_COUNTERS_NETLINK
exact $n sysfs
n=sweep
diag "sweep port check (packets/expected): $(jq -c '[.phases[] | {(.name): .port_check.packets_ratio}] | add' "$WORK/$n.json" 2>&1)"

# Gates set above what rxe under TCG can reach: exit 3 with the failing
# sizes listed in comparison[] and in a GD_GATE_FAIL verdict; the phases
# themselves still pass.
n=gate_minbw
paired $n -n 100 -s 65536 --min-bw=1000000
check $n "$RC == 3 and .exit_status == 3 and $PHASES and all(.phases[]; .status == \"ok\")
	and all(.comparison[]; (.gate_failures | length) == 2
		and (.gate_failures[0] | test(\"^min_bw HH [0-9.]+ < 1000000.00 MiB/s\$\"))
		and (.gate_failures[1] | test(\"^min_bw DD [0-9.]+ < 1000000.00 MiB/s\$\")))" \
	"--min-bw=1000000: exit $RC, all phases ok, each comparison row lists the HH and DD min_bw failures"
check $n '[.verdicts[] | select(.code == "GD_GATE_FAIL")] as $g
	| ($g | length) == 1 and $g[0].severity == "error"
	and ($g[0].evidence | length) == 4
	and all($g[0].evidence[]; test("^min_bw (HH|DD) (forward|reverse) fails at size_bytes: 65536 "))' \
	"--min-bw gate: one GD_GATE_FAIL error verdict naming size 65536 for each of the 4 phases"
# The ratio gate needs evidence: three paired rounds give an interval,
# and a ratio near 1 lies far below 100.
n=gate_ratio
paired $n -n 100 -s 65536 --repeat=3 --expect-ratio=100 --gate-from=64K
check $n "$RC == 3 and all(.phases[]; .status == \"ok\" and (.steps | length) == 3)
	and [.comparison[].gate_failures[] | test(\"^expect_ratio DD/HH [0-9.]+ < 100.00\$\")] == [true, true]
	and all(.gates[] | select(.gate == \"expect_ratio\"); .passed == false
		and .interval.n == 3 and .interval.high < 100)
	and any(.verdicts[]; .code == \"GD_GATE_FAIL\")" \
	"--repeat=3 --expect-ratio=100 --gate-from=64K: exit $RC, 3 rounds per phase, the interval of DD/HH lies below 100: the gate fails in both directions"
# One size measured once can neither fail the gate nor clear it: not a
# failed gate (3) but an undecided one, which fails with exit status 4.
n=gate_ratio_one
paired $n -n 100 -s 65536 --expect-ratio=100 --gate-from=64K
check $n "$RC == 4 and .exit_status == 4 and all(.comparison[]; .gate_failures == [])
	and any(.verdicts[]; .code == \"GD_INCONCLUSIVE\")
	and any(.verdicts[]; .code == \"GD_GATE_UNDECIDED\")
	and all(.verdicts[]; .code != \"GD_GATE_FAIL\")
	and all(.gates[] | select(.gate == \"expect_ratio\"); .undecided and .passed == false)" \
	"--expect-ratio=100 with one size measured once: exit $RC, no gate failure from one figure but not enough evidence either (GD_INCONCLUSIVE, GD_GATE_UNDECIDED)"
# Three rounds give the ratio gate its interval, which clears 0.01.
n=gate_pass
paired $n -n 100 -s 65536 --repeat=3 --min-bw=1 --expect-ratio=0.01 --gate-from=64K
check $n "$RC == 0 and .exit_status == 0 and all(.comparison[]; .gate_failures == [])
	and all(.verdicts[]; .code != \"GD_GATE_FAIL\" and .code != \"GD_GATE_UNDECIDED\")
	and all(.gates[] | select(.gate == \"expect_ratio\"); .undecided == false and .passed)" \
	"gates below what was achieved (--repeat=3 --min-bw=1 --expect-ratio=0.01): exit $RC, no gate failure, the ratio gate decided"
exit 0
