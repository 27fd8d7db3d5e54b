/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Real-GPU smoke test of the CUDA side of the cuda backend, no RDMA device
 * and no libibverbs, librdmacm or json-c needed (it links only cuda_api.c,
 * error.c and the backend's libc-only pattern and copy sources, so it
 * starts on any GPU machine): the backend's own calls for load, inventory,
 * allocation, SYNC_MEMOPS, copies, DMA-BUF export with and without the
 * PCIe flag (and its attach by a NIC where libibverbs finds one), the
 * write-ordering attribute, the flush before a read-back,
 * no cuInit retry, and the memory backend's pattern fill and check of
 * device memory through the cuda backend's copy hooks (mem_pattern.c and
 * mem_cuda_copy.c), with one corrupt byte caught at its offset. Every PASS
 * is an asserted check; one line per step. Exit 0 pass, 1 fail, 77 no
 * driver or GPU. Run by tests/gpu/run.sh; make check runs it against the
 * fake driver.
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mem/cuda_api.h"
#include "mem/cuda_compat.h"
#include "mem/mem.h"
#include "mem/mem_cuda_copy.h"
#include "util/error.h"
#include "smoke_report.h"

#define SMOKE_LEN_BYTES (64u << 20)
#define SMOKE_PAGE_BYTES (64u * 1024u)
#define SMOKE_SEED 0x5eedu
/* Past the first staging chunks of the pattern check, not page aligned. */
#define SMOKE_FLIP_OFFSET 1234567u

/* In a child, before this process initialises CUDA: a cuInit that failed
 * (no visible GPU) must fail again, with the same message, once the GPUs
 * are visible again: the driver keeps the failure, so must we. */
static void case_no_cuinit_retry(void)
{
	char first[GD_ERR_MSG_MAX];
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		setenv("CUDA_VISIBLE_DEVICES", "", 1);
		setenv("GD_FAKE_CUDA_NO_DEVICE", "1", 1);
		if (!gd_cuda_load())
			_exit(77);
		if (gd_cuda_load_state() == 0)
			_exit(78); /* no usable library: nothing to test */
		snprintf(first, sizeof(first), "%s", gd_err_msg());
		unsetenv("CUDA_VISIBLE_DEVICES");
		unsetenv("GD_FAKE_CUDA_NO_DEVICE");
		gd_err_clear();
		_exit(!gd_cuda_load() || strcmp(first, gd_err_msg()) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		step("FAIL", "no cuInit retry: child did not run");
	else if (WEXITSTATUS(status) == 78)
		step("SKIP", "no cuInit retry: no CUDA driver to ask");
	else if (WEXITSTATUS(status) == 77)
		step("SKIP",
		     "no cuInit retry: cuInit succeeded with CUDA_VISIBLE_DEVICES empty");
	else
		check(WEXITSTATUS(status) == 0,
		      "no cuInit retry: a failed cuInit stays failed, same message");
}

static void case_info(int gpu, struct gd_gpu_info *g)
{
	if (gd_cuda_gpu_info(gpu, g)) {
		step("FAIL", "gpu %d: %s", gpu, gd_err_msg());
		return;
	}
	step("INFO",
	     "gpu %d: %s, %s, %s, cc %d.%d, driver %d, %llu MiB, DMA_BUF_SUPPORTED=%d, GPU_DIRECT_RDMA_SUPPORTED=%d, WRITES_ORDERING=%d (%s), FLUSH_WRITES_OPTIONS=%d, COMPUTE_MODE=%d",
	     gpu, g->name, g->pci_bus_id, g->uuid, g->compute_major,
	     g->compute_minor, g->driver_version,
	     (unsigned long long)(g->total_mem_bytes >> 20),
	     g->dmabuf_supported, g->gdr_supported, g->writes_ordering,
	     gd_cuda_ordering_name(g->writes_ordering), g->flush_options,
	     g->compute_mode);
	if (g->compute_mode == GD_CU_COMPUTE_MODE_EXCLUSIVE_PROCESS)
		step("INFO",
		     "gpu %d: compute mode EXCLUSIVE_PROCESS: one process at a time may use it (a --loopback run with both halves on it must keep one half in host memory)",
		     gpu);
	if (g->writes_ordering < 0)
		step("SKIP",
		     "GPU_DIRECT_RDMA_WRITES_ORDERING not reported (driver < 11.3)");
	else
		check(strcmp(gd_cuda_ordering_name(g->writes_ordering),
			     "unknown"),
		      "GPU_DIRECT_RDMA_WRITES_ORDERING is none, owner or all_devices");
}

/* Copies through the backend's cuMemcpy wrappers, every byte compared. */
static void case_copies(const struct gd_cuda_ctx *ctx, uint64_t dptr)
{
	unsigned char *in = malloc(SMOKE_LEN_BYTES);
	unsigned char *out = malloc(SMOKE_LEN_BYTES);
	int ok;

	if (!in || !out) {
		step("FAIL", "no host memory for the copy buffers");
		goto out_free;
	}
	for (size_t i = 0; i < SMOKE_LEN_BYTES; i++)
		in[i] = (unsigned char)(i * 131u + (i >> 12));
	memset(out, 0, SMOKE_LEN_BYTES);
	ok = !gd_cuda_copy_htod(ctx, dptr, in, SMOKE_LEN_BYTES) &&
	     !gd_cuda_copy_dtoh(ctx, out, dptr, SMOKE_LEN_BYTES) &&
	     !memcmp(in, out, SMOKE_LEN_BYTES);
	check(ok, "64 MiB cuMemcpyHtoD then cuMemcpyDtoH: all bytes match");
	check(!gd_cuda_flush_rdma_writes(ctx),
	      gd_cuda_flush_plan(ctx)[0] == 'c'
		      ? "flush before read-back: cuFlushGPUDirectRDMAWrites returned success"
		      : "flush before read-back: not needed or not offered (see WRITES_ORDERING)");
out_free:
	free(in);
	free(out);
}

/* libibverbs' calls that attach a DMA-BUF export, by dlsym: cuda-smoke
 * links no libibverbs (it must start where none is installed) and needs no
 * verbs header, so the objects are opaque here. */
struct smoke_verbs {
	void *h;
	void **(*get_device_list)(int *num);
	const char *(*get_device_name)(void *dev);
	void *(*open_device)(void *dev);
	void *(*alloc_pd)(void *ctx);
	void *(*reg_dmabuf_mr)(void *pd, uint64_t offset, size_t length,
			       uint64_t iova, int fd, int access);
	int (*dereg_mr)(void *mr);
	int (*dealloc_pd)(void *pd);
	int (*close_device)(void *ctx);
	void (*free_device_list)(void **list);
	void **list;
	void *ctx, *pd;
	char name[64];
};

static void verbs_close(struct smoke_verbs *v)
{
	if (v->pd)
		v->dealloc_pd(v->pd);
	if (v->ctx)
		v->close_device(v->ctx);
	if (v->list)
		v->free_device_list(v->list);
	if (v->h)
		dlclose(v->h);
	memset(v, 0, sizeof(*v));
}

/* libibverbs ($GD_VERBS_LIBRARY for tests), the NIC $GD_GPU_NIC or the
 * first, a context and a PD; -1 with @why when there is none to use. */
static int verbs_open(struct smoke_verbs *v, char *why, size_t len)
{
	const char *lib = getenv("GD_VERBS_LIBRARY");
	const char *cuda = getenv("GD_CUDA_LIBRARY");
	const char *want = getenv("GD_GPU_NIC");
	const char *name = NULL;
	int n = 0, i;

	memset(v, 0, sizeof(*v));
	if (want && !strcmp(want, "no")) {
		snprintf(why, len, "GD_GPU_NIC=no");
		return -1;
	}
	if ((!lib || !*lib) && cuda && *cuda) {
		snprintf(
			why, len,
			"GD_CUDA_LIBRARY names another driver than libcuda.so.1 and GD_VERBS_LIBRARY no verbs library to attach its exports with");
		return -1;
	}
	v->h = dlopen(lib && *lib ? lib : "libibverbs.so.1",
		      RTLD_NOW | RTLD_LOCAL);
	if (!v->h) {
		snprintf(why, len, "no libibverbs (%s)", dlerror());
		return -1;
	}
	*(void **)&v->get_device_list = dlsym(v->h, "ibv_get_device_list");
	*(void **)&v->get_device_name = dlsym(v->h, "ibv_get_device_name");
	*(void **)&v->open_device = dlsym(v->h, "ibv_open_device");
	*(void **)&v->alloc_pd = dlsym(v->h, "ibv_alloc_pd");
	*(void **)&v->reg_dmabuf_mr = dlsym(v->h, "ibv_reg_dmabuf_mr");
	*(void **)&v->dereg_mr = dlsym(v->h, "ibv_dereg_mr");
	*(void **)&v->dealloc_pd = dlsym(v->h, "ibv_dealloc_pd");
	*(void **)&v->close_device = dlsym(v->h, "ibv_close_device");
	*(void **)&v->free_device_list = dlsym(v->h, "ibv_free_device_list");
	if (!v->get_device_list || !v->get_device_name || !v->open_device ||
	    !v->alloc_pd || !v->reg_dmabuf_mr || !v->dereg_mr ||
	    !v->dealloc_pd || !v->close_device || !v->free_device_list) {
		snprintf(
			why, len,
			"libibverbs lacks ibv_reg_dmabuf_mr or another call (rdma-core older than 34)");
		dlclose(v->h);
		v->h = NULL;
		return -1;
	}
	v->list = v->get_device_list(&n);
	for (i = 0; v->list && i < n; i++) {
		name = v->get_device_name(v->list[i]);
		if (name && (!want || !*want || !strcmp(name, want)))
			break;
	}
	if (!v->list || i == n) {
		snprintf(why, len, "no RDMA device%s%s",
			 want && *want ? " " : "", want && *want ? want : "");
		verbs_close(v);
		return -1;
	}
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->ctx = v->open_device(v->list[i]);
	v->pd = v->ctx ? v->alloc_pd(v->ctx) : NULL;
	if (!v->pd) {
		snprintf(why, len, "%s: %s failed: %s", v->name,
			 v->ctx ? "ibv_alloc_pd" : "ibv_open_device",
			 strerror(errno ? errno : EIO));
		verbs_close(v);
		return -1;
	}
	return 0;
}

/* ibv_reg_dmabuf_mr of @fd on the PD, deregistered at once; 0 or errno. */
static int verbs_attach(struct smoke_verbs *v, int fd, size_t len)
{
	void *mr;

	errno = 0;
	/* IBV_ACCESS_LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ */
	mr = v->reg_dmabuf_mr(v->pd, 0, len, 0, fd, 1 | 2 | 4);
	if (!mr)
		return errno ? errno : EIO;
	v->dereg_mr(mr);
	return 0;
}

/* The PCIe-mapped export @pe attached by a NIC, where NVIDIA's driver
 * decides (its topology check runs at attach, not at export); refused,
 * the backend's retry: export with flags 0 and attach that. */
static void case_attach(const struct gd_cuda_ctx *ctx, uint64_t dptr,
			const struct gd_cuda_export *pe)
{
	struct gd_cuda_export e0;
	struct smoke_verbs v;
	char why[512];
	int err;

	if (verbs_open(&v, why, sizeof(why))) {
		step("INFO", "PCIe-mapped export not attached to a NIC: %s",
		     why);
		return;
	}
	err = verbs_attach(&v, pe->fd, SMOKE_LEN_BYTES);
	if (!err) {
		step("PASS",
		     "PCIe-mapped DMA-BUF export attached by %s (ibv_reg_dmabuf_mr)",
		     v.name);
		goto out;
	}
	if (err == EOPNOTSUPP || err == EPROTONOSUPPORT) {
		step("INFO",
		     "PCIe-mapped export not attached: %s has no DMA-BUF import (errno %d, %s), which says nothing of the mapping; choose a NIC with GD_GPU_NIC=<dev>",
		     v.name, err, strerror(err));
		goto out;
	}
	step("INFO",
	     "%s refused the PCIe-mapped export at attach: errno %d (%s)%s; gdperf exports again with flags 0 and imports that",
	     v.name, err,
	     err == 524 ? "ENOTSUPP, a kernel-internal code" : strerror(err),
	     err == 524
		     ? ": NVIDIA's topology check (GPU and NIC in different IOMMU groups, unless NVreg_GrdmaPciTopoCheckOverride allows it)"
		     : "");
	if (gd_cuda_export_dmabuf(ctx, dptr, SMOKE_LEN_BYTES, false, &e0, why,
				  sizeof(why))) {
		step("FAIL",
		     "after the refusal at attach, export again with flags 0: %s",
		     why);
		goto out;
	}
	err = verbs_attach(&v, e0.fd, SMOKE_LEN_BYTES);
	if (err)
		step("FAIL",
		     "after the refusal at attach, the flags-0 export not attached by %s either: errno %d (%s)",
		     v.name, err, strerror(err));
	else
		step("PASS",
		     "after the refusal at attach, the flags-0 export attached by %s (the backend's retry)",
		     v.name);
	close(e0.fd);
out:
	verbs_close(&v);
}

/* The export the backend does by default (flags 0), then with the PCIe
 * flag asked for: used, or refused and recorded with flags 0. The PCIe
 * export only on a coherent platform (@host_atomic 1): elsewhere no NIC
 * could import it, so the backend exports with flags 0 there too. */
static void case_export(const struct gd_cuda_ctx *ctx, uint64_t dptr,
			int dmabuf_supported, int host_atomic)
{
	struct gd_cuda_export e;
	char why[512] = "";

	if (gd_cuda_export_dmabuf(ctx, dptr, SMOKE_LEN_BYTES, false, &e, why,
				  sizeof(why))) {
		step(dmabuf_supported == 1 ? "FAIL" : "SKIP",
		     "DMA-BUF export (DMA_BUF_SUPPORTED=%d): %s",
		     dmabuf_supported, why);
		return;
	}
	check(e.fd >= 0 && e.flags == 0 && !e.pcie_note[0],
	      "DMA-BUF export of 64 MiB with flags 0 (default path)");
	close(e.fd);
	if (host_atomic != 1) {
		step("INFO",
		     "DMA-BUF export with the PCIe flag not tried: not a cache-coherent platform (HOST_NATIVE_ATOMIC_SUPPORTED=%d), where NVIDIA maps it for no NIC",
		     host_atomic);
		return;
	}
	if (gd_cuda_export_dmabuf(ctx, dptr, SMOKE_LEN_BYTES, true, &e, why,
				  sizeof(why))) {
		step("FAIL", "DMA-BUF export with the PCIe flag asked: %s",
		     why);
		return;
	}
	if (e.flags) {
		check(e.fd >= 0 && !e.pcie_note[0],
		      "DMA-BUF export with CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE");
		case_attach(ctx, dptr, &e);
	} else
		check(e.fd >= 0 && e.pcie_note[0],
		      "DMA-BUF export: PCIe flag not used, fell back to flags 0 and said why");
	if (e.pcie_note[0])
		step("INFO", "%s", e.pcie_note);
	close(e.fd);
}

/* The memory backend's fill and check (mem_pattern.c) of the device buffer
 * through the cuda backend's copy hooks (mem_cuda_copy.c: cuMemcpyHtoD,
 * the flush, cuMemcpyDtoH), then one byte flipped through the driver: the
 * check must fail and name its offset, expected and found bytes. */
static void case_pattern(int gpu, const struct gd_cuda_ctx *ctx, uint64_t dptr)
{
	static const struct gd_mem_ops ops = {
		.name = "cuda",
		.cpu_accessible = false,
		.copy_in = gd_cuda_copy_in,
		.copy_out = gd_cuda_copy_out,
		.before_read = gd_cuda_before_read,
	};
	struct gd_cuda_buf c = { .ctx = *ctx };
	struct gd_mem_buf buf = {
		.ops = &ops,
		.spec = { .kind = GD_MEM_CUDA, .gpu_index = gpu },
		.addr = (void *)(uintptr_t)dptr,
		.len_bytes = SMOKE_LEN_BYTES,
		.priv = &c,
	};
	uint8_t want = gd_pattern_byte(SMOKE_SEED, SMOKE_FLIP_OFFSET);
	uint8_t flipped = (uint8_t)(want ^ 0x80);
	char expect[128];
	int ret;

	if (gd_mem_fill_pattern(&buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED)) {
		step("FAIL",
		     "backend pattern fill of 64 MiB of device memory: %s",
		     gd_err_msg());
		return;
	}
	check(!gd_mem_check_pattern(&buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED),
	      "backend pattern fill and check of 64 MiB of device memory (copy hooks: cuMemcpyHtoD, flush, cuMemcpyDtoH): all bytes match");
	check(gd_mem_check_pattern(&buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED + 1) ==
		      -EILSEQ,
	      "backend pattern check against another seed fails (stale data is caught)");
	if (gd_cuda_copy_htod(ctx, dptr + SMOKE_FLIP_OFFSET, &flipped, 1)) {
		step("FAIL", "flip one byte with cuMemcpyHtoD: %s",
		     gd_err_msg());
		return;
	}
	snprintf(
		expect, sizeof(expect),
		"first mismatch at offset %u: expected 0x%02x, found 0x%02x; 1 bytes differ",
		SMOKE_FLIP_OFFSET, want, flipped);
	ret = gd_mem_check_pattern(&buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED);
	if (ret == -EILSEQ && strstr(gd_err_msg(), expect))
		step("PASS",
		     "backend pattern check catches one byte flipped with cuMemcpyHtoD at offset %u (%s)",
		     SMOKE_FLIP_OFFSET, expect);
	else
		step("FAIL",
		     "backend pattern check after one byte flipped at offset %u: want -EILSEQ and \"%s\", got %d: %s",
		     SMOKE_FLIP_OFFSET, expect, ret,
		     gd_err_is_set() ? gd_err_msg() : "no error recorded");
}

static void case_buffer(int gpu, const struct gd_gpu_info *g)
{
	struct gd_cuda_ctx ctx;
	uint64_t base = 0, dptr;

	if (gd_cuda_ctx_retain(gpu, &ctx)) {
		step("FAIL", "retain the primary context of gpu %d: %s", gpu,
		     gd_err_msg());
		return;
	}
	if (gd_cuda_mem_alloc(&ctx, SMOKE_LEN_BYTES + SMOKE_PAGE_BYTES,
			      &base)) {
		step("FAIL", "allocate 64 MiB on gpu %d: %s", gpu,
		     gd_err_msg());
		goto out_release;
	}
	step("PASS", "allocate 64 MiB on gpu %d at 0x%llx", gpu,
	     (unsigned long long)base);
	dptr = (base + SMOKE_PAGE_BYTES - 1) &
	       ~(uint64_t)(SMOKE_PAGE_BYTES - 1);
	check(!gd_cuda_prepare_rdma(&ctx, dptr),
	      "not managed memory; CU_POINTER_ATTRIBUTE_SYNC_MEMOPS set");
	case_copies(&ctx, dptr);
	case_export(&ctx, dptr, g->dmabuf_supported, g->host_native_atomic);
	case_pattern(gpu, &ctx, dptr);
	check(!gd_cuda_mem_free(&ctx, base),
	      "free (cuMemFree on the retained context)");
out_release:
	check(!gd_cuda_ctx_release(&ctx), "release the primary context");
}

/* A failed load: "no GPU" (77, a skip) only where no driver is installed
 * (no libcuda) or cuInit found no device and the node has no /dev/nvidia0
 * ($GD_GPU_DEV_NODE for tests); any other cuInit failure is a broken
 * driver on a GPU node (802 fabric manager, 803 version mismatch, 999...):
 * FAIL with the hint of its class. */
static int load_failed(void)
{
	const char *node = getenv("GD_GPU_DEV_NODE");
	int rc = gd_cuda_init_result();

	if (!node || !*node)
		node = "/dev/nvidia0";
	if (gd_cuda_load_state() == 0) {
		step("SKIP", "load CUDA driver: %s", gd_err_msg());
		return 77;
	}
	if (rc == CUDA_ERROR_NO_DEVICE && access(node, F_OK)) {
		step("SKIP",
		     "no GPU: cuInit found no device and there is no %s: %s",
		     node, gd_err_msg());
		return 77;
	}
	step("FAIL", "cuInit (error %d%s): %s", rc,
	     rc == CUDA_ERROR_NO_DEVICE
		     ? ", although the node has a GPU device file"
		     : "",
	     gd_err_msg());
	printf("FAIL: 1 step(s) failed\n");
	return 1;
}

/* Usage: cuda-smoke [cuda:N|cuda:BDF|N|BDF] (default GPU 0). */
int main(int argc, char **argv)
{
	const char *ref = argc > 1 ? argv[1] : "0";
	struct gd_gpu_info g;
	int count = 0, gpu = 0;

	if (!strncmp(ref, "cuda:", 5))
		ref += 5;
	/* First, while this process has not called cuInit (the child forks
	 * from a process without CUDA state). */
	case_no_cuinit_retry();
	if (gd_cuda_load())
		return load_failed();
	step("PASS", "load CUDA driver (%s)", gd_cuda_library_name());
	if (gd_cuda_device_count(&count) || !count) {
		step("SKIP", "no GPU visible: %s", gd_err_msg());
		return 77;
	}
	step("PASS", "%d GPU(s) visible", count);
	if (gd_cuda_find(ref, &gpu)) {
		step("FAIL", "GPU %s: %s", ref, gd_err_msg());
		return 1;
	}
	case_info(gpu, &g);
	case_buffer(gpu, &g);
	printf("%s: %d step(s) failed\n", smoke_failures ? "FAIL" : "PASS",
	       smoke_failures);
	return smoke_failures ? 1 : 0;
}
