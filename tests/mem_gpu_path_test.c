/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The GPU path's third review, against the fake CUDA driver (a TEST
 * DOUBLE, never a GPU) and the libibverbs stand-ins: the advice for each
 * errno the kernel and NVIDIA's module answer a registration with, by
 * route and with or without CAP_IPC_LOCK; the route facts (NVML's BAR1
 * included) probed once per GPU per process; one flush per read-back; a
 * PCIe-mapped DMA-BUF export whose import fails exported again without
 * the flag, the header's text from the import that succeeded; DMA-BUF
 * support probed on the NIC as NCCL does.
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <infiniband/verbs.h>
#include <json-c/json.h>

#include "cli/options.h"
#include "engine/session.h"
#include "mem/cuda_api.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"
#include "util/error.h"

static char fake_cuda_path[1024];
static char tmp_root[256]; /* nvidia_peermem loaded, a 256 MiB BAR1 */

#define GD_MEM_TEST_ROOT tmp_root
#include "mem_util.h"
#include "fake_verbs.h"

/* Has this build a DMA-BUF route (rdma-core >= 34)? */
#ifdef HAVE_IBV_REG_DMABUF_MR
static const bool dmabuf_built = true;
#else
static const bool dmabuf_built = false;
#endif

static int path_reset(void **state)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/proc/self/status", tmp_root);
	unlink(path);
	memset(&fv, 0, sizeof(fv));
	return reset(state);
}

/* The fixture's /proc/self/status with effective capabilities @capeff. */
static void set_capeff(const char *capeff)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/status", tmp_root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"Name:\tgd_write_bw\nCapInh:\t0000000000000000\n"
		"CapPrm:\t%s\nCapEff:\t%s\n",
		capeff, capeff);
	assert_int_equal(fclose(f), 0);
}

/* Register 4096 bytes of @text; the registration fails with @err. */
static void reg_fails(const char *text, int err)
{
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;

	gd_err_clear();
	assert_int_equal(gd_mem_spec_parse(text, &spec), 0);
	assert_int_equal(gd_mem_alloc(&buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), -err);
	gd_mem_free(&buf);
}

/* 524, the kernel-internal ENOTSUPP, has a name and DMA-BUF advice. */
static void test_dmabuf_enotsupp(void **state)
{
	(void)state;
	assert_string_equal(gd_errno_name(GD_ENOTSUPP), "ENOTSUPP");
	assert_string_equal(gd_errno_name(-524), "ENOTSUPP");
	if (!dmabuf_built)
		skip();
	fv.dmabuf_errno = GD_ENOTSUPP;
	reg_fails("cuda:0:dmabuf", GD_ENOTSUPP);
	assert_msg_has(
		"ibv_reg_dmabuf_mr of 4096 bytes of cuda:0:dmabuf memory on mlx5_9 failed: errno 524 (ENOTSUPP: operation not supported (a kernel-internal code))");
	assert_msg_has("\"PCI topology not supported for dma-buf\"");
	assert_msg_has("nvidia-smi topo -m");
	assert_msg_has("cuda:near");
	assert_null(strstr(gd_err_msg(), "UNKNOWN"));
	assert_null(strstr(gd_err_msg(), "unexpected error"));
}

/* EPROTONOSUPPORT and EOPNOTSUPP: no dma-buf import in the RDMA stack. */
static void test_dmabuf_no_import(void **state)
{
	static const int errs[] = { EPROTONOSUPPORT, EOPNOTSUPP };

	(void)state;
	if (!dmabuf_built)
		skip();
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fv.dmabuf_errno = errs[i];
		reg_fails("cuda:0:dmabuf", errs[i]);
		assert_msg_has(gd_errno_name(errs[i]));
		assert_msg_has(
			"driver or device mlx5_9 lacks DMA-BUF support: the kernel's RDMA stack or the NIC driver has no dma-buf import");
		assert_msg_has("--mem=cuda:N:peermem");
		assert_null(strstr(gd_err_msg(), "unexpected error"));
	}
}

/* ENOMEM on import: the exporter refused; NVRM's log, then BAR1. */
static void test_dmabuf_enomem(void **state)
{
	(void)state;
	if (!dmabuf_built)
		skip();
	set_capeff("0000000000000000");
	fv.dmabuf_errno = ENOMEM;
	reg_fails("cuda:0:dmabuf", ENOMEM);
	assert_msg_has(
		"the exporter (NVIDIA's kernel module) refused to map the dma-buf for mlx5_9");
	assert_msg_has("dmesg | grep NVRM");
	assert_msg_has("BAR1 of GPU 0 (0000:17:00.0) is 256 MiB");
	assert_null(strstr(gd_err_msg(), "ulimit"));
}

/* ENOMEM on peer memory: a root process (CAP_IPC_LOCK) with a low
 * memlock limit is not told to raise it; without the capability it is. */
static void test_peermem_enomem_cap(void **state)
{
	struct rlimit saved, low;

	(void)state;
	fv.mr_errno = ENOMEM;
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &saved), 0);
	low = saved;
	low.rlim_cur = 64 << 10;
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < low.rlim_cur)
		low.rlim_cur = saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &low), 0);

	set_capeff("000001ffffffffff"); /* root's full set, bit 14 in it */
	reg_fails("cuda:0:peermem", ENOMEM);
	assert_msg_has("this process has CAP_IPC_LOCK");
	assert_msg_has("that limit is not the cause");
	assert_msg_has("BAR1 of GPU 0 (0000:17:00.0) is 256 MiB");
	assert_msg_has("nvidia-peermem");
	assert_null(strstr(gd_err_msg(), "ulimit"));

	set_capeff("0000000000004000"); /* CAP_IPC_LOCK alone */
	reg_fails("cuda:0:peermem", ENOMEM);
	assert_msg_has("this process has CAP_IPC_LOCK");

	set_capeff("000001ffffffbfff"); /* everything but CAP_IPC_LOCK */
	reg_fails("cuda:0:peermem", ENOMEM);
	assert_msg_has("the peer-memory route is limited twice");
	assert_msg_has("soft 65536 bytes");
	assert_msg_has("ulimit -l");

	/* No status file to read: unknown, the limit stays in the advice. */
	path_reset(state);
	fv.mr_errno = ENOMEM;
	reg_fails("cuda:0:peermem", ENOMEM);
	assert_msg_has("ulimit -l");
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &saved), 0);
}

/* A fixture file @rel below tmp_root holding @text. */
static void put_file(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", tmp_root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* ENOMEM on host memory: with CAP_IPC_LOCK the locked-memory limit is not
 * blamed; the advice names the capability, free memory and the cgroup's
 * memory.max as read; without it the limit comes first. */
static void test_host_enomem_cap(void **state)
{
	struct rlimit saved, low;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/sys/fs", tmp_root);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup", tmp_root);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup/job.slice", tmp_root);
	(void)mkdir(path, 0755);
	put_file("/proc/meminfo",
		 "MemTotal:       8388608 kB\nMemFree:         204800 kB\n"
		 "MemAvailable:    307200 kB\n");
	put_file("/proc/self/cgroup", "0::/job.slice\n");
	put_file("/sys/fs/cgroup/job.slice/memory.max", "1073741824\n");
	fv.mr_errno = ENOMEM;
	assert_int_equal(getrlimit(RLIMIT_MEMLOCK, &saved), 0);
	low = saved;
	low.rlim_cur = 64 << 10;
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < low.rlim_cur)
		low.rlim_cur = saved.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &low), 0);

	set_capeff("0000000000004000"); /* CAP_IPC_LOCK alone */
	reg_fails("host", ENOMEM);
	assert_msg_has("this process has CAP_IPC_LOCK");
	assert_msg_has("that limit is not the cause");
	assert_msg_has("MemAvailable 300 MiB in /proc/meminfo");
	assert_msg_has("memory.max of its cgroup: 1073741824");
	assert_null(strstr(gd_err_msg(), "ulimit"));

	set_capeff("000001ffffffbfff"); /* everything but CAP_IPC_LOCK */
	reg_fails("host", ENOMEM);
	assert_msg_has("soft 65536 bytes");
	assert_msg_has("ulimit -l");
	assert_null(strstr(gd_err_msg(), "CAP_IPC_LOCK"));
	assert_int_equal(setrlimit(RLIMIT_MEMLOCK, &saved), 0);

	/* No limit on locking: free memory and the cgroup, not the limit. */
	if (saved.rlim_cur == RLIM_INFINITY) {
		reg_fails("host", ENOMEM);
		assert_msg_has("so it is not the cause");
		assert_msg_has("memory.max of its cgroup: 1073741824");
	}
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", tmp_root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/meminfo", tmp_root);
	unlink(path);
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

/* gd_write_bw --mem=@mem -q 8 --mr_per_qp, its memory set up as
 * gd_session_setup() does once the device is open. */
static void session_q8(const char *mem, struct gd_opts *o, struct gd_session *s)
{
	const struct gd_test *t = &gd_tests[GD_TEST_WRITE_BW];
	char arg[64];
	char *argv[] = { "gd_write_bw", arg, "-q", "8", "--mr_per_qp", NULL };

	snprintf(arg, sizeof(arg), "--mem=%s", mem);
	assert_int_equal(gd_opts_parse(t, 5, argv, o, stdout), 0);
	*s = (struct gd_session){ .test = t, .o = o, .slot_bytes = 8192 };
	s->v.pd = &fake_pd;
	memset(&fv, 0, sizeof(fv));
	assert_int_equal(gd_session_setup_memory(s), 0);
	assert_int_equal(s->local[GD_PLACE_DEV].num_qp_mr, 8);
}

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

/* Nine registrations of GPU memory (the buffer and one per QP), twice
 * over: the route is probed and NVML started and asked for BAR1 once. */
static void test_route_probed_once(void **state)
{
	static const char *const mems[] = { "cuda:0", "cuda:0:peermem" };
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	setenv("GD_NVML_LIBRARY", fake_cuda_path, 1);
	setenv("GD_FAKE_NVML_BAR1_MIB", "262144", 1);
	for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++) {
		session_q8(mems[i], &o, &s);
		/* host and GPU: the buffer and eight slots each */
		assert_int_equal(fv.mr_calls + fv.dmabuf_calls, 2 * 9);
		assert_int_equal(fake_calls("nvmlInit"), 1);
		assert_int_equal(fake_calls("nvml_bar1"), 1);
		assert_int_equal(
			json_object_get_int64(json_object_object_get(
				json_object_object_get(
					s.local[GD_PLACE_DEV].mem.evidence,
					"facts"),
				"bar1_bytes")),
			262144ll << 20);
		session_free(&o, &s);
	}
	/* Forgotten (a test's reset): the next registration probes again. */
	gd_route_forget();
	session_q8("cuda:0", &o, &s);
	assert_int_equal(fake_calls("nvmlInit"), 2);
	assert_int_equal(fake_calls("nvml_bar1"), 2);
	session_free(&o, &s);
	unsetenv("GD_NVML_LIBRARY");
	unsetenv("GD_FAKE_NVML_BAR1_MIB");
}

/* A check of 1 MiB + 1 byte reads five 256 KiB chunks back and flushes
 * GPUDirect RDMA writes once; a failed check too. */
static void test_one_flush_per_check(void **state)
{
	const size_t len = (1u << 20) + 1;
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;
	unsigned int n;

	(void)state;
	assert_int_equal(gd_mem_spec_parse("cuda:0", &spec), 0);
	assert_int_equal(gd_mem_alloc(&buf, &spec, len), 0);
	n = fake_calls("flush");
	assert_int_equal(gd_mem_check_pattern(&buf, 0, len, GD_MEM_INIT_SEED),
			 0);
	assert_int_equal(fake_calls("flush"), n + 1);
	assert_int_equal(
		gd_mem_check_pattern(&buf, 0, len, GD_MEM_INIT_SEED + 1),
		-EILSEQ);
	assert_int_equal(fake_calls("flush"), n + 2);
	gd_mem_free(&buf);
}

/* Register 4096 bytes of cuda:0:dmabuf with --use_cuda_pcie_mapping on a
 * driver that has the flag (12.8); 0 or the registration's error. */
static int reg_pcie(struct gd_mem_buf *buf, char *effect, size_t len)
{
	struct gd_mem_spec spec;
	int ret;

	gd_err_clear();
	setenv("GD_FAKE_CUDA_DRIVER_VERSION", "12080", 1);
	assert_int_equal(gd_mem_spec_parse("cuda:0:dmabuf", &spec), 0);
	spec.dmabuf_pcie = true;
	assert_int_equal(gd_mem_alloc(buf, &spec, 4096), 0);
	fv.dmabuf_calls = 0;
	ret = gd_mem_register(buf, &fake_pd, 7);
	assert_true(gd_mem_effect(buf, "pcie_mapping", effect, len));
	return ret;
}

static struct json_object *import_n(const struct gd_mem_buf *buf, size_t i)
{
	struct json_object *exp, *list;

	assert_true(json_object_object_get_ex(buf->evidence, "dmabuf_export",
					      &exp));
	assert_true(json_object_object_get_ex(exp, "imports", &list));
	if (i == (size_t)-1)
		return list;
	return json_object_array_get_idx(list, i);
}

/* The fixture's IOMMU groups: GPU 0 (0000:17:00.0) in @gpu_group, mlx5_9
 * (0000:01:00.0) in @nic_group; NULL leaves that link out. */
static void set_groups(const char *gpu_group, const char *nic_group)
{
	static const char *const bdfs[] = { "0000:17:00.0", "0000:01:00.0" };
	const char *groups[] = { gpu_group, nic_group };
	char path[512], target[256];

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path),
			 "%s/sys/bus/pci/devices/%s/iommu_group", tmp_root,
			 bdfs[i]);
		unlink(path);
		snprintf(target, sizeof(target),
			 "../../../../kernel/iommu_groups/%s",
			 groups[i] ? groups[i] : "");
		if (groups[i])
			assert_int_equal(symlink(target, path), 0);
	}
}

/* --use_cuda_pcie_mapping is skipped only off a coherent platform (one
 * export, flags 0, and the header says why). On one, the IOMMU groups are
 * advice: the flag is tried, and where the driver's attach refuses it (as
 * NVIDIA's does for GPU and NIC in different groups, 524) the retry with
 * flags 0 registers; with no group on either side the flag is used. */
static void test_pcie_mapping_skipped(void **state)
{
	static const struct {
		const char *gpu_group, *nic_group, *advice;
	} tried[] = {
		{ "7", "9",
		  "coherent platform, GPU 0000:17:00.0 in IOMMU group 7 and mlx5_9 (0000:01:00.0) in group 9: NVIDIA's attach refuses this unless NVreg_GrdmaPciTopoCheckOverride allows it; tried, a refusal is retried with flags 0" },
		{ NULL, "9",
		  "GPU 0000:17:00.0 in IOMMU group none and mlx5_9 (0000:01:00.0) in group 9" },
	};
	struct json_object *exp;
	struct gd_mem_buf buf;
	char text[600];

	(void)state;
	if (!dmabuf_built)
		skip();
	set_groups("7", "7");
	setenv("GD_FAKE_CUDA_HOST_ATOMIC", "0", 1);
	assert_int_equal(reg_pcie(&buf, text, sizeof(text)), 0);
	assert_has(
		text,
		"requested, skipped (exported with flags 0): not a cache-coherent platform (CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED=0");
	assert_int_equal(json_object_array_length(import_n(&buf, -1)), 1);
	assert_int_equal(fv.dmabuf_calls, 1);
	gd_mem_free(&buf);
	for (size_t i = 0; i < sizeof(tried) / sizeof(tried[0]); i++) {
		set_groups(tried[i].gpu_group, tried[i].nic_group);
		setenv("GD_FAKE_CUDA_HOST_ATOMIC", "1", 1);
		fv.pcie_dmabuf_errno = GD_ENOTSUPP;
		assert_int_equal(reg_pcie(&buf, text, sizeof(text)), 0);
		print_message("row %zu: %s\n", i, text);
		assert_has(text, "requested, refused at import");
		assert_has(text, "exported again with flags 0 and imported");
		assert_int_equal(json_object_array_length(import_n(&buf, -1)),
				 2);
		assert_int_equal(fv.dmabuf_calls, 2);
		assert_int_equal(buf.route_used, GD_ROUTE_DMABUF);
		exp = json_object_object_get(buf.evidence, "dmabuf_export");
		assert_string_equal(
			json_object_get_string(
				json_object_object_get(exp, "flags")),
			"0");
		assert_has(json_object_get_string(json_object_object_get(
				   exp, "pcie_mapping_platform")),
			   tried[i].advice);
		gd_mem_free(&buf);
		fv.pcie_dmabuf_errno = 0;
	}
	/* No IOMMU group on either side: one group to the driver, used. */
	set_groups(NULL, NULL);
	assert_int_equal(reg_pcie(&buf, text, sizeof(text)), 0);
	assert_has(text, "requested and used");
	assert_has(
		json_object_get_string(json_object_object_get(
			json_object_object_get(buf.evidence, "dmabuf_export"),
			"pcie_mapping_platform")),
		"neither GPU 0000:17:00.0 nor mlx5_9 (0000:01:00.0) in an IOMMU group (IOMMU off)");
	gd_mem_free(&buf);
	/* Coherent and one group: the flag is used, and the record says why
	 * it could be. */
	set_groups("7", "7");
	setenv("GD_FAKE_CUDA_HOST_ATOMIC", "1", 1);
	assert_int_equal(reg_pcie(&buf, text, sizeof(text)), 0);
	assert_has(text, "requested and used");
	assert_has(
		json_object_get_string(json_object_object_get(
			json_object_object_get(buf.evidence, "dmabuf_export"),
			"pcie_mapping_platform")),
		"coherent platform, GPU 0000:17:00.0 and mlx5_9 (0000:01:00.0) in IOMMU group 7");
	gd_mem_free(&buf);
	set_groups("7", "7");
}

/* The export takes the PCIe flag, but the import of that export fails
 * (NVIDIA's 524 where GPU and NIC share no IOMMU group): exported again
 * with flags 0 and imported; both imports recorded; the header says the
 * mapping was refused, not used. */
static void test_pcie_import_refused(void **state)
{
	struct json_object *exp;
	struct gd_mem_buf buf;
	char text[600];

	(void)state;
	if (!dmabuf_built)
		skip();
	setenv("GD_FAKE_CUDA_HOST_ATOMIC", "1", 1);
	fv.pcie_dmabuf_errno = GD_ENOTSUPP;
	assert_int_equal(reg_pcie(&buf, text, sizeof(text)), 0);
	assert_false(gd_err_is_set());
	assert_int_equal(buf.route_used, GD_ROUTE_DMABUF);
	assert_int_equal(fv.dmabuf_calls, 2);
	assert_int_equal(fake_calls("export_pcie"), 1);
	exp = json_object_object_get(buf.evidence, "dmabuf_export");
	assert_string_equal(
		json_object_get_string(json_object_object_get(exp, "flags")),
		"0");
	assert_has(json_object_get_string(
			   json_object_object_get(exp, "pcie_import_error")),
		   "errno 524 (ENOTSUPP");
	assert_int_equal(json_object_array_length(import_n(&buf, -1)), 2);
	assert_string_equal(json_object_get_string(json_object_object_get(
				    import_n(&buf, 0), "flags")),
			    "pcie");
	assert_false(json_object_get_boolean(
		json_object_object_get(import_n(&buf, 0), "ok")));
	assert_has(json_object_get_string(
			   json_object_object_get(import_n(&buf, 0), "error")),
		   "PCI topology not supported for dma-buf");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    import_n(&buf, 1), "flags")),
			    "0");
	assert_true(json_object_get_boolean(
		json_object_object_get(import_n(&buf, 1), "ok")));
	assert_has(text, "requested, refused at import (ibv_reg_dmabuf_mr");
	assert_has(text, "errno 524 (ENOTSUPP");
	assert_has(text, "exported again with flags 0 and imported");
	assert_null(strstr(text, "used ("));
	gd_mem_free(&buf);

	/* Neither import works: one message with both errors. */
	fv.dmabuf_errno = EOPNOTSUPP;
	assert_int_equal(reg_pcie(&buf, text, sizeof(text)), -EOPNOTSUPP);
	assert_int_equal(fv.dmabuf_calls, 2);
	assert_msg_has(
		"GPU 0 (0000:17:00.0) memory could not be imported on mlx5_9 with or without the PCIe mapping: with it: ibv_reg_dmabuf_mr");
	assert_msg_has("errno 524 (ENOTSUPP");
	assert_msg_has("exported again with flags 0: ibv_reg_dmabuf_mr");
	assert_msg_has("errno 95 (EOPNOTSUPP");
	assert_has(text, ", whose import failed too");
	gd_mem_free(&buf);

	/* The import takes the mapping: used, one import, no second export. */
	fv.pcie_dmabuf_errno = 0;
	fv.dmabuf_errno = 0;
	assert_int_equal(reg_pcie(&buf, text, sizeof(text)), 0);
	assert_int_equal(fv.dmabuf_calls, 1);
	assert_int_equal(json_object_array_length(import_n(&buf, -1)), 1);
	assert_has(text, "requested and used");
	gd_mem_free(&buf);
}

/* A string in the route evidence: @key at the top or under "facts". */
static const char *ev_str(const struct gd_mem_buf *buf, const char *under,
			  const char *key)
{
	struct json_object *o = buf->evidence, *v;

	if (under)
		assert_true(json_object_object_get_ex(o, under, &o));
	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

/* Auto mode asks the NIC as NCCL does, ibv_reg_dmabuf_mr(pd, 0, 0, 0,
 * -1, 0): EOPNOTSUPP picks peer memory without a DMA-BUF attempt, EBADF
 * picks DMA-BUF, anything else is unknown and excludes nothing; a build
 * without the function says so and never probes. */
static void test_dmabuf_probe(void **state)
{
	struct gd_mem_spec spec;
	struct gd_mem_buf buf;

	(void)state;
	assert_int_equal(gd_mem_spec_parse("cuda:0", &spec), 0);
	fv.probe_errno = EOPNOTSUPP;
	assert_int_equal(gd_mem_alloc(&buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_int_equal(buf.route_used, GD_ROUTE_PEERMEM);
	assert_int_equal(fv.dmabuf_calls, 0);
	assert_int_equal(fv.mr_calls, 1);
	if (!dmabuf_built) {
		assert_int_equal(fv.probe_calls, 0);
		assert_has(ev_str(&buf, "why_not", "dmabuf"),
			   "no DMA-BUF in this build");
		assert_has(ev_str(&buf, "facts", "nic_dma_buf"),
			   "not probed: no DMA-BUF in this build");
		gd_mem_free(&buf);
		return;
	}
	assert_int_equal(fv.probe_calls, 1);
	assert_has(
		ev_str(&buf, "why_not", "dmabuf"),
		"mlx5_9 cannot import a dma-buf: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) answered errno 95 (EOPNOTSUPP)");
	assert_has(
		ev_str(&buf, "facts", "nic_dma_buf"),
		"not supported: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) on mlx5_9");
	gd_mem_free(&buf);

	fv.probe_errno = EPROTONOSUPPORT;
	assert_int_equal(gd_mem_alloc(&buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_int_equal(buf.route_used, GD_ROUTE_PEERMEM);
	assert_int_equal(fv.dmabuf_calls, 0);
	assert_has(ev_str(&buf, "why_not", "dmabuf"), "(EPROTONOSUPPORT)");
	gd_mem_free(&buf);

	fv.probe_errno = 0;
	assert_int_equal(gd_mem_alloc(&buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_int_equal(buf.route_used, GD_ROUTE_DMABUF);
	assert_int_equal(fv.dmabuf_calls, 1);
	assert_has(ev_str(&buf, NULL, "why"),
		   "the NIC probe answered EBADF (supported) on mlx5_9");
	assert_has(
		ev_str(&buf, "facts", "nic_dma_buf"),
		"supported: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) on mlx5_9 answered errno 9 (EBADF)");
	gd_mem_free(&buf);

	fv.probe_errno = EIO;
	assert_int_equal(gd_mem_alloc(&buf, &spec, 4096), 0);
	assert_int_equal(gd_mem_register(&buf, &fake_pd, 7), 0);
	assert_int_equal(buf.route_used, GD_ROUTE_DMABUF);
	assert_has(
		ev_str(&buf, "facts", "nic_dma_buf"),
		"unknown: ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0) on mlx5_9 answered errno 5 (EIO), neither EBADF (supported) nor EOPNOTSUPP/EPROTONOSUPPORT (not supported)");
	gd_mem_free(&buf);
	assert_int_equal(fv.probe_calls, 4);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* nvidia_peermem loaded, GPU 0's BARs (a 256 MiB BAR1), and /proc/self
 * for the status file the capability tests write. */
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
		"/sys/bus/pci/devices/0000:01:00.0",
		"/sys/class",
		"/sys/class/infiniband",
		"/sys/class/infiniband/mlx5_9",
		"/proc",
		"/proc/self",
	};
	char path[512];
	FILE *f;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", tmp_root, dirs[i]);
		if (mkdir(path, 0755))
			return -errno;
	}
	/* mlx5_9 and GPU 0 in IOMMU group 7 (links need not resolve). */
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/mlx5_9/device",
		 tmp_root);
	if (symlink("../../../devices/pci0000:00/0000:01:00.0", path))
		return -errno;
	snprintf(path, sizeof(path),
		 "%s/sys/bus/pci/devices/0000:17:00.0/iommu_group", tmp_root);
	if (symlink("../../../../kernel/iommu_groups/7", path))
		return -errno;
	snprintf(path, sizeof(path),
		 "%s/sys/bus/pci/devices/0000:01:00.0/iommu_group", tmp_root);
	if (symlink("../../../../kernel/iommu_groups/7", path))
		return -errno;
	snprintf(path, sizeof(path),
		 "%s/sys/bus/pci/devices/0000:17:00.0/resource", tmp_root);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs("0x00000000fa000000 0x00000000faffffff 0x0000000000040200\n"
	      "0x0000038000000000 0x000003800fffffff 0x000000000014220c\n"
	      "0x0000000000000000 0x0000000000000000 0x0000000000000000\n",
	      f);
	return fclose(f) ? -EIO : 0;
}

int main(void)
{
	const char *top = getenv("GD_TOP_BUILDDIR");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_dmabuf_enotsupp, path_reset),
		cmocka_unit_test_setup(test_dmabuf_no_import, path_reset),
		cmocka_unit_test_setup(test_dmabuf_enomem, path_reset),
		cmocka_unit_test_setup(test_peermem_enomem_cap, path_reset),
		cmocka_unit_test_setup(test_host_enomem_cap, path_reset),
		cmocka_unit_test_setup(test_route_probed_once, path_reset),
		cmocka_unit_test_setup(test_one_flush_per_check, path_reset),
		cmocka_unit_test_setup(test_pcie_import_refused, path_reset),
		cmocka_unit_test_setup(test_pcie_mapping_skipped, path_reset),
		cmocka_unit_test_setup(test_dmabuf_probe, path_reset),
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
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/gd_mem_gpu_path.XXXXXX");
	if (!mkdtemp(tmp_root)) {
		perror("mkdtemp");
		return 1;
	}
	ret = make_root() ? 1 : cmocka_run_group_tests(tests, NULL, NULL);
	nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return ret ? 1 : 0;
}
