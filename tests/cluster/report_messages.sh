#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_report says why: exit 3 names each failed gate on stderr (also when the
# Markdown goes to a file); an empty directory reads "no run documents found
# under DIR", not "0 of 0 tested executions failed"; a truncated or invalid
# .json file is named with its reason among the skipped files (stderr,
# Markdown and inputs.skipped_files), and its execution is unreadable in
# the coverage gate, not missing; --plan on a missing file says so.
B=${GD_TOP_BUILDDIR:-.}
F=${GD_TOP_SRCDIR:-.}/tests/fixtures/compare
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-report-msg.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0

fail() {
	echo "FAIL: $*"
	status=1
}

# has FILE REGEX WHAT
has() {
	n=$((n + 1))
	grep -E -q -- "$2" "$1" || fail "$3: no line matching '$2' in $(basename "$1"): $(head -n 3 "$1")"
}

mkdir "$T/empty" "$T/runs" || exit 1
"$B/gd_report" --markdown "$T/empty.md" --json "$T/empty.json" "$T/empty" \
	>"$T/empty.out" 2>"$T/empty.err"
rc=$?
[ $rc -eq 3 ] || fail "empty directory: exit $rc, expected 3"
[ ! -s "$T/empty.out" ] || fail "empty directory: stdout not empty with --markdown FILE"
has "$T/empty.err" "^gd_report: FAIL \(exit 3\): gate executions: no run documents found under '$T/empty'" "exit 3 on stderr"
has "$T/empty.err" "^gd_report: the report: $T/empty.md" "stderr names the report"
has "$T/empty.md" "^\| executions \| FAIL \| no run documents found under '$T/empty'" "empty directory in the Markdown"
n=$((n + 1))
! grep -q "0 of 0 tested" "$T/empty.md" || fail "empty directory still reads '0 of 0 tested'"

cp "$F/write_bw-sweep.json" "$T/runs/good.json" || exit 1
head -c 2000 "$F/write_bw-sweep.json" >"$T/runs/truncated.json"
printf '{"schema": "gdperf.run/3",]\n' >"$T/runs/invalid.json"
printf '{"schema": "gdperf.plan/1"}\n' >"$T/runs/plan.json"
"$B/gd_report" --markdown "$T/runs.md" --json "$T/runs.json" "$T/runs" \
	2>"$T/runs.err"
rc=$?
[ $rc -eq 3 ] || fail "damaged documents: exit $rc, expected 3"
has "$T/runs.err" "^gd_report: warning: skipped '$T/runs/truncated.json': not valid JSON: it ends early, after 2000 bytes" "truncated on stderr"
has "$T/runs.err" "^gd_report: warning: skipped '$T/runs/invalid.json': not valid JSON: " "invalid on stderr"
has "$T/runs.md" "^- \`$T/runs/truncated.json\`: not valid JSON: it ends early" "truncated in the Markdown"
has "$T/runs.md" "^- \`$T/runs/invalid.json\`: not valid JSON" "invalid in the Markdown"
has "$T/runs.md" "^- \`$T/runs/plan.json\`: schema 'gdperf.plan/1' is not a run or gd_doctor document" "other schema in the Markdown"
has "$T/runs.md" ", 3 skipped \(not readable, or not a run or gd_doctor document: each named below\)" "three skipped counted"
if command -v jq >/dev/null 2>&1; then
	n=$((n + 1))
	[ "$(jq -r '.inputs.skipped_files | map(.file | split("/") | last) | join(" ")' "$T/runs.json")" = "invalid.json plan.json truncated.json" ] ||
		fail "inputs.skipped_files: $(jq -c .inputs.skipped_files "$T/runs.json")"
fi

# A planned execution whose document is truncated is not "missing": the
# coverage gate names its file and the reason, and only executions with no
# file are missing.
if command -v jq >/dev/null 2>&1; then
	mkdir "$T/camp" || exit 1
	"$B/gd_plan" --servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 100 \
		--seconds 5 --quiet --json "$T/camp.plan.json" || fail "gd_plan for the campaign"
	first=$(jq -r '.executions[0].id' "$T/camp.plan.json")
	second=$(jq -r '.executions[1].id' "$T/camp.plan.json")
	head -c 2000 "$F/write_bw-sweep.json" >"$T/camp/$first.json"
	"$B/gd_report" --plan "$T/camp.plan.json" --markdown "$T/camp.md" \
		"$T/camp" 2>"$T/camp.err"
	has "$T/camp.md" "^\| coverage \| FAIL \| 0 of [0-9]+ planned executions have result documents; 1 with an unreadable document \(first: $T/camp/$first.json: not valid JSON: it ends early" "truncated execution in the coverage gate"
	has "$T/camp.md" "; first missing: $second \|" "the first execution without a file is the first missing"
	n=$((n + 1))
	! grep -q "first missing: $first" "$T/camp.md" || fail "a truncated document's execution reads 'first missing'"
fi

"$B/gd_report" --plan "$T/missing.json" "$T/runs" >/dev/null 2>"$T/plan.err"
rc=$?
[ $rc -eq 2 ] || fail "--plan missing.json: exit $rc, expected 2"
has "$T/plan.err" "^gd_report: error: --plan: cannot read '$T/missing.json': No such file or directory" "--plan missing"
n=$((n + 1))
! grep -q "is not a gd_plan JSON document" "$T/plan.err" || fail "--plan missing.json still reads 'is not a gd_plan JSON document'"
"$B/gd_report" --plan "$T/runs/good.json" "$T/runs" >/dev/null 2>"$T/plan2.err"
has "$T/plan2.err" "is not a gd_plan JSON document" "--plan with a run document"

[ $status -eq 0 ] && echo "PASS: gd_report: $n checks of exit 3's reasons, an empty directory, skipped files' reasons and --plan's errno"
exit $status
