#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Host side of the guest cases' --openmetrics and --junit files: the guest
# has neither promtool, xmllint nor python3, so device-tests.tap runs this on
# the outputs that came back (last-run/work/CASE/NAME.prom beside NAME.json
# and NAME.junit.xml). Each pair passes `promtool check metrics` and
# prometheus_client's OpenMetrics parser, the JUnit
# schema (tests/junit.xsd, xmllint) and python3-junitparser, and carries
# its JSON document's gate states, verdict codes and exit status
# (tests/ci-formats-lib.sh, as for the saved documents of ci-formats.sh).
# Exit 0, 1 (a FAIL line each), or 77 with the reason on its first line.
# usage: ci-formats-cases.sh WORKDIR
set -u
S=$(cd "$(dirname "$0")/../.." && pwd)
W=$1
for t in jq promtool xmllint; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "$t not found (Debian: jq, prometheus, libxml2-utils)"
		exit 77
	}
done
py=
for p in "${PYTHON3:-python3}" /usr/bin/python3; do
	"$p" -c 'import junitparser, prometheus_client' 2>/dev/null &&
		{ py=$p; break; }
done
[ -n "$py" ] ||
	{ echo "python3-junitparser or python3-prometheus-client not found"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-ciformats-cases.XXXXXX") || exit 1
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
. "$S/tests/ci-formats-lib.sh"

runs=0
for prom in "$W"/*/*.prom; do
	[ -f "$prom" ] || continue
	base=${prom%.prom} case=$(basename "$(dirname "$prom")")
	name=$(basename "$base")
	for f in "$base.json" "$base.junit.xml"; do
		[ -f "$f" ] || fail "$case/$name: no ${f##*/} beside ${prom##*/}"
	done
	[ -f "$base.json" ] && [ -f "$base.junit.xml" ] || continue
	runs=$((runs + 1))
	# read-only copies: the checks' work files go beside them
	mkdir -p "$T/$case"
	cp "$prom" "$base.junit.xml" "$T/$case/"
	ci_formats_check "$case/$name" "$base.json" "/tmp/work/$case/$name.json" \
		"$T/$case/$name.junit.xml" "$T/$case/$name.prom"
done
if [ "$runs" = 0 ]; then
	echo "no case wrote --openmetrics and --junit files (not among the cases run)"
	exit 77
fi
[ $status = 0 ] && echo "PASS: $runs run(s), $n checks"
exit $status
