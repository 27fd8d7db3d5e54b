#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every document the suites write without a guest validates against its
# schema in schemas/: the compare fixtures (real gd_write_bw documents),
# the documents of a client that fails early (tests/early-failure.sh's), a
# server's and a loopback run's,
# gd_plan's plans (even, odd with racks, with the locality round), the
# synthetic corpora of tests/cluster (make_corpus.py, the current run
# schema) and gd_report's fleet documents over them, gd_compare's
# documents over the compare fixtures (a pair, --phase, one document
# judged again, slower, undecided, nothing judged, latency, several
# candidates, a refused comparison, --json -), and gd_doctor's on this
# host and on the sysfs fixture tree of tests/doctor (with and without the
# fake CUDA driver, --rails, --peer); then mutated copies must fail
# (validate.py), so the validator is known to bite: an undocumented
# exit_status, a gate's "passed": "yes", and each boolean of every kind
# the documents hold given as "yes" or 1. (gd_doctor --diff
# writes text, no document.) Every schema file resolves alone, with no
# other file beside it; check-jsonschema, where installed, says so too.
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
mkdir -p "$T/run" "$T/plan" "$T/fleet" "$T/compare" "$T/doctor" "$T/var"

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

# make_corpus.py's doctor-HOST.json are stand-ins that carry only what
# gd_report reads (the hostname, envelope.topology.map, the findings), not
# a whole gd_doctor document: gd_doctor's own are validated below.
mkdir -p "$T/stand-ins"
for d in "$T"/run/*/doctor-*.json; do
	[ -f "$d" ] && mv "$d" "$T/stand-ins/$(basename "$(dirname "$d")")-$(basename "$d")"
done

# gd_compare --json: NAME WANT-EXIT ARGS...
F=$S/tests/fixtures/compare
sweep=$F/write_bw-sweep.json one=$F/write_bw-one.json
"$PY" "$S/tests/schemas/variants.py" "$sweep" "$T/var" || fail "compare variants"
compare() {
	name=$1 want=$2
	shift 2
	"$B/gd_compare" -q --json "$T/compare/$name.json" "$@" 2>"$T/err"
	rc=$?
	[ $rc -eq "$want" ] || fail "gd_compare $name: exit $rc, expected $want: $(head -n 2 "$T/err")"
	[ -s "$T/compare/$name.json" ] || fail "gd_compare $name wrote no document"
}
compare pair 0 "$sweep" "$sweep"
compare phase-dd 0 --phase DD "$sweep" "$sweep"
compare self 0 "$sweep"
compare self-floor 3 --expect-ratio=0.99 "$sweep"
compare slow 3 "$sweep" "$T/var/slow.json"
compare many 3 "$sweep" "$sweep" "$T/var/slow.json"
compare undecided 4 "$one" "$one"
compare undecided-pass 0 --gate-undecided=pass "$one" "$one"
compare nothing-judged 4 --phase DD --gate-from=64K "$sweep" "$T/var/small.json"
compare lat 0 "$T/var/lat.json" "$T/var/lat.json"
compare lat-slow 3 "$T/var/lat.json" "$T/var/lat-slow.json"
compare refused 2 --phase HD "$sweep" "$sweep"
compare refused-load 2 "$sweep" "$T/none.json" "$sweep"
compare refused-base 2 "$T/none.json" "$sweep"
"$B/gd_compare" --json - "$sweep" "$sweep" >"$T/compare/stdout.json" 2>/dev/null ||
	fail "gd_compare --json -"

# gd_doctor --json: NAME ARGS... (exit 0, or 3 for error-level findings:
# this host may have no RDMA device and no GPU)
X=$S/tests/doctor/fixtures
fake=$B/tests/fake_cuda/libfakecuda.so
doctor() {
	name=$1
	shift
	"$B/gd_doctor" --json="$T/doctor/$name.json" "$@" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "gd_doctor $name: exit $rc: $(head -n 2 "$T/err")"
	[ -s "$T/doctor/$name.json" ] || fail "gd_doctor $name wrote no document"
}
doctor live
doctor live-memlock --memlock-need=1G
doctor peer --peer="127.0.0.1:$port" --peer-timeout=2000
GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1 doctor fixture --root="$X/root" \
	--topology-xml="$X/dual-socket-8gpu.xml" --rails="$X/rails.txt" --memlock-need=1G
doctor fixture-live-topology --root="$X/root"
"$B/gd_doctor" --json >"$T/doctor/stdout.json" 2>/dev/null
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "gd_doctor --json (stdout): exit $rc"
if [ -f "$fake" ]; then
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=1 GD_FAKE_CUDA_DMABUF_ATTR=1 \
		doctor fake-dmabuf --root="$X/root" --topology-xml="$X/dual-socket-8gpu.xml" \
		--rails="$X/rails.txt"
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=1 GD_FAKE_CUDA_DMABUF_ATTR=0 \
		doctor fake-no-route --root="$X/root" --topology-xml="$X/dual-socket-8gpu.xml"
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=4 GD_FAKE_CUDA_P2P_GROUPS=0-1,2-3 \
		doctor fake-p2p --root="$X/root" --topology-xml="$X/dual-socket-8gpu.xml"
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=2 GD_FAKE_CUDA_P2P_GROUPS=0-0,1-1 \
		doctor fake-no-p2p --root="$X/root" --topology-xml="$X/dual-socket-8gpu.xml"
else
	echo "# fake CUDA driver not built: gd_doctor's GPU sections checked without GPUs"
fi

"$PY" "$S/tests/schemas/validate.py" "$S/schemas" --require run,plan,fleet,compare,doctor \
	"$T/run" "$T/plan" "$T/fleet" "$T/compare" "$T/doctor" >"$T/out"
rc=$?
cat "$T/out"
[ $rc -eq 0 ] || fail "documents against schemas/"
# Each schema file resolves alone (validate.py gives each an empty store):
# with check-jsonschema (pip; not in Debian 12), as a user would run it.
if command -v check-jsonschema >/dev/null 2>&1; then
	for kind in run compare doctor plan fleet; do
		f=$(find "$T/$kind" -name '*.json' | sort | sed -n 1p)
		[ -n "$f" ] || fail "no $kind document for check-jsonschema"
		check-jsonschema --schemafile "$S/schemas/gdperf.$kind.schema.json" "$f" >"$T/cj.out" 2>&1 ||
			fail "check-jsonschema --schemafile schemas/gdperf.$kind.schema.json $f: $(tail -n 3 "$T/cj.out")"
		echo "ok - check-jsonschema --schemafile schemas/gdperf.$kind.schema.json ${f##*/}"
	done
else
	echo "# check-jsonschema not installed (pip install check-jsonschema): each file was validated alone by validate.py"
fi
docs=$(sed -n 's/^ok - \([0-9]*\) gdperf\..* document(s) valid$/\1/p' "$T/out" | awk '{n += $1} END {print n + 0}')
envs=$(sed -n 's/^ok - \([0-9]*\) embedded envelope(s) valid.*/\1/p' "$T/out")
muts=$(grep -c '^ok - .* is refused$' "$T/out")
echo "PASS: $docs documents (${envs:-0} embedded envelopes) validate against schemas/; $muts mutated copies are refused"
