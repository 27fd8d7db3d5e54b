#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# tests/gpu/run.sh against the fake CUDA driver (a TEST DOUBLE, never a GPU):
# the smoke programs' control flow and assertions, and that cuda-smoke needs
# no libibverbs, librdmacm or json-c to start. Proves no GPU path.
set -u
build=${GD_TOP_BUILDDIR:-.}
src=${GD_TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fake=$build/tests/fake_cuda/libfakecuda.so
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
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

if command -v readelf >/dev/null; then
	needed=$(readelf -d "$build/tests/gpu/cuda-smoke" | awk '/NEEDED/ { print $NF }')
	check "cuda-smoke needs none of libibverbs, librdmacm, json-c ($(echo "$needed" | tr '\n' ' '))" \
		sh -c "! echo '$needed' | grep -Eq 'libibverbs|librdmacm|libjson-c'"
fi
# HOST_ATOMIC=1: a coherent platform, where the PCIe export is tried;
# GD_GPU_NIC=no: the fake GPU is never registered with a real NIC.
GD_GPU_NIC=no
export GD_GPU_NIC
GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_DRIVER_VERSION=12080 GD_FAKE_CUDA_HOST_ATOMIC=1 \
	sh "$src/tests/gpu/run.sh" "$build" cuda:0 >"$out" 2>&1
rc=$?
cat "$out"
check "run.sh passes on the fake driver (exit $rc)" test "$rc" -eq 0
check "no FAIL or SKIP line" sh -c "! grep -Eq '^(FAIL|SKIP) ' '$out'"
check "run.sh ends with 'N passed, 0 failed'" \
	sh -c "tail -n 1 '$out' | grep -Eq '^[1-9][0-9]* passed, 0 failed\$'"
for step in "no cuInit retry: a failed cuInit stays failed" \
	"GPU_DIRECT_RDMA_WRITES_ORDERING is none, owner or all_devices" \
	"flush before read-back: cuFlushGPUDirectRDMAWrites returned success" \
	"DMA-BUF export of 64 MiB with flags 0 (default path)" \
	"DMA-BUF export with CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE" \
	"verification catches one corrupt byte at offset 12345"; do
	check "PASS $step" grep -q "^PASS $step" "$out"
done
# The PCIe flag refused: the fallback to flags 0 is a checked step too.
GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_DRIVER_VERSION=12080 GD_FAKE_CUDA_HOST_ATOMIC=1 \
	GD_FAKE_CUDA_PCIE_FLAG_REFUSE=1 "$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "PCIe flag refused: cuda-smoke still passes (exit $rc)" test "$rc" -eq 0
check "PASS fell back to flags 0 and said why" \
	grep -q "^PASS DMA-BUF export: PCIe flag not used, fell back to flags 0" "$out"
# The PCIe-mapped export attached by a NIC (the fake libibverbs, a test
# double): attached; refused at attach with 524, the flags-0 export is.
verbs=$build/tests/fake_cuda/libfakeverbs.so
GD_CUDA_LIBRARY=$fake GD_VERBS_LIBRARY=$verbs GD_FAKE_CUDA_DRIVER_VERSION=12080 \
	GD_FAKE_CUDA_HOST_ATOMIC=1 GD_GPU_NIC='' "$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "attach: cuda-smoke passes (exit $rc)" test "$rc" -eq 0
check "attach: PASS the PCIe-mapped export attached" \
	grep -q "^PASS PCIe-mapped DMA-BUF export attached by fakenic0 (ibv_reg_dmabuf_mr)" "$out"
GD_CUDA_LIBRARY=$fake GD_VERBS_LIBRARY=$verbs GD_FAKE_CUDA_DRIVER_VERSION=12080 \
	GD_FAKE_CUDA_HOST_ATOMIC=1 GD_FAKE_VERBS_PCIE_REFUSE=1 GD_GPU_NIC='' \
	"$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "refused at attach: cuda-smoke passes (exit $rc)" test "$rc" -eq 0
check "refused at attach: INFO 524, then PASS the flags-0 export attached" \
	sh -c "grep -q '^INFO fakenic0 refused the PCIe-mapped export at attach: errno 524' '$out' &&
		grep -q '^PASS after the refusal at attach, the flags-0 export attached by fakenic0' '$out'"
GD_CUDA_LIBRARY=$fake GD_VERBS_LIBRARY=$verbs GD_FAKE_CUDA_DRIVER_VERSION=12080 \
	GD_FAKE_CUDA_HOST_ATOMIC=1 GD_FAKE_VERBS_PCIE_REFUSE=all GD_GPU_NIC='' \
	"$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "a NIC without DMA-BUF import: INFO, not a FAIL (exit $rc)" \
	sh -c "test $rc -eq 0 && grep -q '^INFO PCIe-mapped export not attached: fakenic0 has no DMA-BUF import' '$out'"
GD_CUDA_LIBRARY=$fake GD_VERBS_LIBRARY=$verbs GD_FAKE_CUDA_DRIVER_VERSION=12080 \
	GD_FAKE_CUDA_HOST_ATOMIC=1 GD_GPU_NIC=mlx5_7 "$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
check "attach: GD_GPU_NIC names a NIC the library lacks: INFO, not tried" \
	grep -q "^INFO PCIe-mapped export not attached to a NIC: no RDMA device mlx5_7" "$out"
# Not a coherent platform: the PCIe export is not tried, and said why.
GD_CUDA_LIBRARY=$fake GD_FAKE_CUDA_DRIVER_VERSION=12080 \
	"$build/tests/gpu/cuda-smoke" cuda:0 >"$out" 2>&1
rc=$?
check "not coherent: cuda-smoke passes (exit $rc)" test "$rc" -eq 0
check "not coherent: the PCIe export is not tried, and the line says why" \
	sh -c "grep -q '^INFO DMA-BUF export with the PCIe flag not tried: not a cache-coherent platform' '$out' &&
		! grep -q 'MAPPING_TYPE_PCIE' '$out'"
# From a plain checkout: run.sh compiles cuda-smoke and the fake itself.
env -u GD_TOP_BUILDDIR GD_GPU_FAKE=1 GD_FAKE_CUDA_DRIVER_VERSION=12080 GD_FAKE_CUDA_HOST_ATOMIC=1 \
	sh "$src/tests/gpu/run.sh" cuda:0 >"$out" 2>&1
rc=$?
check "GD_GPU_FAKE=1: run.sh builds the fake and passes (exit $rc)" test "$rc" -eq 0
check "GD_GPU_FAKE=1: the same checks" \
	grep -q "^PASS DMA-BUF export with CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE" "$out"
check "GD_GPU_FAKE=1: teardown results checked" \
	grep -q "^PASS release the primary context" "$out"
for step in "backend pattern fill and check of 64 MiB of device memory" \
	"backend pattern check against another seed fails" \
	"backend pattern check catches one byte flipped with cuMemcpyHtoD at offset 1234567 (first mismatch at offset 1234567: expected 0x"; do
	check "GD_GPU_FAKE=1: PASS $step" grep -qF "PASS $step" "$out"
done
check "GD_GPU_FAKE=1: no FAIL line" sh -c "! grep -q '^FAIL ' '$out'"
check "GD_GPU_FAKE=1: ends with 'N passed, 0 failed'" \
	sh -c "tail -n 1 '$out' | grep -Eq '^[1-9][0-9]* passed, 0 failed\$'"
# No driver: run.sh says "no GPU" and exits 77.
env -u GD_TOP_BUILDDIR GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1 \
	sh "$src/tests/gpu/run.sh" >"$out" 2>&1
rc=$?
check "run.sh without a driver: exit 77 (got $rc)" test "$rc" -eq 77
check "run.sh without a driver: says no GPU" grep -q "^no GPU: " "$out"
check "run.sh without a driver: '0 passed, 0 failed'" \
	sh -c "tail -n 1 '$out' | grep -qx '0 passed, 0 failed'"
# No driver at all: skipped, not failed.
GD_CUDA_LIBRARY=/nonexistent/libcuda.so.1 "$build/tests/gpu/cuda-smoke" >"$out" 2>&1
rc=$?
check "no CUDA driver: exit 77 (got $rc)" test "$rc" -eq 77
exit $fail
