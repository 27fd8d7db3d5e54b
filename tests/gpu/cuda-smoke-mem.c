/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Real-GPU smoke test of the cuda memory backend itself (gd_mem_alloc on
 * the backend's ops, pattern fill and check through its copy hooks with
 * the flush before read-back, its JSON description), no RDMA device
 * needed. It links the whole library and so needs libibverbs, librdmacm
 * and json-c at run time; tests/gpu/run.sh skips it when they are missing.
 * Exit 0 pass, 1 fail, 77 no driver or GPU.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "util/error.h"
#include "smoke_report.h"
#include "mem/mem.h"

#define SMOKE_LEN_BYTES (64u << 20)
#define SMOKE_SEED 0x5eedu
#define SMOKE_FLIP_OFFSET 12345u

static void pattern_round_trip(struct gd_mem_buf *buf)
{
	uint8_t flipped;

	check(!gd_mem_check_pattern(buf, 0, SMOKE_LEN_BYTES, 0),
	      "initial pattern (written at allocation) read back");
	check(!gd_mem_fill_pattern(buf, 0, SMOKE_LEN_BYTES, SMOKE_SEED) &&
		      !gd_mem_check_pattern(buf, 0, SMOKE_LEN_BYTES,
					    SMOKE_SEED),
	      "64 MiB pattern copied in and out through the backend, all bytes match");
	flipped = (uint8_t)(gd_pattern_byte(SMOKE_SEED, SMOKE_FLIP_OFFSET) ^
			    0x80);
	check(!buf->ops->copy_in(buf, SMOKE_FLIP_OFFSET, &flipped, 1) &&
		      gd_mem_check_pattern(buf, 0, SMOKE_LEN_BYTES,
					   SMOKE_SEED) == -EILSEQ &&
		      strstr(gd_err_msg(), "offset 12345"),
	      "verification catches one corrupt byte at offset 12345");
}

int main(int argc, char **argv)
{
	const char *spec_text = argc > 1 ? argv[1] : "cuda:0";
	struct json_object *desc, *gpu;
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;

	if (gd_mem_spec_parse(spec_text, &spec) || spec.kind != GD_MEM_CUDA) {
		fprintf(stderr, "usage: %s [cuda:N|cuda:BDF]: %s\n", argv[0],
			gd_err_msg());
		return 2;
	}
	if (gd_cuda_load()) {
		step("SKIP", "load CUDA driver: %s", gd_err_msg());
		return 77;
	}
	if (gd_mem_alloc(&buf, &spec, SMOKE_LEN_BYTES)) {
		step("FAIL", "gd_mem_alloc of 64 MiB on %s: %s", spec_text,
		     gd_err_msg());
		return 1;
	}
	step("PASS", "gd_mem_alloc of 64 MiB on %s (cuda backend)", spec_text);
	desc = gd_mem_describe(&buf);
	gpu = json_object_object_get(desc, "gpu");
	check(gpu && json_object_get_string(
			     json_object_object_get(gpu, "verify_read_back")),
	      "description names the read-back method");
	step("INFO", "%s",
	     json_object_to_json_string_ext(desc, JSON_C_TO_STRING_PLAIN));
	json_object_put(desc);
	pattern_round_trip(&buf);
	check(!gd_mem_free(&buf) && !buf.addr,
	      "gd_mem_free (cuMemFree, primary-context release)");
	printf("%s: %d step(s) failed\n", smoke_failures ? "FAIL" : "PASS",
	       smoke_failures);
	return smoke_failures ? 1 : 0;
}
