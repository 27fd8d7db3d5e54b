#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# One command-line manner for all twelve programs (gdperf(7), COMMAND
# LINE; src/util/opt.h): an unambiguous abbreviation is taken, an
# ambiguous one is refused with what it could mean, a near miss gets "did
# you mean", and every option error is one line on stderr, "PROG: ",
# naming the option, with exit status 2. No device, peer or GPU.
set -u
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
B=$(cd "$B" && pwd) && S=$(cd "$S" && pwd) || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-cli.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0
F=$S/tests/fixtures/compare/write_bw-sweep.json

fail() {
	echo "FAIL: $*"
	status=1
}

# ok NAME PROG ARGS...: exits 0.
ok() {
	name=$1 prog=$2
	shift 2
	n=$((n + 1))
	if "$B/$prog" "$@" >"$T/$name.out" 2>"$T/$name.err"; then
		echo "ok $n - $prog $*"
	else
		fail "$name: $prog $* exited $?: $(head -n 2 "$T/$name.err")"
	fi
}

# refused NAME REGEX PROG ARGS...: exits 2 with one line on stderr,
# "PROG: error: " then the message, matching REGEX: all twelve programs
# print an error in the same shape.
refused() {
	name=$1 re=$2 prog=$3
	shift 3
	"$B/$prog" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	n=$((n + 1))
	if [ "$rc" -ne 2 ]; then
		fail "$name: $prog $* exited $rc, expected 2: $(head -n 2 "$T/$name.err")"
	elif [ "$(wc -l <"$T/$name.err")" -ne 1 ]; then
		fail "$name: $prog $*: not one line on stderr: $(cat "$T/$name.err")"
	elif ! grep -Eq "^$prog: error: $re" "$T/$name.err"; then
		fail "$name: $prog $*: '$(cat "$T/$name.err")' does not match '$prog: error: $re'"
	else
		echo "ok $n - $prog $*: $(cat "$T/$name.err")"
	fi
}

benches=$(sed -n 's/^[[:space:]]*\.name = "\(gd_[a-z0-9_]*\)",$/\1/p' "$S/src/engine/test.c")
for b in $benches; do
	ok "$b-abbrev" "$b" --dry-run --loopback --iter=5
	refused "$b-near" "unknown option --sise; did you mean --size\? \(see $b --help\)$" \
		"$b" --dry-run --loopback --sise=4
	refused "$b-ambiguous" "option --ib is ambiguous: --ib-dev, --ib-port; see $b --help$" \
		"$b" --dry-run --loopback --ib=x
	refused "$b-unknown" "unknown option --frobnicate; see $b --help$" \
		"$b" --dry-run --loopback --frobnicate
	refused "$b-needs" "option --size needs an argument \(BYTES\)$" "$b" --size
	refused "$b-novalue" "option --loopback takes no value; give it alone$" \
		"$b" --dry-run --loopback=1
	# perftest's --ph is not an abbreviation of --phases
	refused "$b-perftest" "--ph \(perftest: PCIe TPH" "$b" --dry-run --loopback --ph=0
done

# gd_plan
plan="--servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 100 --quiet"
# shellcheck disable=SC2086 # $plan is words
ok plan-abbrev gd_plan $plan --tool-arg '-a'
refused plan-near "unknown option --sever; did you mean --servers\? \(see gd_plan --help\)$" \
	gd_plan --sever 3
refused plan-ambiguous "option --re is ambiguous: --repeats, --repeat, --results-dir; see gd_plan --help$" \
	gd_plan --re 3
refused plan-needs "option --servers needs an argument \(N\)$" gd_plan --servers
refused plan-novalue "option --quiet takes no value; give it alone$" gd_plan --quiet=yes
refused plan-short "unknown option -x; see gd_plan --help$" gd_plan -x

# gd_report
mkdir "$T/one" && cp "$F" "$T/one/" || exit 1
n=$((n + 1))
"$B/gd_report" --mark "$T/r.md" "$T/one" 2>/dev/null
rc=$?
if [ $rc -eq 3 ] && [ -s "$T/r.md" ]; then
	echo "ok $n - gd_report --mark is --markdown"
else
	fail "gd_report --mark did not write the Markdown report (exit $rc)"
fi
refused report-near "unknown option --markdwn; did you mean --markdown\? \(see gd_report --help\)$" \
	gd_report --markdwn x "$T/one"
refused report-ambiguous "option --m is ambiguous: --markdown, --mad-k, --min-deviation, --max-cv; see gd_report --help$" \
	gd_report --m x "$T/one"
refused report-needs "option --plan needs an argument \(FILE\)$" gd_report --plan

# gd_compare
ok compare-abbrev gd_compare --exp=0.9 "$F" "$F"
ok compare-mixed gd_compare "$F" -q "$F" --json="$T/c.json"
refused compare-near "unknown option --expect-ration; did you mean --expect-ratio\? \(see gd_compare --help\)$" \
	gd_compare --expect-ration=0.9 "$F"
refused compare-ambiguous "option --j is ambiguous: --json, --junit; see gd_compare --help$" \
	gd_compare --j x "$F"
refused compare-value "--direction: 'sideways' is not one of the values" \
	gd_compare --direction=sideways "$F"
ok compare-dashdash gd_compare -q -- "$F"

# gd_doctor: its file errors in the same one line
ok doctor-abbrev gd_doctor --dif "$T/c.json" "$T/c.json"
refused doctor-near "unknown option --jsn; did you mean --json\? \(see gd_doctor --help\)$" \
	gd_doctor --jsn
refused doctor-needs "option --root needs an argument \(DIR\)$" gd_doctor --root
refused doctor-file "--diff: cannot open '$T/none.json': No such file or directory; check the path and its permissions$" \
	gd_doctor --diff "$T/none.json" "$T/c.json"
printf '{"a": ' >"$T/cut.json"
refused doctor-json "--diff: '$T/cut.json' is not valid JSON: the text ends early at byte 6$" \
	gd_doctor --diff "$T/cut.json" "$T/c.json"

# One --help layout: option lines "  -x, --name=META" or "      --name=META",
# descriptions from column 27, every line within 80 columns.
for prog in $benches gd_plan gd_report gd_compare gd_doctor; do
	"$B/$prog" --help >"$T/help" 2>&1
	n=$((n + 1))
	awk 'length > 80' "$T/help" | grep -q . && fail "$prog --help: lines over 80 columns"
	grep -Eq '^  -h, --help(\[=[A-Za-z]+\])? +[a-z]' "$T/help" ||
		fail "$prog --help: no '  -h, --help' line in the one layout"
	bad=$(grep -E '^ {1,8}--?[a-zA-Z]' "$T/help" | grep -Ev '^(  -[A-Za-z0-9], |      )--[A-Za-z]' | head -n 3)
	[ -z "$bad" ] || fail "$prog --help: option lines not in the one layout: $bad"
	grep -q '^Exit status: 0 all passed, 1 a runtime or output error,' "$T/help" ||
		fail "$prog --help: no exit-status line from the one table"
	echo "ok $n - $prog --help in the one layout"
done

[ $status -eq 0 ] && echo "PASS: $n checks of the one command-line manner of 12 programs"
exit $status
