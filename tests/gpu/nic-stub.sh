#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# tests/gpu/run.sh's NIC part and cuInit verdicts without a GPU or a NIC:
# the fake CUDA driver (a TEST DOUBLE), a synthetic /sys/class/infiniband,
# a stub gd_doctor printing a GPU-to-NIC map and a stub gd_write_bw whose
# outcome per route is set by STUB_DMABUF / STUB_PEERMEM (pass, missing,
# broken, refused). Checks the word (PASS, INFO, FAIL, SKIP) and the exit
# status of each outcome. Proves run.sh's decisions, no GPU path.
set -u
build=${GD_TOP_BUILDDIR:-.}
src=${GD_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fake=$build/tests/fake_cuda/libfakecuda.so
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
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
# shellcheck disable=SC2317 # called through check "$@"
has() { grep -q -- "$1" "$out"; }
# shellcheck disable=SC2317 # called through check "$@"
hasnt() { ! grep -q -- "$1" "$out"; }

# Two NICs, each near one of two GPUs (0000:17:00.0 and 0000:18:00.0).
root=$tmp/root
ib=$root/sys/class/infiniband
mkdir -p "$ib/mlx5_0/ports/1" "$ib/mlx5_1/ports/1"
ports() {
	echo "$1" >"$ib/mlx5_0/ports/1/state"
	echo "$2" >"$ib/mlx5_1/ports/1/state"
}
cat >"$tmp/gd_doctor" <<'EOF'
#!/bin/sh
cat <<'MAP'
GPU-to-NIC map (live)
  GPU            mlx5_0  mlx5_1   nearest      NUMA  rail    ACS
  0000:17:00.0   PIX     SYS      mlx5_0:1     0     -       disabled
  0000:18:00.0   SYS     PIX      mlx5_1:1     1     -       disabled

Registration route
MAP
EOF
# The stub: records its arguments, answers by route as gd_write_bw would
# (the header's route_why now survives a failed registration).
cat >"$tmp/gd_write_bw" <<'EOF'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
route= json=
for a in "$@"; do
	case $a in
	--mem=*) route=${a##*:} ;;
	--out_json_file=*) json=${a#*=} ;;
	esac
done
[ "$route" = dmabuf ] && how=${STUB_DMABUF:-pass} || how=${STUB_PEERMEM:-pass}
case $how in
pass) echo '{"header": {"route": "'"$route"'", "route_why": "requested (:'"$route"'); fine"}}' >"$json"; exit 0 ;;
missing)
	echo '{"header": {"route": "none: device memory unavailable", "route_why": "requested (:peermem) although neither nvidia_peermem nor nv_peer_mem is loaded (\/sys\/module)", "route_error": "x"}}' >"$json"
	echo "gd_write_bw: cuda:0:peermem memory unavailable: ibv_reg_mr failed: errno 14 (EFAULT)" >&2
	exit 1 ;;
refused)
	echo '{"header": {"route_why": "requested (:dmabuf); GPU reports DMA_BUF_SUPPORTED=1"}}' >"$json"
	echo "gd_write_bw: cuda:0:dmabuf memory unavailable: ibv_reg_dmabuf_mr of 65536 bytes failed: errno 524 (ENOTSUPP)" >&2
	exit 1 ;;
registered-broken)
	echo '{"header": {"route": "peermem", "route_why": "requested (:peermem) although neither nvidia_peermem nor nv_peer_mem is loaded"}}' >"$json"
	echo "gd_write_bw: DD: verification failed: first mismatch at offset 0" >&2
	exit 1 ;;
broken)
	echo '{"header": {"route_why": "requested (:'"$route"'); GPU reports DMA_BUF_SUPPORTED=1"}}' >"$json"
	echo "gd_write_bw: DD: verification failed: first mismatch at offset 4096" >&2
	exit 1 ;;
esac
EOF
chmod +x "$tmp/gd_doctor" "$tmp/gd_write_bw"
STUB_LOG=$tmp/calls
export STUB_LOG
# $1: what; the rest: environment words for run.sh. Sets $rc.
run() {
	: >"$STUB_LOG"
	env -u GD_TOP_BUILDDIR GD_CUDA_LIBRARY="$fake" GD_SYSFS_ROOT="$root" \
		GD_GPU_DOCTOR="$tmp/gd_doctor" GD_GPU_WRITE_BW="$tmp/gd_write_bw" \
		"$@" sh "$src/tests/gpu/run.sh" "$build" cuda:0 >"$out" 2>&1
	rc=$?
	sed 's/^/    /' "$out"
}

ports "4: ACTIVE" "4: ACTIVE"
run GD_FAKE_CUDA_GPU_COUNT=2
check "available: exit 0 (got $rc)" test "$rc" -eq 0
check "available: NIC, port state and path class said first" \
	has "^INFO NIC for cuda:0 (0000:17:00.0): mlx5_0, port 1 ACTIVE, GPU-NIC path PIX (the nearest RDMA device with an ACTIVE port)"
check "available: near pair, both routes PASS" \
	sh -c "grep -q '^PASS near pair: NIC mlx5_0, cuda:0 route dmabuf' '$out' &&
		grep -q '^PASS near pair: NIC mlx5_0, cuda:0 route peermem' '$out'"
check "available: far pair named and tested" \
	sh -c "grep -q '^INFO far pair: cuda:0000:18:00.0 on mlx5_0, GPU-NIC path SYS' '$out' &&
		grep -q '^PASS far pair: NIC mlx5_0, cuda:0000:18:00.0 route peermem' '$out'"
check "available: --phases=DD" grep -q -- "--phases=DD " "$STUB_LOG"

run GD_FAKE_CUDA_GPU_COUNT=1 STUB_PEERMEM=missing
check "route missing: exit 0 (got $rc)" test "$rc" -eq 0
check "route missing: INFO names the missing piece" \
	has "^INFO NIC mlx5_0, cuda:0 route peermem: not available: neither nvidia_peermem nor nv_peer_mem is loaded (/sys/module)"
check "route missing: the other route PASS, no FAIL" \
	sh -c "grep -q '^PASS NIC mlx5_0, cuda:0 route dmabuf' '$out' && ! grep -q '^FAIL' '$out'"
check "one GPU: no far pair" hasnt "far pair"

run STUB_DMABUF=refused
check "DMA-BUF refused with 524: exit 0 (got $rc)" test "$rc" -eq 0
check "DMA-BUF refused with 524: INFO not available" \
	has "^INFO NIC mlx5_0, cuda:0 route dmabuf: not available: the GPU driver (the exporter) refused the DMA-BUF attach with 524"

run STUB_DMABUF=broken
check "route broken: exit 1 (got $rc)" test "$rc" -eq 1
check "route broken: FAIL with the error" \
	has "^FAIL NIC mlx5_0, cuda:0 route dmabuf (exit 1): gd_write_bw: DD: verification failed"
check "route broken: the tally counts it" has "^[0-9]* passed, 1 failed$"

run STUB_PEERMEM=registered-broken
check "registered although, then broken: FAIL, not INFO (exit $rc)" \
	sh -c "test $rc -eq 1 && grep -q '^FAIL NIC mlx5_0, cuda:0 route peermem (exit 1): gd_write_bw: DD: verification failed' '$out'"

ports "1: DOWN" "4: ACTIVE"
run GD_FAKE_CUDA_GPU_COUNT=2
check "near port down: the next nearest ACTIVE one (exit $rc)" \
	sh -c "test $rc -eq 0 && grep -q '^INFO NIC for cuda:0 (0000:17:00.0): mlx5_1, port 1 ACTIVE, GPU-NIC path SYS (the nearest RDMA device with an ACTIVE port; nearer ones have none)' '$out'"
ports "1: DOWN" "1: DOWN"
run
check "every port down: exit 0 (got $rc)" test "$rc" -eq 0
check "every port down: SKIP naming the port state, not a FAIL" \
	sh -c "grep -q '^SKIP NIC mlx5_0 port 1 is DOWN: cuda:0 not registered' '$out' && ! grep -q '^FAIL' '$out'"
check "every port down: gd_write_bw not run" test ! -s "$STUB_LOG"

ports "4: ACTIVE" "4: ACTIVE"
run GD_GPU_NIC=mlx5_1
check "GD_GPU_NIC chooses (exit $rc)" \
	sh -c "test $rc -eq 0 && grep -q '^INFO NIC for cuda:0 (0000:17:00.0): mlx5_1, port 1 ACTIVE, GPU-NIC path SYS (chosen with GD_GPU_NIC)' '$out'"

run GD_FAKE_CUDA_COMPUTE_MODE=3
check "exclusive mode: exit 0 (got $rc)" test "$rc" -eq 0
check "exclusive mode: said, and HD,DH run" \
	sh -c "grep -q '^INFO cuda:0 is in EXCLUSIVE_PROCESS compute mode: .* --phases=HD,DH' '$out' &&
		grep -q -- '--phases=HD,DH ' '$STUB_LOG' && ! grep -q -- '--phases=DD' '$STUB_LOG'"

rm -rf "$ib"
run
check "no NIC: exit 0 (got $rc)" test "$rc" -eq 0
check "no NIC: INFO, CUDA checks stand" \
	has "^INFO no RDMA device (.*): GPU memory not registered with a NIC; the CUDA-only checks above stand"

# cuInit failures on a GPU node are failures, not "no GPU".
for code in 802 803 999; do
	run GD_FAKE_CUDA_INIT_ERROR=$code
	check "cuInit $code: run.sh exit 1 (got $rc)" test "$rc" -eq 1
	GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_INIT_ERROR=$code \
		"$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
	rc=$?
	check "cuInit $code: cuda-smoke exit 1 (got $rc)" test "$rc" -eq 1
	case $code in
	802) hint="nvidia-fabricmanager is not running: start it at the driver's exact version" ;;
	803) hint="does not match the loaded NVIDIA kernel module" ;;
	999) hint="check dmesg for NVRM and Xid messages" ;;
	esac
	check "cuInit $code: FAIL with the driver's text and the hint" \
		sh -c "grep '^FAIL cuInit (error $code)' '$out' | grep -q '($code): [a-z]' &&
			grep -q \"$hint\" '$out'"
done
# 100 on a node with a GPU device file is a failure too; without, a skip.
GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_INIT_ERROR=100 GD_GPU_DEV_NODE=$tmp/none \
	"$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "cuInit 100, no device file: exit 77 (got $rc)" test "$rc" -eq 77
: >"$tmp/nvidia0"
GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_INIT_ERROR=100 GD_GPU_DEV_NODE=$tmp/nvidia0 \
	"$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "cuInit 100 with a device file: exit 1 (got $rc)" test "$rc" -eq 1
exit $fail
