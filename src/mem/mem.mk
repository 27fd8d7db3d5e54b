# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Memory backends (host, hugepage, cuda and its side of the envelope), the
# CUDA driver loaded at run time, the GPU registration route decision, their
# unit test with the fake CUDA driver (a test double), and the real-GPU smoke
# program (not in make check).
libgdperf_la_SOURCES += src/mem/mem.c src/mem/mem.h src/mem/mem_priv.h \
	src/mem/mem_spec.c src/mem/mem_syntax.c src/mem/mem_pattern.c src/mem/mem_host.c \
	src/mem/mem_hugepage.c src/mem/mem_mmap.c src/mem/mem_cuda.c \
	src/mem/mem_cuda_copy.c src/mem/mem_cuda_copy.h src/mem/mem_cuda_envelope.c \
	src/mem/mem_cuda_p2p.c \
	src/mem/mem_regerr.c src/mem/route.c src/mem/bar1.c \
	src/mem/route.h src/mem/cuda_api.c src/mem/cuda_api.h src/mem/cuda_compat.h

# The fake CUDA driver is a TEST DOUBLE: a plain shared object loaded with
# dlopen through GD_CUDA_LIBRARY. libtool is configured with shared
# libraries disabled, so it is linked by the compiler directly.
check_PROGRAMS += tests/fake_cuda/libfakecuda.so
tests_fake_cuda_libfakecuda_so_SOURCES = tests/fake_cuda/fake_cuda.c
tests_fake_cuda_libfakecuda_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_fake_cuda_libfakecuda_so_LINK = $(CCLD) $(tests_fake_cuda_libfakecuda_so_CFLAGS) \
	$(CFLAGS) $(LDFLAGS) -shared -o $@
# Its companion, a fake libibverbs of one device (a TEST DOUBLE) for
# cuda-smoke's attach of the PCIe-mapped export (GD_VERBS_LIBRARY).
check_PROGRAMS += tests/fake_cuda/libfakeverbs.so
tests_fake_cuda_libfakeverbs_so_SOURCES = tests/fake_cuda/fake_verbs_lib.c
tests_fake_cuda_libfakeverbs_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_fake_cuda_libfakeverbs_so_LINK = $(CCLD) $(tests_fake_cuda_libfakeverbs_so_CFLAGS) \
	$(CFLAGS) $(LDFLAGS) -shared -o $@

if HAVE_CMOCKA
check_PROGRAMS += tests/mem_test
TESTS += tests/mem_test
tests_mem_test_SOURCES = tests/mem_test.c tests/mem_util.h
tests_mem_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_mem_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
check_PROGRAMS += tests/mem_cuda_test
TESTS += tests/mem_cuda_test
tests_mem_cuda_test_SOURCES = tests/mem_cuda_test.c tests/mem_util.h tests/fake_verbs.h
tests_mem_cuda_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_mem_cuda_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
# libibverbs registration calls replaced by the test's stand-ins, so the
# route fallback runs without an RDMA device.
tests_mem_cuda_test_LDFLAGS = -Wl,--wrap=ibv_reg_mr_iova2 \
	-Wl,--wrap=ibv_reg_mr -Wl,--wrap=ibv_reg_dmabuf_mr -Wl,--wrap=ibv_dereg_mr
# Per-QP DMA-BUF ranges, BAR1 (NVML, A100 and H100 resource files), the
# out-of-memory advice by route, cuInit and teardown errors.
check_PROGRAMS += tests/mem_gpu_test
TESTS += tests/mem_gpu_test
tests_mem_gpu_test_SOURCES = tests/mem_gpu_test.c tests/mem_util.h tests/fake_verbs.h
tests_mem_gpu_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_mem_gpu_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_mem_gpu_test_LDFLAGS = $(tests_mem_cuda_test_LDFLAGS)
EXTRA_DIST += tests/fixtures/bar1
# The advice for each errno a GPU registration meets, by route and with
# or without CAP_IPC_LOCK.
check_PROGRAMS += tests/mem_gpu_path_test
TESTS += tests/mem_gpu_path_test
tests_mem_gpu_path_test_SOURCES = tests/mem_gpu_path_test.c tests/mem_util.h tests/fake_verbs.h
tests_mem_gpu_path_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_mem_gpu_path_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_mem_gpu_path_test_LDFLAGS = $(tests_mem_cuda_test_LDFLAGS)
# --mem lists and cuda:near/far as the session sets them up.
check_PROGRAMS += tests/mem_place_test
TESTS += tests/mem_place_test
tests_mem_place_test_SOURCES = tests/mem_place_test.c tests/fake_verbs.h
tests_mem_place_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_mem_place_test_LDADD = $(gd_common_ldadd) $(CMOCKA_LIBS)
tests_mem_place_test_LDFLAGS = $(tests_mem_cuda_test_LDFLAGS)
# They load the fake driver (a test double), so build it first.
tests/mem_test.log tests/mem_cuda_test.log tests/mem_place_test.log \
	tests/mem_gpu_test.log tests/mem_gpu_path_test.log: tests/fake_cuda/libfakecuda.so$(EXEEXT)
endif

# Real-GPU smoke tests, run by tests/gpu/run.sh on a machine with a GPU (no
# RDMA device needed). cuda-smoke compiles the CUDA loader, the error path,
# the pattern fill and check and the cuda backend's copy hooks (libc only)
# into itself and links nothing else, so it starts where libibverbs,
# librdmacm or json-c are missing; cuda-smoke-mem tests the memory backend
# with the whole library. make check builds both and runs them against the
# fake driver (a test double).
check_PROGRAMS += tests/gpu/cuda-smoke tests/gpu/cuda-smoke-mem
tests_gpu_cuda_smoke_SOURCES = tests/gpu/cuda-smoke.c tests/gpu/smoke_report.h \
	src/mem/cuda_api.c src/mem/mem_cuda_copy.c src/mem/mem_pattern.c \
	src/mem/mem_syntax.c src/util/error.c
tests_gpu_cuda_smoke_CFLAGS = $(GD_WARN_CFLAGS)
tests_gpu_cuda_smoke_LDADD = -ldl
tests_gpu_cuda_smoke_mem_SOURCES = tests/gpu/cuda-smoke-mem.c tests/gpu/smoke_report.h
tests_gpu_cuda_smoke_mem_LDADD = $(gd_common_ldadd)
TESTS += tests/gpu/fake-smoke.sh
# run.sh's NIC part (stub gd_doctor and gd_write_bw, a synthetic sysfs)
# and its cuInit verdicts (802, 803, 999 FAIL; 100 without /dev/nvidia0 a
# skip), against the fake driver.
TESTS += tests/gpu/nic-stub.sh
EXTRA_DIST += tests/gpu/run.sh tests/gpu/fake-smoke.sh tests/gpu/nic-stub.sh
tests/gpu/fake-smoke.sh.log tests/gpu/nic-stub.sh.log: tests/fake_cuda/libfakecuda.so$(EXEEXT) \
	tests/fake_cuda/libfakeverbs.so$(EXEEXT) \
	tests/gpu/cuda-smoke$(EXEEXT) tests/gpu/cuda-smoke-mem$(EXEEXT)
