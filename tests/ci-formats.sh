#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The run's --openmetrics and --junit files, written from saved run
# documents (tests/fixtures/ci-formats) and jq-made variants of them (a
# failed gate with its slow sizes, an undecided one under each
# --gate-undecided policy, a phase that did not run, a run that failed
# before its phases, --label values): each metrics file passes `promtool
# check metrics` and prometheus_client's parser (OpenMetrics for
# --openmetrics, Prometheus text for --prom-textfile), each JUnit file the
# schema the Jenkins junit plugin reads (tests/junit.xsd, and the plugin's
# own where the tree has it; xmllint) and python3-junitparser, and both
# carry the document's verdict: the gate states, verdict codes and exit
# status; a failed gate's body lists its failing sizes. A benchmark that
# fails early still writes both; an unwritable path is exit 1 naming it.
# gd_report writes one testsuite per campaign and its gauges, gd_compare
# a testsuite per comparison, each with the state its JSON document says.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
F=$S/tests/fixtures/ci-formats
for t in jq promtool xmllint; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "SKIP: $t not found (Debian: jq, prometheus, libxml2-utils)" >&2
		exit 77
	}
done
# the Debian package's module, also where another python3 comes first
py=
for p in "${PYTHON3:-python3}" /usr/bin/python3; do
	"$p" -c 'import junitparser, prometheus_client' 2>/dev/null &&
		{ py=$p; break; }
done
[ -n "$py" ] ||
	{ echo "SKIP: python3-junitparser or python3-prometheus-client not found (Debian: python3-junitparser python3-prometheus-client)" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-ciformats.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0

fail() {
	echo "FAIL: $*"
	status=1
}
ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

# the document's variants
cp "$F/run.json" "$T/pass.json"
cp "$F/lat.json" "$T/lat.json"
ev='expect_ratio DD/HH forward: band >=64 KiB 0.71 [0.66, 0.77] below 0.9 & <slower>'
# slower from 1 MiB up: those sizes' ratio 0.70 and 95% upper bound 0.72
jq --arg ev "$ev" '.gates[0].passed = false | .gates[0].decision = "slower"
	| .statistics.assessments[0].decision = "slower"
	| .statistics.assessments[0].per_size.sizes |= map(
		if .size_bytes >= 1048576 then .slow = true | .ratio = 0.7
		| .high = 0.72 else . end)
	| .verdicts = [{code: "GD_GATE_FAIL", severity: "error",
		summary: "1 gate check(s) failed (exit status 3)",
		evidence: [$ev]}] | .exit_status = 3' "$F/run.json" >"$T/fail.json"
undecided='.gates[0].passed = false | .gates[0].undecided = true
	| .gates[0].decision = "inconclusive"
	| .statistics.assessments[0].decision = "inconclusive"
	| .statistics.assessments[0].repeats_needed = 7
	| .statistics.assessments[0].per_size.sizes[0] += {undecided: true,
		low: 0.78, rounds_needed: 7}
	| .verdicts = [{code: "GD_GATE_UNDECIDED", severity: "error",
		summary: "1 expect-ratio gate(s) undecided",
		evidence: ["expect_ratio DD/HH forward undecided: too few rounds"]}]
	| .exit_status = 4'
jq "$undecided" "$F/run.json" >"$T/undecided.json"
jq "$undecided"' | .gates[0].passed = true
	| .gates[0].undecided_policy = "pass" | .exit_status = 0' "$F/run.json" \
	>"$T/undecided-pass.json"
jq "$undecided"' | .gates[0].undecided_policy = "undecided"' "$F/run.json" \
	>"$T/undecided-error.json"
jq '.labels = {exec: "r1-s1", "node name": "a b", run: "mine", "9x": "y",
	node_name: "same name once sanitised"}' \
	"$F/run.json" >"$T/labelled.json"
jq '.phases[1].status = "failed"
	| .phases[1].error = {code: -12, errno_name: "ENOMEM",
		message: "ibv_reg_mr on cuda:0 failed: Cannot allocate memory"}
	| .verdicts = [{code: "GD_GPU_REG_FAIL", severity: "error",
		summary: "device memory could not be registered"}]
	| .exit_status = 1' "$F/run.json" >"$T/phasefail.json"
jq '.phases = [] | .gates = [] | .verdicts = [] | del(.statistics)
	| del(.time_account)
	| .error = {code: -19, errno_name: "ENODEV",
		message: "no RDMA device found; check ibv_devices"}
	| .exit_status = 1' "$F/run.json" >"$T/early.json"

. "$S/tests/ci-formats-lib.sh"
[ -f "$jenkins_xsd" ] ||
	echo "# the Jenkins junit plugin's schema is not at $jenkins_xsd (GD_JUNIT_JENKINS_XSD): tests/junit.xsd only"

variants="pass lat fail undecided undecided-pass undecided-error phasefail early labelled"
for v in $variants; do
	doc=$T/$v.json
	for kind in metrics metrics-sizes prom junit; do
		"$B/tests/ci-formats-dump" "$kind" "$doc" "$T/$v.$kind" ||
			fail "$v: writing $kind failed"
	done
	ci_formats_check "$v" "$doc" "$doc" "$T/$v.junit" "$T/$v.metrics" \
		"$T/$v.metrics-sizes" "$T/$v.prom"
	[ ! -f "$T/$v.junit.read" ] || cp "$T/$v.junit.read" "$T/$v.read"
done

# OpenMetrics: # UNIT where the name ends in one, # EOF last; the
# Prometheus text has neither, and the same samples
for v in $variants; do
	[ "$(tail -n 1 "$T/$v.metrics")" = "# EOF" ] ||
		fail "$v: the OpenMetrics file does not end in # EOF"
	grep -q '^# EOF' "$T/$v.prom" && fail "$v: the Prometheus text has # EOF"
	grep -q '^# UNIT' "$T/$v.prom" && fail "$v: the Prometheus text has # UNIT"
	sed 's/run="[^"]*"/run=R/' "$T/$v.metrics.read" >"$T/$v.a"
	sed 's/run="[^"]*"/run=R/' "$T/$v.prom.read" >"$T/$v.b"
	cmp -s "$T/$v.a" "$T/$v.b" ||
		fail "$v: --openmetrics and --prom-textfile differ in their samples"
done
grep -qx '# UNIT gdperf_run_wall_seconds seconds' "$T/pass.metrics" ||
	fail "pass: no # UNIT line for gdperf_run_wall_seconds"
ok "OpenMetrics ends in # EOF with # UNIT lines; the Prometheus text has the same samples"

# the run's identity on every series: run= the file's stem, the --label
# values (names sanitised, a clash with gdperf's own prefixed label_, a
# second key that sanitises to the same name dropped)
bad=$(grep -v '^#' "$T/labelled.metrics" | grep -v '{tool="gd_write_bw",run="labelled",device="rxe0",exec="r1-s1",node_name="a b",label_run="mine",label_9x="y"[,}]' | head -n 3)
[ -z "$bad" ] || fail "labelled: series without the run's identity: $bad"
bad=$(grep -v '^#' "$T/pass.metrics" | grep -v '^[a-z_]*{tool="gd_write_bw",run="pass",' | head -n 3)
[ -z "$bad" ] || fail "pass: series without tool and run labels: $bad"
ok "every series carries tool, run (the file's stem) and the --label values"

# one label for the comparison; one unit per family; no _total; the exit
# statuses in the HELP
grep -q '^gdperf_gate_state{.*,gate="expect_ratio",comparison="DD/HH",' "$T/pass.metrics" ||
	fail "pass: gdperf_gate_state does not label the comparison comparison="
grep -q '^gdperf_[a-z_]*_total[{ ]' "$T/pass.metrics" &&
	fail "pass: a gauge named _total"
grep -q '^gdperf_phase_moved{' "$T/pass.metrics" &&
	fail "pass: gdperf_phase_moved mixes units"
grep -qF '# HELP gdperf_run_exit_status the program'"'"'s exit status: 0 all passed, 1 a runtime or output error, 2 usage or unreadable input, 3 a gate failed, 4 a gate undecided' \
	"$T/pass.metrics" || fail "pass: the exit status HELP does not list 0-4"
ok "comparison= on ratios and gates; a family per counter unit; exit statuses 0-4 in the HELP"

# the failure's body: each failing size with its ratio and bound, then the
# rule that decides (per size, not bands)
for z in 1048576 2097152 4194304 8388608; do
	grep -qxF "text|expect_ratio DD/HH forward|$z B: 0.70 < 0.90 (95% bound 0.72)" "$T/fail.read" ||
		fail "fail: the body does not list $z B: $(grep '^text|' "$T/fail.read" | head -n 3)"
done
grep -q '^text|expect_ratio DD/HH forward|65536 B' "$T/fail.read" &&
	fail "fail: 64 KiB, not slow, is listed"
grep -q "^text|expect_ratio DD/HH forward|rule: passes when every judged size's own 95% lower bound" "$T/fail.read" ||
	fail "fail: no per-size rule in the body"
grep -q '^text|.*band.s 95% interval clears' "$T/fail.read" &&
	fail "fail: the body explains the retired band rule"
ok "fail: the body lists the 4 failing sizes with ratio and bound, and the per-size rule"

# undecided: a failure (fail), an error (undecided) or a pass with a note
# (pass), each saying what would settle it
for v in undecided undecided-error undecided-pass; do
	grep -qxF 'text|expect_ratio DD/HH forward|undecided: about 7 rounds (--repeat=7) would settle it' "$T/$v.read" ||
		fail "$v: the rounds that would settle it are not in the body"
done
grep -q '^expect_ratio DD/HH forward|error|gate_undecided|' "$T/undecided-error.read" ||
	fail "undecided-error: --gate-undecided=undecided is not an error"
grep -q '^expect_ratio DD/HH forward|passed||' "$T/undecided-pass.read" ||
	fail "undecided-pass: --gate-undecided=pass is not a pass"
grep -q '^text|expect_ratio DD/HH forward|passed by --gate-undecided=pass' "$T/undecided-pass.read" ||
	fail "undecided-pass: its output does not say it passed by policy"
grep -qxF 'text|expect_ratio DD/HH forward|65536 B: 1.07, 95% lower bound 0.78 < 0.90, about 7 rounds would settle it' "$T/undecided.read" ||
	fail "undecided: the unsettled size is not listed"
ok "undecided: failure, error or pass by --gate-undecided, with the rounds that settle it"

# a gate not configured is skipped; every testsuite has timestamp,
# hostname and time
grep -q '^expect_ratio|skipped|gate_not_set|--expect-ratio not set' "$T/lat.read" ||
	fail "lat: the unset --expect-ratio is not a skipped testcase"
grep -q '^min_bw|skipped|gate_not_set|' "$T/pass.read" ||
	fail "pass: the unset --min-bw is not a skipped testcase"
suite_attrs() {
	grep '<testsuite ' "$1" | grep -v ' timestamp="[0-9-]*T[0-9:]*"' ||
		grep '<testsuite ' "$1" | grep -v ' hostname="[^"]' ||
		grep '<testsuite ' "$1" | grep -v ' time="[0-9.]*"'
}
for v in $variants; do
	[ -z "$(suite_attrs "$T/$v.junit")" ] ||
		fail "$v: a testsuite without timestamp, hostname or time"
done
ok "unset gates are skipped; each testsuite has timestamp, hostname and time"

# the failed gate's message is the verdict's evidence line, markup and all
grep -qxF "expect_ratio DD/HH forward|failure|gate_failed|$ev" "$T/fail.read" ||
	fail "fail: the failure's message is not the evidence line: $(grep '|failure|' "$T/fail.read")"
grep -q '^phase DD forward|error|phase_failed|ibv_reg_mr on cuda:0 failed' "$T/phasefail.read" ||
	fail "phasefail: phase DD is not an error with the phase's message"
grep -q '^run|error|run_failed|no RDMA device found' "$T/early.read" ||
	fail "early: the run's error is not one error testcase"
ok "messages: the evidence line, the phase's error and the run's error"

# cardinality: no size label unless asked for
grep -q 'size_bytes=' "$T/pass.metrics" &&
	fail "pass: a series per size without --openmetrics-sizes"
grep -q '^gdperf_size_ratio{.*size_bytes="65536"}' "$T/pass.metrics-sizes" ||
	fail "pass: --openmetrics-sizes has no per-size ratio"
grep -q '^gdperf_ratio{.*band=">=64KiB"} ' "$T/pass.metrics" ||
	fail "pass: no ratio for the >=64KiB band"
grep -q '^gdperf_phase_moved_events{.*counter="duplicate_request",class="retry"} 844$' "$T/pass.metrics" ||
	fail "pass: the retry counter that moved is not a gauge"
grep -q '^gdperf_time_account_seconds{.*stage="sweep"} ' "$T/pass.metrics" ||
	fail "pass: no time account"
grep -q '^gdperf_run_start_time_seconds{.*} 1796523164$' "$T/pass.metrics" ||
	fail "pass: the start time is not 2026-12-06T02:12:44Z"
ok "per band, not per size; counters, time account and start time"

# atomic: no temporary left beside the files; an unwritable path says so
left=$(find "$T" -name '*.tmp.*' | wc -l)
[ "$left" -eq 0 ] || fail "$left temporary files left beside the outputs"
"$B/tests/ci-formats-dump" metrics "$T/pass.json" "$T/no/such/dir/m.prom" \
	2>"$T/nodir.err" && fail "a missing directory was not refused"
grep -q "no/such/dir/m.prom" "$T/nodir.err" ||
	fail "the error does not name the file: $(cat "$T/nodir.err")"
ok "atomic replacement leaves no temporary; a missing directory is named"

# a benchmark that fails before it measures still writes both files
"$B/gd_write_bw" -d gd_no_such_dev --loopback --out_json_file="$T/b.json" \
	--openmetrics="$T/b.prom" --junit="$T/b.xml" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "gd_write_bw with no device exited $rc, want 1"
metrics_check gd_write_bw "$T/b.prom"
junit_check gd_write_bw "$T/b.xml"
grep -q '^gdperf_run_exit_status{tool="gd_write_bw",run="b".*} 1$' "$T/b.prom" ||
	fail "gd_write_bw's .prom does not say exit status 1"
grep -q '<error type="run_failed"' "$T/b.xml" ||
	fail "gd_write_bw's JUnit file has no run_failed error"
ok "gd_write_bw --openmetrics --junit write both files on an early failure"

# gd_report: one testsuite per campaign, a testcase per gate and
# requirement with the fleet document's states, in both files
mkdir "$T/runs" && cp "$T/pass.json" "$T/fail.json" "$T/lat.json" "$T/runs/"
"$B/gd_report" --json "$T/fleet.json" --markdown "$T/fleet.md" \
	--junit "$T/fleet.xml" --openmetrics "$T/fleet.om" \
	--prom-textfile "$T/fleet.prom" "$T/runs" >/dev/null 2>"$T/fleet.err"
rc=$?
[ "$rc" -eq 3 ] || fail "gd_report exited $rc, want 3: $(head -n 3 "$T/fleet.err")"
metrics_check gd_report "$T/fleet.om"
metrics_check gd_report "$T/fleet.prom"
junit_check gd_report "$T/fleet.xml"
[ -z "$(suite_attrs "$T/fleet.xml")" ] ||
	fail "gd_report: its testsuite has no timestamp, hostname or time"
"$py" "$S/tests/junit_read.py" "$T/fleet.xml" >"$T/fleet.read" ||
	fail "gd_report: junitparser could not read its file"
[ "$(grep -c '^properties|' "$T/fleet.read")" -eq 1 ] ||
	fail "gd_report: not one testsuite"
jq -r '.acceptance.gates[] | "\(.name) \(if .pass then "passed" else "failed" end) \(.detail)"' \
	"$T/fleet.json" | while read -r gate state detail; do
	case $state:$detail in
	passed:--expect-ratio\ not\ set) exp="gate $gate|skipped|gate_not_set|$detail" ;;
	passed:*) exp="gate $gate|passed||" ;;
	*) exp="gate $gate|failure|gate_failed|$detail" ;;
	esac
	grep -qxF "$exp" "$T/fleet.read" ||
		echo "FAIL: gd_report: gate $gate is not '$exp' in the JUnit file"
	grep -q "^gdperf_fleet_gate_state{tool=\"gd_report\",run=\"fleet\",gate=\"$gate\",state=\"$state\"} 1\$" \
		"$T/fleet.prom" || echo "FAIL: gd_report: gate $gate is not $state in the gauges"
done >"$T/fleet.gates"
[ -s "$T/fleet.gates" ] && { cat "$T/fleet.gates"; status=1; }
jq -r '.acceptance.checklist[] | "\(.item)|\(.status)"' "$T/fleet.json" |
	while IFS='|' read -r item st; do
		case $st in
		satisfied) exp="requirement $item|passed|" ;;
		*) exp="requirement $item|skipped|requirement_open|" ;;
		esac
		grep -qF "$exp" "$T/fleet.read" ||
			echo "FAIL: gd_report: requirement $item ($st) is not '$exp'"
	done >"$T/fleet.reqs"
[ -s "$T/fleet.reqs" ] && { cat "$T/fleet.reqs"; status=1; }
grep -q '^gdperf_fleet_pass{tool="gd_report",run="fleet"} 0$' "$T/fleet.prom" ||
	fail "gd_report: gdperf_fleet_pass is not 0 for exit status 3"
grep -q '^gdperf_fleet_requirement_state{.*requirement="pair_coverage",state="open"} 1$' "$T/fleet.prom" ||
	fail "gd_report: the requirement 'pair coverage' is not pair_coverage"
grep -v '^#' "$T/fleet.om" | grep -q '="[^"]* [^"]*"' &&
	fail "gd_report: a label value with a space"
# gd_report's gates as the fleet document records them: the ratio gate
# undecided under each --gate-undecided policy, with the repeats that
# would settle it; a failed one's body its slower series
undec='(.acceptance.gates[] | select(.name == "ratio")) += {pass: false,
	state: "undecided", undecided: true, floor: 0.8, repeats_needed: 5,
	slower: []}'
jq "$undec" "$T/fleet.json" >"$T/fu.json"
jq "$undec"' | (.acceptance.gates[] | select(.name == "ratio"))
	+= {undecided_policy: "undecided"}' "$T/fleet.json" >"$T/fe.json"
jq "$undec"' | (.acceptance.gates[] | select(.name == "ratio"))
	+= {pass: true, undecided_policy: "pass"}' "$T/fleet.json" >"$T/fp.json"
jq '(.acceptance.gates[] | select(.name == "ratio")) += {pass: false,
	state: "failed", floor: 0.8, method: "M", slower: [{execution: "x1", phase: "DD",
	ratio: 0.5, low: 0.45, high: 0.55, slow_band_from_bytes: 65536,
	sizes_slow_alone: 2}]}' "$T/fleet.json" >"$T/ff.json"
for x in fu fe fp ff; do
	"$B/tests/ci-formats-dump" fleet-junit "$T/$x.json" "$T/$x.xml" ||
		fail "gd_report $x: writing its JUnit failed"
	junit_check "gd_report $x" "$T/$x.xml"
	"$py" "$S/tests/junit_read.py" "$T/$x.xml" >"$T/$x.read" ||
		fail "gd_report $x: junitparser could not read its file"
done
grep -q '^gate ratio|failure|gate_undecided|' "$T/fu.read" ||
	fail "gd_report: an undecided ratio gate (fail) is not a failure"
grep -q '^gate ratio|error|gate_undecided|' "$T/fe.read" ||
	fail "gd_report: an undecided ratio gate (undecided) is not an error"
grep -q '^gate ratio|passed||' "$T/fp.read" ||
	fail "gd_report: an undecided ratio gate (pass) is not a pass"
for x in fu fe fp; do
	grep -qxF 'text|gate ratio|undecided: about 5 repeats per series would settle the most uncertain' "$T/$x.read" ||
		fail "gd_report $x: the repeats that would settle it are not said"
done
grep -qxF 'text|gate ratio|x1 DD: 0.50 < 0.80 (95% interval 0.45..0.55), slower from 65536 B, 2 size(s) slower on their own' "$T/ff.read" ||
	fail "gd_report: the failed ratio gate's body does not list its slower series"
# a testcase per series the ratio gate judged, from the document's
# ratio_series: not below passed, a listed one a failure saying where its
# curves part, an undecided one as --gate-undecided makes the gate
series='.ratio_series = [{execution: "e1", phase: "DD", decision: "not_below"},
	{execution: "e2", phase: "DD:rev", decision: "slower",
	 evidence: "e2: DD:rev/HH 0.50; below 0.80 from 1 MiB up"},
	{execution: "e3", phase: "DD", decision: "undecided",
	 evidence: "e3 DD (2 of 8 sizes undecided; about 9 repeats)"}]'
for pol in fail undecided pass; do
	jq "$undec | $series"' | (.acceptance.gates[] | select(.name == "ratio"))
		+= {undecided_policy: "'$pol'"}' "$T/fleet.json" >"$T/fs-$pol.json"
	"$B/tests/ci-formats-dump" fleet-junit "$T/fs-$pol.json" "$T/fs-$pol.xml" ||
		fail "gd_report series ($pol): writing its JUnit failed"
	junit_check "gd_report series ($pol)" "$T/fs-$pol.xml"
	"$py" "$S/tests/junit_read.py" "$T/fs-$pol.xml" >"$T/fs-$pol.read" ||
		fail "gd_report series ($pol): junitparser could not read its file"
	grep -qxF 'e1 DD|passed||' "$T/fs-$pol.read" ||
		fail "gd_report series ($pol): a series not below is not passed"
	grep -qxF 'e2 DD:rev|failure|series_slower|e2: DD:rev/HH 0.50; below 0.80 from 1 MiB up' "$T/fs-$pol.read" ||
		fail "gd_report series ($pol): a listed series is not a failure saying where"
	case $pol in
	fail) exp='e3 DD|failure|series_undecided|e3 DD (2 of 8 sizes undecided; about 9 repeats)' ;;
	undecided) exp='e3 DD|error|series_undecided|e3 DD (2 of 8 sizes undecided; about 9 repeats)' ;;
	pass) exp='text|e3 DD|e3 DD (2 of 8 sizes undecided; about 9 repeats)' ;;
	esac
	grep -qxF "$exp" "$T/fs-$pol.read" ||
		fail "gd_report series ($pol): the undecided series is not '$exp'"
	want=$(($(jq '.acceptance.gates | length' "$T/fleet.json") +
		$(jq '.acceptance.checklist | length' "$T/fleet.json") + 3))
	grep -q "^properties|.*|tests=$want " "$T/fs-$pol.read" ||
		fail "gd_report series ($pol): not $want tests in its suite: $(grep '^properties' "$T/fs-$pol.read")"
done
ok "gd_report --junit: an undecided gate a failure, error or pass by --gate-undecided with the repeats that settle it; a failed one lists its series"
ok "gd_report --junit: a testcase per series judged, passed, failed where its curves part, or undecided by --gate-undecided"
ok "gd_report --junit --openmetrics: $(jq '.acceptance.gates | length' "$T/fleet.json") gates and $(jq '.acceptance.checklist | length' "$T/fleet.json") requirements as in the fleet document"

# gd_compare: a testsuite per comparison; the slower copy's gate fails
# with the verdict's evidence line, a missing input is an error
C=$S/tests/fixtures/compare/write_bw-sweep.json
jq 'def sc: if .size_bytes >= 65536 then .bw_avg_MiBps *= 0.7
	| .bw_peak_MiBps *= 0.7 else . end;
	.phases |= map(.results |= map(sc | if .samples then
		.samples |= map(sc) else . end))' "$C" >"$T/slow.json"
"$B/gd_compare" -q "$C" "$C" --junit "$T/same.xml" >/dev/null 2>&1 ||
	fail "gd_compare of a run against itself did not exit 0"
"$B/gd_compare" -q "$C" "$T/slow.json" "$T/none.json" --json "$T/cmp.json" \
	--junit "$T/cmp.xml" --openmetrics "$T/cmp.om" \
	--prom-textfile "$T/cmp.prom" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "gd_compare with a missing input exited $rc, want 2"
for x in same cmp; do
	junit_check "gd_compare $x" "$T/$x.xml"
	[ -z "$(suite_attrs "$T/$x.xml")" ] ||
		fail "gd_compare $x: a testsuite without timestamp, hostname or time"
	"$py" "$S/tests/junit_read.py" "$T/$x.xml" >"$T/$x.read" ||
		fail "gd_compare $x: junitparser could not read its file"
done
metrics_check gd_compare "$T/cmp.om"
metrics_check gd_compare "$T/cmp.prom"
grep -q "^gdperf_gate_state{tool=\"gd_compare\",run=\"cmp\",baseline=\"$C\",candidate=\"$T/slow.json\",device=\"rxe0\",gate=\"expect_ratio\",comparison=\"candidate/baseline\",direction=\"forward\",state=\"failed\"} 1\$" "$T/cmp.om" ||
	fail "gd_compare: the slower copy's gate is not failed in its gauges"
# two runs' own codes in the gauges, not a run's (GD_OK, GD_GATE_FAIL...)
[ "$(grep -c '^gdperf_verdict_state{tool="gd_compare",run="cmp",.*,code="GD_\(REGRESSION\|NO_REGRESSION\|UNDECIDED\)"} [01]$' "$T/cmp.om")" -eq 3 ] &&
	grep -q '^gdperf_verdict_state{tool="gd_compare",run="cmp",.*,code="GD_REGRESSION"} 1$' "$T/cmp.om" &&
	! grep -q '^gdperf_verdict_state{tool="gd_compare",.*,code="GD_OK"}' "$T/cmp.om" ||
	fail "gd_compare: its gauges do not carry GD_REGRESSION alone among its three codes"
grep -q '^gdperf_run_exit_status{tool="gd_compare",run="cmp"} 2$' "$T/cmp.prom" ||
	fail "gd_compare: its exit status 2 (a missing input) is not in its gauges"
# the judged slower copy: 64 KiB up are 0.70 of the baseline, each a line
for z in 65536 131072 262144 524288 1048576 2097152 4194304 8388608; do
	grep -qxF "text|expect_ratio candidate/baseline forward|$z B: 0.70 < 0.80 (95% bound 0.70)" "$T/cmp.read" ||
		fail "gd_compare: the failure's body does not list $z B"
done
# the body's rule is the document's policy: one text, from the rule
pol=$(jq -r '.comparisons[0].gates[0].policy' "$T/cmp.json")
grep -qxF "text|expect_ratio candidate/baseline forward|rule: $pol" "$T/cmp.read" ||
	fail "gd_compare: the JUnit rule line is not the gate's policy '$pol'"
grep -q '^text|expect_ratio candidate/baseline forward|32768 B' "$T/cmp.read" &&
	fail "gd_compare: 32 KiB, as fast as the baseline, is listed"
grep -qx 'expect_ratio candidate/baseline forward|passed||' "$T/same.read" ||
	fail "gd_compare: the same run's gate does not pass"
# two runs have their own verdict (GD_REGRESSION), not the run's
# GD_GATE_FAIL: the failure's message is the gate's figure and threshold
ev=$(jq -r '.comparisons[0].gates[0] | "expect_ratio candidate/baseline forward failed: figure \(.figure * 10000 | round / 10000), threshold \(.threshold)"' "$T/cmp.json")
[ "$(jq -r '.comparisons[0].gates[0].passed, .comparisons[0].code' "$T/cmp.json" | tr '\n' ' ')" = "false GD_REGRESSION " ] ||
	fail "gd_compare: the slower copy's gate passed in its JSON, or it is not GD_REGRESSION"
grep -qxF "expect_ratio candidate/baseline forward|failure|gate_failed|$ev" "$T/cmp.read" ||
	fail "gd_compare: the failure's message is not '$ev': $(grep '^expect_ratio' "$T/cmp.read")"
grep -q "^input $T/none.json|error|load|" "$T/cmp.read" ||
	fail "gd_compare: the missing input is not an error testcase"
[ "$(grep -c '^properties|' "$T/cmp.read")" -eq 2 ] ||
	fail "gd_compare: not one testsuite per comparison and one for inputs"
ok "gd_compare --junit --openmetrics --prom-textfile: passed, failed with the evidence line and its 8 slow sizes, refused input"

# a command line refused once parsed (as the JSON document, a value
# refused while parsing leaves no file): exit 2, both files say so
"$B/gd_write_bw" --openmetrics="$T/u.prom" --junit="$T/u.xml" -t 16 -l 32 \
	>/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "gd_write_bw -t 16 -l 32 exited $rc, want 2"
grep -q '^gdperf_run_exit_status{tool="gd_write_bw",run="u"} 2$' "$T/u.prom" ||
	fail "a usage error's .prom does not say exit status 2"
junit_check "usage error" "$T/u.xml"
grep -q '<error type="run_failed" message="-l 32 exceeds -t 16' "$T/u.xml" ||
	fail "a usage error's JUnit file has no run_failed error with its message"
ok "a usage error writes both files, exit status 2"

"$B/gd_write_bw" -d gd_no_such_dev --loopback --openmetrics-sizes \
	>/dev/null 2>"$T/sizes.err"
grep -q 'warning: --openmetrics-sizes has no effect without --openmetrics' \
	"$T/sizes.err" || fail "--openmetrics-sizes alone: no warning: $(cat "$T/sizes.err")"
ok "--openmetrics-sizes without --openmetrics is warned about"

echo "1..$n"
exit $status
