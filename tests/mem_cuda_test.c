/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests of the cuda memory backend and the run-time CUDA loader against
 * the fake CUDA driver, a TEST DOUBLE whose device memory faults on a CPU
 * touch: they prove our control flow and messages (alloc, copies, pattern,
 * route, export failure, absent driver), never a GPU path.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"
#include "cli/options.h"
#include "engine/session.h"
#include "transport/verbs.h"

static char fake_cuda_path[1024];
static char empty_root[256];   /* no peer-memory module, no NVIDIA module */
static char peermem_root[300]; /* sys/module/nvidia_peermem present */

#define GD_MEM_TEST_ROOT empty_root
#include "mem_util.h"
#include "fake_verbs.h"

static int alloc_cuda(const char *text, size_t len, struct gd_mem_buf *buf)
{
	struct gd_mem_spec spec;

	assert_int_equal(gd_mem_spec_parse(text, &spec), 0);
	return gd_mem_alloc(buf, &spec, len);
}

static const char *json_path_str(struct json_object *o, const char *a,
				 const char *b)
{
	struct json_object *x = json_object_object_get(o, a);

	if (b)
		x = json_object_object_get(x, b);
	return x ? json_object_get_string(x) : NULL;
}

/* Call counters of the fake driver (a test hook, not a CUDA entry). */
static unsigned int fake_calls(const char *what)
{
	void *h = dlopen(fake_cuda_path, RTLD_NOW | RTLD_NOLOAD);
	unsigned int (*calls)(const char *);
	unsigned int n;

	assert_non_null(h);
	*(void **)&calls = dlsym(h, "gd_fake_cuda_calls");
	assert_non_null(calls);
	n = calls(what);
	dlclose(h);
	return n;
}

static void test_gpu_info(void **state)
{
	struct gd_gpu_info info;
	int count = -1, index = -1;

	/* No DMA-BUF knob: the fake's default is an H200 with open modules. */
	setenv("GD_FAKE_CUDA_GPU_COUNT", "3", 1);
	assert_int_equal(gd_cuda_load(), 0);
	assert_int_equal(gd_cuda_device_count(&count), 0);
	assert_int_equal(count, 3);
	assert_int_equal(gd_cuda_gpu_info(2, &info), 0);
	assert_string_equal(info.name, "Fake GPU 2 (gdperf test double)");
	assert_string_equal(info.pci_bus_id, "0000:19:00.0");
	assert_string_equal(info.uuid,
			    "GPU-f0f0f0f0-f0f0-f0f0-f0f0-f0f0f0f0f0f2");
	assert_int_equal(info.driver_version, 12040);
	assert_int_equal(info.compute_major, 9);
	assert_int_equal(info.compute_minor, 0);
	assert_int_equal(info.dmabuf_supported, 1);
	assert_int_equal(info.gdr_supported, 1);
	assert_int_equal(info.writes_ordering, 0);
	assert_int_equal(info.flush_options, 1);
	assert_string_equal(gd_cuda_ordering_name(info.writes_ordering),
			    "none");
	assert_int_equal(info.total_mem_bytes, 17179869184ULL);
	assert_int_equal(gd_cuda_find("0000:18:00.0", &index), 0);
	assert_int_equal(index, 1);
	assert_int_equal(gd_cuda_find("19:00.0", &index), 0);
	assert_int_equal(index, 2);
	assert_int_equal(gd_cuda_find("2", &index), 0);
	assert_int_equal(gd_cuda_find("0000:3b:00.0", &index), -ENODEV);
	assert_msg_has(
		"no GPU at PCI bus id 0000:3b:00.0; this process sees 3 GPU(s): 0000:17:00.0 (GPU 0), 0000:18:00.0 (GPU 1), 0000:19:00.0 (GPU 2)");
	gd_err_clear();
	assert_int_equal(gd_cuda_gpu_info(3, &info), -ENODEV);
	assert_msg_has("GPU 3 not present: this process sees 3 GPU(s)");
}

static void test_round_trip(void **state)
{
	struct gd_mem_buf buf;
	struct json_object *d;
	uint8_t raw[64];

	assert_int_equal(alloc_cuda("cuda:0", 100000, &buf), 0);
	assert_int_equal((uintptr_t)buf.addr % 65536, 0);
	assert_int_equal(buf.len_bytes, 100000);
	assert_false(buf.ops->cpu_accessible);
	/* Initialised through cuMemcpyHtoD with seed 0 before registration. */
	assert_int_equal(
		gd_mem_check_pattern(&buf, 0, 100000, GD_MEM_INIT_SEED), 0);
	assert_int_equal(gd_mem_fill_pattern(&buf, 1000, 5000, 42), 0);
	assert_int_equal(buf.ops->copy_out(&buf, 1000, raw, sizeof(raw)), 0);
	assert_int_equal(raw[0], 0x66); /* gd_pattern_byte(42, 1000), by hand */
	for (size_t i = 0; i < sizeof(raw); i++)
		assert_int_equal(raw[i], gd_pattern_byte(42, 1000 + i));
	assert_int_equal(gd_mem_check_pattern(&buf, 1000, 5000, 42), 0);
	raw[3] ^= 0x01;
	assert_int_equal(buf.ops->copy_in(&buf, 1000, raw, sizeof(raw)), 0);
	assert_int_equal(gd_mem_check_pattern(&buf, 1000, 5000, 42), -EILSEQ);
	assert_msg_has("in cuda:0 memory");
	assert_msg_has("first mismatch at offset 1003");
	assert_msg_has("1 bytes differ");

	d = gd_mem_describe(&buf);
	assert_string_equal(json_path_str(d, "kind", NULL), "cuda");
	assert_string_equal(json_path_str(d, "spec", NULL), "cuda:0");
	assert_string_equal(json_path_str(d, "gpu", "name"),
			    "Fake GPU 0 (gdperf test double)");
	assert_string_equal(json_path_str(d, "gpu", "pci_bus_id"),
			    "0000:17:00.0");
	assert_string_equal(json_path_str(d, "gpu", "compute_capability"),
			    "9.0");
	assert_false(json_object_get_boolean(
		json_object_object_get(d, "cpu_accessible")));
	json_object_put(d);
	gd_mem_free(&buf);
	assert_null(buf.addr);
}

static void test_select_by_bus_id(void **state)
{
	struct gd_mem_buf buf;
	struct json_object *d;

	setenv("GD_FAKE_CUDA_GPU_COUNT", "2", 1);
	assert_int_equal(alloc_cuda("cuda:0000:18:00.0", 4096, &buf), 0);
	d = gd_mem_describe(&buf);
	assert_int_equal(json_object_get_int(json_object_object_get(
				 json_object_object_get(d, "gpu"), "index")),
			 1);
	json_object_put(d);
	gd_mem_free(&buf);
	assert_int_equal(alloc_cuda("cuda:5", 4096, &buf), -ENODEV);
	assert_msg_has("GPU 5 not present: this process sees 2 GPU(s)");
}

static void test_no_device(void **state)
{
	struct gd_mem_buf buf;

	setenv("GD_FAKE_CUDA_NO_DEVICE", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), -ENODEV);
	assert_msg_has("cuInit failed: CUDA_ERROR_NO_DEVICE (100)");
	assert_msg_has("CUDA_VISIBLE_DEVICES");
	assert_null(buf.ops);
}

static void test_alloc_failure(void **state)
{
	struct gd_mem_buf buf;

	setenv("GD_FAKE_CUDA_ALLOC_FAIL", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 1u << 20, &buf), -ENOMEM);
	/* 1 MiB plus one spare 64 KiB page for alignment. */
	assert_msg_has(
		"cuMemAlloc of 1114112 bytes on GPU 0 (0000:17:00.0) failed: CUDA_ERROR_OUT_OF_MEMORY (2)");
	assert_msg_has("nvidia-smi");
}

static void test_managed_refused(void **state)
{
	struct gd_mem_buf buf;

	setenv("GD_FAKE_CUDA_MANAGED", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), -EINVAL);
	assert_msg_has("managed (unified) memory");
	assert_msg_has("refused");
}

static void test_export_failure(void **state)
{
	struct gd_mem_buf buf;
	struct json_object *d;

	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "1", 1);
	setenv("GD_FAKE_CUDA_EXPORT_FAIL", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0:dmabuf", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, NULL, 0), -EOPNOTSUPP);
	assert_msg_has("DMA-BUF export of 65536 bytes on GPU 0 (0000:17:00.0)");
	assert_msg_has(
		"failed: CUDA_ERROR_NOT_SUPPORTED (801): operation not supported with flags 0; route decision");
	assert_int_equal(fake_calls("export_pcie"), 0);
	assert_msg_has("route decision: dmabuf because requested (:dmabuf)");
	assert_msg_has("next: use --mem=cuda:0:peermem");
	assert_msg_has("neither nvidia_peermem nor nv_peer_mem is loaded");
	d = gd_mem_describe(&buf);
	assert_has(json_path_str(json_object_object_get(d, "route_evidence"),
				 "dmabuf_export", "error"),
		   "cuMemGetHandleForAddressRange(DMA_BUF_FD) on GPU 0");
	json_object_put(d);
	gd_mem_free(&buf);
}

/* Register cuda:0 (auto unless @text says) with no PD: export and route
 * run, the import stops at the missing PD. */
static void reg_no_pd(const char *text, bool pcie, struct gd_mem_buf *buf)
{
	struct gd_mem_spec spec;

	assert_int_equal(gd_mem_spec_parse(text, &spec), 0);
	spec.dmabuf_pcie = pcie;
	assert_int_equal(gd_mem_alloc(buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(buf, NULL, 0), -EINVAL);
	assert_msg_has("without a protection domain");
	gd_err_clear();
}

/* The PCIe mapping flag only when asked, and only on drivers >= 12.8:
 * exported with flags 0 (the default path) otherwise, and said why. */
static void test_export_flags(void **state)
{
	struct gd_mem_buf buf;
	unsigned int pcie0;

	reg_no_pd("cuda:0", false, &buf);
	assert_string_equal(json_path_str(buf.evidence, "route", NULL),
			    "dmabuf");
	assert_string_equal(
		json_path_str(buf.evidence, "dmabuf_export", "flags"), "0");
	assert_false(json_object_get_boolean(json_object_object_get(
		json_object_object_get(buf.evidence, "dmabuf_export"),
		"pcie_mapping_requested")));
	assert_int_equal(fake_calls("export_pcie"), 0);
	gd_mem_free(&buf);

	/* Asked, but the fake's default driver 12040 predates the flag. */
	reg_no_pd("cuda:0", true, &buf);
	assert_string_equal(
		json_path_str(buf.evidence, "dmabuf_export", "flags"), "0");
	assert_has(json_path_str(buf.evidence, "dmabuf_export",
				 "pcie_mapping_note"),
		   "CUDA driver 12040 is older than 12080");
	assert_int_equal(fake_calls("export_pcie"), 0);
	gd_mem_free(&buf);

	setenv("GD_FAKE_CUDA_DRIVER_VERSION", "12080", 1);
	reg_no_pd("cuda:0", true, &buf);
	assert_string_equal(
		json_path_str(buf.evidence, "dmabuf_export", "flags"), "pcie");
	pcie0 = fake_calls("export_pcie");
	assert_int_equal(pcie0, 1);
	gd_mem_free(&buf);

	setenv("GD_FAKE_CUDA_PCIE_FLAG_REFUSE", "1", 1);
	reg_no_pd("cuda:0", true, &buf);
	assert_string_equal(
		json_path_str(buf.evidence, "dmabuf_export", "flags"), "0");
	assert_has(
		json_path_str(buf.evidence, "dmabuf_export",
			      "pcie_mapping_note"),
		"refused the PCIe mapping flag: CUDA_ERROR_INVALID_VALUE (1); exported with flags 0");
	assert_int_equal(fake_calls("export_pcie"), pcie0 + 1);
	gd_mem_free(&buf);
}

static void test_route_by_facts(void **state)
{
	struct gd_mem_buf buf;

	/* Attribute 0 and no peer-memory module: nothing to try. */
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "0", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, NULL, 0), -EOPNOTSUPP);
	assert_msg_has(
		"GPU 0 (0000:17:00.0) memory cannot be registered on (no device): no supported GPU registration route");
	assert_msg_has("DMA_BUF_SUPPORTED=0");
	assert_string_equal(json_path_str(buf.evidence, "route", NULL), "none");
	gd_mem_free(&buf);

	/* nvidia_peermem in the fixture: auto takes the peer-memory route. */
	gd_err_clear();
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "0", 1);
	setenv("GD_SYSFS_ROOT", peermem_root, 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, NULL, 0), -EINVAL);
	assert_string_equal(json_path_str(buf.evidence, "route", NULL),
			    "peermem");
	assert_has(json_path_str(buf.evidence, "why", NULL),
		   "nvidia_peermem is loaded");
	gd_mem_free(&buf);
}

static void test_driver_absent(void **state)
{
	struct gd_mem_spec host = { .kind = GD_MEM_HOST, .gpu_index = -1 };
	struct gd_mem_buf buf;

	setenv("GD_CUDA_LIBRARY", "/nonexistent", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), -ENOENT);
	assert_true(strncmp(gd_err_msg(), "CUDA driver not available (", 27) ==
		    0);
	assert_msg_has("/nonexistent");
	/* Host memory does not need the driver. */
	assert_int_equal(gd_mem_alloc(&buf, &host, 4096), 0);
	gd_mem_free(&buf);
}

static struct json_object *attempt(const struct gd_mem_buf *buf, size_t i)
{
	struct json_object *a = NULL;

	json_object_object_get_ex(buf->evidence, "attempts", &a);
	return a ? json_object_array_get_idx(a, i) : NULL;
}

static size_t attempts(const struct gd_mem_buf *buf)
{
	struct json_object *a = NULL;

	json_object_object_get_ex(buf->evidence, "attempts", &a);
	return a ? json_object_array_length(a) : 0;
}

/* Auto chose DMA-BUF (attribute 1) but the NIC cannot import: peer-memory
 * takes over when loaded, never for a named route, both attempts kept. */
static void test_dmabuf_fallback(void **state)
{
	struct gd_mem_buf buf;

	memset(&fv, 0, sizeof(fv));
	fv.dmabuf_errno = EOPNOTSUPP;
	setenv("GD_SYSFS_ROOT", peermem_root, 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_false(gd_err_is_set());
	assert_int_equal(buf.route_used, GD_ROUTE_PEERMEM);
	assert_int_equal(fv.dmabuf_calls, 1);
	assert_int_equal(fv.mr_calls, 1);
	assert_string_equal(json_path_str(buf.evidence, "route", NULL),
			    "peermem");
	assert_has(json_path_str(buf.evidence, "why", NULL),
		   "fell back to the loaded peer-memory module");
	assert_int_equal(attempts(&buf), 2);
	assert_string_equal(json_path_str(attempt(&buf, 0), "route", NULL),
			    "dmabuf");
	assert_has(
		json_path_str(attempt(&buf, 0), "error", NULL),
		"ibv_reg_dmabuf_mr of 4096 bytes of cuda:0 memory on mlx5_9 failed: errno 95 (EOPNOTSUPP");
	assert_string_equal(json_path_str(attempt(&buf, 1), "route", NULL),
			    "peermem");
	assert_true(json_object_get_boolean(
		json_object_object_get(attempt(&buf, 1), "ok")));
	gd_mem_free(&buf);

	/* A failed export is a failed DMA-BUF route too. */
	setenv("GD_FAKE_CUDA_EXPORT_FAIL", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_int_equal(buf.route_used, GD_ROUTE_PEERMEM);
	assert_has(json_path_str(attempt(&buf, 0), "error", NULL),
		   "DMA-BUF export of 65536 bytes");
	gd_mem_free(&buf);
	unsetenv("GD_FAKE_CUDA_EXPORT_FAIL");

	/* Named: the route under test fails, nothing else is tried. */
	fv.mr_calls = 0;
	assert_int_equal(alloc_cuda("cuda:0:dmabuf", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -EOPNOTSUPP);
	assert_msg_has("ibv_reg_dmabuf_mr");
	assert_int_equal(fv.mr_calls, 0);
	assert_int_equal(attempts(&buf), 1);
	gd_mem_free(&buf);

	/* Auto without a peer-memory module: no fallback to try. */
	gd_err_clear();
	setenv("GD_SYSFS_ROOT", empty_root, 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -EOPNOTSUPP);
	assert_int_equal(fv.mr_calls, 0);
	assert_int_equal(attempts(&buf), 1);
	gd_mem_free(&buf);

	/* Both routes fail: one message with both errors. */
	gd_err_clear();
	fv.mr_errno = EFAULT;
	setenv("GD_SYSFS_ROOT", peermem_root, 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -EFAULT);
	assert_msg_has("could not be registered on mlx5_9 by either route");
	assert_msg_has("errno 95 (EOPNOTSUPP");
	assert_msg_has("peer-memory fallback: ibv_reg_mr");
	gd_mem_free(&buf);
}

/* ENOMEM on the peer-memory route names the locked-memory limit and BAR1,
 * its size from the PCI resource file (tests/mem_gpu_test.c has more). */
static void test_bar1_enomem(void **state)
{
	struct gd_mem_buf buf;

	memset(&fv, 0, sizeof(fv));
	fv.mr_errno = ENOMEM;
	setenv("GD_SYSFS_ROOT", peermem_root, 1);
	assert_int_equal(alloc_cuda("cuda:0:peermem", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has("errno 12 (ENOMEM");
	assert_msg_has(
		"BAR1 of GPU 0 (0000:17:00.0) is 256 MiB (PCI sysfs resource, region 1)");
	assert_msg_has("nvidia-smi -q -d MEMORY");
	assert_msg_has("locked-memory limit (RLIMIT_MEMLOCK)");
	assert_int_equal(json_object_get_int64(json_object_object_get(
				 json_object_object_get(buf.evidence, "facts"),
				 "bar1_bytes")),
			 256 << 20);
	gd_mem_free(&buf);

	/* The fake's BAR1 exhaustion: the export itself runs out. */
	gd_err_clear();
	setenv("GD_FAKE_CUDA_BAR1_BYTES", "0", 1);
	assert_int_equal(alloc_cuda("cuda:0:dmabuf", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has(
		"CUDA_ERROR_OUT_OF_MEMORY (2): out of memory with flags 0");
	assert_msg_has("usual cause is BAR1 space");
	gd_mem_free(&buf);
}

/* The verification read-back flushes GPUDirect RDMA writes first unless
 * the GPU orders them natively. */
static void test_flush_before_read_back(void **state)
{
	struct gd_mem_buf buf;
	struct json_object *d;
	unsigned int n;

	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	n = fake_calls("flush");
	assert_int_equal(gd_mem_check_pattern(&buf, 0, 4096, GD_MEM_INIT_SEED),
			 0);
	assert_int_equal(fake_calls("flush"), n + 1);
	d = gd_mem_describe(&buf);
	assert_string_equal(json_path_str(d, "gpu", "verify_read_back"),
			    "cuFlushGPUDirectRDMAWrites");
	assert_string_equal(
		json_path_str(d, "gpu", "gpu_direct_rdma_writes_ordering"),
		"none");
	json_object_put(d);
	gd_mem_free(&buf);

	setenv("GD_FAKE_CUDA_WRITES_ORDERING", "100", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	n = fake_calls("flush");
	assert_int_equal(gd_mem_check_pattern(&buf, 0, 4096, GD_MEM_INIT_SEED),
			 0);
	assert_int_equal(fake_calls("flush"), n);
	d = gd_mem_describe(&buf);
	assert_string_equal(json_path_str(d, "gpu", "verify_read_back"),
			    "native ordering");
	json_object_put(d);
	gd_mem_free(&buf);

	setenv("GD_FAKE_CUDA_WRITES_ORDERING", "0", 1);
	setenv("GD_FAKE_CUDA_FLUSH_OPTIONS", "0", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	d = gd_mem_describe(&buf);
	assert_string_equal(json_path_str(d, "gpu", "verify_read_back"),
			    "no flush available");
	json_object_put(d);
	gd_mem_free(&buf);
}

/* A failed cuInit is final for the process, as in the real driver. */
static void test_no_cuinit_retry(void **state)
{
	char first[GD_ERR_MSG_MAX];
	unsigned int n;

	setenv("GD_FAKE_CUDA_NO_DEVICE", "1", 1);
	assert_int_equal(gd_cuda_load(), -ENODEV);
	snprintf(first, sizeof(first), "%s", gd_err_msg());
	assert_has(first, "keeps this failure until the process exits");
	n = fake_calls("cuInit");
	assert_int_equal(gd_cuda_load_state(), 1);
	unsetenv("GD_FAKE_CUDA_NO_DEVICE");
	gd_err_clear();
	assert_int_equal(gd_cuda_load(), -ENODEV);
	assert_string_equal(gd_err_msg(), first);
	assert_int_equal(fake_calls("cuInit"), n);
}

/* MLX5_SCATTER_TO_CQE=0 before the device opens, the user's value kept. */
static void test_scatter_to_cqe(void **state)
{
	char rec[160];

	unsetenv("MLX5_SCATTER_TO_CQE");
	gd_verbs_no_scatter_to_cqe(rec, sizeof(rec));
	assert_string_equal(getenv("MLX5_SCATTER_TO_CQE"), "0");
	assert_has(rec, "0 (set by gdperf");
	gd_verbs_no_scatter_to_cqe(rec, sizeof(rec));
	assert_has(rec, "0 (set by the user)");
	setenv("MLX5_SCATTER_TO_CQE", "1", 1);
	gd_verbs_no_scatter_to_cqe(rec, sizeof(rec));
	assert_string_equal(getenv("MLX5_SCATTER_TO_CQE"), "1");
	assert_has(rec, "1 (set by the user and kept");
	unsetenv("MLX5_SCATTER_TO_CQE");
}

/* Does this build pass IBV_ACCESS_RELAXED_ORDERING (rdma-core >= 34)? */
#ifdef HAVE_IBV_REG_DMABUF_MR
static const bool relaxed_built = true;
#else
static const bool relaxed_built = false;
#endif

/* A session's buffers set up as gd_session_setup() does once the device
 * is open, from gd_write_bw's command line @args, on the stand-in PD. */
static int session_memory(const char *const *args, struct gd_opts *o,
			  struct gd_session *s)
{
	const struct gd_test *t = &gd_tests[GD_TEST_WRITE_BW];
	char *argv[8] = { "gd_write_bw" };
	int argc = 1;

	for (; *args; args++)
		argv[argc++] = (char *)*args;
	assert_int_equal(gd_opts_parse(t, argc, argv, o, stdout), 0);
	*s = (struct gd_session){ .test = t, .o = o, .slot_bytes = 8192 };
	s->v.pd = &fake_pd;
	memset(&fv, 0, sizeof(fv));
	return gd_session_setup_memory(s);
}

static void session_memory_free(struct gd_opts *o, struct gd_session *s)
{
	for (unsigned int p = 0; p < GD_PLACE_COUNT; p++)
		gd_mem_free(&s->local[p].mem);
	gd_opts_free(o);
}

/* The access flags every registration of @s received, in order: host then
 * device memory (@dev_call 'm' peer-memory, 'd' DMA-BUF; 0: none), and
 * the header's record of them. */
static void assert_reg_access(const struct gd_session *s, char dev_call)
{
	bool relaxed = relaxed_built && !s->o->disable_pcie_relaxed;
	int qp = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
	int mr = qp | (relaxed ? IBV_ACCESS_RELAXED_ORDERING : 0);

	assert_string_equal(
		gd_session_relaxed_ordering(s),
		s->o->disable_pcie_relaxed ? "off (--disable_pcie_relaxed)"
		: relaxed
			? "on (IBV_ACCESS_RELAXED_ORDERING on every registration)"
			: "off (this build's rdma-core predates IBV_ACCESS_RELAXED_ORDERING)");
	/* Relaxed ordering is a memory-region flag, never a QP's. */
	assert_int_equal(s->access, qp);
	assert_int_equal(fv.nlog, dev_call ? 2 : 1);
	assert_int_equal(fv.log[0].call, 'm');
	assert_int_equal(fv.log[0].access, mr);
	assert_true(s->local[GD_PLACE_HOST].ok);
	if (!dev_call)
		return;
	assert_true(s->local[GD_PLACE_DEV].ok);
	assert_int_equal(fv.log[1].call, dev_call);
	assert_int_equal(fv.log[1].access, mr);
}

/* Every registration call receives IBV_ACCESS_RELAXED_ORDERING, as perftest
 * sets it, unless --disable_pcie_relaxed; a build whose rdma-core predates
 * the flag (no ibv_reg_dmabuf_mr) never passes it. */
static void test_relaxed_ordering_flags(void **state)
{
	static const struct {
		const char *args[4];
		char dev_call;
	} cases[] = {
		{ { NULL }, 0 },
		{ { "--disable_pcie_relaxed", NULL }, 0 },
		{ { "--mem=cuda:0:peermem", NULL }, 'm' },
		{ { "--mem=cuda:0:peermem", "--disable_pcie_relaxed", NULL },
		  'm' },
		{ { "--use_cuda=0", "--use_cuda_dmabuf", NULL }, 'd' },
		{ { "--mem=cuda:0:dmabuf", "--disable_pcie_relaxed", NULL },
		  'd' },
		{ { "--mem=cuda:0", NULL }, 'd' }, /* auto: DMA-BUF */
	};
	struct gd_session s;
	struct gd_opts o;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* Without ibv_reg_dmabuf_mr this build has no DMA-BUF route. */
		if (cases[i].dev_call == 'd' && !relaxed_built)
			continue;
		assert_int_equal(session_memory(cases[i].args, &o, &s), 0);
		assert_reg_access(&s, cases[i].dev_call);
		session_memory_free(&o, &s);
	}
}

/* Huge pages register like host memory, with the same flags; skipped
 * where the kernel has none reserved. */
static void test_relaxed_ordering_hugepage(void **state)
{
	static const char *const on[] = { "--use_hugepages", NULL };
	static const char *const off[] = { "--use_hugepages",
					   "--disable_pcie_relaxed", NULL };
	struct gd_session s;
	struct gd_opts o;

	if (session_memory(on, &o, &s)) {
		assert_msg_has("huge-page memory");
		print_message("hugepage: %s\n", gd_err_msg());
		session_memory_free(&o, &s);
		skip();
	}
	assert_string_equal(s.local[GD_PLACE_HOST].mem.ops->name, "hugepage");
	assert_reg_access(&s, 0);
	session_memory_free(&o, &s);
	assert_int_equal(session_memory(off, &o, &s), 0);
	assert_reg_access(&s, 0);
	session_memory_free(&o, &s);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static void make_peermem_root(void)
{
	static const char *const dirs[] = {
		"",
		"/sys",
		"/sys/module",
		"/sys/module/nvidia_peermem",
		"/sys/bus",
		"/sys/bus/pci",
		"/sys/bus/pci/devices",
		"/sys/bus/pci/devices/0000:17:00.0",
	};
	char path[512];
	FILE *f;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", peermem_root, dirs[i]);
		mkdir(path, 0755);
	}
	/* BAR0 16 MiB, BAR1 256 MiB (64-bit: line 2 empty), as sysfs has it. */
	snprintf(path, sizeof(path),
		 "%s/sys/bus/pci/devices/0000:17:00.0/resource", peermem_root);
	f = fopen(path, "w");
	if (f) {
		fputs("0x00000000fa000000 0x00000000faffffff 0x0000000000040200\n"
		      "0x0000038000000000 0x000003800fffffff 0x000000000014220c\n"
		      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n",
		      f);
		fclose(f);
	}
}

int main(void)
{
	const char *top = getenv("GD_TOP_BUILDDIR");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_gpu_info, reset),
		cmocka_unit_test_setup(test_round_trip, reset),
		cmocka_unit_test_setup(test_select_by_bus_id, reset),
		cmocka_unit_test_setup(test_no_device, reset),
		cmocka_unit_test_setup(test_alloc_failure, reset),
		cmocka_unit_test_setup(test_managed_refused, reset),
		cmocka_unit_test_setup(test_export_failure, reset),
		cmocka_unit_test_setup(test_export_flags, reset),
		cmocka_unit_test_setup(test_route_by_facts, reset),
		cmocka_unit_test_setup(test_driver_absent, reset),
		cmocka_unit_test_setup(test_dmabuf_fallback, reset),
		cmocka_unit_test_setup(test_bar1_enomem, reset),
		cmocka_unit_test_setup(test_flush_before_read_back, reset),
		cmocka_unit_test_setup(test_no_cuinit_retry, reset),
		cmocka_unit_test_setup(test_scatter_to_cqe, reset),
		cmocka_unit_test_setup(test_relaxed_ordering_flags, reset),
		cmocka_unit_test_setup(test_relaxed_ordering_hugepage, reset),
	};
	int ret;

	snprintf(fake_cuda_path, sizeof(fake_cuda_path),
		 "%s/tests/fake_cuda/libfakecuda.so", top ? top : ".");
	if (access(fake_cuda_path, R_OK)) {
		fprintf(stderr,
			"FAIL: fake CUDA driver (test double) not built at %s\n",
			fake_cuda_path);
		return 1;
	}
	snprintf(empty_root, sizeof(empty_root),
		 "/tmp/gd_mem_cuda_test.XXXXXX");
	if (!mkdtemp(empty_root)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(peermem_root, sizeof(peermem_root), "%s/peermem", empty_root);
	make_peermem_root();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	nftw(empty_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return ret ? 1 : 0;
}
