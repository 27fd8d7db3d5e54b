#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The metrics files in a real collector: Debian's prometheus-node-exporter,
# started here on loopback (not its systemd service) with only its textfile
# collector, reads one directory holding two runs of one tool on one NIC
# (different --label values and files: one OpenMetrics, one Prometheus
# text), a gd_report file and a gd_compare file (its OpenMetrics as is).
# A curl scrape must serve every gdperf sample of every file with its
# value, no more (no two files collide), no textfile scrape error, and the
# exporter's log must hold no error. Skips only without the exporter.
B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
F=$S/tests/fixtures/ci-formats
ne=
for x in "${GD_NODE_EXPORTER:-}" /usr/bin/prometheus-node-exporter \
	prometheus-node-exporter node_exporter; do
	[ -n "$x" ] && command -v "$x" >/dev/null 2>&1 && { ne=$x; break; }
done
[ -n "$ne" ] || {
	echo "SKIP: prometheus-node-exporter not installed (Debian: prometheus-node-exporter; .ci/run installs it)" >&2
	exit 77
}
# configure chose no Python checks (--disable-python-tests): say why
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
for t in curl jq; do
	command -v "$t" >/dev/null 2>&1 ||
		{ echo "FAIL: $t not found (Debian: $t), needed beside $ne"; exit 1; }
done
py=
for p in "${PYTHON3:-python3}" /usr/bin/python3; do
	"$p" -c 'import prometheus_client' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] ||
	{ echo "FAIL: python3-prometheus-client not found (Debian: python3-prometheus-client)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-node-exporter.XXXXXX") || exit 1
pid=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	[ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
	rm -rf "$T"
}
trap cleanup EXIT
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

# the documents: two runs of gd_write_bw on rxe0, a campaign and a
# comparison; the files as the programs write them
D=$T/textfile
mkdir "$D" "$T/runs" || exit 1
jq '.labels = {exec: "r1-a", node: "node01"}' "$F/run.json" >"$T/a.json"
jq '.labels = {exec: "r1-b", node: "node01"} | .started_at = "2026-12-06T02:20:00Z"' \
	"$F/run.json" >"$T/b.json"
"$B/tests/ci-formats-dump" metrics "$T/a.json" "$D/run-a.prom" ||
	fail "writing run a's OpenMetrics"
"$B/tests/ci-formats-dump" prom "$T/b.json" "$D/run-b.prom" ||
	fail "writing run b's Prometheus text"
cp "$T/a.json" "$T/b.json" "$F/lat.json" "$T/runs/"
"$B/gd_report" --expect-ratio 0.8 --prom-textfile "$D/campaign.prom" \
	"$T/runs" >/dev/null 2>"$T/report.err"
[ -s "$D/campaign.prom" ] ||
	fail "gd_report wrote no --prom-textfile: $(head -n 3 "$T/report.err")"
C=$S/tests/fixtures/compare/write_bw-sweep.json
jq 'def sc: if .size_bytes >= 65536 then .bw_avg_MiBps *= 0.7 else . end;
	.phases |= map(.results |= map(sc | if .samples then
		.samples |= map(sc) else . end))' "$C" >"$T/slow.json"
"$B/gd_compare" -q "$C" "$T/slow.json" --openmetrics "$D/compare.prom" \
	>/dev/null 2>&1
[ -s "$D/compare.prom" ] || fail "gd_compare wrote no --openmetrics file"
for f in "$D"/*.prom; do
	"$py" "$S/tests/metrics_read.py" "$f" >"$f.read" 2>"$f.err" ||
		fail "${f##*/}: $(head -n 3 "$f.err")"
	mv "$f.read" "$T/${f##*/}.samples"
done
cat "$T"/*.prom.samples | sort >"$T/want"
ok "4 files: $(wc -l <"$T/want") samples (run-a $(wc -l <"$T/run-a.prom.samples"), run-b $(wc -l <"$T/run-b.prom.samples"), campaign $(wc -l <"$T/campaign.prom.samples"), compare $(wc -l <"$T/compare.prom.samples"))"

# a free loopback port: the kernel's pick for a socket bound to port 0
free_port() {
	"$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start: another process may take the port between the pick and the
# exporter's bind, so a refused bind is tried again with a new port
for try in 1 2 3; do
	port=$(free_port) || { fail "no free port"; break; }
	"$ne" --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$D" \
		--web.listen-address="127.0.0.1:$port" >"$T/ne.log" 2>&1 &
	pid=$!
	# no time limit: wait while it lives and does not answer
	while kill -0 "$pid" 2>/dev/null &&
		! curl -sf -o "$T/scrape" "http://127.0.0.1:$port/metrics"; do
		sleep 0.2
	done
	[ -s "$T/scrape" ] && break
	wait "$pid"
	pid=
	grep -q 'address already in use' "$T/ne.log" ||
		{ fail "$ne exited: $(tail -n 3 "$T/ne.log")"; break; }
	echo "# port $port taken (try $try)"
done
[ -s "$T/scrape" ] || { fail "no scrape"; exit 1; }
ok "$("$ne" --version 2>&1 | head -n 1) on 127.0.0.1:$port, textfile collector only, scraped with curl"

# every file's samples served with their values, and nothing else gdperf
"$py" "$S/tests/metrics_read.py" --prom "$T/scrape" >"$T/scrape.samples" \
	2>"$T/scrape.err" || fail "the scrape does not parse: $(head -n 3 "$T/scrape.err")"
grep '^gdperf_' "$T/scrape.samples" | sort >"$T/got"
missing=$(comm -23 "$T/want" "$T/got" | wc -l)
extra=$(comm -13 "$T/want" "$T/got" | wc -l)
[ "$missing" -eq 0 ] ||
	fail "$missing samples not served, e.g. $(comm -23 "$T/want" "$T/got" | head -n 3)"
[ "$extra" -eq 0 ] ||
	fail "$extra samples served that no file holds, e.g. $(comm -13 "$T/want" "$T/got" | head -n 3)"
ok "every gdperf sample served with its value ($(wc -l <"$T/got") of $(wc -l <"$T/want"))"

# the two runs apart by their labels, each file read without error
for r in run-a run-b; do
	grep -q "^gdperf_run_exit_status{.*run=\"$r\"" "$T/got" ||
		fail "$r's exit status is not served"
done
grep -q '^node_textfile_scrape_error 0$' "$T/scrape" ||
	fail "node_textfile_scrape_error is not 0: $(grep node_textfile_scrape_error "$T/scrape")"
files=$(grep -c '^node_textfile_mtime_seconds{' "$T/scrape")
[ "$files" -eq 4 ] || fail "$files files read, want 4"
ok "runs a and b side by side, 4 files read, node_textfile_scrape_error 0"

# the exporter's log: no error, no "collected before" collision
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
if grep -Eiq 'level=error|collected before|error gathering' "$T/ne.log"; then
	fail "the exporter logged: $(grep -Ei 'level=error|collected before|error gathering' "$T/ne.log" | head -n 3)"
else
	ok "the exporter logged no error ($(wc -l <"$T/ne.log") lines)"
fi

echo "1..$n"
exit $status
