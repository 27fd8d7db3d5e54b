# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_compare on real run documents: two runs of the same path (the
# quickstart's H against huge-page D, 64 KiB..8 MiB, 5 rounds) compared
# phase DD against phase DD are never "slower" (exit 0, or 4 when the two
# runs' figures differ too much to decide); run b against a copy of itself
# with its DD figures from 64 KiB up scaled by 0.7 (samples too, with jq)
# is a regression (GD_REGRESSION, "1 gate failed", exit 3, in the two
# runs' words: baseline, candidate, their ratio inside its interval, every
# line within 80 columns); scaled by 0.75 from 1 MiB up it is slower "from
# 1 MiB up" (where the curves part), and an unscaled copy is not; one
# document judged again against an impossible floor (--expect-ratio=100)
# is slower too, and its --json says so.
# Between two runs on a shared machine under TCG the figures move by more
# than within one run: with 3 rounds the same path was undecided (0.94,
# 95% interval 0.78..1.12), with 5 rounds it passed once (1.12,
# 0.98..1.30) and was undecided once (0.80, 0.74..0.87) on 2026-12-03, so
# exit 0 cannot be required here; a false "slower" is what must not occur.
# gd-case-build: plain
# gd-case-timeout-s: 300
. /gd/guest-lib.sh

echo 64 >/proc/sys/vm/nr_hugepages

t0=$(cut -d. -f1 /proc/uptime)
for r in a b; do
	run_bounded 120 "$WORK/cmp-$r.txt" gd_write_bw --loopback -d rxe0 -x 1 \
		-a --min-size=64K -n 8 --repeat=5 --mem=hugepage --phases=HH,DD \
		--out_json_file="$WORK/cmp-$r.json"
	rc=$?
	json_ok "$WORK/cmp-$r.json" '.exit_status == 0
		and all(.phases[]; .status == "ok" and (.results | length) == 8
			and all(.results[]; (.samples | length) == 5))'
	tap_check $? "run $r for gd_compare: gd_write_bw -a --min-size=64K --repeat=5 --phases=HH,DD exit $rc, 2 phases x 8 sizes x 5 rounds" "$WORK/cmp-$r.txt"
done
took=$(($(cut -d. -f1 /proc/uptime) - t0))
diag "two runs took ${took} s"

gd_compare --phase DD --json "$WORK/cmp-ab.json" "$WORK/cmp-a.json" \
	"$WORK/cmp-b.json" >"$WORK/cmp-ab.txt" 2>&1
rc=$?
json_ok "$WORK/cmp-ab.json" '.schema == "gdperf.compare/1" and .exit_status == '$rc'
	and all(.comparisons[0].statistics.assessments[]; .decision != "slower")'
st=$?
{ [ $rc = 0 ] || [ $rc = 4 ]; } && [ $st = 0 ]
tap_check $? "gd_compare --phase DD of two runs of the same path: exit $rc (0, or 4 undecided, expected; never 3), $(jq -r '[.comparisons[0].statistics.assessments[] | "\(.decision) \(.ratio * 1000 | round / 1000) [\((.interval.low // 0) * 1000 | round / 1000), \((.interval.high // 0) * 1000 | round / 1000)]"] | join("; ")' "$WORK/cmp-ab.json" 2>/dev/null)" "$WORK/cmp-ab.txt"

jq '.phases |= map(if .placement == "DD" then .results |= map(
	if .size_bytes >= 65536 then .bw_avg_MiBps *= 0.7
		| .samples |= map(.bw_avg_MiBps *= 0.7) else . end) else . end)' \
	"$WORK/cmp-b.json" >"$WORK/cmp-b07.json"
# the run against its own copy: against run a, whose figures differ from
# b's by the runs' noise, 0.7 x b can straddle the floor (b at 1.12 x a
# gave 0.79, 95% interval 0.68..0.91, exit 4, on 2026-12-03)
gd_compare --phase DD "$WORK/cmp-b.json" "$WORK/cmp-b07.json" >"$WORK/cmp-slow.txt" 2>&1
rc=$?
[ $rc = 3 ] && grep -q '^  \[error\] GD_REGRESSION: ' "$WORK/cmp-slow.txt" &&
	grep -q '^ #bytes .*baseline\[MiB/s\] .*candidate\[MiB/s\] .*cand/base' "$WORK/cmp-slow.txt" &&
	tr '\n' ' ' <"$WORK/cmp-slow.txt" | tr -s ' ' | grep -q '1 gate failed (exit status 3)' &&
	! grep -q 'GD_GPU_SLOWER\|HH BW\|device (D) memory' "$WORK/cmp-slow.txt" &&
	! awk 'length > 80 { bad = 1 } END { exit !bad }' "$WORK/cmp-slow.txt"
tap_check $? "gd_compare of run b against its copy with DD at 0.7 from 64 KiB up: exit $rc (3 expected), GD_REGRESSION, 1 gate failed, 80 columns" "$WORK/cmp-slow.txt"

# where the curves part: run b's DD figures from 1 MiB up at 0.75 (4 of
# its 8 sizes; samples too) are "slower" with "from 1 MiB up" in the
# evidence and the segment 1..8 MiB in the JSON; the unscaled copy of the
# same document names no segment and is not slower
jq '.phases |= map(if .placement == "DD" then .results |= map(
	if .size_bytes >= 1048576 then .bw_avg_MiBps *= 0.75
		| .samples |= map(.bw_avg_MiBps *= 0.75) else . end) else . end)' \
	"$WORK/cmp-b.json" >"$WORK/cmp-b075.json"
cp "$WORK/cmp-b.json" "$WORK/cmp-bcopy.json"
gd_compare --phase DD --json "$WORK/cmp-tail.json" "$WORK/cmp-b.json" \
	"$WORK/cmp-b075.json" >"$WORK/cmp-tail.txt" 2>&1
rc=$?
[ $rc = 3 ] && grep -q 'slower: below 0.80 from 1 MiB up' "$WORK/cmp-tail.txt" &&
	json_ok "$WORK/cmp-tail.json" 'any(.comparisons[0].statistics.assessments[];
		.decision == "slower" and (.evidence | contains("from 1 MiB up"))
		and .segment.found and .segment.from_bytes == 1048576
		and .segment.to_bytes == 8388608)'
tap_check $? "gd_compare of run b against its copy with DD at 0.75 from 1 MiB up: exit $rc (3 expected), $(jq -r '[.comparisons[0].statistics.assessments[] | .segment // {} | "segment \(.from_bytes)..\(.to_bytes) found \(.found)"] | join("; ")' "$WORK/cmp-tail.json" 2>/dev/null)" "$WORK/cmp-tail.txt"
gd_compare --phase DD --json "$WORK/cmp-same.json" "$WORK/cmp-b.json" \
	"$WORK/cmp-bcopy.json" >"$WORK/cmp-same.txt" 2>&1
rc=$?
[ $rc != 3 ] && ! grep -q 'below 0.80 from' "$WORK/cmp-same.txt" &&
	json_ok "$WORK/cmp-same.json" 'all(.comparisons[0].statistics.assessments[];
		.decision != "slower" and ((.segment.found // false) | not))'
tap_check $? "gd_compare of run b against its unscaled copy: exit $rc (not 3), no segment below the floor" "$WORK/cmp-same.txt"

gd_compare --expect-ratio=100 -q --json "$WORK/cmp-self.json" "$WORK/cmp-a.json" \
	>"$WORK/cmp-self.txt" 2>&1
rc=$?
[ $rc = 3 ] && json_ok "$WORK/cmp-self.json" '.exit_status == 3
	and .comparisons[0].mode == "device_vs_hh"'
tap_check $? "gd_compare --expect-ratio=100 of one run (DD 100 times HH): exit $rc (3 expected)" "$WORK/cmp-self.txt"
