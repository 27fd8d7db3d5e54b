#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_doctor offline: the fixture sysfs tree and the dual-socket hwloc XML.
# The map, findings and inventory parsed back from --json (json-c) must
# equal the hand-written golden files; then the same fixture with the fake
# CUDA driver (a test double) checks GPU matching and the route record.
set -u
src=${GD_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${GD_TOP_BUILDDIR:-.}
fx=$src/tests/doctor/fixtures
gold=$src/tests/doctor/golden
dump=$build/tests/doctor/doctor_dump
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

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

# Deterministic "memlock too low": lower the soft limit below --memlock-need.
if ! ulimit -S -l 64 2>/dev/null; then
	echo "SKIP: cannot set the soft RLIMIT_MEMLOCK to 64 KiB here" >&2
	exit 77
fi

GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1 "$build/gd_doctor" \
	--root="$fx/root" --topology-xml="$fx/dual-socket-8gpu.xml" \
	--rails="$fx/rails.txt" --memlock-need=1G --json="$tmp/doc.json" \
	>"$tmp/report.txt" 2>"$tmp/stderr.txt"
rc=$?
check "exit status 3 for error-level findings (got $rc)" test "$rc" -eq 3
check "document records exit_status 3" \
	test "$("$dump" get "$tmp/doc.json" exit_status)" = 3
for part in map findings inventory; do
	"$dump" "$part" "$tmp/doc.json" >"$tmp/$part.txt"
	check "golden $part" diff -u "$gold/$part.txt" "$tmp/$part.txt"
done
check "report shows the downgraded link" grep -q "DOWNGRADED" "$tmp/report.txt"
check "report shows the GPU-to-NIC matrix" \
	grep -q "^  0000:b3:00.0   SYS     SYS     SYS     SYS     NODE    NODE    PIX     PHB" "$tmp/report.txt"
check "ACS is not guessed in fixture mode" \
	test "$("$dump" get "$tmp/doc.json" envelope.topology.map.0.acs_path.0.state)" = "unknown (fixture)"
check "ACS bridges of GPU0's PIX path: downstream, upstream, downstream" \
	test "$("$dump" get "$tmp/doc.json" envelope.topology.map.0.acs_path.0.bridge) $("$dump" get "$tmp/doc.json" envelope.topology.map.0.acs_path.1.bridge) $("$dump" get "$tmp/doc.json" envelope.topology.map.0.acs_path.2.bridge)" = "0000:16:00.0 0000:16:01.0 0000:15:00.0"
check "nothing on stderr" test ! -s "$tmp/stderr.txt"
# Messages are whole (the CUDA error was cut at 159 bytes, mid-word) in
# the JSON and the text, and the text's lines fit 80 columns (but for
# the GPU-to-NIC table, one column per NIC, and the first line, which
# holds the root's path).
cuda_tail='or point GD_CUDA_LIBRARY at libcuda.so.1'
for key in envelope.registration_route.0.evidence.facts.driver_error \
	envelope.registration_route.0.stop_condition; do
	check "$key is whole" \
		sh -c "'$dump' get '$tmp/doc.json' $key | grep -q '$cuda_tail\$'"
done
prose='/^GPU-to-NIC map/ { t = 1 } /^$/ { t = 0 } NR > 1 && !t'
check "the report's lines fit 80 columns (longest $(awk "$prose" "$tmp/report.txt" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'))" \
	test -z "$(awk "$prose" "$tmp/report.txt" | awk 'length($0) > 80')"
check "the CUDA message is whole in the text: driver, route stop and finding" \
	test "$(tr -s ' \n' '  ' <"$tmp/report.txt" | grep -o "$cuda_tail" | wc -l)" -eq 3
# A container: its finding points at the limits printed above it.
cp -R "$fx/root" "$tmp/croot" && touch "$tmp/croot/.dockerenv"
GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1 "$build/gd_doctor" \
	--root="$tmp/croot" --json="$tmp/c.json" >"$tmp/c.txt" 2>/dev/null
check "container finding: the limits in this report, not 'below'" \
	sh -c "grep -A1 'container \\[host\\]: running inside a container' '$tmp/c.txt' |
		grep -q 'next: the memlock and cgroup limits in this report are' &&
		! grep -A2 'container \\[host\\]' '$tmp/c.txt' | grep -q below"
check "rdma-core version from the libibverbs file name or the package, not 'so.1'" \
	sh -c "'$dump' get '$tmp/doc.json' envelope.rdma.rdma_core_version | grep -Eqx '[0-9]+\.[0-9]+'"
check "no CUDA driver: the route record says what was checked" \
	sh -c "'$dump' get '$tmp/doc.json' envelope.registration_route.0.evidence.why_not.dmabuf | grep -qx 'no CUDA driver (/nonexistent/libcuda.so.1 not found), not probed'"

fake=$build/tests/fake_cuda/libfakecuda.so
if [ -f "$fake" ]; then
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=1 GD_FAKE_CUDA_DMABUF_ATTR=1 \
		"$build/gd_doctor" --root="$fx/root" \
		--topology-xml="$fx/dual-socket-8gpu.xml" --json="$tmp/fake.json" >/dev/null
	get() { "$dump" get "$tmp/fake.json" "$1"; }
	check "fake GPU 0 inventoried at 0000:17:00.0" test "$(get envelope.gpu.gpus.0.pci_bus_id)" = 0000:17:00.0
	check "map row 0000:17:00.0 carries CUDA index 0" test "$(get envelope.topology.map.0.cuda_index)" = 0
	check "map row 0000:1c:00.0 has no CUDA index" test "$(get envelope.topology.map.1.cuda_index)" = null
	check "route record: DMA-BUF intended for GPU 0" test "$(get envelope.registration_route.0.intended)" = dmabuf
	check "fake GPU 0: GPUDirect RDMA writes ordering recorded" \
		test "$(get envelope.gpu.gpus.0.gpudirect_rdma_writes_ordering)" = none
	check "fake GPU 0: BAR1 256 MiB from the PCI resource file" \
		test "$(get envelope.gpu.gpus.0.bar1_MiB)" = 256
	check "route record facts: what was checked of CUDA" \
		test "$(get envelope.registration_route.0.evidence.facts.cuda_checked)" = "GPU 0 queried through CUDA driver 12040"
	check "no cuda-driver-missing finding with a driver" \
		sh -c "! '$dump' findings '$tmp/fake.json' | grep -q cuda-driver-missing"

	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=1 GD_FAKE_CUDA_DMABUF_ATTR=0 \
		"$build/gd_doctor" --root="$fx/root" \
		--topology-xml="$fx/dual-socket-8gpu.xml" --json="$tmp/fake.json" >/dev/null
	check "no route: DMA-BUF off and peer-memory modules conflict" \
		test "$(get envelope.registration_route.0.possible)" = false
	check "stop condition names the conflict" \
		sh -c "'$dump' get '$tmp/fake.json' envelope.registration_route.0.stop_condition | grep -q nv_peer_mem"
	check "no-registration-route is an error on the GPU" \
		sh -c "'$dump' findings '$tmp/fake.json' | grep -qx 'error no-registration-route 0000:17:00.0'"

	# GPU peer access, its own section apart from GPU-to-NIC: four GPUs,
	# two pairs that reach each other (as under two CPU sockets).
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=4 GD_FAKE_CUDA_P2P_GROUPS=0-1,2-3 \
		"$build/gd_doctor" --root="$fx/root" \
		--topology-xml="$fx/dual-socket-8gpu.xml" --json="$tmp/p2p.json" \
		>"$tmp/p2p.txt"
	pa() { "$dump" get "$tmp/p2p.json" "envelope.gpu.peer_access.pairs.$1"; }
	check "peer access: 12 ordered pairs of 4 GPUs" \
		test "$(pa 11.from)-$(pa 11.to)" = 3-2
	check "peer access: GPU0 reaches GPU1 directly, not GPU2" \
		test "$(pa 0.can_access_peer)$(pa 1.can_access_peer)" = truefalse
	check "peer access: the P2P attributes are recorded" \
		test "$(pa 0.access_supported)-$(pa 0.native_atomic_supported)" = true-false
	check "peer access: one info finding lists the 8 pairs without it" \
		sh -c "'$dump' findings '$tmp/p2p.json' | grep -qx 'info gpu-peer-access-missing host'"
	check "peer access: the report prints the matrix (rows reach columns)" \
		grep -q '^  GPU0   X      OK     -      -' "$tmp/p2p.txt"
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_GPU_COUNT=2 GD_FAKE_CUDA_P2P_GROUPS=0-0,1-1 \
		"$build/gd_doctor" --root="$fx/root" \
		--topology-xml="$fx/dual-socket-8gpu.xml" --json="$tmp/p2p0.json" >/dev/null
	check "peer access: no pair at all is a warning (ACS, IOMMU or a VM)" \
		sh -c "'$dump' findings '$tmp/p2p0.json' | grep -qx 'warning gpu-peer-access-missing host'"
else
	echo "# fake CUDA driver not built; GPU matching checks not run"
fi
exit $fail
