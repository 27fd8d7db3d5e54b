#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The run's --openmetrics and --junit files, written from saved run
# documents (tests/fixtures/ci-formats) and jq-made variants of them (a
# failed gate, an undecided one, a phase that did not run, a run that failed
# before its phases): each .prom passes `promtool check metrics`, each
# JUnit file the schema the Jenkins junit plugin reads (tests/junit.xsd,
# xmllint) and python3-junitparser, and both carry the document's verdict:
# the gate states, verdict codes and exit status. A benchmark that fails
# early still writes both; an unwritable path is exit 1 naming it.
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
	"$p" -c 'import junitparser' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] ||
	{ echo "SKIP: python3-junitparser not found (Debian: python3-junitparser)" >&2; exit 77; }
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
jq --arg ev "$ev" '.gates[0].passed = false | .gates[0].decision = "slower"
	| .statistics.assessments[0].decision = "slower"
	| .verdicts = [{code: "GD_GATE_FAIL", severity: "error",
		summary: "1 gate check(s) failed (exit status 3)",
		evidence: [$ev]}] | .exit_status = 3' "$F/run.json" >"$T/fail.json"
jq '.gates[0].passed = false | .gates[0].undecided = true
	| .gates[0].decision = "inconclusive"
	| .statistics.assessments[0].decision = "inconclusive"
	| .verdicts = [{code: "GD_GATE_UNDECIDED", severity: "error",
		summary: "1 expect-ratio gate(s) undecided",
		evidence: ["expect_ratio DD/HH forward undecided: too few rounds"]}]
	| .exit_status = 4' "$F/run.json" >"$T/undecided.json"
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

for v in pass lat fail undecided phasefail early; do
	doc=$T/$v.json
	for kind in metrics metrics-sizes junit; do
		"$B/tests/ci-formats-dump" "$kind" "$doc" "$T/$v.$kind" ||
			fail "$v: writing $kind failed"
	done
	ci_formats_check "$v" "$doc" "$doc" "$T/$v.junit" "$T/$v.metrics" \
		"$T/$v.metrics-sizes"
	[ ! -f "$T/$v.junit.read" ] || cp "$T/$v.junit.read" "$T/$v.read"
done

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
grep -q '^gdperf_phase_moved{.*counter="duplicate_request",class="retry"} 844$' "$T/pass.metrics" ||
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
promtool check metrics <"$T/b.prom" >/dev/null 2>&1 ||
	fail "gd_write_bw's .prom does not pass promtool"
xmllint --noout --schema "$S/tests/junit.xsd" "$T/b.xml" 2>/dev/null ||
	fail "gd_write_bw's JUnit file is not valid"
grep -q '^gdperf_run_exit_status{tool="gd_write_bw".*} 1$' "$T/b.prom" ||
	fail "gd_write_bw's .prom does not say exit status 1"
grep -q '<error type="run_failed"' "$T/b.xml" ||
	fail "gd_write_bw's JUnit file has no run_failed error"
ok "gd_write_bw --openmetrics --junit write both files on an early failure"

# gd_report: one testsuite per campaign, a testcase per gate and
# requirement with the fleet document's states, in both files
mkdir "$T/runs" && cp "$T/pass.json" "$T/fail.json" "$T/lat.json" "$T/runs/"
"$B/gd_report" --json "$T/fleet.json" --markdown "$T/fleet.md" \
	--junit "$T/fleet.xml" --openmetrics "$T/fleet.prom" "$T/runs" \
	>/dev/null 2>"$T/fleet.err"
rc=$?
[ "$rc" -eq 3 ] || fail "gd_report exited $rc, want 3: $(head -n 3 "$T/fleet.err")"
promtool check metrics <"$T/fleet.prom" >"$T/fleet.lint" 2>&1 ||
	fail "gd_report: promtool check metrics: $(head -n 5 "$T/fleet.lint")"
xmllint --noout --schema "$S/tests/junit.xsd" "$T/fleet.xml" 2>"$T/fleet.xsd" ||
	fail "gd_report: xmllint: $(head -n 5 "$T/fleet.xsd")"
"$py" "$S/tests/junit_read.py" "$T/fleet.xml" >"$T/fleet.read" ||
	fail "gd_report: junitparser could not read its file"
[ "$(grep -c '^properties|' "$T/fleet.read")" -eq 1 ] ||
	fail "gd_report: not one testsuite"
jq -r '.acceptance.gates[] | "\(.name) \(if .pass then "passed" else "failed" end) \(.detail)"' \
	"$T/fleet.json" | while read -r gate state detail; do
	case $state in
	passed) exp="gate $gate|passed||" ;;
	*) exp="gate $gate|failure|gate_failed|$detail" ;;
	esac
	grep -qxF "$exp" "$T/fleet.read" ||
		echo "FAIL: gd_report: gate $gate is not '$exp' in the JUnit file"
	grep -q "^gdperf_fleet_gate_state{tool=\"gd_report\",gate=\"$gate\",state=\"$state\"} 1\$" \
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
grep -q '^gdperf_fleet_pass{tool="gd_report"} 0$' "$T/fleet.prom" ||
	fail "gd_report: gdperf_fleet_pass is not 0 for exit status 3"
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
	--junit "$T/cmp.xml" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "gd_compare with a missing input exited $rc, want 2"
for x in same cmp; do
	xmllint --noout --schema "$S/tests/junit.xsd" "$T/$x.xml" 2>"$T/$x.xsd" ||
		fail "gd_compare $x: xmllint: $(head -n 5 "$T/$x.xsd")"
	"$py" "$S/tests/junit_read.py" "$T/$x.xml" >"$T/$x.read" ||
		fail "gd_compare $x: junitparser could not read its file"
done
grep -qx 'expect_ratio DD/HH forward|passed||' "$T/same.read" ||
	fail "gd_compare: the same run's gate does not pass"
# two runs have their own verdict (GD_REGRESSION), not the run's
# GD_GATE_FAIL: the failure's message is the gate's figure and threshold
ev=$(jq -r '.comparisons[0].gates[0] | "expect_ratio DD/HH forward failed: figure \(.figure * 10000 | round / 10000), threshold \(.threshold)"' "$T/cmp.json")
[ "$(jq -r '.comparisons[0].gates[0].passed, .comparisons[0].code' "$T/cmp.json" | tr '\n' ' ')" = "false GD_REGRESSION " ] ||
	fail "gd_compare: the slower copy's gate passed in its JSON, or it is not GD_REGRESSION"
grep -qxF "expect_ratio DD/HH forward|failure|gate_failed|$ev" "$T/cmp.read" ||
	fail "gd_compare: the failure's message is not '$ev': $(grep '^expect_ratio' "$T/cmp.read")"
grep -q "^input $T/none.json|error|load|" "$T/cmp.read" ||
	fail "gd_compare: the missing input is not an error testcase"
[ "$(grep -c '^properties|' "$T/cmp.read")" -eq 2 ] ||
	fail "gd_compare: not one testsuite per comparison and one for inputs"
ok "gd_compare --junit: passed, failed with the evidence line, refused input"

# a command line refused once parsed (as the JSON document, a value
# refused while parsing leaves no file): exit 2, both files say so
"$B/gd_write_bw" --openmetrics="$T/u.prom" --junit="$T/u.xml" -t 16 -l 32 \
	>/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "gd_write_bw -t 16 -l 32 exited $rc, want 2"
grep -q '^gdperf_run_exit_status{tool="gd_write_bw"} 2$' "$T/u.prom" ||
	fail "a usage error's .prom does not say exit status 2"
xmllint --noout --schema "$S/tests/junit.xsd" "$T/u.xml" 2>/dev/null ||
	fail "a usage error's JUnit file is not valid"
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
