# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Repeats and verdicts on two identical memory paths, once: the quickstart's
# paired sweep (H = host memory, D = huge-page host memory: the same CPU
# memory path on rxe) with --repeat=3 --reverse --expect-ratio=0.8 at a small
# -n. An A/A run must not report "D slower" nor fail its gate; every size
# carries its three rounds and the document names its method. The error
# rates themselves are measured by the seeded simulation (tests/evidence_test)
# and, on real TCG noise over many sweeps, by contrib/bench-aa (on demand).
# gd-case-build: plain
# gd-case-timeout-s: 300
. /gd/guest-lib.sh

echo 64 >/proc/sys/vm/nr_hugepages

out=$WORK/aa
t0=$(cut -d. -f1 /proc/uptime)
run_bounded 150 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -a -n 8 \
	--repeat=3 --mem=hugepage --reverse --expect-ratio=0.8 --gate-from=64K \
	--out_json_file="$out.json"
rc=$?
took=$(($(cut -d. -f1 /proc/uptime) - t0))
st=1
[ $rc = 0 ] && json_ok "$out.json" '.exit_status == 0
	and ([.phases[].name] == ["HH", "DD", "HH:rev", "DD:rev"])
	and all(.phases[]; .status == "ok" and (.results | length) == 23
		and all(.results[]; .repeats == 3 and (.samples | length) == 3
			and .spread.n == 3)
		and (.steps | length) == 69)
	and all(.verdicts[]; .code != "GD_GPU_SLOWER" and .code != "GD_GATE_FAIL")
	and (.statistics.assessments | length) == 2
	and all(.statistics.assessments[]; .rounds == 3 and .sizes == 8
		and .judged.not_judged_sizes == 15
		and .decision == "not_below" and .interval.replicates == "rounds")
	and all(.gates[]; .gate == "expect_ratio" and .passed == true
		and (.policy | test("one size.s figure alone never fails it")))
	and (.statistics.method | test("t-interval over rounds"))' && st=0
tap_check $st "A/A quickstart sweep -n 8 with --repeat=3 --expect-ratio=0.8: exit $rc, 4 phases x 23 sizes x 3 rounds, no D slower, gate passed (${took} s; $(jq -r '[.statistics.assessments[] | "\(.direction) \(.decision) \(.ratio * 1000 | round / 1000) [\(.interval.low * 1000 | round / 1000), \(.interval.high * 1000 | round / 1000)]"] | join("; ")' "$out.json" 2>/dev/null))" "$out.txt"

! grep -q 'GD_GPU_SLOWER' "$out.txt" && grep -Eq '^ *([A-Za-z0-9:]+ +)?65536 .* [0-9]+\.[0-9]( !)? +[0-9.]+\.\.[0-9.]+$' "$out.txt" &&
	grep -q 'the median of 3 repeats' "$out.txt"
tap_check $? "text report with --repeat=3: CV and min..max columns on the size rows, no GD_GPU_SLOWER line" "$out.txt"

# --precision: rounds per gated size until each DD/HH interval is within
# +/-5 % (64 KiB .. 256 KiB gated), at most 6 rounds or 20 s; the server
# follows the client's announcements and both end cleanly.
out=$WORK/precision
t0=$(cut -d. -f1 /proc/uptime)
run_bounded 100 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -a --min-size=16K \
	--max-size=256K -n 10 --mem=hugepage --reverse --precision=5 --max-repeat=6 \
	--precision-time=20 --out_json_file="$out.json"
rc=$?
took=$(($(cut -d. -f1 /proc/uptime) - t0))
st=1
[ $rc = 0 ] && json_ok "$out.json" '.exit_status == 0 and .precision.target_pct == 5
	and (.precision.sizes | length) == 5
	and all(.precision.sizes[]; if .gated
		then .rounds >= 3 and .rounds <= 6
			and (.reached == (.half_width_pct <= 5))
			and (if .reached then .stopped_by == "precision"
			     else (.stopped_by == "max_repeat" or .stopped_by == "time_limit") end)
		else .rounds == 1 and .stopped_by == "not_gated" end)
	and ([.precision.sizes[].rounds] | add) as $r
	| all(.phases[]; .status == "ok" and (.steps | length) == $r)' && st=0
tap_check $st "--precision=5 --max-repeat=6: exit $rc in ${took} s, $(jq -r '"\([.precision.sizes[] | select(.gated and .reached)] | length) of \([.precision.sizes[] | select(.gated)] | length) gated sizes reached +/-5% in \(.precision.elapsed_s | round) s, rounds \([.precision.sizes[] | select(.gated) | .rounds] | map(tostring) | join(","))"' "$out.json" 2>/dev/null)" "$out.txt"
grep -q '^ Precision: ' "$out.txt"
tap_check $? "--precision: the text report says how many gated sizes reached the target" "$out.txt"
exit 0
