#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_compare over the fixture run documents (tests/fixtures/compare, made
# by make-fixtures.sh) and jq-made variants of them: a run against itself
# is not below the floor (exit 0), a copy whose figures from 64 KiB up are
# scaled by 0.7 is slower (3), a one-size one-round pair cannot be decided
# (4, or 0 with --gate-undecided=pass), one document judged again against
# another floor, the gdperf.compare/1 document, and every refusal (other
# schema, other test, missing or failed phase, no common size, invalid
# JSON: exit 2 with the reason, as bad command lines).
B=${GD_TOP_BUILDDIR:-.}
F=${GD_TOP_SRCDIR:-.}/tests/fixtures/compare
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq not found (the variants are made with it)" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-compare.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0

fail() {
	echo "FAIL: $*"
	status=1
}

# run WANT NAME ARGS...: gd_compare ARGS exits WANT; its stdout and stderr
# are kept in $T/NAME.out and $T/NAME.err.
run() {
	want=$1 name=$2
	shift 2
	"$B/gd_compare" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	n=$((n + 1))
	[ "$rc" -eq "$want" ] ||
		fail "$name: gd_compare $* exited $rc, expected $want; stderr: $(head -n 3 "$T/$name.err")"
}

# has NAME REGEX: the output of run NAME (stdout and stderr) matches.
has() {
	cat "$T/$1.out" "$T/$1.err" | grep -E -q -- "$2" ||
		fail "$1: no line matching '$2' in its output"
}

sweep=$F/write_bw-sweep.json
one=$F/write_bw-one.json
# the figures of every phase (or of phase $2) from 64 KiB up times $1,
# the per-round samples too
scale() {
	jq --argjson k "$1" --arg ph "${2:-}" '
	def sc: if .size_bytes >= 65536 then .bw_avg_MiBps *= $k
		| .bw_peak_MiBps *= $k else . end;
	.phases |= map(if $ph == "" or .placement == $ph then
		.results |= map(sc | if .samples then .samples |= map(sc)
			else . end) else . end)' "$sweep"
}

# 1. The same run twice: not below the floor, in the run's words.
run 0 same "$sweep" "$sweep" --json "$T/same.json"
has same 'GD_OK'
has same 'not below|no difference'
has same 'not below the floor \(exit status 0\)'
[ "$(jq -r .schema "$T/same.json")" = gdperf.compare/1 ] || fail "--json: schema is not gdperf.compare/1"
[ "$(jq -r '.exit_status, .comparisons[0].exit_status, (.comparisons | length), (.errors | length)' "$T/same.json" | tr '\n' ' ')" = "0 0 1 0 " ] ||
	fail "--json: exit statuses, comparison count or errors[] (empty) wrong"
[ "$(jq -r '.comparisons[0].baseline.file == "'"$sweep"'" and .comparisons[0].candidate.hostname == "fixture"' "$T/same.json")" = true ] ||
	fail "--json: inputs not identified by file and host"
[ "$(jq -r '[.comparisons[0].statistics.assessments[].decision] | all(. == "no_difference" or . == "not_below")' "$T/same.json")" = true ] ||
	fail "--json: the assessments do not say not below"
[ "$(jq -r '.comparisons[0].comparison | length' "$T/same.json")" -eq 12 ] || fail "--json: not 12 comparison rows"
run 0 same-dd --phase DD "$sweep" "$sweep"
run 0 quiet -q "$sweep" "$sweep"
[ ! -s "$T/quiet.out" ] || fail "-q printed text"
run 0 json-stdout --json - "$sweep" "$sweep"
[ "$(jq -r .exit_status "$T/json-stdout.out")" = 0 ] || fail "--json -: stdout is not the document alone"
grep -q GD_OK "$T/json-stdout.err" || fail "--json -: the text did not go to stderr"

# 2. Figures from 64 KiB up at 0.7: slower, exit 3, by default and
# against every phase; the same cut below 64 KiB is not judged by default.
scale 0.7 >"$T/slow.json"
run 3 slow "$sweep" "$T/slow.json" --json "$T/slow-doc.json"
has slow 'GD_GPU_SLOWER'
has slow 'slower'
[ "$(jq -r '[.comparisons[0].statistics.assessments[].decision] | index("slower") != null' "$T/slow-doc.json")" = true ] ||
	fail "--json: no slower assessment for the scaled copy"
run 3 slow-dd --phase DD "$sweep" "$T/slow.json"
# the summary line names the baseline first, as the header does, and the
# memory table says whose phase fills each slot (DD holds the candidate's HH)
has slow "^ gd_compare: baseline $sweep, candidate $T/slow.json: "
has slow "^  HH +ok +baseline's HH forward: local host"
has slow "^  DD +ok +candidate's HH forward: local host"
has slow-dd "^  DD +ok +candidate's DD forward: "
run 3 slow-many "$sweep" "$sweep" "$T/slow.json"
jq '.phases |= map(.results |= map(if .size_bytes < 65536 then
	.bw_avg_MiBps *= 0.5 | .samples |= map(.bw_avg_MiBps *= 0.5) else . end))' \
	"$sweep" >"$T/small-slow.json"
# every size is judged by default, as in the run: the slow small sizes are
# found; --gate-from above them leaves them out (and says so)
run 3 small-slow "$sweep" "$T/small-slow.json"
run 3 small-slow-gated --gate-from=4K "$sweep" "$T/small-slow.json"
run 0 small-slow-above --gate-from=64K "$sweep" "$T/small-slow.json"
# Where the curves part: DD from 1 MiB up at 0.75 is slower "from 1 MiB
# up", and the JSON keeps the segment; the unscaled copy names none.
jq '.phases |= map(if .placement == "DD" then .results |= map(
	if .size_bytes >= 1048576 then .bw_avg_MiBps *= 0.75
		| .samples |= map(.bw_avg_MiBps *= 0.75) else . end) else . end)' \
	"$sweep" >"$T/tail-slow.json"
run 3 tail-slow --phase DD --json "$T/tail-slow-doc.json" "$sweep" "$T/tail-slow.json"
has tail-slow 'GD_GPU_SLOWER'
has tail-slow 'below 0\.80 from 1 MiB up: 0\.75 \(0\.75\.\.0\.75\), 4 sizes'
[ "$(jq -r '[.comparisons[0].statistics.assessments[] | select(.segment.found)
	| "\(.segment.from_bytes) \(.segment.to_bytes) \(.segment.sizes)"] | join(";")' "$T/tail-slow-doc.json")" = "1048576 8388608 4" ] ||
	fail "--json: the segment is not 1 MiB..8 MiB, 4 sizes"
run 0 tail-same --phase DD --json "$T/tail-same-doc.json" "$sweep" "$sweep"
grep -q 'below 0\.80 from' "$T/tail-same.out" "$T/tail-same.err" &&
	fail "tail-same: the unscaled copy names a segment"
[ "$(jq -r '[.comparisons[0].statistics.assessments[] | .segment.found // false] | any' "$T/tail-same-doc.json")" = false ] ||
	fail "--json: the unscaled copy has a segment found"
# a faster candidate is not slower
scale 1.3 >"$T/fast.json"
run 0 fast "$sweep" "$T/fast.json"

# A latency test: the speed ratio baseline/candidate, from the same
# curve read as microseconds; 1/0.7 times the latency is slower.
jq '.tool = "gd_write_lat" | .test.measure = "lat" | .test.verb = "write"
	| def lat: {size_bytes, iterations, lat_typical_us: (1e6 / .bw_avg_MiBps),
		lat_p99_us: (1.5e6 / .bw_avg_MiBps)};
	.phases |= map(.results |= map(lat + {repeats, median_repeat,
		samples: (.samples | map(lat + {repeat}))}))' "$sweep" >"$T/lat.json"
jq '.phases |= map(.results |= map(if .size_bytes >= 65536 then
	.lat_typical_us /= 0.7 | .samples |= map(.lat_typical_us /= 0.7) else . end))' \
	"$T/lat.json" >"$T/lat-slow.json"
run 0 lat "$T/lat.json" "$T/lat.json"
run 3 lat-slow "$T/lat.json" "$T/lat-slow.json"
has lat-slow 'higher latency'
run 0 lat-faster "$T/lat-slow.json" "$T/lat.json"
run 2 lat-vs-bw "$T/lat.json" "$sweep"
has lat-vs-bw 'different tests'
# --direction picks the reverse phases of a --reverse run
jq '.phases |= map(.direction = "reverse" | .name += ":rev")' "$sweep" >"$T/rev.json"
run 0 reverse --direction reverse "$T/rev.json" "$T/rev.json"
run 2 reverse-missing "$T/rev.json" "$T/rev.json"
has reverse-missing 'it holds: HH reverse, DD reverse'

# 3. One size, one round: no design can decide a floor from it.
run 4 undecided "$one" "$one"
has undecided 'GD_INCONCLUSIVE'
has undecided 'not enough evidence'
run 0 undecided-pass --gate-undecided=pass "$one" "$one"
run 4 undecided-fail --gate-undecided=fail "$one" "$one"
# one exit mapping with the run (gd_compare_gate_status): a failed gate (a
# DD size without a figure) beside an undecided direction (one round in
# reverse) exits 3, also with --gate-undecided=pass, as the run does
jq -s '.[0].phases |= map(if .placement == "DD" then .results |= map(if .size_bytes == 1048576
	then del(.bw_avg_MiBps) else . end) else . end)
	| .[0].phases += (.[1].phases | map(.direction = "reverse" | .name += ":rev")) | .[0]' \
	"$sweep" "$one" >"$T/gate-and-undecided.json"
run 3 gate-and-undecided "$T/gate-and-undecided.json"
has gate-and-undecided 'a gate failed \(exit status 3\)'
run 3 gate-and-undecided-pass --gate-undecided=pass "$T/gate-and-undecided.json"
# common sizes all below --gate-from: nothing judged, said so
jq '(.phases[] | select(.placement == "DD")).results |= .[0:3]' "$sweep" >"$T/small.json"
run 4 nothing-judged --phase DD --gate-from=64K "$sweep" "$T/small.json"
has nothing-judged 'nothing was judged; lower --gate-from'
run 0 small-gated --phase DD --gate-from=4K "$sweep" "$T/small.json"

# 4. One document: its DD against its HH again, against other floors.
run 0 self "$sweep"
has self 'judged again'
scale 0.7 DD >"$T/self-slow.json"
run 3 self-slow "$T/self-slow.json"
run 3 self-floor --expect-ratio=0.99 "$sweep"
run 0 self-floor-low --expect-ratio=0.9 "$sweep"
# The run's own floor from its options: expect_ratio in gdperf.run/3, the
# option's name, expect-ratio, in a /2 document.
jq '.options.expect_ratio = 0.99' "$sweep" >"$T/floor3.json"
run 3 self-floor-v3 "$T/floor3.json"
jq '.schema = "gdperf.run/2" | .options |= (del(.expect_ratio) | .["expect-ratio"] = 0.99)' \
	"$sweep" >"$T/floor2.json"
run 3 self-floor-v2 "$T/floor2.json"
# A gdperf.run/3 document (its test keys as perftest spelled the options)
# is read beside a /4 one, as baseline and as candidate.
jq '.schema = "gdperf.run/3" | .test |= with_entries(.key |= ({no_peak: "noPeak",
	no_interleave: "no-interleave", use_srq: "use-srq", mgid: "MGID"}[.] // .))' \
	"$sweep" >"$T/v3.json"
[ "$(jq -r '.test | has("noPeak") and has("no-interleave")' "$T/v3.json")" = true ] ||
	fail "the /3 variant lacks /3's test keys"
run 0 v3-baseline --json "$T/v3-doc.json" "$T/v3.json" "$sweep"
run 0 v3-candidate "$sweep" "$T/v3.json"
run 0 v3-self "$T/v3.json"

# 5. Refusals: exit 2 with the file and the reason (gdperf(7): usage or
# unreadable input).
jq '.schema = "gdperf.run/1"' "$sweep" >"$T/schema1.json"
run 2 schema "$sweep" "$T/schema1.json"
has schema "schema 'gdperf.run/1', not gdperf.run/4, gdperf.run/3 or gdperf.run/2"
jq '.tool = "gd_read_bw" | .test.verb = "read"' "$sweep" >"$T/read.json"
run 2 other-test "$sweep" "$T/read.json"
has other-test 'different tests'
run 2 no-phase --phase HD "$sweep" "$sweep"
has no-phase 'no phase HD forward'
run 2 no-reverse --direction reverse "$sweep" "$sweep"
jq '(.phases[] | select(.placement == "DD")) |= (.status = "failed" | .results = [])' \
	"$sweep" >"$T/failed.json"
run 2 failed --phase DD "$sweep" "$T/failed.json"
has failed 'is failed'
run 2 failed-self "$T/failed.json"
jq '.phases |= map(.results |= map(.size_bytes += 1 | if .samples then .samples |= map(.size_bytes += 1) else . end))' \
	"$sweep" >"$T/disjoint.json"
run 2 disjoint "$sweep" "$T/disjoint.json"
has disjoint 'no size in both documents'
head -c 300 "$sweep" >"$T/cut.json"
run 2 truncated "$sweep" "$T/cut.json"
has truncated 'cut.json: not valid JSON: .* at byte [0-9]+'
printf '{"schema": "gdperf.run/2",, }' >"$T/bad.json"
run 2 invalid "$T/bad.json"
has invalid 'at byte 2[0-9]'
# json-c's words name its state ("null expected"); ours the text found
printf 'nonsense\n' >"$T/words.json"
run 2 words "$T/words.json"
has words "words.json: not valid JSON: unexpected text at byte 0: 'nonsense'"
grep -q 'null expected' "$T/words.err" && fail "words: json-c's parser state in the message: $(cat "$T/words.err")"
printf 'null' >"$T/null.json"
run 2 null "$T/null.json"
has null 'null.json: a JSON null, not a run document'
printf '[1, 2]\n' >"$T/array.json"
run 2 array "$T/array.json"
has array 'array.json: a JSON array, not a run document'
run 2 missing "$sweep" "$T/none.json"
has missing 'none.json: cannot open'
jq 'del(.phases)' "$sweep" >"$T/nophases.json"
run 2 no-phases "$T/nophases.json"
# a refused candidate fails the run even when another passes; the others
# are still judged, and the --json document says which input was refused,
# at which stage and why
run 2 mixed --json "$T/mixed.json" "$sweep" "$sweep" "$T/schema1.json" "$T/fast.json"
jq -e --arg bad "$T/schema1.json" '.exit_status == 2 and (.comparisons | length) == 2
	and .errors == [{input: $bad, stage: "load",
		message: .errors[0].message}]
	and (.errors[0].message | test("gdperf.run/1"))' "$T/mixed.json" >/dev/null ||
	fail "mixed: the document does not keep the 2 judged comparisons with errors[] naming $T/schema1.json at load: $(jq -c '{exit_status, n: (.comparisons | length), errors}' "$T/mixed.json" 2>&1)"
run 2 base-missing --json "$T/base-missing.json" "$T/none.json" "$sweep"
jq -e '.exit_status == 2 and .comparisons == [] and .errors[0].stage == "load"
	and (.errors[0].message | test("none.json: cannot open"))' "$T/base-missing.json" >/dev/null ||
	fail "base-missing: no document with errors[] naming the missing baseline: $(cat "$T/base-missing.json" 2>&1 | head -c 300)"
run 2 pair-refused --json "$T/pair-refused.json" --phase HD "$sweep" "$sweep"
jq -e '.errors[0].stage == "pair" and (.errors[0].message | test("no phase HD"))' \
	"$T/pair-refused.json" >/dev/null || fail "pair-refused: errors[] does not name the pairing stage"

# 5b. --plot: a comparison's curves and ratio, as a run's --plot; the
# second candidate's in FILE-2.svg; one document judged again plots too.
run 0 plot --plot="$T/p.svg" "$sweep" "$sweep" "$T/fast.json"
for f in "$T/p.gp" "$T/p-2.gp"; do
	grep -q "title 'DD/HH forward'" "$f" 2>/dev/null ||
		fail "--plot: $f has no DD/HH ratio curve"
	grep -q "set title 'gd_compare: HH = baseline $sweep, DD = candidate " "$f" 2>/dev/null ||
		fail "--plot: $f's title does not say which run is which"
done
run 0 plot-one --plot="$T/one.svg" "$sweep"
grep -q "title 'DD/HH forward'" "$T/one.gp" 2>/dev/null || fail "--plot of one document: no DD/HH ratio curve"
if command -v gnuplot >/dev/null 2>&1; then
	for f in "$T/p.svg" "$T/p-2.svg" "$T/one.svg"; do
		grep -q '<svg' "$f" 2>/dev/null || fail "--plot: gnuplot made no SVG $f"
	done
else
	has plot "gnuplot not installed"
fi
run 2 plot-empty --plot= "$sweep"

# 6. Bad command lines: exit 2.
run 2 no-args
run 2 bad-ratio --expect-ratio=abc "$sweep"
run 2 bad-undecided --gate-undecided=maybe "$sweep"
run 2 bad-phase --phase=XX "$sweep"
run 2 bad-size --gate-from=12Q "$sweep"
run 2 bad-option --frobnicate "$sweep"
run 0 help --help
for o in expect-ratio gate-from phase direction json gate-undecided plot quiet; do
	has help "--$o"
done

[ $status -eq 0 ] && echo "PASS: gd_compare: $n invocations gave the expected exit status and wording"
exit $status
