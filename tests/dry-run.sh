#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --dry-run on every benchmark: no device, no network, no file. A client
# line is checked as the run checks it, the server's adoption and limits
# included (a default server's, or the --max-* given), and a refusal is
# exit 2 with the line the run would end with; a valid line prints its
# phases, sizes, rounds and expected time and exits 0, as client, server
# and --loopback. The host is never resolved (gd.invalid).
set -u
B=${GD_TOP_BUILDDIR:-.}
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-dry.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
status=0
n=0
H=gd.invalid

fail() {
	echo "FAIL: $*"
	status=1
}
ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

# dry WANT NAME PROG ARGS...: PROG --dry-run ARGS exits WANT, writes
# nothing into $T/out; stdout in $T/NAME.out, stderr in .err. $HANG (120 s)
# only stops a hung program: a dry run takes well under a second even
# under ASan beside busy CPUs (HACKING, "Timing in the tests").
HANG=120
dry() {
	want=$1 name=$2 prog=$3
	shift 3
	rm -rf "$T/out" && mkdir "$T/out"
	timeout "$HANG" "$B/$prog" --dry-run "$@" --out_json_file="$T/out/r.json" \
		>"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	[ "$rc" -eq "$want" ] || {
		fail "$name: $prog --dry-run $* exited $rc, want $want: $(head -c 600 "$T/$name.err")"
		return 1
	}
	[ -z "$(ls -A "$T/out")" ] || fail "$name: --dry-run wrote $(ls "$T/out")"
	return 0
}

for p in gd_write_bw gd_read_bw gd_send_bw gd_atomic_bw \
	gd_write_lat gd_read_lat gd_send_lat gd_atomic_lat; do
	dry 0 "$p-client" "$p" $H || continue
	for want in ' Phase HH     : client host, server host' ' Sizes        : 1 (' \
		' Rounds       : 1 ' ' Steps        : 1 (1 phase(s) x 1 size(s) x 1 round(s))' \
		' Expected time: about ' ' Server limits: .* of 512.0 MiB' \
		"^$p --dry-run: the command line is valid"; do
		grep -q -- "$want" "$T/$p-client.out" || fail "$p: no '$want' in: $(cat "$T/$p-client.out")"
	done
	dry 0 "$p-server" "$p" && grep -q ' Role         : server on port 18515' "$T/$p-server.out" ||
		fail "$p: the server's dry run: $(cat "$T/$p-server.out")"
	dry 0 "$p-loop" "$p" --loopback --mem=hugepage &&
		grep -q ' Phase DD     : client hugepage, server hugepage' "$T/$p-loop.out" ||
		fail "$p: the --loopback dry run: $(cat "$T/$p-loop.out")"
	# the server's limit, in the words of its refusal: --max-time given
	# with --dry-run stands for the server's; 2.1 M messages at 1 us
	dry 2 "$p-time" "$p" -s 8 -n 2000000 --max-time=1 $H &&
		grep -qx "$p: error: a server started with --max-time=1 would reject the test: field 'max-time': ours=2 s theirs=1 s: the request would run about 2 s, over this server's limit of 1 s (--max-time); ask for a shorter -D, fewer -n or sizes, or start the server with --max-time=3" \
			"$T/$p-time.err" || fail "$p -n 2000000 --max-time=1: $(cat "$T/$p-time.err")"
	dry 0 "$p-time-ok" "$p" -s 8 -n 2000000 --max-time=3 $H &&
		grep -q 'checked against a server started with --max-time=3' "$T/$p-time-ok.out" ||
		fail "$p -n 2000000 --max-time=3: $(cat "$T/$p-time-ok.out" "$T/$p-time-ok.err")"
	# a usage error: the run's own line, word for word
	timeout "$HANG" "$B/$p" --frobnicate $H >/dev/null 2>"$T/$p-real.err"
	dry 2 "$p-bad" "$p" --frobnicate $H &&
		cmp -s "$T/$p-real.err" "$T/$p-bad.err" ||
		fail "$p --frobnicate: the dry run's line differs from the run's"
	ok "$p: client, server and --loopback dry runs exit 0 with the plan; -n 2000000 refused with the server's line under --max-time=1, accepted under 3; --frobnicate the run's own line"
done

# a default server's QP limit, on the tests that take -q
for p in gd_write_bw gd_read_bw gd_send_bw gd_atomic_bw; do
	dry 2 "$p-qps" "$p" -q 17 $H &&
		grep -qx "$p: error: a server started with default limits would reject the test: field 'max-qps': ours=17 theirs=16: the request asks for 17 QPs, over this server's limit of 16 (--max-qps); ask for fewer with -q, or start the server with --max-qps=17" \
			"$T/$p-qps.err" || fail "$p -q 17: $(cat "$T/$p-qps.err")"
	dry 0 "$p-qps-ok" "$p" -q 17 --max-qps=17 $H ||
		fail "$p -q 17 --max-qps=17: $(cat "$T/$p-qps-ok.err")"
done
ok "-q 17 refused by a default server (16 QPs), accepted with --max-qps=17"

# test-specific refusals: -D with a ping-pong test, in the run's words
for p in gd_write_lat gd_send_lat; do
	timeout "$HANG" "$B/$p" -D 5 $H >/dev/null 2>"$T/$p-D-real.err"
	dry 2 "$p-D" "$p" -D 5 $H && cmp -s "$T/$p-D-real.err" "$T/$p-D.err" &&
		grep -q -- "-D/--duration does not apply to $p" "$T/$p-D.err" ||
		fail "$p -D 5: $(cat "$T/$p-D.err")"
done
ok "gd_write_lat -D 5 and gd_send_lat -D 5: refused as the run refuses them"

# the time account's estimate: 2 phases x 2 sizes x 3 rounds = 12 steps of
# -D 2, each with 0.05 s fixed: 24.6 s
dry 0 est gd_write_bw -D 2 --sizes=4K,64K --mem=hugepage --phases=HH,DD --repeat=3 $H
grep -q ' Steps        : 12 (2 phase(s) x 2 size(s) x 3 round(s)), each for -D seconds' "$T/est.out" &&
	grep -q ' Expected time: about 24.6 s of steps: 24.0 s measuring and moving data, 0.6 s fixed' "$T/est.out" &&
	grep -q ' Phase DD     : client hugepage, server D1 of the server' "$T/est.out" &&
	grep -q ' Sizes        : 2 (4096,65536 bytes)' "$T/est.out" ||
	fail "the estimate of 12 steps of -D 2: $(cat "$T/est.out")"
ok "12 steps of -D 2 are about 24.6 s, with the phases' memories and the sizes"

# run time and memory against a default server; the run's limit to lift it
dry 2 inf gd_write_bw --run_infinitely $H &&
	grep -q "would reject the test: field 'max-time': ours=no end theirs=3600 s: --run_infinitely has no end" "$T/inf.err" ||
	fail "--run_infinitely: $(cat "$T/inf.err")"
dry 0 inf-ok gd_write_bw --run_infinitely --max-time=0 $H &&
	grep -q 'Expected time: no end' "$T/inf-ok.out" || fail "--run_infinitely --max-time=0: $(cat "$T/inf-ok.out")"
dry 2 long gd_write_bw -a -D 200 $H &&
	grep -q "field 'max-time': ours=4601 s theirs=3600 s" "$T/long.err" ||
	fail "-a -D 200: $(cat "$T/long.err")"
dry 2 mem gd_write_bw -s 65M -q 4 $H &&
	grep -q "field 'max-memory'" "$T/mem.err" || fail "-s 65M -q 4: $(cat "$T/mem.err")"
dry 2 samples gd_read_lat -n 60000000 $H &&
	grep -q 'is too many latency samples' "$T/samples.err" || fail "-n 60000000: $(cat "$T/samples.err")"
ok "--run_infinitely, -a -D 200 and 520 MiB of buffers refused by a default server; too many latency samples by the plan"

# a usage error with --dry-run writes no document either
dry 2 usage gd_write_bw --junit="$T/out/j.xml" -c XX $H
ok "a refused line with --dry-run writes no JSON or JUnit file"

# What a run refuses before it measures, --dry-run refuses: exit 2, the
# run's own line word for word (the run is given the same options and
# ends at the same check, before any device opens).
same() { # NAME WANT ARGS...: --dry-run exits 2 with WANT, as the run does
	sname=$1 sline=$2
	shift 2
	dry 2 "$sname" gd_write_bw "$@" || return
	grep -qxF "gd_write_bw: error: $sline" "$T/$sname.err" ||
		fail "$sname: $(cat "$T/$sname.err")"
	timeout 5 "$B/gd_write_bw" "$@" --out_json_file="$T/out/r.json" >/dev/null 2>"$T/$sname.run"
	rc=$?
	[ $rc -eq 2 ] && cmp -s "$T/$sname.err" "$T/$sname.run" ||
		fail "$sname: the run exits $rc with another line: $(cat "$T/$sname.run")"
}
same phases '--phases: phase DD cannot run: --loopback runs both halves here and this side has no device memory configured (no --mem); add --mem here, or choose --phases that match' \
	--loopback --phases=DD
same gate '--min-bw judges sizes from --gate-from=1 MiB up, and the largest size of this sweep is 64 KiB: the gate would judge no size; lower --gate-from, or add sizes from 1 MiB up' \
	--min-bw=100 --gate-from=1M --sizes=4K,64K $H
same undecided '--gate-undecided says what an undecided --expect-ratio gate does, and there is no --expect-ratio gate; give --expect-ratio too, or drop it' \
	--gate-undecided=pass $H
ok "--loopback --phases=DD, a --min-bw gate over no size and --gate-undecided without --expect-ratio: exit 2 with the run's own line"

[ $status = 0 ] && echo "PASS: $n checks of --dry-run"
exit $status
