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

# joined NAME: run NAME's stdout with every wrapped line joined back to
# the line it continues (a line that starts with more blanks than a row,
# a heading or an item: gd_compare_fit hangs them 8 or more columns in),
# blanks squeezed, in $T/NAME.joined; jhas NAME
# REGEX matches in it.
joined() {
	awk '/^       / && NR > 1 { sub(/^ +/, ""); line = line " " $0; next }
		{ if (NR > 1) print line; line = $0 } END { print line }' "$T/$1.out" |
		tr -s ' ' >"$T/$1.joined"
}
jhas() {
	grep -E -q -- "$2" "$T/$1.joined" ||
		fail "$1: no joined line matching '$2' in its output"
}

# copies beside the variants, so that every path printed is short enough
# for the 80-column check below (a longer path is one word, kept whole)
cp "$F/write_bw-sweep.json" "$F/write_bw-one.json" "$T/" || exit 1
sweep=$T/write_bw-sweep.json
one=$T/write_bw-one.json
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

# 1. The same run twice: no regression, in the two runs' own words.
run 0 same "$sweep" "$sweep" --json "$T/same.json"
has same '^  \[info\] GD_NO_REGRESSION: '
has same 'not below 0\.80 x the'
joined same
jhas same "^ gd_compare: GD_NO_REGRESSION: .* 1 gate passed \\(exit status 0\\)\$"
[ "$(jq -r '.comparisons[0].code, .comparisons[0].verdicts[0].code, .comparisons[0].overall.decision' "$T/same.json" | tr '\n' ' ')" = "GD_NO_REGRESSION GD_NO_REGRESSION not_below " ] ||
	fail "--json: the same run twice is not GD_NO_REGRESSION (not_below) in the record and its verdict"
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
grep -q GD_NO_REGRESSION "$T/json-stdout.err" || fail "--json -: the text did not go to stderr"

# 2. Figures from 64 KiB up at 0.7: a regression, exit 3, by default and
# against every phase, in the two runs' words (baseline, candidate, their
# ratio and its interval; not HH, DD or device memory); the overall ratio
# over the judged sizes lies inside its interval, in the text and the
# JSON; the gate is counted as one gate; the next checks are a
# regression's (the envelopes' diff, routes, counters, driver and
# firmware versions).
scale 0.7 >"$T/slow.json"
run 3 slow "$sweep" "$T/slow.json" --json "$T/slow-doc.json"
has slow '^  \[error\] GD_REGRESSION: the candidate.s bandwidth is below 0\.80 x the'
has slow '^ #bytes +baseline\[MiB/s\] +candidate\[MiB/s\] +cand/base +95% interval +size$'
has slow '^ 65536 +736\.27 +515\.39 +0\.70 +0\.70\.\.0\.70 +below$'
has slow '^ 4096 +121\.73 +121\.73 +1\.00 +1\.00\.\.1\.00 +clears$'
joined slow
jhas slow '^ baseline [^ ]*write_bw-sweep\.json \(fixture, '
jhas slow '^ candidate [^ ]*slow\.json \(fixture, '
has slow '^   judged +12 sizes, 4 KiB\.\.8 MiB \(gate_from_bytes 0\)$'
for w in 'HH BW' 'DD BW' 'device \(D\) memory' 'GD_GPU_SLOWER' 'GD_GATE_FAIL' 'gate check' 'sizes from 0 B' 'GPU/NIC locality'; do
	cat "$T/slow.out" "$T/slow.err" | grep -E -q -- "$w" && fail "slow: the two runs' text says '$w'"
done
jhas slow 'evidence: slower: below 0\.80 from 64 KiB up: 0\.70 \(0\.70\.\.0\.70\), 8 sizes'
jhas slow 'gd_doctor --diff [^ ]*write_bw-sweep\.json [^ ]*slow\.json'
jhas slow 'route records'
jhas slow 'counter deltas'
jhas slow 'driver and firmware versions'
jhas slow "^ gd_compare: GD_REGRESSION: .*; 1 gate failed \\(exit status 3\\)\$"
# the ratio in the text lies inside the interval printed beside it
sed -n 's/.*evidence: candidate\/baseline \([0-9.]*\), 95% interval \([0-9.]*\)\.\.\([0-9.]*\) .*/\1 \2 \3/p' \
	"$T/slow.joined" >"$T/slow.ci"
awk 'NF == 3 && $2 <= $1 && $1 <= $3 { ok = 1 } END { exit !ok }' "$T/slow.ci" ||
	fail "slow: the overall ratio is not inside its printed interval: '$(cat "$T/slow.ci")'"
jq -e '.comparisons[0] | .code == "GD_REGRESSION" and .verdicts[0].code == "GD_REGRESSION"
	and (.verdicts | length) == 1 and .overall.decision == "slower"
	and .overall.low <= .overall.ratio and .overall.ratio <= .overall.high
	and .overall.from_bytes == 4096 and .overall.to_bytes == 8388608 and .overall.sizes == 12
	and .overall.ratio == .statistics.assessments[0].ratio
	and (.outcome | test("1 gate failed$"))
	and (.verdicts[0].next_check | test("gd_doctor --diff"))' "$T/slow-doc.json" >/dev/null ||
	fail "--json: slow: code, overall ratio inside its interval over the judged sizes, or next check wrong: $(jq -c '.comparisons[0] | {code, overall, outcome}' "$T/slow-doc.json")"
[ "$(jq -r '.options.gate_from_bytes' "$T/slow-doc.json")" = 0 ] ||
	fail "--json: options.gate_from_bytes is not the judged sizes' start (0) the header names"
[ "$(jq -r '[.comparisons[0].statistics.assessments[].decision] | index("slower") != null' "$T/slow-doc.json")" = true ] ||
	fail "--json: no slower assessment for the scaled copy"
run 3 slow-dd --phase DD "$sweep" "$T/slow.json"
# the memory table says which phase of each run was compared
has slow "^   baseline +HH forward: local host"
has slow "^   candidate +HH forward: local host"
has slow-dd "^   candidate +DD forward: local hugepage"
# judged from 64 KiB up: the overall ratio is the slow sizes' alone, the
# smaller sizes are shown and marked not judged, and the header and the
# JSON name the same start
run 3 slow-64k --gate-from=64K --json "$T/slow-64k.json" "$sweep" "$T/slow.json"
has slow-64k '^   judged +8 sizes, 64 KiB\.\.8 MiB \(gate_from_bytes 65536\)$'
has slow-64k '^ 4096 .* not judged$'
jq -e '.options.gate_from_bytes == 65536 and .comparisons[0].overall.from_bytes == 65536
	and (.comparisons[0].overall.ratio * 100 | round) == 70
	and .comparisons[0].overall.low <= .comparisons[0].overall.ratio
	and .comparisons[0].overall.ratio <= .comparisons[0].overall.high' "$T/slow-64k.json" >/dev/null ||
	fail "--gate-from=64K: the overall ratio is not 0.70 over 64 KiB..8 MiB inside its interval: $(jq -c '.comparisons[0].overall' "$T/slow-64k.json")"
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
has tail-slow 'GD_REGRESSION'
has tail-slow 'slower: below 0\.80 from 1 MiB up: 0\.75 \(0\.75\.\.0\.75\), 4 sizes'
[ "$(jq -r '[.comparisons[0].statistics.assessments[] | select(.segment.found)
	| "\(.segment.from_bytes) \(.segment.to_bytes) \(.segment.sizes)"] | join(";")' "$T/tail-slow-doc.json")" = "1048576 8388608 4" ] ||
	fail "--json: the segment is not 1 MiB..8 MiB, 4 sizes"
run 0 tail-same --phase DD --json "$T/tail-same-doc.json" "$sweep" "$sweep"
grep -q 'below 0\.80 from' "$T/tail-same.out" "$T/tail-same.err" &&
	fail "tail-same: the unscaled copy names a segment"
[ "$(jq -r '[.comparisons[0].statistics.assessments[] | .segment.found // false] | any' "$T/tail-same-doc.json")" = false ] ||
	fail "--json: the unscaled copy has a segment found"
# the counters that moved in either run, each run's delta (both ends)
# side by side
counters() {
	jq --argjson e "$1" '.phases |= map(.counters = {local: {counters: [
		{name: "port_xmit_data", unit: "bytes", class: "traffic", delta: 1000},
		{name: "packet_seq_err", unit: "events", class: "error", delta: $e}]},
		remote: {counters: [{name: "port_xmit_data", unit: "bytes",
		class: "traffic", delta: 24}]}})' "$2"
}
counters 0 "$sweep" >"$T/count-base.json"
counters 3 "$T/slow.json" >"$T/count-cand.json"
run 3 counters "$T/count-base.json" "$T/count-cand.json"
has counters '^ Counters that moved \(both ends, over the measured windows\)$'
has counters '^ port_xmit_data +bytes +1024 +1024$'
has counters '^ packet_seq_err +events +0 +3$'
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
has lat-slow 'GD_REGRESSION: the candidate.s latency is higher'
has lat-slow '^ #bytes +baseline\[usec\] +candidate\[usec\] +base/cand '
run 0 lat-faster "$T/lat-slow.json" "$T/lat.json"
run 2 lat-vs-bw "$T/lat.json" "$sweep"
has lat-vs-bw 'different tests'
# --direction picks the reverse phases of a --reverse run
jq '.phases |= map(.direction = "reverse" | .name += ":rev")' "$sweep" >"$T/rev.json"
run 0 reverse --direction reverse "$T/rev.json" "$T/rev.json"
run 2 reverse-missing "$T/rev.json" "$T/rev.json"
has reverse-missing 'it holds: HH reverse, DD reverse'

# 3. One size, one round: no design can decide a floor from it.
run 4 undecided --json "$T/undecided.json" "$one" "$one"
has undecided '^  \[warning\] GD_UNDECIDED: the two runs cannot tell'
has undecided 'two or more rounds'
[ "$(jq -r '.comparisons[0].code' "$T/undecided.json")" = GD_UNDECIDED ] ||
	fail "--json: one size, one round is not GD_UNDECIDED"
# A too-noisy pair: the candidate's rounds at 0.62, 1 and 1.38 of the
# baseline's, every size: undecided (4), naming the rounds that would
# settle it; its ratio still lies inside its (wide) interval.
jq '.phases |= map(.results |= map(.samples |= (to_entries
	| map(.value.bw_avg_MiBps *= ([0.62, 1.0, 1.38][.key]) | .value))))' \
	"$sweep" >"$T/noisy.json"
run 4 noisy --json "$T/noisy-doc.json" "$sweep" "$T/noisy.json"
has noisy 'GD_UNDECIDED'
joined noisy
jhas noisy 'rounds in each run \(--repeat=[0-9]+\) would settle it'
jhas noisy "1 gate undecided \\(exit status 4\\)\$"
jq -e '.comparisons[0] | .code == "GD_UNDECIDED" and .overall.decision == "inconclusive"
	and .overall.low < .overall.ratio and .overall.ratio < .overall.high
	and .overall.low < 0.8' "$T/noisy-doc.json" >/dev/null ||
	fail "--json: the noisy pair is not GD_UNDECIDED with its ratio inside an interval that crosses 0.80: $(jq -c '.comparisons[0].overall' "$T/noisy-doc.json")"
run 0 noisy-pass --gate-undecided=pass "$sweep" "$T/noisy.json"
joined noisy-pass
jhas noisy-pass 'GD_UNDECIDED: .*1 gate undecided, passed by --gate-undecided=pass \(exit status 0\)$'
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
joined gate-and-undecided
jhas gate-and-undecided 'a gate failed \(exit status 3\)'
run 3 gate-and-undecided-pass --gate-undecided=pass "$T/gate-and-undecided.json"
# common sizes all below --gate-from: nothing judged, said so
jq '(.phases[] | select(.placement == "DD")).results |= .[0:3]' "$sweep" >"$T/small.json"
run 4 nothing-judged --phase DD --gate-from=64K "$sweep" "$T/small.json"
has nothing-judged 'nothing was judged: no size both runs hold'
has nothing-judged '^ 4096 .* not judged$'
run 0 small-gated --phase DD --gate-from=4K "$sweep" "$T/small.json"

# 4. One document: its DD against its HH again, against other floors, in
# the run's own words.
run 0 self "$sweep"
joined self
jhas self 'judged again'
has self '^  \[info\] GD_OK: '
scale 0.7 DD >"$T/self-slow.json"
run 3 self-slow "$T/self-slow.json"
has self-slow 'GD_GPU_SLOWER'
has self-slow '^ #bytes +HH BW average\[MiB/sec\] +DD BW average\[MiB/sec\] +DD/HH '
grep -q 'GD_REGRESSION' "$T/self-slow.out" && fail "self-slow: one document speaks of a regression"
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
# one candidate twice would write its comparison and metric series twice
run 2 twice "$sweep" "$one" "$one"
has twice "^gd_compare: error: candidate '.*' is given twice: .*give each candidate once$"
run 0 help --help
for o in expect-ratio gate-from phase direction json gate-undecided plot quiet; do
	has help "--$o"
done

# 7. Every report fits 80 columns with no trailing blank: rules, rows and
# wrapped evidence (the documents' paths here are shorter than a line).
# (stderr's refusals are one line each, as every program's errors are)
for f in "$T"/*.out "$T/json-stdout.err"; do
	case $f in */json-stdout.out) continue ;; esac
	wide=$(awk -v f="${f##*/}" 'length > 80 { print f ":" NR ": " length " columns" }' "$f")
	[ -z "$wide" ] || fail "wider than 80 columns: $wide"
	grep -n ' $' "$f" >/dev/null && fail "${f##*/}: a line ends in a blank: $(grep -n ' $' "$f" | head -n 1)"
done
# an evidence line longer than 80 columns goes on under its text
[ "$(grep -c '^                [^ ]' "$T/self-slow.out")" -gt 0 ] ||
	fail "self-slow: no evidence line wrapped under its label"

[ $status -eq 0 ] && echo "PASS: gd_compare: $n invocations gave the expected exit status and wording"
exit $status
