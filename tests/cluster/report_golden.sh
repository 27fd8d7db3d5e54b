#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_report's output, byte for byte, against what it wrote before the
# reading was made to stream (tests/cluster/golden/report-*): Markdown,
# JSON, JUnit, OpenMetrics, plot scripts, stderr and exit status over a
# faulty campaign with round 4, envelopes, check documents, an unplanned
# and a hand-written set of odd documents (not JSON, truncated, comments,
# duplicate keys, escapes, numbers as strings, deep nesting). Regenerate
# with GD_GOLDEN_WRITE=1 only when the report is meant to change.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}/tests/cluster
G=$S/golden
# configure chose the interpreter (--enable-python-tests); run by hand, any python3.
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
PY=${PYTHON3:-$(command -v python3)}
if [ -z "$PY" ] || ! command -v "$PY" >/dev/null 2>&1; then
	echo "SKIP: python3 not found" >&2
	exit 77
fi
B=$(cd "$B" && pwd) && S=$(cd "$S" && pwd) && G=$S/golden || exit 1
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cd "$T" || exit 1
"$B/gd_plan" --servers 6 --gpus-per-server 2 --rails 2 --nic-gbps 400 \
	--campaign-repeats 3 --locality-round --quiet --json plan.json || fail "gd_plan"
"$PY" "$S/make_corpus.py" --plan plan.json --out r --slow-assoc node03:1 \
	--bad-rail 1 --bad-server node05 --drop node02:0:2 --envelopes \
	--check application --near-class node03:NODE --far-faster node05 \
	--loc-fail node04 || fail "corpus"
# Odd documents: each is read by json-c the way it always was.
ex=c1-node01-node06-g0-ab-r1
sed 's/"exit_status": 0}$/"exit_status": 0} trailing words/' \
	"r/$ex.json" >r/odd-trailing.json
sed 's/"gpu": "0"/"gpu": "0", "gpu": 1/; s/"exec": "[^"]*"/"exec": "u-dup"/' \
	"r/$ex.json" >r/odd-dup.json
sed 's/"exec": "[^"]*"/"exec": "u-\\u0065sc"/; s/{"schema"/\/* c *\/ {"schema"/' \
	"r/$ex.json" >r/odd-comment.json
sed 's/"exec": "[^"]*"/"exec": "u-num", "step": 2.7, "repeat": true/; s/"size_bytes": 4096,/"size_bytes": "4096",/; s/"size_bytes": 65536,/"size_bytes": -0,/' \
	"r/$ex.json" >r/odd-num.json
sed 's/"exec": "[^"]*"/"exec": "u-err"/; s/"exit_status": 0}$/"exit_status": 5, "error": {"message": "tab\there \\"q\\" \\u00e9"}}/' \
	"r/$ex.server.json" >r/odd-err.server.json
sed 's/"exec": "[^"]*"/"exec": "u-dupph"/; s/"phases": \[/"phases": 7, "phases": [/' \
	"r/$ex.json" >r/odd-dupph.json
head -c 700 "r/$ex.json" >r/odd-truncated.json
printf '{"schema": "gdperf.run/4", "labels": {"exec": "u-deep"}, "x": %s1%s}' \
	"$(printf '[%.0s' $(seq 40))" "$(printf ']%.0s' $(seq 40))" >r/odd-deep.json
printf '{"schema": "gdperf.run/4", "labels": {"exec": "u-big", "gpu": 99999999999999999999}, "phases": [{"name": "HH", "status": "ok", "results": [{"size_bytes": 1e3, "bw_avg_MiBps": 12345678901234567890}]}], "exit_status": 0}' >r/odd-big.json
printf '[1, 2]' >r/odd-array.json
printf '   ' >r/odd-empty.json
printf '{"schema": "gdperf.run/4", "envelope": null, "phases": null, "labels": {"exec": "u-null", "round": 2}, "role": "client", "test": {"measure": "lat"}, "exit_status": 0}' >r/odd-null.json
printf '{"schema": "gdperf.run/4", "envelope": {"host": {"hostname": "node09"}}, "labels": {"exec": "u-env"}}' >r/odd-env.json
cp plan.json r/plan-copy.json

# The plot scripts and data, not the SVG (gnuplot may be absent); the
# version in the JSON is the build's, not the report's.
run() {
	name=$1 && shift
	"$B/gd_report" --json "$name.json" --markdown "$name.md" \
		--junit "$name.xml" --openmetrics "$name.prom" \
		--plots "$name-plots" "$@" >"$name.out" 2>"$name.raw"
	echo "exit $?" >>"$name.raw"
	grep -v '^gd_report: plots: ' "$name.raw" >"$name.err"
	sed 's/"version":"[^"]*"/"version":"V"/' "$name.json" >"$name.tmp" &&
		mv "$name.tmp" "$name.json"
	# the testsuite's own time, host and start: this run's
	sed 's/ time="[0-9.]*" hostname="[^"]*" timestamp="[^"]*">$/ time="T" hostname="H" timestamp="S">/' \
		"$name.xml" >"$name.tmp" && mv "$name.tmp" "$name.xml"
	cat "$name-plots"/*.gp "$name-plots"/*.dat >"$name.plots"
}
run planned --plan plan.json --expect-ratio 0.9 r
run unplanned --gate-from 1K r

for f in planned.json planned.md planned.xml planned.prom planned.err \
	planned.plots unplanned.json unplanned.md unplanned.xml unplanned.prom \
	unplanned.err unplanned.plots; do
	if [ -n "${GD_GOLDEN_WRITE:-}" ]; then
		cp "$f" "$G/report-$f" || fail "cannot write $G/report-$f"
		continue
	fi
	cmp -s "$f" "$G/report-$f" ||
		fail "$f differs from golden/report-$f: $(diff "$G/report-$f" "$f" | head -n 20)"
done
