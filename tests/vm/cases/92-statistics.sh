# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Repeats and verdicts on two identical memory paths, once: the quickstart's
# paired sweep (H = host memory, D = huge-page host memory: the same CPU
# memory path on rxe) with --until-decided --reverse --expect-ratio=0.8 at a
# small -n. An A/A run must not report "D slower" nor fail its gate; it ends
# decided (exit 0) or, when TCG's noise leaves a size's interval across the
# floor at the last round, undecided (exit 4) naming the sizes; the judged
# sizes take the same rounds, the others one. The error rates themselves are
# measured by the seeded simulation (tests/assess_sim_test, gdperf(7)).
# gd-case-build: plain
# gd-case-timeout-s: 360
. /gd/guest-lib.sh

echo 64 >/proc/sys/vm/nr_hugepages

out=$WORK/aa
t0=$(cut -d. -f1 /proc/uptime)
run_bounded 200 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -a -n 8 \
	--until-decided --max-repeat=6 --precision-time=60 --mem=hugepage \
	--reverse --expect-ratio=0.8 --gate-from=64K --out_json_file="$out.json"
rc=$?
took=$(($(cut -d. -f1 /proc/uptime) - t0))
st=1
[ $rc = 0 ] || [ $rc = 4 ]
[ $? = 0 ] && json_ok "$out.json" '.exit_status == '"$rc"'
	and ([.phases[].name] == ["HH", "DD", "HH:rev", "DD:rev"])
	and .precision.rule == "until_decided" and .precision.looks == 4
	and ([.precision.sizes[] | select(.gated) | .rounds] | unique | length) == 1
	and ([.precision.sizes[] | select(.gated) | .rounds][0]) as $r
	| $r >= 3 and $r <= 6
	and all(.precision.sizes[]; .gated == (.size_bytes >= 65536)
		and (if .gated then .rounds == $r else .rounds == 1 and .stopped_by == "not_gated" end))
	and (.precision.decided == ('"$rc"' == 0))
	and all(.phases[]; .status == "ok" and (.results | length) == 23
		and all(.results[]; .repeats == (if .size_bytes >= 65536 then $r else 1 end)))
	and all(.verdicts[]; .code != "GD_GPU_SLOWER" and .code != "GD_GATE_FAIL")
	and (.statistics.assessments | length) == 2
	and all(.statistics.assessments[]; .rounds == $r and .sizes == 8
		and .looks == 4 and .judged.not_judged_sizes == 15
		and .decision != "slower" and .interval.replicates == "rounds"
		and (if .decision == "inconclusive" then ([.per_size.sizes[] | select(.undecided)] | length) > 0 else true end))
	and all(.gates[]; .gate == "expect_ratio" and (.passed == true or .undecided == true)
		and (.policy | test("one size.s figure alone never fails it")))' && st=0
tap_check $st "A/A quickstart sweep -n 8 --until-decided (at most 6 rounds, 60 s), --expect-ratio=0.8: exit $rc (0 decided, 4 undecided), judged sizes in equal rounds, no D slower, no failed gate (${took} s; $(jq -r '"\([.precision.sizes[] | select(.gated) | .rounds][0]) rounds, " + ([.statistics.assessments[] | "\(.direction) \(.decision) \(.ratio * 1000 | round / 1000) [\(.interval.low * 1000 | round / 1000), \(.interval.high * 1000 | round / 1000)]"] | join("; "))' "$out.json" 2>/dev/null))" "$out.txt"

! grep -q 'GD_GPU_SLOWER' "$out.txt" && grep -Eq '^ *([A-Za-z0-9:]+ +)?65536 .* [0-9]+\.[0-9]( !)? +[0-9.]+\.\.[0-9.]+$' "$out.txt" &&
	grep -q '^ Until decided: ' "$out.txt"
tap_check $? "text report with --until-decided: CV and min..max columns on the size rows, the Until decided line, no GD_GPU_SLOWER line" "$out.txt"

# --precision: rounds over the judged sizes (16 KiB .. 256 KiB, all of
# them: no --gate-from) until every DD/HH interval is within +/-5 % and
# both directions are decided, at most 6 rounds or 20 s; the judged sizes
# move together; the server follows the client's announcements and both
# end cleanly.
out=$WORK/precision
t0=$(cut -d. -f1 /proc/uptime)
run_bounded 100 "$out.txt" gd_write_bw --loopback -d rxe0 -x 1 -a --min-size=16K \
	--max-size=256K -n 10 --mem=hugepage --reverse --precision=5 --max-repeat=6 \
	--precision-time=20 --out_json_file="$out.json"
rc=$?
took=$(($(cut -d. -f1 /proc/uptime) - t0))
st=1
[ $rc = 0 ] && json_ok "$out.json" '.exit_status == 0 and .precision.target_pct == 5
	and .precision.rule == "precision" and .precision.looks == 4
	and (.precision.sizes | length) == 5
	and ([.precision.sizes[].rounds] | unique | length) == 1
	and all(.precision.sizes[]; .gated and .rounds >= 3 and .rounds <= 6
		and (.reached == (.half_width_pct <= 5))
		and (if .stopped_by == "precision" then .reached
		     else (.stopped_by == "max_repeat" or .stopped_by == "time_limit") end))
	and ([.precision.sizes[].rounds] | add) as $r
	| all(.phases[]; .status == "ok" and (.steps | length) == $r)' && st=0
tap_check $st "--precision=5 --max-repeat=6: exit $rc in ${took} s, $(jq -r '"\([.precision.sizes[] | select(.gated and .reached)] | length) of \([.precision.sizes[] | select(.gated)] | length) judged sizes reached +/-5%, decided \(.precision.decided), in \(.precision.elapsed_s | round) s, rounds \([.precision.sizes[] | select(.gated) | .rounds] | map(tostring) | join(","))"' "$out.json" 2>/dev/null)" "$out.txt"
grep -q '^ Precision: ' "$out.txt"
tap_check $? "--precision: the text report says how many gated sizes reached the target" "$out.txt"
exit 0
