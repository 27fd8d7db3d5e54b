/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests of the memory backends: --mem spec grammar, the verification
 * pattern, host and hugepage allocation, registration errno decoding and
 * the route decision table and probe. GPU facts come from the fake CUDA
 * driver (a test double), never a GPU; the cuda
 * backend itself is tested in mem_cuda_test.c.
 */
#include <config.h>

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "mem/cuda_api.h"
#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"
#include "mem/route.h"

static char fake_cuda_path[1024];
static char fixture_root[256];

#define GD_MEM_TEST_ROOT fixture_root
#include "mem_util.h"

static void test_spec_parse_good(void **state)
{
	struct gd_mem_spec s;
	char text[GD_MEM_SPEC_MAX];

	assert_int_equal(gd_mem_spec_parse("host", &s), 0);
	assert_int_equal(s.kind, GD_MEM_HOST);
	assert_int_equal(s.route, GD_ROUTE_PLAIN);
	assert_int_equal(gd_mem_spec_parse("hugepage", &s), 0);
	assert_int_equal(s.kind, GD_MEM_HUGEPAGE);

	assert_int_equal(gd_mem_spec_parse("cuda:0", &s), 0);
	assert_int_equal(s.kind, GD_MEM_CUDA);
	assert_int_equal(s.gpu_index, 0);
	assert_string_equal(s.gpu_bus_id, "");
	assert_int_equal(s.route, GD_ROUTE_AUTO);
	gd_mem_spec_format(&s, text, sizeof(text));
	assert_string_equal(text, "cuda:0");

	assert_int_equal(gd_mem_spec_parse("cuda:3:peermem", &s), 0);
	assert_int_equal(s.gpu_index, 3);
	assert_int_equal(s.route, GD_ROUTE_PEERMEM);
	gd_mem_spec_format(&s, text, sizeof(text));
	assert_string_equal(text, "cuda:3:peermem");

	assert_int_equal(gd_mem_spec_parse("cuda:0000:17:00.0:dmabuf", &s), 0);
	assert_int_equal(s.gpu_index, -1);
	assert_string_equal(s.gpu_bus_id, "0000:17:00.0");
	assert_int_equal(s.route, GD_ROUTE_DMABUF);
	gd_mem_spec_format(&s, text, sizeof(text));
	assert_string_equal(text, "cuda:0000:17:00.0:dmabuf");

	/* By place: chosen from the GPU-to-NIC map when the run starts. */
	assert_int_equal(gd_mem_spec_parse("cuda:near", &s), 0);
	assert_int_equal(s.locality, GD_MEM_NEAR);
	assert_int_equal(s.gpu_index, -1);
	assert_int_equal(gd_mem_spec_parse("cuda:far:peermem", &s), 0);
	assert_int_equal(s.locality, GD_MEM_FAR);
	assert_int_equal(s.route, GD_ROUTE_PEERMEM);
	gd_mem_spec_format(&s, text, sizeof(text));
	assert_string_equal(text, "cuda:far:peermem");
	assert_int_equal(gd_mem_spec_parse("cuda:2", &s), 0);
	assert_int_equal(s.locality, GD_MEM_NAMED);

	/* Short form and upper case normalise to what the driver reports. */
	assert_int_equal(gd_mem_spec_parse("cuda:AB:00.1:auto", &s), 0);
	assert_string_equal(s.gpu_bus_id, "0000:ab:00.1");
	assert_int_equal(s.route, GD_ROUTE_AUTO);
	assert_int_equal(gd_mem_spec_parse("cuda:0000:17:00.0", &s), 0);
	assert_string_equal(s.gpu_bus_id, "0000:17:00.0");
	assert_int_equal(s.route, GD_ROUTE_AUTO);
	assert_false(gd_err_is_set());
}

static void test_spec_parse_bad(void **state)
{
	static const struct {
		const char *text;
		const char *fragment;
	} bad[] = {
		{ "cuda:x", "GPU 'x' is neither an index" },
		{ "cuda:0:foo", "unknown registration route 'foo'" },
		{ "gpu", "'gpu': unknown memory type" },
		{ "cuda", "'cuda': unknown memory type" },
		{ "cuda:", "GPU '' is neither" },
		{ "cuda:1024", "GPU '1024' is neither an index (0..1023)" },
		{ "cuda:-1", "GPU '-1'" },
		{ "cuda:0000:17:00.0:dma", "unknown registration route 'dma'" },
		{ "cuda:0000:17:00.8",
		  "a PCI bus id (0000:17:00.0) nor near or far" },
		{ "host:dmabuf", "unknown memory type" },
		{ "", "unknown memory type" },
	};
	struct gd_mem_spec s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gd_err_clear();
		assert_int_equal(gd_mem_spec_parse(bad[i].text, &s), -EINVAL);
		assert_msg_has(bad[i].fragment);
	}
	assert_string_equal(gd_mem_kind_name(GD_MEM_HUGEPAGE), "hugepage");
	assert_string_equal(gd_mem_route_name(GD_ROUTE_DMABUF), "dmabuf");
}

/* The whole list of forms comes from the backends, in table order. */
static void test_spec_unknown_lists_backends(void **state)
{
	struct gd_mem_spec s;

	assert_int_equal(gd_mem_spec_parse("gpu", &s), -EINVAL);
	assert_string_equal(
		gd_err_msg(),
		"--mem 'gpu': unknown memory type (expected host, hugepage, cuda:N[:auto|dmabuf|peermem], cuda:BDF[:route], cuda:near|far[:route] or mmap:FILE)");
}

/* The questions the engine asks before a spec is parsed. */
static void test_spec_questions(void **state)
{
	char text[96];

	assert_false(gd_mem_spec_is_device(NULL));
	assert_false(gd_mem_spec_is_device("host"));
	assert_false(gd_mem_spec_is_device("hugepage"));
	assert_false(gd_mem_spec_is_device("gpu:0"));
	assert_true(gd_mem_spec_is_device("cuda:0"));

	assert_false(gd_mem_spec_may_export_dmabuf(NULL));
	assert_false(gd_mem_spec_may_export_dmabuf("host"));
	assert_true(gd_mem_spec_may_export_dmabuf("cuda:0"));
	assert_true(gd_mem_spec_may_export_dmabuf("cuda:0:dmabuf"));
	assert_false(gd_mem_spec_may_export_dmabuf("cuda:0:peermem"));

	assert_int_equal(gd_mem_spec_alias("use_cuda", "2", GD_ROUTE_AUTO, text,
					   sizeof(text)),
			 0);
	assert_string_equal(text, "cuda:2");
	assert_int_equal(gd_mem_spec_alias("use_cuda", "0000:17:00.0",
					   GD_ROUTE_DMABUF, text, sizeof(text)),
			 0);
	assert_string_equal(text, "cuda:0000:17:00.0:dmabuf");
	assert_false(gd_err_is_set());
	assert_int_equal(gd_mem_spec_alias("use_rocm", "0", GD_ROUTE_AUTO, text,
					   sizeof(text)),
			 -EINVAL);
	assert_msg_has("no memory backend answers to --use_rocm");
}

static void test_pattern_bytes(void **state)
{
	size_t differ = 0;

	/* Expected values computed by hand from the mix in gd_pattern_byte. */
	assert_int_equal(gd_pattern_byte(0, 0), 0x00);
	assert_int_equal(gd_pattern_byte(0, 1), 0x2c);
	assert_int_equal(gd_pattern_byte(0, 2), 0xe7);
	assert_int_equal(gd_pattern_byte(1, 0), 0x19);
	assert_int_equal(gd_pattern_byte(1, 3), 0xc9);
	assert_int_equal(gd_pattern_byte(42, 1000), 0x66);
	for (size_t i = 0; i < 4096; i++)
		differ += gd_pattern_byte(1, i) != gd_pattern_byte(2, i);
	/* Two seeds agree on about 1 byte in 256. */
	assert_true(differ > 4000);
}

static void test_host_alloc_and_check(void **state)
{
	struct gd_mem_buf buf;
	struct json_object *d;
	struct gd_mem_spec s = { .kind = GD_MEM_HOST, .gpu_index = -1 };
	uint8_t *p;
	char frag[128];

	assert_int_equal(gd_mem_alloc(&buf, &s, 10000), 0);
	p = buf.addr;
	assert_int_equal((uintptr_t)p % (uintptr_t)sysconf(_SC_PAGESIZE), 0);
	assert_int_equal(buf.len_bytes, 10000);
	/* Filled before anyone registers it: seed 0 everywhere. */
	assert_int_equal(p[1], 0x2c);
	assert_int_equal(p[2], 0xe7);
	assert_int_equal(gd_mem_check_pattern(&buf, 0, 10000, GD_MEM_INIT_SEED),
			 0);

	assert_int_equal(gd_mem_fill_pattern(&buf, 1000, 5000, 7), 0);
	assert_int_equal(gd_mem_check_pattern(&buf, 1000, 5000, 7), 0);
	assert_int_equal(p[1000], gd_pattern_byte(7, 1000));
	p[1234] ^= 0xff;
	assert_int_equal(gd_mem_check_pattern(&buf, 1000, 5000, 7), -EILSEQ);
	assert_msg_has("first mismatch at offset 1234");
	snprintf(frag, sizeof(frag), "expected 0x%02x, found 0x%02x",
		 gd_pattern_byte(7, 1234),
		 (uint8_t)(gd_pattern_byte(7, 1234) ^ 0xff));
	assert_msg_has(frag);
	assert_msg_has("1 bytes differ");
	assert_msg_has("host memory");

	gd_err_clear();
	assert_int_equal(gd_mem_check_pattern(&buf, 9000, 2000, 7), -ERANGE);
	assert_msg_has("exceeds the 10000-byte host buffer");

	d = gd_mem_describe(&buf);
	assert_string_equal(
		json_object_get_string(json_object_object_get(d, "kind")),
		"host");
	assert_int_equal(
		json_object_get_int64(json_object_object_get(d, "len_bytes")),
		10000);
	assert_true(json_object_get_boolean(
		json_object_object_get(d, "cpu_accessible")));
	assert_false(json_object_get_boolean(
		json_object_object_get(d, "registered")));
	json_object_put(d);
	gd_mem_free(&buf);
	assert_null(buf.addr);
	gd_mem_free(&buf); /* safe twice */
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_hugepage_explain(void **state)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/meminfo", fixture_root);
	write_file(
		path,
		"MemTotal: 1000 kB\nHugePages_Total:       0\nHugePages_Free:        0\nHugepagesize:       2048 kB\n");
	/* 5 MiB in 2 MiB pages is 3 pages. */
	assert_int_equal(gd_mem_hugepage_explain(-ENOMEM, path, 5u << 20),
			 -ENOMEM);
	assert_msg_has(
		"no huge pages reserved (HugePages_Free=0); reserve with: echo 3 > /proc/sys/vm/nr_hugepages");
	assert_msg_has("errno 12");

	gd_err_clear();
	write_file(
		path,
		"HugePages_Total:       4\nHugePages_Free:        1\nHugepagesize:       2048 kB\n");
	gd_mem_hugepage_explain(-ENOMEM, path, 5u << 20);
	assert_msg_has(
		"HugePages_Free=1 of HugePages_Total=4 but 3 pages of 2048 KiB are needed");
	assert_msg_has("echo 6 > /proc/sys/vm/nr_hugepages");

	gd_err_clear();
	write_file(
		path,
		"HugePages_Total:       8\nHugePages_Free:        8\nHugepagesize:       1048576 kB\n");
	gd_mem_hugepage_explain(-ENOMEM, path, 5u << 20);
	assert_msg_has("HugePages_Free=8 covers the 1 pages of 1048576 KiB");
	assert_msg_has("cgroup hugetlb");

	gd_err_clear();
	write_file(path, "MemTotal: 1000 kB\n");
	gd_mem_hugepage_explain(-ENOMEM, path, 4096);
	assert_msg_has("lacks huge page support");

	gd_err_clear();
	gd_mem_hugepage_explain(-ENOMEM, "/nonexistent/meminfo", 4096);
	assert_msg_has("cannot read /nonexistent/meminfo");
}

/* Real allocation: passes with reserved huge pages, else checks the error. */
static void test_hugepage_alloc(void **state)
{
	struct gd_mem_spec s = { .kind = GD_MEM_HUGEPAGE, .gpu_index = -1 };
	struct gd_mem_buf buf;
	int ret = gd_mem_alloc(&buf, &s, 3u << 20);

	if (ret) {
		assert_int_equal(ret, -ENOMEM);
		assert_msg_has("huge-page memory");
		assert_msg_has("/proc/sys/vm/nr_hugepages");
		return;
	}
	assert_int_equal(
		gd_mem_check_pattern(&buf, 0, 3u << 20, GD_MEM_INIT_SEED), 0);
	gd_mem_free(&buf);
}

/*
 * What a peer can RDMA-read from a registered buffer before anyone wrote to
 * it is the fill pattern, never what this process kept in that memory
 * before: fill a heap block with a marker, free it, allocate the same size
 * again (the allocator may hand the block back) and check every byte. The
 * huge-page backend maps fresh pages, but is checked the same way.
 */
static void test_alloc_never_exposes_old_memory(void **state)
{
	static const char marker[16] = "gd-secret-bytes";
	static const enum gd_mem_kind kinds[] = { GD_MEM_HOST,
						  GD_MEM_HUGEPAGE };
	const size_t len = 64 * 1024;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct gd_mem_spec s = { .kind = kinds[k], .gpu_index = -1 };
		struct gd_mem_buf buf;
		char *old = malloc(len);

		assert_non_null(old);
		for (size_t i = 0; i < len; i += sizeof(marker))
			memcpy(old + i, marker, sizeof(marker));
		free(old);
		if (gd_mem_alloc(&buf, &s, len)) {
			/* No huge pages reserved here: nothing to expose. */
			assert_int_equal(kinds[k], GD_MEM_HUGEPAGE);
			gd_err_clear();
			continue;
		}
		assert_int_equal(buf.len_bytes, len);
		assert_int_equal(
			gd_mem_check_pattern(&buf, 0, len, GD_MEM_INIT_SEED),
			0);
		assert_null(memmem(buf.addr, len, marker, 8));
		gd_mem_free(&buf);
	}
}

static void test_regerr_enomem(void **state)
{
	struct rlimit old, low;
	struct gd_mem_buf buf;
	struct gd_mem_spec s = { .kind = GD_MEM_HOST, .gpu_index = -1 };
	char frag[128];

	assert_int_equal(gd_mem_alloc(&buf, &s, 1u << 20), 0);
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &old), 0);
	low = old;
	low.rlim_cur = 65536;
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < 65536)
		low.rlim_cur = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &low), 0);
	assert_int_equal(
		gd_mem_decode_reg_error(-ENOMEM, &buf, "rxe0", "ibv_reg_mr"),
		-ENOMEM);
	assert_int_equal(gd_err_code(), -ENOMEM);
	assert_msg_has(
		"ibv_reg_mr of 1048576 bytes of host memory on rxe0 failed: errno 12 (ENOMEM");
	snprintf(frag, sizeof(frag), "soft %llu bytes, hard ",
		 (unsigned long long)low.rlim_cur);
	assert_msg_has(frag);
	assert_msg_has("needs 1048576 bytes");
	assert_msg_has("raise with ulimit -l or LimitMEMLOCK= for services");
	setrlimit(RLIMIT_MEMLOCK, &old);
	gd_mem_free(&buf);
}

static void test_regerr_table(void **state)
{
	static const struct {
		int err;
		bool device;
		const char *call;
		const char *fragments[2];
	} rows[] = {
		{ EFAULT,
		  true,
		  "ibv_reg_mr",
		  { "errno 14 (EFAULT",
		    "load nvidia-peermem where MLNX_OFED/DOCA-OFED provides its peer-memory API (modprobe nvidia-peermem; it cannot load on inbox kernels), or use --mem=cuda:N:dmabuf (open GPU kernel module >= 515, Linux >= 5.12)" } },
		{ EINVAL,
		  true,
		  "ibv_reg_mr",
		  { "errno 22 (EINVAL", "modprobe nvidia-peermem" } },
		{ EOPNOTSUPP,
		  true,
		  "ibv_reg_dmabuf_mr",
		  { "errno 95 (EOPNOTSUPP",
		    "driver or device rxe0 lacks DMA-BUF support" } },
		{ EPROTONOSUPPORT,
		  true,
		  "ibv_reg_dmabuf_mr",
		  { "errno 93 (EPROTONOSUPPORT", "has no dma-buf import" } },
		{ GD_ENOTSUPP,
		  true,
		  "ibv_reg_dmabuf_mr",
		  { "errno 524 (ENOTSUPP",
		    "PCI topology not supported for dma-buf" } },
		{ EPERM,
		  false,
		  "ibv_reg_mr",
		  { "errno 1 (EPERM", "permission denied" } },
		{ EACCES,
		  false,
		  "ibv_reg_mr",
		  { "errno 13 (EACCES", "/dev/infiniband/uverbs" } },
		{ EFAULT,
		  false,
		  "ibv_reg_mr",
		  { "errno 14 (EFAULT", "not fully mapped" } },
		{ EINVAL,
		  false,
		  "ibv_reg_mr",
		  { "errno 22 (EINVAL", "max_mr_size" } },
		{ EIO, false, "ibv_reg_mr", { "errno 5 (EIO", "dmesg" } },
		{ 200, false, "ibv_reg_mr", { "errno 200 (UNKNOWN", "dmesg" } },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct gd_mem_buf buf = { .len_bytes = 4096 };

		buf.spec.kind = rows[i].device ? GD_MEM_CUDA : GD_MEM_HOST;
		buf.spec.gpu_index = rows[i].device ? 0 : -1;
		buf.ops = rows[i].device ? &gd_mem_cuda_ops : &gd_mem_host_ops;
		gd_err_clear();
		assert_int_equal(gd_mem_decode_reg_error(-rows[i].err, &buf,
							 "rxe0", rows[i].call),
				 -rows[i].err);
		assert_msg_has(rows[i].call);
		assert_msg_has(rows[i].device ? "cuda:0 memory on rxe0"
					      : "host memory on rxe0");
		assert_msg_has(rows[i].fragments[0]);
		assert_msg_has(rows[i].fragments[1]);
	}
}

/* One row of the auto decision: facts in, route and reason fragments out. */
struct route_row {
	int attr;
	bool rdma, pm, nvpm;
	enum gd_mem_route route;
	bool possible;
	const char *why, *not_dmabuf, *not_peermem, *stop;
};

#define ATTR1 "DMA_BUF_SUPPORTED=1"
#define ATTR0 "DMA_BUF_SUPPORTED=0"
#define ATTRU "DMA-BUF attribute unknown"
#define NORDMA "rdma-core lacks ibv_reg_dmabuf_mr"
#define NOPEER "neither nvidia_peermem nor nv_peer_mem is loaded"
#define BOTHPEER "both nvidia_peermem and the legacy nv_peer_mem are loaded"
#define NOROUTE "no supported GPU registration route"
#define CONFLICT "two peer-memory modules conflict"

/* clang-format off */
static const struct route_row auto_rows[] = {
	{ 1, true, false, false, GD_ROUTE_DMABUF, true, ATTR1, "", NOPEER, "" },
	{ 1, true, true, false, GD_ROUTE_DMABUF, true, ATTR1, "", "DMA-BUF preferred when both are available (nvidia_peermem is loaded too)", "" },
	{ 1, true, false, true, GD_ROUTE_DMABUF, true, ATTR1, "", "(nv_peer_mem is loaded too)", "" },
	{ 1, true, true, true, GD_ROUTE_DMABUF, true, ATTR1, "", BOTHPEER, "" },
	{ 1, false, false, false, GD_ROUTE_AUTO, false, "", NORDMA, NOPEER, NOROUTE },
	{ 1, false, true, false, GD_ROUTE_PEERMEM, true, "nvidia_peermem is loaded", NORDMA, "", "" },
	{ 1, false, false, true, GD_ROUTE_PEERMEM, true, "nv_peer_mem is loaded", NORDMA, "", "" },
	{ 1, false, true, true, GD_ROUTE_AUTO, false, "", NORDMA, BOTHPEER, CONFLICT },
	{ 0, true, false, false, GD_ROUTE_AUTO, false, "", ATTR0, NOPEER, NOROUTE },
	{ 0, true, true, false, GD_ROUTE_PEERMEM, true, "nvidia_peermem is loaded", ATTR0, "", "" },
	{ 0, true, false, true, GD_ROUTE_PEERMEM, true, "nv_peer_mem is loaded", ATTR0, "", "" },
	{ 0, true, true, true, GD_ROUTE_AUTO, false, "", ATTR0, BOTHPEER, CONFLICT },
	{ 0, false, false, false, GD_ROUTE_AUTO, false, "", NORDMA, NOPEER, NOROUTE },
	{ 0, false, true, false, GD_ROUTE_PEERMEM, true, "nvidia_peermem is loaded", NORDMA, "", "" },
	{ 0, false, false, true, GD_ROUTE_PEERMEM, true, "nv_peer_mem is loaded", ATTR0, "", "" },
	{ 0, false, true, true, GD_ROUTE_AUTO, false, "", ATTR0, BOTHPEER, CONFLICT },
	{ -1, true, false, false, GD_ROUTE_AUTO, false, "", ATTRU, NOPEER, NOROUTE },
	{ -1, true, true, false, GD_ROUTE_PEERMEM, true, "nvidia_peermem is loaded", ATTRU, "", "" },
	{ -1, true, false, true, GD_ROUTE_PEERMEM, true, "nv_peer_mem is loaded", ATTRU, "", "" },
	{ -1, true, true, true, GD_ROUTE_AUTO, false, "", ATTRU, BOTHPEER, CONFLICT },
	{ -1, false, false, false, GD_ROUTE_AUTO, false, "", NORDMA, NOPEER, NOROUTE },
	{ -1, false, true, false, GD_ROUTE_PEERMEM, true, "nvidia_peermem is loaded", NORDMA, "", "" },
	{ -1, false, false, true, GD_ROUTE_PEERMEM, true, "nv_peer_mem is loaded", ATTRU, "", "" },
	{ -1, false, true, true, GD_ROUTE_AUTO, false, "", NORDMA, BOTHPEER, CONFLICT },
};
/* clang-format on */

static void base_facts(struct gd_route_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->gpu_gdr_supported = 1;
	f->cuda_driver_version = 12040;
	f->open_kernel_module = 1;
}

static void test_route_auto_table(void **state)
{
	for (size_t i = 0; i < sizeof(auto_rows) / sizeof(auto_rows[0]); i++) {
		const struct route_row *r = &auto_rows[i];
		struct gd_route_facts f;
		struct gd_route_decision d;

		base_facts(&f);
		f.gpu_dmabuf_supported = r->attr;
		f.rdma_core_has_dmabuf = r->rdma;
		f.peermem_loaded = r->pm;
		f.nv_peer_mem_loaded = r->nvpm;
		gd_route_decide(&f, GD_ROUTE_AUTO, &d);
		print_message("row %zu: route %s possible %d\n", i,
			      gd_mem_route_name(d.route), d.possible);
		assert_int_equal(d.route, r->route);
		assert_int_equal(d.possible, r->possible);
		assert_int_equal(d.peermem_conflict, r->pm && r->nvpm);
		assert_has(d.why, r->why);
		assert_has(d.why_not_dmabuf, r->not_dmabuf);
		assert_has(d.why_not_peermem, r->not_peermem);
		assert_has(d.stop_condition, r->stop);
		if (r->route == GD_ROUTE_DMABUF)
			assert_string_equal(d.why_not_dmabuf, "");
		if (r->route == GD_ROUTE_PEERMEM)
			assert_string_equal(d.why_not_peermem, "");
		if (r->possible)
			assert_string_equal(d.stop_condition, "");
	}
}

static void test_route_requested_and_blockers(void **state)
{
	struct gd_route_facts f;
	struct gd_route_decision d;

	base_facts(&f);
	f.gpu_dmabuf_supported = 0;
	f.open_kernel_module = 0;
	f.rdma_core_has_dmabuf = true;
	gd_route_decide(&f, GD_ROUTE_DMABUF, &d);
	assert_int_equal(d.route, GD_ROUTE_DMABUF);
	assert_true(d.possible);
	assert_has(
		d.why,
		"requested (:dmabuf) although GPU reports CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED=0 (proprietary NVIDIA kernel module");
	assert_string_equal(d.why_not_dmabuf, "");
	assert_has(d.why_not_peermem, "not requested; also: " NOPEER);

	f.gpu_dmabuf_supported = 1;
	gd_route_decide(&f, GD_ROUTE_PEERMEM, &d);
	assert_int_equal(d.route, GD_ROUTE_PEERMEM);
	assert_true(d.possible);
	assert_has(d.why, "requested (:peermem) although " NOPEER);
	assert_string_equal(d.why_not_dmabuf, "not requested");

	f.peermem_loaded = true;
	gd_route_decide(&f, GD_ROUTE_PEERMEM, &d);
	assert_has(d.why,
		   "requested (:peermem); a peer-memory module is loaded");

	f.gpu_gdr_supported = 0;
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_false(d.possible);
	assert_has(d.why_not_dmabuf, "GPU_DIRECT_RDMA_SUPPORTED=0");
	assert_has(d.why_not_peermem, "GPU_DIRECT_RDMA_SUPPORTED=0");

	base_facts(&f);
	snprintf(f.driver_error, sizeof(f.driver_error),
		 "CUDA driver not available (libcuda.so.1: cannot open)");
	gd_route_decide(&f, GD_ROUTE_DMABUF, &d);
	assert_false(d.possible);
	assert_has(d.stop_condition, "CUDA driver not available (libcuda.so.1");

	/* The kernel version is a hint: 4.18 (RHEL 8, import backported)
	 * with a NIC that answers the probe with EBADF picks DMA-BUF. */
	base_facts(&f);
	f.gpu_dmabuf_supported = 1;
	f.rdma_core_has_dmabuf = true;
	f.kernel_major = 4;
	f.kernel_minor = 18;
	gd_route_set_nic_probe(&f, "mlx5_0", 0);
	assert_int_equal(f.nic_dmabuf, GD_NIC_DMABUF_YES);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_true(d.possible);
	assert_int_equal(d.route, GD_ROUTE_DMABUF);
	assert_has(d.why, "the NIC probe answered EBADF (supported) on mlx5_0");
	/* Any other answer is unknown, said so, and excludes nothing. */
	gd_route_set_nic_probe(&f, "mlx5_0", -EINTR);
	assert_int_equal(f.nic_dmabuf, GD_NIC_DMABUF_UNKNOWN);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_int_equal(d.route, GD_ROUTE_DMABUF);
	assert_has(d.why, "the NIC probe's answer is unknown on mlx5_0");

	/* The messages say what can work here: nvidia-peermem only with
	 * MLNX/DOCA-OFED's peer-memory API, DMA-BUF only where the NIC
	 * imports (EOPNOTSUPP and EPROTONOSUPPORT say it cannot). */
	f.kernel_major = 6;
	f.kernel_minor = 1;
	gd_route_set_nic_probe(&f, "rxe0", -EPROTONOSUPPORT);
	assert_int_equal(f.nic_dmabuf, GD_NIC_DMABUF_NO);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_has(d.why_not_dmabuf, "(EPROTONOSUPPORT)");
	gd_route_set_nic_probe(&f, "rxe0", -EOPNOTSUPP);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_false(d.possible);
	assert_has(
		d.why_not_dmabuf,
		"rxe0 cannot import a dma-buf: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) answered errno 95 (EOPNOTSUPP)");
	assert_has(d.why_not_peermem,
		   "needs the peer-memory API of MLNX_OFED/DOCA-OFED");
	assert_has(d.stop_condition, "cannot load");
	assert_has(d.stop_condition, "Linux >= 5.12");
	f.ofed_peer_api = 1;
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_has(d.why_not_peermem, "so load with: modprobe nvidia-peermem");
	assert_has(d.stop_condition, "MLNX/DOCA-OFED is present");
	gd_route_set_nic_probe(&f, "rxe0", 0);
	f.ofed_peer_api = 1;
	f.peermem_loaded = true;
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_int_equal(d.route, GD_ROUTE_DMABUF);
	assert_int_equal(d.fallback, GD_ROUTE_PEERMEM);
	f.peermem_loaded = false;
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_int_equal(d.fallback, GD_ROUTE_AUTO);

	/* Nothing probed: the record says what was checked, not a guess. */
	base_facts(&f);
	f.gpu_dmabuf_supported = -1;
	f.cuda_driver_version = -1;
	snprintf(f.cuda_status, sizeof(f.cuda_status),
		 "no CUDA driver (libcuda.so.1 not found), not probed");
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_has(
		d.why_not_dmabuf,
		"GPU DMA-BUF attribute unknown: no CUDA driver (libcuda.so.1 not found), not probed");
	assert_true(strstr(d.why_not_dmabuf, "older than 11.7") == NULL);

	base_facts(&f);
	gd_route_decide(&f, GD_ROUTE_PLAIN, &d);
	assert_false(d.possible);
	assert_has(d.stop_condition, "plain route is for CPU memory");
}

static void test_route_evidence_json(void **state)
{
	struct gd_route_facts f;
	struct gd_route_decision d;
	struct json_object *ev, *o;

	base_facts(&f);
	f.gpu_dmabuf_supported = 0;
	f.rdma_core_has_dmabuf = true;
	f.peermem_loaded = true;
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	ev = gd_route_evidence(&f, &d);
	o = json_tokener_parse(json_object_to_json_string(ev));
	assert_non_null(o);
	assert_string_equal(
		json_object_get_string(json_object_object_get(o, "route")),
		"peermem");
	assert_true(
		json_object_get_boolean(json_object_object_get(o, "possible")));
	assert_has(json_object_get_string(json_object_object_get(
			   json_object_object_get(o, "why_not"), "dmabuf")),
		   ATTR0);
	assert_null(json_object_object_get(json_object_object_get(o, "why_not"),
					   "peermem"));
	assert_null(json_object_object_get(o, "stop_condition"));
	assert_true(json_object_get_boolean(json_object_object_get(
		json_object_object_get(o, "facts"), "nvidia_peermem_loaded")));
	assert_int_equal(json_object_get_int(json_object_object_get(
				 json_object_object_get(o, "facts"),
				 "cuda_driver_version")),
			 12040);
	assert_has(json_object_get_string(json_object_object_get(
			   json_object_object_get(o, "facts"), "nic_dma_buf")),
		   "not probed (no protection domain yet)");
	json_object_put(o);
	json_object_put(ev);

	/* A kernel before 5.12 is a hint in the record, not a blocker. */
	f.gpu_dmabuf_supported = 1;
	f.kernel_major = 4;
	f.kernel_minor = 18;
	gd_route_set_nic_probe(&f, "mlx5_0", -EBADF);
	assert_int_equal(f.nic_dmabuf, GD_NIC_DMABUF_UNKNOWN);
	gd_route_set_nic_probe(&f, "mlx5_0", 0);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_int_equal(d.route, GD_ROUTE_DMABUF);
	ev = gd_route_evidence(&f, &d);
	o = json_object_object_get(ev, "facts");
	assert_has(
		json_object_get_string(
			json_object_object_get(o, "kernel_hint")),
		"kernel 4.18 predates mainline RDMA dma-buf import (Linux 5.12); a vendor kernel may have it backported: the NIC probe decides");
	assert_has(
		json_object_get_string(
			json_object_object_get(o, "nic_dma_buf")),
		"supported: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) on mlx5_0 answered errno 9 (EBADF)");
	json_object_put(ev);

	/* A build without ibv_reg_dmabuf_mr: peer memory in auto mode. */
	base_facts(&f);
	f.gpu_dmabuf_supported = 1;
	f.dmabuf_not_built = true;
	f.peermem_loaded = true;
	gd_route_set_nic_probe(&f, "mlx5_0", -ENOSYS);
	assert_int_equal(f.nic_dmabuf, GD_NIC_DMABUF_UNPROBED);
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	assert_int_equal(d.route, GD_ROUTE_PEERMEM);
	assert_int_equal(d.fallback, GD_ROUTE_AUTO);
	assert_has(d.why_not_dmabuf, "no DMA-BUF in this build");
	ev = gd_route_evidence(&f, &d);
	assert_has(json_object_get_string(json_object_object_get(
			   json_object_object_get(ev, "facts"), "nic_dma_buf")),
		   "not probed: no DMA-BUF in this build");
	json_object_put(ev);

	memset(&f, 0, sizeof(f));
	f.gpu_dmabuf_supported = -1;
	gd_route_decide(&f, GD_ROUTE_AUTO, &d);
	ev = gd_route_evidence(&f, &d);
	assert_string_equal(
		json_object_get_string(json_object_object_get(ev, "route")),
		"none");
	assert_has(json_object_get_string(
			   json_object_object_get(ev, "stop_condition")),
		   NOROUTE);
	json_object_put(ev);
}

static void make_dir(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
}

static void test_route_probe_fixture(void **state)
{
	char root[300], path[512];
	struct gd_route_facts f;

	snprintf(root, sizeof(root), "%s/probe", fixture_root);
	make_dir(root, "");
	make_dir(root, "sys");
	make_dir(root, "sys/module");
	make_dir(root, "sys/module/nvidia_peermem");
	make_dir(root, "proc");
	make_dir(root, "proc/driver");
	make_dir(root, "proc/driver/nvidia");
	snprintf(path, sizeof(path), "%s/proc/driver/nvidia/version", root);
	write_file(
		path,
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14\n");
	assert_int_equal(gd_route_probe(root, -1, &f), 0);
	assert_true(f.peermem_loaded);
	assert_false(f.nv_peer_mem_loaded);
	assert_int_equal(f.open_kernel_module, 1);
	assert_int_equal(f.gpu_dmabuf_supported, -1);
#ifdef HAVE_IBV_REG_DMABUF_MR
	assert_true(f.rdma_core_has_dmabuf);
#endif
	write_file(
		path,
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14\n");
	make_dir(root, "sys/module/nv_peer_mem");
	gd_route_probe(root, -1, &f);
	assert_true(f.nv_peer_mem_loaded);
	assert_int_equal(f.open_kernel_module, 0);
	/* The empty fixture root: nothing loaded, no NVIDIA module. */
	gd_route_probe(fixture_root, -1, &f);
	assert_false(f.peermem_loaded);
	assert_int_equal(f.open_kernel_module, -1);

	/* GPU facts through the fake driver (a test double). */
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "1", 1);
	gd_route_probe(fixture_root, 0, &f);
	assert_int_equal(f.gpu_dmabuf_supported, 1);
	assert_int_equal(f.gpu_gdr_supported, 1);
	assert_int_equal(f.cuda_driver_version, 12040);
	assert_string_equal(f.driver_error, "");
	assert_string_equal(f.cuda_status,
			    "GPU 0 queried through CUDA driver 12040");
	assert_int_equal(f.writes_ordering, 0);
	/* A probe that cannot load the driver records a fact, not an error. */
	gd_cuda_unload();
	setenv("GD_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
	gd_route_probe(fixture_root, 0, &f);
	assert_has(f.driver_error, "CUDA driver not available (");
	assert_string_equal(
		f.cuda_status,
		"no CUDA driver (/nonexistent/libcuda.so.1 not found), not probed");
	assert_false(gd_err_is_set());
}

/* mmap:FILE: a shared mapping from --mmap-offset on, filled with the
 * initial pattern, whose writes reach the file; a regular file too short
 * and an offset off a page boundary are refused before mapping. */
static void test_mmap_alloc(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	char text[GD_MEM_SPEC_MAX + 320], path[300];
	struct gd_mem_buf buf;
	struct gd_mem_spec s;
	uint8_t byte;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/mmap-file", fixture_root);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 3 * page), 0);
	assert_int_equal(fclose(f), 0);
	snprintf(text, sizeof(text), "mmap:%s", path);
	assert_int_equal(gd_mem_spec_parse(text, &s), 0);
	assert_int_equal(s.kind, GD_MEM_MMAP);
	assert_string_equal(s.path, path);
	assert_false(gd_mem_spec_is_device(text));
	s.offset_bytes = (uint64_t)page;
	assert_int_equal(gd_mem_alloc(&buf, &s, 2 * (size_t)page), 0);
	assert_int_equal(gd_mem_check_pattern(&buf, 0, 2 * (size_t)page,
					      GD_MEM_INIT_SEED),
			 0);
	/* byte 5 of the buffer is byte page + 5 of the file */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, page + 5, SEEK_SET), 0);
	assert_int_equal(fread(&byte, 1, 1, f), 1);
	fclose(f);
	assert_int_equal(byte, gd_pattern_byte(GD_MEM_INIT_SEED, 5));
	gd_mem_free(&buf);

	gd_err_clear();
	assert_int_equal(gd_mem_alloc(&buf, &s, 3 * (size_t)page), -ENOSPC);
	assert_msg_has("grow it (truncate -s");
	gd_err_clear();
	s.offset_bytes = 100;
	assert_int_equal(gd_mem_alloc(&buf, &s, (size_t)page), -EINVAL);
	assert_msg_has("not a multiple of the page size");
	gd_err_clear();
	snprintf(text, sizeof(text), "mmap:%s/none", fixture_root);
	assert_int_equal(gd_mem_spec_parse(text, &s), 0);
	assert_int_equal(gd_mem_alloc(&buf, &s, (size_t)page), -ENOENT);
	assert_msg_has("cannot open it for reading and writing");
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

int main(int argc, char **argv)
{
	const char *top = getenv("GD_TOP_BUILDDIR");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_spec_parse_good, reset),
		cmocka_unit_test_setup(test_spec_parse_bad, reset),
		cmocka_unit_test_setup(test_spec_unknown_lists_backends, reset),
		cmocka_unit_test_setup(test_spec_questions, reset),
		cmocka_unit_test_setup(test_pattern_bytes, reset),
		cmocka_unit_test_setup(test_host_alloc_and_check, reset),
		cmocka_unit_test_setup(test_hugepage_explain, reset),
		cmocka_unit_test_setup(test_hugepage_alloc, reset),
		cmocka_unit_test_setup(test_mmap_alloc, reset),
		cmocka_unit_test_setup(test_alloc_never_exposes_old_memory,
				       reset),
		cmocka_unit_test_setup(test_regerr_enomem, reset),
		cmocka_unit_test_setup(test_regerr_table, reset),
		cmocka_unit_test_setup(test_route_auto_table, reset),
		cmocka_unit_test_setup(test_route_requested_and_blockers,
				       reset),
		cmocka_unit_test_setup(test_route_evidence_json, reset),
		cmocka_unit_test_setup(test_route_probe_fixture, reset),
	};
	int ret;

	snprintf(fake_cuda_path, sizeof(fake_cuda_path),
		 "%s/tests/fake_cuda/libfakecuda.so", top ? top : ".");
	snprintf(fixture_root, sizeof(fixture_root), "/tmp/gd_mem_test.XXXXXX");
	if (!mkdtemp(fixture_root)) {
		perror("mkdtemp");
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	nftw(fixture_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	(void)argc;
	(void)argv;
	return ret ? 1 : 0;
}
