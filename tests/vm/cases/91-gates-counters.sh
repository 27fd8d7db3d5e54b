# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Gates that cannot stay green by default, and moved counters in the
# verdict, on rxe0 (D = huge-page host memory: the same CPU memory path).
# One size measured once can neither clear --expect-ratio=0.9 nor fall
# below it: exit status 4 (not enough evidence) unless
# --gate-undecided=pass. An -a sweep in which rxe retried (under TCG it
# does, at the large sizes) names the retries in GD_RETRANSMISSIONS with
# their phases, sizes and counts, and the exit status stays 0 (the sweep
# is gated too: --expect-ratio=0.5, undecided passing). Every run writes
# --junit and --openmetrics beside its document; the host checks them
# after the boot (tests/vm/ci-formats-cases.sh: promtool, the JUnit schema,
# junitparser, the document's verdict), the guest that they are there.
# gd-case-timeout-s: 150
. /gd/guest-lib.sh

echo 64 >/proc/sys/vm/nr_hugepages

# run NAME ARGS...: the paired run HH,DD on huge pages; RC its status.
run() {
	name=$1
	shift
	run_bounded 60 "$WORK/$name.txt" gd_write_bw --loopback -d rxe0 -x 1 \
		--mem=hugepage --phases=HH,DD "$@" --out_json_file="$WORK/$name.json" \
		--junit="$WORK/$name.junit.xml" --openmetrics="$WORK/$name.prom"
	RC=$?
}

# formats NAME STATUS: NAME's JUnit and OpenMetrics files say exit STATUS
formats() {
	grep -q '^gdperf_run_exit_status{.*} '"$2"'$' "$WORK/$1.prom" &&
		grep -q '<property name="exit_status" value="'"$2"'"' "$WORK/$1.junit.xml"
	tap_check $? "$1: --openmetrics and --junit written, both with exit status $2 (the host checks them against the document)" "$WORK/$1.txt"
}

# check NAME FILTER DESCRIPTION: one TAP line for a jq check of NAME.json.
check() {
	st=1
	json_ok "$WORK/$1.json" "$2" && st=0
	tap_check $st "$3" "$WORK/$1.txt"
	[ $st = 0 ] || json_diag "$WORK/$1.json"
}

RATIO_GATE='[.gates[] | select(.gate == "expect_ratio")]'

n=undecided
run $n -s 1M -n 20 --expect-ratio=0.9
check $n "$RC == 4 and .exit_status == 4 and all(.phases[]; .status == \"ok\")
	and ($RATIO_GATE | length) == 1
	and all($RATIO_GATE[]; .undecided == true and .passed == false
		and .undecided_policy == \"fail\" and .decision != \"slower\")
	and ([.verdicts[] | select(.code == \"GD_GATE_UNDECIDED\")] as \$u
		| (\$u | length) == 1 and \$u[0].severity == \"error\"
		and (\$u[0].evidence[0] | test(\"^expect_ratio DD/HH forward undecided: \"))
		and (\$u[0].next_check | test(\"--repeat\")))
	and all(.verdicts[]; .code != \"GD_GATE_FAIL\" and .code != \"GD_OK\")" \
	"-s 1M -n 20 --expect-ratio=0.9, one size once: exit $RC (4, not enough evidence), the gate record undecided and failed by policy, one GD_GATE_UNDECIDED verdict"
grep -q 'GD_GATE_UNDECIDED' "$WORK/$n.txt" && grep -q 'not enough evidence' "$WORK/$n.txt" &&
	grep -q 'exit status 4' "$WORK/$n.txt"
tap_check $? "the undecided gate's text report says why: GD_GATE_UNDECIDED, not enough evidence, exit status 4" "$WORK/$n.txt"
grep -q 'type="gate_undecided"' "$WORK/$n.junit.xml"
tap_check $? "the undecided gate is a JUnit failure of type gate_undecided" "$WORK/$n.junit.xml"
formats $n 4

n=undecided_pass
run $n -s 1M -n 20 --expect-ratio=0.9 --gate-undecided=pass
check $n "$RC == 0 and .exit_status == 0 and .options.gate_undecided == \"pass\"
	and ($RATIO_GATE | length) == 1
	and all($RATIO_GATE[]; .undecided == true and .passed == true
		and .undecided_policy == \"pass\")
	and all(.verdicts[]; .code != \"GD_GATE_UNDECIDED\" and .code != \"GD_GATE_FAIL\")" \
	"the same with --gate-undecided=pass: exit $RC, the record still says undecided, with policy pass, in the document's options"

# The sweep: 64 KiB .. 8 MiB, 8 iterations per size, no gate. The phases'
# moved lists are the union of their steps' (a retry at any size counts),
# and the verdict names each phase and side with its sizes and counts.
n=retries
run $n -a --min-size=64K -n 8 --expect-ratio=0.5 --gate-undecided=pass
check $n "$RC == 0 and .exit_status == 0 and all(.phases[]; .status == \"ok\" and (.results | length) == 8)
	and ([.gates[] | select(.gate == \"expect_ratio\")] | length) >= 1" \
	"-a --min-size=64K -n 8 --phases=HH,DD --expect-ratio=0.5: exit $RC, 2 phases x 8 sizes ok, gated"
formats $n 0
check $n 'all(.phases[]; . as $p | all("local", "remote"; . as $s
		| (($p.counters[$s].retries_moved // []) | sort)
			== ([$p.steps[] | (.["counters_" + $s].retries_moved // [])[]] | unique)))' \
	"each phase's retries_moved is the union of its steps' (every size, not the first one's)"
if json_ok "$WORK/$n.json" '[.phases[].counters[]?.retries_moved // [] | .[]] | length == 0'; then
	tap_skip "GD_RETRANSMISSIONS names phases, sizes and counts" "rxe did not retry in this sweep"
else
	check $n '[.verdicts[] | select(.code == "GD_RETRANSMISSIONS")] as $r
	| ($r | length) == 1 and $r[0].severity == "warning"
	and ($r[0].moved | length) ==
		([.phases[] | .counters | (.local, .remote) | select((.retries_moved // []) | length > 0)] | length)
	and (. as $d | all($r[0].moved[]; . as $m
		| ($d.phases[] | select(.placement == $m.phase and .direction == $m.direction)) as $p
		| ($m.sizes_bytes == ([$p.steps[] | select((.["counters_" + $m.side].retries_moved // []) | length > 0) | .size_bytes] | unique))
		and (($m.counts | keys) == ($p.counters[$m.side].retries_moved | sort))
		and all($m.counts | to_entries[]; .key as $k | .value
			== ($p.counters[$m.side].counters[] | select(.name == $k) | .delta))))
	and all($r[0].evidence[]; test("^(HH|DD) forward (local|remote): .* at [0-9]+ [KMG]?i?B|HH and DD|in DD forward|in HH forward|DD forward moved|HH forward moved"))
	and ($r[0].pairs | length) == 1 and $r[0].pairs[0].device_phase == "DD"' \
		"GD_RETRANSMISSIONS (warning) names every phase and side whose retry counters moved, with the sizes and counts of its steps, and HH against DD per GiB sent"
	grep -q 'GD_RETRANSMISSIONS' "$WORK/$n.txt"
	tap_check $? "the text report shows GD_RETRANSMISSIONS; exit status $RC" "$WORK/$n.txt"
	diag "retries: $(jq -r '[.verdicts[] | select(.code == "GD_RETRANSMISSIONS") | .evidence[]] | join(" | ")' "$WORK/$n.json" 2>&1 | cut -c1-900)"
fi
exit 0
