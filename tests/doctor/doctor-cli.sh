#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_doctor's command line: usage errors exit 2, --help and the man page
# name every option, --json alone is JSON on stdout, and --diff reports
# what differs between two nodes' envelopes (and nothing for identical ones).
set -u
src=${GD_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GD_TOP_BUILDDIR:-.}
doctor=$build/gd_doctor
dump=$build/tests/doctor/doctor_dump
fx=$src/tests/doctor/fixtures
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
export GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1

check() {
	what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "FAIL - $what"
		fail=1
	fi
}

status() {
	"$doctor" "$@" >/dev/null 2>"$tmp/err"
	echo $?
}

check "unknown option exits 2" test "$(status --bogus)" = 2
check "stray argument exits 2" test "$(status extra)" = 2
check "--diff with one file exits 2" test "$(status --diff a.json)" = 2
check "bad --memlock-need suffix exits 2" test "$(status --memlock-need=12X)" = 2
check "missing --topology-xml exits 2" \
	test "$(status --root="$fx/root" --topology-xml=/nonexistent/topo.xml)" = 2
check "the message names the XML file" grep -q "/nonexistent/topo.xml" "$tmp/err"
check "missing --rails file exits 2" \
	test "$(status --root="$fx/root" --topology-xml="$fx/dual-socket-8gpu.xml" --rails=/nonexistent/rails)" = 2
printf 'mlx5_0\n' >"$tmp/bad-rails"
check "malformed --rails line exits 2" \
	test "$(status --root="$fx/root" --topology-xml="$fx/dual-socket-8gpu.xml" --rails="$tmp/bad-rails")" = 2
check "the message names file and line" grep -q "bad-rails:1:" "$tmp/err"
check "-V prints the version" sh -c "'$doctor' -V | grep -q '^gd_doctor (gdperf) [0-9]'"
"$doctor" --help >"$tmp/help" 2>&1
check "--help exits 0" test $? -eq 0
for opt in --root --topology-xml --rails --memlock-need --json --diff --help --version; do
	check "--help names $opt" grep -q -- "$opt" "$tmp/help"
	check "man page names $opt" grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$src/man/gd_doctor.1"
done

# --json alone: the document on stdout, parseable, no text report.
"$doctor" --root="$fx/root" --topology-xml="$fx/dual-socket-8gpu.xml" --json >"$tmp/a.json"
check "--json to stdout is one JSON document" \
	test "$("$dump" get "$tmp/a.json" envelope.schema)" = gdperf.envelope/1

# Node B: other host name, older firmware, no legacy peer-memory module.
cp -R "$fx/root" "$tmp/rootb"
echo gpu-node-08 >"$tmp/rootb/proc/sys/kernel/hostname"
echo 20.38.1000 >"$tmp/rootb/sys/class/infiniband/mlx5_0/fw_ver"
rm -r "$tmp/rootb/sys/module/nv_peer_mem"
"$doctor" --root="$tmp/rootb" --topology-xml="$fx/dual-socket-8gpu.xml" --json="$tmp/b.json" >/dev/null

"$doctor" --diff "$tmp/a.json" "$tmp/a.json" >"$tmp/same.txt"
check "--diff of identical envelopes exits 0" test $? -eq 0
check "... and reports 0 differences" grep -qx "0 differences" "$tmp/same.txt"
"$doctor" --diff "$tmp/a.json" "$tmp/b.json" >"$tmp/diff.txt"
check "--diff of different envelopes exits 3" test $? -eq 3
check "firmware difference" grep -qx "rdma.devices\[mlx5_0\].fw_ver: 20.39.1002 | 20.38.1000" "$tmp/diff.txt"
check "peer-memory difference" grep -qx "gpu.peer_memory.nv_peer_mem: true | false" "$tmp/diff.txt"
check "the conflict finding exists only on A" \
	grep -q "^findings\[peermem-conflict@host\]: .* | (absent)$" "$tmp/diff.txt"
check "host names are expected to differ: not reported" sh -c "! grep -q hostname '$tmp/diff.txt'"
exit $fail
