#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# One table of exit statuses for all twelve programs (gdperf(7), EXIT
# STATUS; src/util/exit.h): 0 all passed, 1 a runtime or output error, 2
# usage or unreadable input, 3 a gate failed, 4 a gate undecided. Each
# program is driven into each status it can have, with no device, GPU or
# peer; the statuses a program cannot have are listed at the end with why.
set -u
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
PY=${PYTHON3:-python3}
command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
B=$(cd "$B" && pwd) && S=$(cd "$S" && pwd) || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-exit.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0
# no CUDA library, whatever the machine has: gd_doctor's findings stay the
# fixture's
GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1
export GD_CUDA_LIBRARY

fail() {
	echo "FAIL: $*"
	status=1
}

# ex WANT NAME PROG ARGS...: PROG ARGS exits WANT (stdout in $T/NAME.out,
# stderr in .err); a status 1 or 2 says why in one line that starts with
# "PROG: ".
ex() {
	want=$1 name=$2 prog=$3
	shift 3
	"$B/$prog" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	n=$((n + 1))
	if [ "$rc" -ne "$want" ]; then
		fail "$name: $prog $* exited $rc, expected $want; stderr: $(head -n 3 "$T/$name.err")"
		return
	fi
	if [ "$want" -eq 1 ] || [ "$want" -eq 2 ]; then
		grep -q "^$prog: " "$T/$name.err" ||
			fail "$name: $prog $* (exit $rc) said nothing that starts with '$prog: ': $(head -n 3 "$T/$name.err")"
	fi
	echo "$want" >>"$T/reached-$prog"
	echo "ok $n - $prog exit $want: $name"
}

# A port nobody listens on: bind one, then close it.
port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])') || exit 1

# The eight benchmarks.
benches=$(sed -n 's/^[[:space:]]*\.name = "\(gd_[a-z0-9_]*\)",$/\1/p' "$S/src/engine/test.c")
[ "$(echo "$benches" | wc -w)" -eq 8 ] || fail "found $(echo "$benches" | wc -w) benchmarks in src/engine/test.c, expected 8"
for b in $benches; do
	ex 0 "$b-dry-run" "$b" --dry-run --loopback
	ex 2 "$b-unknown" "$b" --no-such-option
	ex 2 "$b-dry-refused" "$b" --dry-run --loopback --size=0
	# a client that fails before it measures: at its own device (none
	# here) or at the side channel (nothing listens)
	ex 1 "$b-no-peer" "$b" -p "$port" --timeout 300 127.0.0.1
done

# gd_plan
ex 0 plan gd_plan --servers 2 --gpus-per-server 1 --rails 1 --nic-gbps 400 \
	--campaign-repeats 3 --quiet --json "$T/plan.json"
: >"$T/file"
ex 1 plan-unwritable gd_plan --servers 2 --gpus-per-server 1 --rails 1 \
	--nic-gbps 400 --quiet --json "$T/file/plan.json"
ex 2 plan-unknown gd_plan --no-such-option
ex 2 plan-bad-value gd_plan --servers 1 --gpus-per-server 1 --rails 1 --nic-gbps 400
ex 2 plan-unreadable gd_plan --servers 2 --gpus-per-server 1 --rails 1 \
	--nic-gbps 400 --seconds-from "$T/none.json"

# gd_report: a clean campaign, one run without a plan (coverage fails), a
# directory of corrupt JSON alone
"$PY" "$S/tests/cluster/make_corpus.py" --plan "$T/plan.json" --out "$T/camp" >/dev/null ||
	fail "make_corpus.py could not write the campaign"
ex 0 report gd_report --plan "$T/plan.json" --markdown "$T/report.md" "$T/camp"
# the corpus's campaign has runs of one round: a ratio gate it cannot decide
ex 4 report-undecided gd_report --plan "$T/plan.json" --expect-ratio 0.8 \
	--markdown "$T/report-u.md" "$T/camp"
grep -q "^gd_report: UNDECIDED (exit 4): gate ratio: " "$T/report-undecided.err" ||
	fail "report-undecided: no 'UNDECIDED (exit 4): gate ratio' line on stderr"
mkdir "$T/one" "$T/corrupt"
cp "$S/tests/fixtures/compare/write_bw-sweep.json" "$T/one/"
ex 3 report-gate gd_report "$T/one"
grep -q "^gd_report: FAIL (exit 3): gate " "$T/report-gate.err" ||
	fail "report-gate: no 'FAIL (exit 3): gate' line on stderr"
printf '{"schema": "gdperf.run/4", ' >"$T/corrupt/cut.json"
printf 'nonsense\n' >"$T/corrupt/words.json"
ex 2 report-corrupt gd_report "$T/corrupt"
ex 2 report-no-plan gd_report --plan "$T/none.json" "$T/one"
ex 2 report-unknown gd_report --no-such-option "$T/one"
ex 1 report-unwritable gd_report --plan "$T/plan.json" --markdown "$T/report.md" \
	--json "$T/no/dir/fleet.json" "$T/camp"
# an output error is 1, and the failed gates it could not report are not
# said as if they had been
n=$((n + 1))
"$B/gd_report" "$T/one" >/dev/full 2>"$T/report-full.err"
rc=$?
if [ -c /dev/full ]; then
	[ "$rc" -eq 1 ] || fail "report-full: gd_report >/dev/full exited $rc, expected 1"
	grep -q "error writing '-'" "$T/report-full.err" ||
		fail "report-full: no \"error writing '-'\": $(cat "$T/report-full.err")"
	! grep -q "FAIL (exit 3)" "$T/report-full.err" ||
		fail "report-full: says FAIL (exit 3) and exits $rc"
	echo "ok $n - gd_report exit 1: stdout on /dev/full, no 'FAIL (exit 3)'"
else
	echo "ok $n - # SKIP /dev/full is not a character device here"
fi

# gd_compare
F=$S/tests/fixtures/compare
ex 0 compare gd_compare "$F/write_bw-sweep.json" "$F/write_bw-sweep.json"
ex 1 compare-unwritable gd_compare --json "$T/no/dir/c.json" "$F/write_bw-sweep.json"
printf '{"schema": ' >"$T/cut.json"
ex 2 compare-unreadable gd_compare "$F/write_bw-sweep.json" "$T/cut.json"
ex 2 compare-missing gd_compare "$T/none.json"
ex 2 compare-unknown gd_compare --no-such-option "$F/write_bw-sweep.json"
ex 3 compare-slower gd_compare --expect-ratio=0.99 "$F/write_bw-sweep.json"
ex 4 compare-undecided gd_compare "$F/write_bw-one.json" "$F/write_bw-one.json"

# gd_doctor, on the fixture's system (two error-level findings)
D=$S/tests/doctor/fixtures
ex 3 doctor-findings gd_doctor --root="$D/root" \
	--topology-xml="$D/dual-socket-8gpu.xml" --json="$T/a.json"
sed 's/"fw_ver": "20.39.1002"/"fw_ver": "20.38.1000"/' "$T/a.json" >"$T/b.json"
ex 0 doctor-same gd_doctor --diff "$T/a.json" "$T/a.json"
ex 3 doctor-differ gd_doctor --diff "$T/a.json" "$T/b.json"
ex 1 doctor-unwritable gd_doctor --root="$D/root" \
	--topology-xml="$D/dual-socket-8gpu.xml" --json="$T/no/dir/d.json"
ex 2 doctor-unreadable gd_doctor --diff "$T/a.json" "$T/cut.json"
ex 2 doctor-missing gd_doctor --diff "$T/none.json" "$T/a.json"
ex 2 doctor-unknown gd_doctor --no-such-option
grep -q "^gd_doctor: error: --diff: cannot open '$T/none.json': " "$T/doctor-missing.err" ||
	fail "doctor-missing: not the one-line file error: $(cat "$T/doctor-missing.err")"
[ "$(wc -l <"$T/doctor-missing.err")" -eq 1 ] ||
	fail "doctor-missing: the file error is not one line: $(cat "$T/doctor-missing.err")"

# The statuses a program cannot have, and why.
cat <<'EOF'
# benchmarks: 3 and 4 are a measured run's gates, and a run needs an RDMA
#   device; the Soft-RoCE guest checks them (tests/vm/cases/35-perftest-options
#   and 90-paired: 3, 92-statistics: 4).
# gd_plan: no 3 or 4; it plans and judges nothing.
# gd_doctor: no 4; every check decides (a finding is an error or it is not).
EOF
# What each program's --help announces is what it was driven into here.
for prog in $benches gd_plan gd_report gd_compare gd_doctor; do
	said=$("$B/$prog" --help | sed -n '/^Exit status: /,$p' | tr ',' '\n' |
		sed 's/^Exit status://' | awk 'NF { print $1 }' | sort -u | tr '\n' ' ')
	got=$(sort -u "$T/reached-$prog" | tr '\n' ' ')
	case $prog in
	gd_*_bw | gd_*_lat) got="${got}3 4 " ;; # the guest's, above
	esac
	[ "$said" = "$got" ] ||
		fail "$prog: --help announces exit statuses '$said', the test reached '$got'"
done
[ $status -eq 0 ] && echo "PASS: $n invocations of 12 programs gave the table's exit statuses"
exit $status
