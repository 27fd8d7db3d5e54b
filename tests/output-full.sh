#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# An output that cannot be written is never a silent success: every program,
# its stdout on /dev/full, exits 1 and says "PROG: ... error writing '-'" on
# stderr (--help, and each tool's real output: gd_compare's table and
# --json -, gd_plan's worksheet, gd_report's Markdown, gd_doctor's text and
# --json=-), while a usage error keeps its status 2; an output file on a
# full device or in a missing directory is named the same way. /dev/full is
# never a path argument here, only stdout or behind a symbolic link in the
# test's directory: a writer that renames a temporary over its path would
# replace the device node when the test runs as root (over the link, only
# the link).
set -u

B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
progs=${GD_PROGRAMS:-}
[ -n "$progs" ] || { echo "FAIL: GD_PROGRAMS is empty; run through make check"; exit 1; }
[ -c /dev/full ] || { echo "SKIP: /dev/full is not a character device here" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-full.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0

fail() {
	echo "FAIL: $*"
	status=1
}

# full WANT NAME PROG ARGS...: PROG ARGS with stdout on /dev/full exits WANT;
# with WANT 1, stderr names PROG and the output ("error writing '-'").
full() {
	want=$1 name=$2 prog=$3
	shift 3
	"$B/$prog" "$@" >/dev/full 2>"$T/$name.err"
	rc=$?
	n=$((n + 1))
	[ "$rc" -eq "$want" ] ||
		fail "$name: $prog $* >/dev/full exited $rc, expected $want; stderr: $(head -n 2 "$T/$name.err")"
	[ "$want" -ne 1 ] ||
		grep -q "^$prog: .*error writing '-'" "$T/$name.err" ||
		fail "$name: $prog $* >/dev/full: no \"$prog: ... error writing '-'\" on stderr: $(head -n 2 "$T/$name.err")"
}

# ok NAME PROG ARGS...: the same command with stdout on /dev/null exits 0,
# so that a failure above is the output's.
ok() {
	name=$1 prog=$2
	shift 2
	"$B/$prog" "$@" >/dev/null 2>"$T/$name.ok.err" ||
		fail "$name: $prog $* >/dev/null exited $?: $(head -n 2 "$T/$name.ok.err")"
}

for prog in $progs; do
	prog=${prog%.exe}
	[ -x "$B/$prog" ] || { fail "$B/$prog not built"; continue; }
	ok "$prog-help" "$prog" --help
	full 1 "$prog-help" "$prog" --help
	full 1 "$prog-version" "$prog" --version
done
full 2 write_bw-usage gd_write_bw --frobnicate

F=$S/tests/fixtures/compare
ok compare gd_compare "$F/write_bw-sweep.json" "$F/write_bw-sweep.json"
full 1 compare gd_compare "$F/write_bw-sweep.json" "$F/write_bw-sweep.json"
full 1 compare-json gd_compare -q --json - "$F/write_bw-sweep.json" \
	"$F/write_bw-sweep.json"
grep -q "^gd_compare: error: --json: error writing '-': No space left" "$T/compare-json.err" ||
	fail "compare-json: the message does not name --json and the reason: $(head -n 1 "$T/compare-json.err")"

plan="--servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 100"
# shellcheck disable=SC2086
ok plan gd_plan $plan
# shellcheck disable=SC2086
full 1 plan gd_plan $plan

mkdir "$T/runs" && cp "$F/write_bw-sweep.json" "$T/runs/" || exit 1
"$B/gd_report" "$T/runs" >/dev/null 2>"$T/report.ok.err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "report: gd_report $T/runs >/dev/null exited $rc"
full 1 report gd_report "$T/runs"
grep -q "^gd_report: error: --markdown: error writing '-'" "$T/report.err" ||
	fail "report: the message does not name --markdown: $(head -n 1 "$T/report.err")"

export GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1
root=$S/tests/doctor/fixtures/root
full 1 doctor gd_doctor --root="$root"
full 1 doctor-json gd_doctor --root="$root" --json=-
grep -q "^gd_doctor: error: --json: error writing '-'" "$T/doctor-json.err" ||
	fail "doctor-json: the message does not name --json: $(head -n 1 "$T/doctor-json.err")"

# Files: FILE a link to /dev/full (a full disk), or in a missing directory.
ln -s /dev/full "$T/full" || exit 1
# file WANT NAME REGEX PROG ARGS...: exits WANT, stderr matches REGEX
file() {
	want=$1 name=$2 re=$3 prog=$4
	shift 4
	"$B/$prog" "$@" >/dev/null 2>"$T/$name.err"
	rc=$?
	n=$((n + 1))
	[ "$rc" -eq "$want" ] && grep -q -- "$re" "$T/$name.err" ||
		fail "$name: $prog $* exited $rc (expected $want), stderr: $(head -n 2 "$T/$name.err")"
}
file 1 compare-file "^gd_compare: error: --json: error writing '$T/full': No space left" \
	gd_compare -q --json "$T/full" "$F/write_bw-sweep.json" "$F/write_bw-sweep.json"
file 1 compare-dir "^gd_compare: error: --json: cannot write '$T/none/c.json': No such file" \
	gd_compare -q --json "$T/none/c.json" "$F/write_bw-sweep.json" "$F/write_bw-sweep.json"
file 1 report-file "^gd_report: error: --json: error writing '$T/full': No space left" \
	gd_report --json "$T/full" "$T/runs"
file 1 report-md "^gd_report: error: --markdown: error writing '$T/full': No space left" \
	gd_report --markdown "$T/full" "$T/runs"
file 1 report-dir "^gd_report: error: --json: cannot write '$T/none/r.json': No such file" \
	gd_report --json "$T/none/r.json" "$T/runs"
# shellcheck disable=SC2086
file 1 plan-file "^gd_plan: error: --json: error writing '$T/full'" gd_plan $plan --quiet --json "$T/full"
# The writers that rename a temporary over their path write a path that
# is not a regular file in place: the links stay links (a rename would have
# replaced them, and /dev/full itself when given as the path).
file 1 doctor-file "^gd_doctor: error: --json: error writing '$T/full': No space left" \
	gd_doctor --root="$root" --json="$T/full"
file 1 bench-file "error: --out_json_file: error writing '$T/full': No space left" \
	gd_write_bw --out_json_file="$T/full"
ln -s /dev/null "$T/null" || exit 1
"$B/gd_doctor" --root="$root" --json="$T/null" >/dev/null 2>&1
n=$((n + 1))
[ -L "$T/full" ] && [ -L "$T/null" ] ||
	fail "a link to /dev/full or /dev/null given as --json was replaced by a file"
[ -c /dev/full ] || fail "/dev/full is no longer a character device"

[ "$n" -ge 30 ] || fail "only $n commands checked; GD_PROGRAMS='$progs'"
[ $status -eq 0 ] && echo "PASS: $n commands with stdout on /dev/full, or a file on a full device or in a missing directory, exit 1 naming the output (a usage error 2)"
exit $status
