#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every document the suites write without a guest validates against its
# schema in schemas/: the compare fixtures (real gd_write_bw documents),
# the documents of a client that fails early (tests/early-failure.sh's), a
# server's and a loopback run's,
# gd_plan's plans (even, odd with racks, with the locality round), the
# synthetic corpora of tests/cluster (make_corpus.py, the current run
# schema) and gd_report's fleet documents over them; then mutated copies
# must fail (validate.py), so the validator is known to bite.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
PY=${PYTHON3:-$(command -v python3)}
[ -n "$PY" ] && command -v "$PY" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
"$PY" -c 'import jsonschema' 2>/dev/null || {
	echo "SKIP: the python3 jsonschema module is not installed" \
		"(Debian/Ubuntu: python3-jsonschema, Fedora: python3-jsonschema)" >&2
	exit 77
}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
C=$S/tests/cluster
mkdir -p "$T/run" "$T/plan" "$T/fleet"

# Clients that fail before their server: a port nobody listens on (one
# with a --config file: options.config is its file and hash).
port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'iters = 7\n' >"$T/run.conf"
for tool in gd_write_bw gd_read_lat; do
	"$B/$tool" --label plan=p1 --label exec=x1 -p "$port" --timeout 300 \
		--config "$T/run.conf" --out_json_file="$T/run/$tool.json" \
		127.0.0.1 >/dev/null 2>&1
	[ -s "$T/run/$tool.json" ] || fail "$tool wrote no document"
done
# A server (no device: it fails at once; with one it listens until the
# SIGTERM, which still writes its document) and a short loopback run.
timeout -k 5 5 "$B/gd_write_bw" --label exec=s1 -p "$port" \
	--out_json_file="$T/run/server.json" >/dev/null 2>&1
[ -s "$T/run/server.json" ] || fail "the server wrote no document"
timeout -k 5 60 "$B/gd_write_bw" --loopback -n 5 -s 4096 \
	--out_json_file="$T/run/loopback.json" >/dev/null 2>&1
[ -s "$T/run/loopback.json" ] || fail "the loopback run wrote no document"
cp "$S"/tests/fixtures/compare/*.json "$T/run/"

"$B/gd_plan" --servers 12 --gpus-per-server 4 --rails 4 --nic-gbps 400 \
	--campaign-repeats 3 --quiet --json "$T/plan/p12.json" || fail "gd_plan 12x4x4"
"$B/gd_plan" --servers 6 --gpus-per-server 2 --rails 2 --nic-gbps 400 \
	--quiet --locality-round --json "$T/plan/p6-loc.json" || fail "gd_plan --locality-round"
printf 'a1 rack=r1\na2 rack=r1 1:mlx5_9:0\nb1 rack=r2\nb2 rack=r2\nc1 rack=r3\n' >"$T/hosts"
"$B/gd_plan" --hosts "$T/hosts" --gpus-per-server 4 --rails 2 --nic-gbps 200 \
	--quiet --out-dir "$T/plan/odd" || fail "gd_plan --hosts (odd, racks)"

"$PY" "$C/make_corpus.py" --plan "$T/plan/p12.json" --out "$T/run/faulty" \
	--slow-assoc node03:1 --bad-rail 2 --bad-server node06 --drop-round 3 \
	--drop node07:3:2 --envelopes --check application || fail "faulty corpus"
"$PY" "$C/make_corpus.py" --plan "$T/plan/p12.json" --out "$T/run/clean" \
	--envelopes --check application || fail "clean corpus"
"$PY" "$C/make_corpus.py" --plan "$T/plan/p6-loc.json" --out "$T/run/loc" \
	--envelopes --check application --near-class node03:NODE \
	--far-faster node05 --loc-inconclusive node02 --loc-fail node04 ||
	fail "locality corpus"

report() { # name want-exit args...
	name=$1 want=$2
	shift 2
	"$B/gd_report" --json "$T/fleet/$name.json" --markdown /dev/null "$@"
	rc=$?
	[ $rc -eq "$want" ] || fail "gd_report $name: exit $rc, expected $want"
}
report faulty 3 --plan "$T/plan/p12.json" "$T/run/faulty"
report ratio 3 --plan "$T/plan/p12.json" --expect-ratio 0.8 "$T/run/faulty"
report clean 0 --plan "$T/plan/p12.json" "$T/run/clean"
report noplan 3 "$T/run/clean"
report loc 0 --plan "$T/plan/p6-loc.json" "$T/run/loc"

"$PY" "$S/tests/schemas/validate.py" "$S/schemas" --require run,plan,fleet \
	"$T/run" "$T/plan" "$T/fleet" || fail "documents against schemas/"
echo "PASS: every document validates against its schema; mutated ones do not"
