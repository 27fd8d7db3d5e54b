/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU path's second review, against the fake CUDA driver (a TEST
 * DOUBLE, never a GPU): per-QP DMA-BUF ranges, BAR1 from NVML or the PCI
 * resource file (A100 and H100/H200 layouts), the out-of-memory advice by
 * route, cuInit's error classes and teardown, and the fake's own
 * strictness (device memory the CPU cannot touch, context ownership, the
 * last release freeing the context's memory).
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "cli/options.h"
#include "engine/session.h"
#include "mem/cuda_api.h"
#include "mem/mem.h"
#include "mem/route.h"
#include "util/error.h"

static char fake_cuda_path[1024];
static char fixtures[1024]; /* tests/fixtures/bar1 */
static char tmp_root[256];  /* nvidia_peermem loaded, an H100's BARs */

#define GD_MEM_TEST_ROOT tmp_root
#include "mem_util.h"
#include "fake_verbs.h"

#define GPU_PAGE (64u * 1024u)

/* Has this build a DMA-BUF route (rdma-core >= 34)? */
#ifdef HAVE_IBV_REG_DMABUF_MR
static const bool dmabuf_built = true;
#else
static const bool dmabuf_built = false;
#endif

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static int bar1_reset(void **state)
{
	unsetenv("GD_NVML_LIBRARY");
	unsetenv("GD_FAKE_NVML_BAR1_MIB");
	unsetenv("GD_FAKE_NVML_BAR1_USED_MIB");
	memset(&fv, 0, sizeof(fv));
	return reset(state);
}

static void test_bar1_layouts(void **state)
{
	struct gd_bar1 b;
	char root[1100];

	(void)state;
	/* A100: 32-bit BAR0, BAR1 is region 1. */
	snprintf(root, sizeof(root), "%s/a100", fixtures);
	assert_int_equal(gd_bar1_read(root, "0000:17:00.0", &b), 0);
	assert_true(b.total_bytes == 128ull << 30);
	assert_false(b.has_usage);
	assert_string_equal(b.source, "PCI sysfs resource, region 1");
	/* H100/H200: 64-bit BAR0 takes regions 0 and 1, BAR1 is region 2. */
	snprintf(root, sizeof(root), "%s/h100", fixtures);
	assert_int_equal(gd_bar1_read(root, "0000:17:00.0", &b), 0);
	assert_true(b.total_bytes == 128ull << 30);
	assert_string_equal(b.source, "PCI sysfs resource, region 2");
	assert_true(gd_route_bar1_bytes(root, "0000:17:00.0") == 128ull << 30);
	/* No such GPU: unknown, not a guess. */
	assert_int_equal(gd_bar1_read(root, "0000:99:00.0", &b), -ENOENT);
	assert_string_equal(b.source, "unknown");
	assert_true(gd_route_bar1_bytes(root, "0000:99:00.0") == 0);
	assert_false(gd_err_is_set());
}

/* NVML first (total and what is in use), the resource file without it. */
static void test_bar1_nvml(void **state)
{
	struct gd_bar1 b;
	char root[1100];

	(void)state;
	snprintf(root, sizeof(root), "%s/a100", fixtures);
	setenv("GD_NVML_LIBRARY", fake_cuda_path, 1);
	setenv("GD_FAKE_NVML_BAR1_MIB", "262144", 1);
	setenv("GD_FAKE_NVML_BAR1_USED_MIB", "1000", 1);
	assert_int_equal(gd_bar1_read(root, "0000:17:00.0", &b), 0);
	assert_string_equal(b.source, "NVML");
	assert_true(b.has_usage);
	assert_true(b.total_bytes == 262144ull << 20);
	assert_true(b.used_bytes == 1000ull << 20);
	assert_true(b.free_bytes == (262144ull - 1000) << 20);
	/* NVML does not know the GPU: the resource file answers. */
	unsetenv("GD_FAKE_NVML_BAR1_MIB");
	assert_int_equal(gd_bar1_read(root, "0000:17:00.0", &b), 0);
	assert_string_equal(b.source, "PCI sysfs resource, region 1");
	/* No NVML library at all: the same. */
	setenv("GD_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
	assert_int_equal(gd_bar1_read(root, "0000:17:00.0", &b), 0);
	assert_string_equal(b.source, "PCI sysfs resource, region 1");
}

static int alloc_cuda(const char *text, size_t len, struct gd_mem_buf *buf)
{
	struct gd_mem_spec spec;

	assert_int_equal(gd_mem_spec_parse(text, &spec), 0);
	return gd_mem_alloc(buf, &spec, len);
}

/* ENOMEM on the peer-memory route names both limits with their figures. */
static void test_enomem_peermem(void **state)
{
	struct rlimit saved, low;
	struct gd_mem_buf buf;

	(void)state;
	fv.mr_errno = ENOMEM;
	assert_int_equal(alloc_cuda("cuda:0:peermem", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has("errno 12 (ENOMEM");
	assert_msg_has("the peer-memory route is limited twice");
	assert_msg_has("locked-memory limit (RLIMIT_MEMLOCK)");
	assert_msg_has(
		"BAR1 of GPU 0 (0000:17:00.0) is 131072 MiB (PCI sysfs resource, region 2)");
	assert_msg_has("nvidia-smi -q -d MEMORY");

	/* A finite soft limit is printed with what the buffer needs. */
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &saved), 0);
	low = saved;
	low.rlim_cur = 64 << 10;
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < low.rlim_cur)
		low.rlim_cur = saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &low), 0);
	gd_err_clear();
	gd_mem_free(&buf);
	assert_int_equal(alloc_cuda("cuda:0:peermem", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has("soft 65536 bytes");
	assert_msg_has("this registration needs 4096 bytes more");
	assert_msg_has("ulimit -l");
	assert_msg_has("BAR1 of GPU 0");
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &saved), 0);
	gd_mem_free(&buf);

	/* With NVML: what is in use, and where it was read. */
	gd_err_clear();
	setenv("GD_NVML_LIBRARY", fake_cuda_path, 1);
	setenv("GD_FAKE_NVML_BAR1_MIB", "131072", 1);
	setenv("GD_FAKE_NVML_BAR1_USED_MIB", "131000", 1);
	assert_int_equal(alloc_cuda("cuda:0:peermem", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has("is 131072 MiB, 131000 MiB in use, 72 MiB free (NVML)");
	gd_mem_free(&buf);
}

/* ENOMEM on the DMA-BUF route: BAR1 alone; the limit is not the cause. */
static void test_enomem_dmabuf(void **state)
{
	struct gd_mem_buf buf;

	(void)state;
	if (!dmabuf_built)
		skip();
	fv.dmabuf_errno = ENOMEM;
	assert_int_equal(alloc_cuda("cuda:0:dmabuf", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has("ibv_reg_dmabuf_mr of 4096 bytes");
	assert_msg_has("not charged to the locked-memory limit");
	assert_msg_has("BAR1 of GPU 0 (0000:17:00.0) is 131072 MiB");
	assert_null(strstr(gd_err_msg(), "ulimit -l"));
	gd_mem_free(&buf);

	/* The export itself out of BAR1 (the fake's aperture): same advice. */
	gd_err_clear();
	fv.dmabuf_errno = 0;
	setenv("GD_FAKE_CUDA_BAR1_BYTES", "0", 1);
	assert_int_equal(alloc_cuda("cuda:0:dmabuf", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -ENOMEM);
	assert_msg_has(
		"CUDA_ERROR_OUT_OF_MEMORY (2): out of memory with flags 0");
	assert_msg_has("not charged to the locked-memory limit");
	assert_null(strstr(gd_err_msg(), "ulimit -l"));
	gd_mem_free(&buf);
}

/* gd_write_bw's memory with --mem=@mem -q 3 --mr_per_qp and slots of
 * @slot bytes, set up as gd_session_setup() does once the device opens. */
static int session_qps(const char *mem, size_t slot, struct gd_opts *o,
		       struct gd_session *s)
{
	const struct gd_test *t = &gd_tests[GD_TEST_WRITE_BW];
	char arg[64];
	char *argv[] = { "gd_write_bw", arg, "-q", "3", "--mr_per_qp", NULL };

	snprintf(arg, sizeof(arg), "--mem=%s", mem);
	assert_int_equal(gd_opts_parse(t, 5, argv, o, stdout), 0);
	*s = (struct gd_session){ .test = t, .o = o, .slot_bytes = slot };
	s->v.pd = &fake_pd;
	memset(&fv, 0, sizeof(fv));
	return gd_session_setup_memory(s);
}

/* What the session's teardown does to its buffers. */
static void session_free(struct gd_opts *o, struct gd_session *s)
{
	for (unsigned int p = 0; p < GD_PLACE_COUNT; p++) {
		struct gd_local_buf *lb = &s->local[p];

		if (lb->num_qp_mr && lb->mem.mr == lb->qp_mr[0])
			lb->mem.mr = NULL;
		for (unsigned int q = 0; q < lb->num_qp_mr; q++)
			ibv_dereg_mr(lb->qp_mr[q]);
		gd_mem_free(&lb->mem);
	}
	gd_opts_free(o);
}

/* Each QP's slot is exported alone: a range of whole 64 KiB pages around
 * the slot inside the allocation, the slot at its offset, its IOVA the
 * slot's device address; no dma-buf fd outlives its import. */
static void test_mr_per_qp_dmabuf(void **state)
{
	const size_t slot = 100000; /* > 64 KiB, not page-aligned */
	struct gd_session s;
	struct gd_opts o;
	uint64_t base;
	int fds = count_fds();

	(void)state;
	if (!dmabuf_built)
		skip();
	assert_int_equal(session_qps("cuda:0:dmabuf", slot, &o, &s), 0);
	assert_false(gd_err_is_set());
	assert_int_equal(count_fds(), fds);
	base = (uint64_t)(uintptr_t)s.local[GD_PLACE_DEV].mem.addr;
	assert_int_equal(base % GPU_PAGE, 0);
	assert_int_equal(s.local[GD_PLACE_DEV].num_qp_mr, 3);
	/* host whole + 3 slots ('m'), device whole + 3 slots ('d') */
	assert_int_equal(fv.dmabuf_calls, 4);
	assert_int_equal(fv.log[4].call, 'd');
	assert_true(fv.log[4].addr == base);
	assert_int_equal(fv.log[4].offset, 0);
	assert_int_equal(fv.log[4].length, 3 * slot);
	assert_int_equal(fv.log[4].fd_bytes, 5 * GPU_PAGE);
	for (unsigned int q = 0; q < 3; q++) {
		const __typeof__(fv.log[0]) *l = &fv.log[5 + q];
		uint64_t start = l->addr - l->offset;

		assert_int_equal(l->call, 'd');
		assert_true(l->addr == base + q * slot);
		assert_int_equal(l->length, slot);
		assert_int_equal(start % GPU_PAGE, 0);
		assert_int_equal(l->fd_bytes % GPU_PAGE, 0);
		assert_true(l->offset + l->length <= (uint64_t)l->fd_bytes);
		/* no more than the pages the slot touches */
		assert_true(l->offset < GPU_PAGE);
		assert_true((uint64_t)l->fd_bytes - l->offset - l->length <
			    GPU_PAGE);
		assert_true(start + (uint64_t)l->fd_bytes <=
			    base + 5 * GPU_PAGE);
	}
	session_free(&o, &s);
	assert_int_equal(count_fds(), fds);
}

/* The peer-memory route registers each slot at its own address. */
static void test_mr_per_qp_peermem(void **state)
{
	const size_t slot = 70000;
	struct gd_session s;
	struct gd_opts o;
	uint64_t base;

	(void)state;
	assert_int_equal(session_qps("cuda:0:peermem", slot, &o, &s), 0);
	base = (uint64_t)(uintptr_t)s.local[GD_PLACE_DEV].mem.addr;
	assert_int_equal(fv.dmabuf_calls, 0);
	assert_int_equal(fv.nlog, 8);
	for (unsigned int q = 0; q < 3; q++) {
		assert_int_equal(fv.log[5 + q].call, 'm');
		assert_true(fv.log[5 + q].addr == base + q * slot);
		assert_int_equal(fv.log[5 + q].length, slot);
	}
	session_free(&o, &s);
}

static const char *ev_str(struct json_object *ev, const char *a, const char *b)
{
	struct json_object *x = json_object_object_get(ev, a);

	if (b)
		x = json_object_object_get(x, b);
	return x ? json_object_get_string(x) : NULL;
}

/* After automatic DMA-BUF fell back to peer memory, the evidence (and so
 * the header) names one route: no reason against the one used. */
static void test_fallback_one_route(void **state)
{
	struct gd_mem_buf buf;
	char text[512];

	(void)state;
	if (!dmabuf_built)
		skip();
	fv.dmabuf_errno = EOPNOTSUPP;
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_int_equal(buf.route_used, GD_ROUTE_PEERMEM);
	assert_string_equal(ev_str(buf.evidence, "route", NULL), "peermem");
	assert_null(ev_str(buf.evidence, "why_not", "peermem"));
	assert_has(ev_str(buf.evidence, "why_not", "dmabuf"),
		   "its registration failed");
	/* --use_cuda_pcie_mapping not given: nothing to say */
	assert_false(gd_mem_effect(&buf, "pcie_mapping", text, sizeof(text)));
	gd_mem_free(&buf);
}

/* --use_cuda_pcie_mapping on a platform that cannot map it: skipped, in
 * words the header prints. */
static void test_pcie_mapping_effect(void **state)
{
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;
	char text[512];

	(void)state;
	if (!dmabuf_built)
		skip();
	setenv("GD_FAKE_CUDA_DRIVER_VERSION", "12080", 1);
	assert_int_equal(gd_mem_spec_parse("cuda:0:dmabuf", &spec), 0);
	spec.dmabuf_pcie = true;
	assert_int_equal(gd_mem_alloc(&buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_true(gd_mem_effect(&buf, "pcie_mapping", text, sizeof(text)));
	/* Not a coherent platform (the fake's HOST_NATIVE_ATOMIC_SUPPORTED
	 * is 0): skipped, and said so. The used, refused and refused-at-
	 * import paths are in mem_gpu_path_test and mem_cuda_test. */
	assert_has(
		text,
		"requested, skipped (exported with flags 0): not a cache-coherent platform");
	gd_mem_free(&buf);
}

/* Each class of cuInit failure has its errno and its own next check. */
static void test_cuinit_classes(void **state)
{
	static const struct {
		const char *rc;
		int err;
		const char *name, *hint;
	} cases[] = {
		{ "100", -ENODEV, "CUDA_ERROR_NO_DEVICE (100)",
		  "CUDA_VISIBLE_DEVICES (an empty or unknown value" },
		{ "802", -EAGAIN,
		  "CUDA_ERROR_SYSTEM_NOT_READY (802): system not yet initialized",
		  "nvidia-fabricmanager is not running: start it at the driver's exact version" },
		{ "803", -ELIBBAD, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)",
		  "does not match the loaded NVIDIA kernel module" },
		{ "804", -EOPNOTSUPP,
		  "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)",
		  "forward-compatibility libcuda" },
		{ "999", -EIO, "CUDA_ERROR_UNKNOWN (999): unknown error",
		  "dmesg for NVRM and Xid messages" },
		{ "3", -EIO, "(3)", "no usable GPU in this process" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gd_cuda_unload();
		gd_err_clear();
		setenv("GD_FAKE_CUDA_INIT_ERROR", cases[i].rc, 1);
		assert_int_equal(gd_cuda_load(), cases[i].err);
		assert_msg_has(cases[i].name);
		assert_msg_has(cases[i].hint);
		assert_msg_has("keeps this failure until the process exits");
		assert_int_equal(gd_cuda_init_result(), atoi(cases[i].rc));
	}
	/* A driver without cuGetErrorString's answer: the name alone. */
	gd_cuda_unload();
	gd_err_clear();
	setenv("GD_FAKE_CUDA_INIT_ERROR", "802", 1);
	setenv("GD_FAKE_CUDA_NO_ERROR_STRING", "1", 1);
	assert_int_equal(gd_cuda_load(), -EAGAIN);
	assert_msg_has("CUDA_ERROR_SYSTEM_NOT_READY (802); the system");
	unsetenv("GD_FAKE_CUDA_NO_ERROR_STRING");
}

/* cuMemFree and the context's release are checked, not assumed. */
static void test_teardown_errors(void **state)
{
	struct gd_mem_buf buf;

	(void)state;
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_free(&buf), 0);
	assert_false(gd_err_is_set());

	setenv("GD_FAKE_CUDA_FREE_FAIL", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_free(&buf), -EIO);
	assert_msg_has("cuMemFree of GPU 0 (0000:17:00.0) memory at 0x");
	assert_msg_has("CUDA_ERROR_ILLEGAL_ADDRESS (700)");
	assert_null(buf.addr);
	unsetenv("GD_FAKE_CUDA_FREE_FAIL");

	gd_err_clear();
	setenv("GD_FAKE_CUDA_RELEASE_FAIL", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(gd_mem_free(&buf), -EIO);
	assert_msg_has(
		"releasing the primary context of GPU 0 (0000:17:00.0) failed: CUDA_ERROR_INVALID_CONTEXT");
}

/* Did a child that loads one byte of @addr die of SIGSEGV? */
static bool cpu_touch_faults(const void *addr)
{
	int status = 0;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		/* The default action, even under a sanitizer's handler. */
		signal(SIGSEGV, SIG_DFL);
		_exit(*(const volatile unsigned char *)addr == 0x5a ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

/* GPU memory is not CPU memory: the fake's device pointers fault on a CPU
 * touch, while the backend's copies reach the data; the lenient mode the
 * guest cases use for rxe keeps plain host memory. */
static void test_strict_cpu_touch(void **state)
{
	struct gd_mem_buf buf;
	uint8_t byte = 0x5a;

	(void)state;
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	assert_int_equal(buf.ops->copy_in(&buf, 0, &byte, 1), 0);
	assert_true(cpu_touch_faults(buf.addr));
	byte = 0;
	assert_int_equal(buf.ops->copy_out(&buf, 0, &byte, 1), 0);
	assert_int_equal(byte, 0x5a);
	assert_int_equal(gd_mem_free(&buf), 0);

	setenv("GD_FAKE_CUDA_LENIENT", "1", 1);
	assert_int_equal(alloc_cuda("cuda:0", 4096, &buf), 0);
	byte = 0x5a;
	assert_int_equal(buf.ops->copy_in(&buf, 0, &byte, 1), 0);
	assert_false(cpu_touch_faults(buf.addr));
	assert_int_equal(*(const uint8_t *)buf.addr, 0x5a);
	assert_int_equal(gd_mem_free(&buf), 0);
}

/* Copies, exports and flushes need the owning context current. */
static void test_strict_context_owner(void **state)
{
	struct gd_cuda_ctx c0, c1;
	struct gd_cuda_export ex;
	char why[512];
	uint8_t data[64] = { 0 };
	uint64_t p, p0;

	(void)state;
	setenv("GD_FAKE_CUDA_GPU_COUNT", "2", 1);
	assert_int_equal(gd_cuda_load(), 0);
	assert_int_equal(gd_cuda_ctx_retain(0, &c0), 0);
	assert_int_equal(gd_cuda_ctx_retain(1, &c1), 0);
	assert_int_equal(gd_cuda_mem_alloc(&c0, 2 * GPU_PAGE, &p), 0);
	p0 = p;
	assert_int_equal(gd_cuda_copy_htod(&c0, p, data, sizeof(data)), 0);

	assert_int_equal(gd_cuda_copy_htod(&c1, p, data, sizeof(data)), -EIO);
	assert_msg_has(
		"cuMemcpyHtoD of 64 bytes to GPU 1 (0000:18:00.0) failed: CUDA_ERROR_INVALID_CONTEXT");
	gd_err_clear();
	assert_int_equal(gd_cuda_copy_dtoh(&c1, data, p, sizeof(data)), -EIO);
	assert_msg_has("CUDA_ERROR_INVALID_CONTEXT");
	gd_err_clear();
	p = (p + GPU_PAGE - 1) & ~(uint64_t)(GPU_PAGE - 1);
	assert_int_equal(gd_cuda_export_dmabuf(&c1, p, GPU_PAGE, false, &ex,
					       why, sizeof(why)),
			 -EIO);
	assert_has(why, "CUDA_ERROR_INVALID_CONTEXT");
	assert_int_equal(gd_cuda_export_dmabuf(&c0, p, GPU_PAGE, false, &ex,
					       why, sizeof(why)),
			 0);
	close(ex.fd);
	assert_int_equal(gd_cuda_mem_free(&c0, p0), 0);
	assert_int_equal(gd_cuda_ctx_release(&c1), 0);
	assert_int_equal(gd_cuda_ctx_release(&c0), 0);
}

/* The last release of a primary context frees what was allocated in it. */
static void test_strict_release_frees(void **state)
{
	struct gd_cuda_ctx c, again;
	uint8_t data[16] = { 0 };
	void *dead;
	uint64_t p;

	(void)state;
	assert_int_equal(gd_cuda_load(), 0);
	assert_int_equal(gd_cuda_ctx_retain(0, &c), 0);
	assert_int_equal(gd_cuda_mem_alloc(&c, 4096, &p), 0);
	dead = c.context;
	assert_int_equal(gd_cuda_ctx_release(&c), 0);

	/* the same device, retained anew: the old pointer is gone */
	assert_int_equal(gd_cuda_ctx_retain(0, &again), 0);
	assert_int_equal(gd_cuda_copy_htod(&again, p, data, sizeof(data)),
			 -EINVAL);
	assert_msg_has("CUDA_ERROR_INVALID_VALUE");
	gd_err_clear();
	assert_int_equal(gd_cuda_mem_free(&again, p), -EINVAL);
	gd_err_clear();
	assert_int_equal(gd_cuda_ctx_release(&again), 0);

	/* a flush on the destroyed context fails */
	again.context = dead;
	assert_int_equal(gd_cuda_flush_rdma_writes(&again), -EIO);
	assert_msg_has(
		"cuFlushGPUDirectRDMAWrites on GPU 0 (0000:17:00.0) failed: CUDA_ERROR_INVALID_CONTEXT");
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* nvidia_peermem loaded and the H100 fixture's resource file. */
static int make_root(void)
{
	static const char *const dirs[] = {
		"/sys",
		"/sys/module",
		"/sys/module/nvidia_peermem",
		"/sys/bus",
		"/sys/bus/pci",
		"/sys/bus/pci/devices",
		"/sys/bus/pci/devices/0000:17:00.0",
	};
	const char *res = "/sys/bus/pci/devices/0000:17:00.0/resource";
	char from[1200], to[512], line[160];
	FILE *in, *out;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(to, sizeof(to), "%s%s", tmp_root, dirs[i]);
		if (mkdir(to, 0755))
			return -errno;
	}
	snprintf(from, sizeof(from), "%s/h100%s", fixtures, res);
	snprintf(to, sizeof(to), "%s%s", tmp_root, res);
	in = fopen(from, "r");
	out = fopen(to, "w");
	if (!in || !out) {
		fprintf(stderr, "FAIL: cannot copy %s to %s\n", from, to);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), in))
		fputs(line, out);
	fclose(in);
	return fclose(out) ? -EIO : 0;
}

int main(void)
{
	const char *top = getenv("GD_TOP_BUILDDIR");
	const char *src = getenv("GD_TOP_SRCDIR");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_bar1_layouts, bar1_reset),
		cmocka_unit_test_setup(test_bar1_nvml, bar1_reset),
		cmocka_unit_test_setup(test_enomem_peermem, bar1_reset),
		cmocka_unit_test_setup(test_enomem_dmabuf, bar1_reset),
		cmocka_unit_test_setup(test_mr_per_qp_dmabuf, bar1_reset),
		cmocka_unit_test_setup(test_mr_per_qp_peermem, bar1_reset),
		cmocka_unit_test_setup(test_fallback_one_route, bar1_reset),
		cmocka_unit_test_setup(test_pcie_mapping_effect, bar1_reset),
		cmocka_unit_test_setup(test_cuinit_classes, bar1_reset),
		cmocka_unit_test_setup(test_teardown_errors, bar1_reset),
		cmocka_unit_test_setup(test_strict_cpu_touch, bar1_reset),
		cmocka_unit_test_setup(test_strict_context_owner, bar1_reset),
		cmocka_unit_test_setup(test_strict_release_frees, bar1_reset),
	};
	int ret;

	snprintf(fake_cuda_path, sizeof(fake_cuda_path),
		 "%s/tests/fake_cuda/libfakecuda.so", top ? top : ".");
	snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/bar1",
		 src ? src : ".");
	if (access(fake_cuda_path, R_OK)) {
		fprintf(stderr,
			"FAIL: fake CUDA driver (test double) not built at %s\n",
			fake_cuda_path);
		return 1;
	}
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/gd_mem_gpu_test.XXXXXX");
	if (!mkdtemp(tmp_root)) {
		perror("mkdtemp");
		return 1;
	}
	ret = make_root() ? 1 : cmocka_run_group_tests(tests, NULL, NULL);
	nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return ret ? 1 : 0;
}
