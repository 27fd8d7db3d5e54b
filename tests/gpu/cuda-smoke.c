/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Real-GPU smoke test of the cuda backend, no RDMA device needed: load the
 * driver, list GPUs, allocate 64 MiB, set SYNC_MEMOPS, export DMA-BUF, round
 * trip the verification pattern, free. One line per step with PASS, FAIL,
 * SKIP or INFO. Not part of make check; run by tests/gpu/run.sh.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cuda_api.h"
#include "error.h"
#include "mem.h"
#include "route.h"

#define SMOKE_LEN_BYTES (64u << 20)
#define SMOKE_SEED 0x5eedu
#define SMOKE_FLIP_OFFSET 12345u

static int smoke_failures;

static void __attribute__((format(printf, 2, 3)))
step(const char *verdict, const char *fmt, ...)
{
	va_list ap;

	if (!strcmp(verdict, "FAIL"))
		smoke_failures++;
	printf("%-4s ", verdict);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void list_gpus(int count)
{
	for (int i = 0; i < count; i++) {
		struct gd_gpu_info g;

		if (gd_cuda_gpu_info(i, &g)) {
			step("FAIL", "gpu %d: %s", i, gd_err_msg());
			gd_err_clear();
			continue;
		}
		step("INFO",
		     "gpu %d: %s, %s, %s, cc %d.%d, driver %d, %llu MiB, DMA_BUF_SUPPORTED=%d, GPU_DIRECT_RDMA_SUPPORTED=%d",
		     i, g.name, g.pci_bus_id, g.uuid, g.compute_major,
		     g.compute_minor, g.driver_version,
		     (unsigned long long)(g.total_mem_bytes >> 20),
		     g.dmabuf_supported, g.gdr_supported);
	}
}

static void route_record(int gpu)
{
	struct gd_route_facts f;
	struct gd_route_decision d;
	struct json_object *ev;

	gd_route_probe("/", gpu, &f);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	ev = gd_route_evidence(&f, &d);
	step("INFO", "route decision (auto): %s",
	     json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN));
	json_object_put(ev);
}

static void export_dmabuf(const struct gd_mem_buf *buf, int gpu)
{
	struct gd_cuda_ctx ctx;
	struct gd_gpu_info g;
	unsigned long long flags = 0;
	char why[512] = "";
	int fd = -1;

	if (gd_cuda_ctx_retain(gpu, &ctx) || gd_cuda_gpu_info(gpu, &g)) {
		step("FAIL", "retain context of gpu %d: %s", gpu, gd_err_msg());
		gd_err_clear();
		return;
	}
	if (gd_cuda_prepare_rdma(&ctx, (uint64_t)(uintptr_t)buf->addr)) {
		step("FAIL", "set CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: %s",
		     gd_err_msg());
		gd_err_clear();
	} else {
		step("PASS",
		     "set CU_POINTER_ATTRIBUTE_SYNC_MEMOPS on the buffer (managed memory check included)");
	}
	if (!gd_cuda_export_dmabuf(&ctx, (uint64_t)(uintptr_t)buf->addr,
				   SMOKE_LEN_BYTES, &fd, &flags, why,
				   sizeof(why))) {
		step("PASS", "DMA-BUF export of %u MiB: fd %d, flags %s",
		     SMOKE_LEN_BYTES >> 20, fd,
		     flags ? "CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE"
			   : "0");
		close(fd);
	} else {
		step(g.dmabuf_supported == 1 ? "FAIL" : "SKIP",
		     "DMA-BUF export (DMA_BUF_SUPPORTED=%d): %s",
		     g.dmabuf_supported, why);
	}
	gd_cuda_ctx_release(&ctx);
}

static void pattern_round_trip(struct gd_mem_buf *buf)
{
	double t0 = now_s();
	uint8_t flipped;

	if (gd_mem_check_pattern(buf, 0, SMOKE_LEN_BYTES, 0))
		step("FAIL",
		     "initial pattern (written before registration) read back: %s",
		     gd_err_msg());
	else
		step("PASS",
		     "initial pattern read back through cuMemcpyDtoH (%.0f ms)",
		     (now_s() - t0) * 1e3);
	gd_err_clear();
	t0 = now_s();
	if (gd_mem_fill_pattern(buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED) ||
	    gd_mem_check_pattern(buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED))
		step("FAIL", "pattern seed 0x%x copy in/out: %s", SMOKE_SEED,
		     gd_err_msg());
	else
		step("PASS",
		     "pattern seed 0x%x: %u MiB copied in and out, all bytes match (%.0f ms)",
		     SMOKE_SEED, SMOKE_LEN_BYTES >> 20, (now_s() - t0) * 1e3);
	gd_err_clear();
	flipped = (uint8_t)(gd_pattern_byte(SMOKE_SEED, SMOKE_FLIP_OFFSET) ^
			    0x80);
	if (buf->ops->copy_in(buf, SMOKE_FLIP_OFFSET, &flipped, 1)) {
		step("FAIL", "write one corrupt byte: %s", gd_err_msg());
	} else if (gd_mem_check_pattern(buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED) !=
			   -EILSEQ ||
		   !strstr(gd_err_msg(), "offset 12345")) {
		step("FAIL",
		     "verification missed a corrupt byte at offset %u: %s",
		     SMOKE_FLIP_OFFSET, gd_err_msg());
	} else {
		step("PASS", "verification caught the corrupt byte: %s",
		     gd_err_msg());
	}
	gd_err_clear();
}

int main(int argc, char **argv)
{
	const char *spec_text = argc > 1 ? argv[1] : "cuda:0";
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;
	struct json_object *desc;
	int count = 0, gpu;

	if (gd_mem_spec_parse(spec_text, &spec) || spec.kind != GD_MEM_CUDA) {
		fprintf(stderr, "usage: %s [cuda:N|cuda:BDF]: %s\n", argv[0],
			gd_err_msg());
		return 2;
	}
	if (gd_cuda_load()) {
		step("SKIP", "load CUDA driver: %s", gd_err_msg());
		return 77;
	}
	step("PASS", "load CUDA driver (%s)",
	     getenv("GD_CUDA_LIBRARY") ? getenv("GD_CUDA_LIBRARY")
				       : "libcuda.so.1");
	if (gd_cuda_device_count(&count) || !count) {
		step("SKIP", "no GPU visible: %s", gd_err_msg());
		return 77;
	}
	step("PASS", "%d GPU(s) visible", count);
	list_gpus(count);
	if (gd_mem_alloc(&buf, &spec, SMOKE_LEN_BYTES)) {
		step("FAIL", "allocate %u MiB on %s: %s", SMOKE_LEN_BYTES >> 20,
		     spec_text, gd_err_msg());
		return 1;
	}
	desc = gd_mem_describe(&buf);
	gpu = json_object_get_int(json_object_object_get(
		json_object_object_get(desc, "gpu"), "index"));
	json_object_put(desc);
	step("PASS", "allocate %u MiB on %s (gpu %d) at 0x%llx",
	     SMOKE_LEN_BYTES >> 20, spec_text, gpu,
	     (unsigned long long)(uintptr_t)buf.addr);
	route_record(gpu);
	export_dmabuf(&buf, gpu);
	pattern_round_trip(&buf);
	gd_mem_free(&buf);
	step("PASS", "free");
	printf("%s: %d step(s) failed\n", smoke_failures ? "FAIL" : "PASS",
	       smoke_failures);
	return smoke_failures ? 1 : 0;
}
