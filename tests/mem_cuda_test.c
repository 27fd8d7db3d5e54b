/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests of the cuda memory backend and the run-time CUDA loader against
 * the fake CUDA driver, a TEST DOUBLE backed by host memory: they prove our
 * control flow and messages (alloc, copies, pattern, route, export failure,
 * absent driver), never a GPU path.
 */
#include <config.h>

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
#include <json-c/json.h>

#include "cuda_api.h"
#include "error.h"
#include "mem.h"
#include "mem_priv.h"

static char fake_cuda_path[1024];
static char empty_root[256];   /* no peer-memory module, no NVIDIA module */
static char peermem_root[300]; /* sys/module/nvidia_peermem present */

#define GD_MEM_TEST_ROOT empty_root
#include "mem_util.h"

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

static void test_gpu_info(void **state)
{
	struct gd_gpu_info info;
	int count = -1, index = -1;

	setenv("GD_FAKE_CUDA_GPU_COUNT", "3", 1);
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "1", 1);
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
		"CUDA_ERROR_NOT_SUPPORTED (801) with the PCIe mapping flag, CUDA_ERROR_NOT_SUPPORTED (801) with flags 0");
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

/* Export works (a memfd from the double); with no PD the import stops. */
static void test_export_flags(void **state)
{
	struct gd_mem_buf buf;
	struct json_object *ev;

	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, NULL, 0), -EINVAL);
	assert_msg_has("without a protection domain");
	ev = buf.evidence;
	assert_string_equal(json_path_str(ev, "route", NULL), "dmabuf");
	assert_string_equal(json_path_str(ev, "dmabuf_export", "flags"),
			    "pcie");
	gd_mem_free(&buf);

	gd_err_clear();
	setenv("GD_FAKE_CUDA_PCIE_FLAG_REFUSE", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, NULL, 0), -EINVAL);
	assert_string_equal(
		json_path_str(buf.evidence, "dmabuf_export", "flags"), "0");
	gd_mem_free(&buf);
}

static void test_route_by_facts(void **state)
{
	struct gd_mem_buf buf;

	/* Attribute 0 and no peer-memory module: nothing to try. */
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, NULL, 0), -EOPNOTSUPP);
	assert_msg_has(
		"GPU 0 (0000:17:00.0) memory cannot be registered on (no device): no supported GPU registration route");
	assert_msg_has("DMA_BUF_SUPPORTED=0");
	assert_string_equal(json_path_str(buf.evidence, "route", NULL), "none");
	gd_mem_free(&buf);

	/* nvidia_peermem in the fixture: auto takes the peer-memory route. */
	gd_err_clear();
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

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static void make_peermem_root(void)
{
	static const char *const dirs[] = { "", "/sys", "/sys/module",
					    "/sys/module/nvidia_peermem" };
	char path[512];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", peermem_root, dirs[i]);
		mkdir(path, 0755);
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
