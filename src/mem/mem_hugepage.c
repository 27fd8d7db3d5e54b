/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The hugepage memory backend: anonymous MAP_HUGETLB mappings of the default
 * huge page size, filled with the known pattern, registered like host
 * memory. When the kernel has no huge pages to give, the error says how many
 * are free, how large they are and how to reserve enough.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <infiniband/verbs.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

#define GD_MEMINFO_PATH "/proc/meminfo"
/* Used only when /proc/meminfo does not say (x86-64 default). */
#define GD_HUGEPAGE_DEFAULT_KIB 2048L

struct gd_meminfo_huge {
	long total_pages; /* HugePages_Total, -1 if absent */
	long free_pages;  /* HugePages_Free, -1 if absent */
	long page_kib;	  /* Hugepagesize in kB, -1 if absent */
};

static int gd_read_meminfo_huge(const char *path, struct gd_meminfo_huge *m)
{
	char line[256];
	FILE *f = fopen(path, "r");

	m->total_pages = m->free_pages = m->page_kib = -1;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "HugePages_Total: %ld", &m->total_pages);
		sscanf(line, "HugePages_Free: %ld", &m->free_pages);
		sscanf(line, "Hugepagesize: %ld kB", &m->page_kib);
	}
	fclose(f);
	return 0;
}

static size_t gd_pages_needed(size_t len_bytes, long page_kib)
{
	size_t page_bytes = (size_t)page_kib * 1024u;

	return (len_bytes + page_bytes - 1) / page_bytes;
}

int gd_mem_hugepage_explain(int err, const char *meminfo_path, size_t len_bytes)
{
	struct gd_meminfo_huge m;
	size_t need;
	int ret = gd_read_meminfo_huge(meminfo_path, &m);

	if (ret)
		return gd_err(
			err,
			"cannot map %zu bytes of huge-page memory (mmap MAP_HUGETLB: errno %d, %s) and cannot read %s (%s) to say why",
			len_bytes, -err, strerror(-err), meminfo_path,
			strerror(-ret));
	if (m.free_pages < 0 || m.page_kib <= 0)
		return gd_err(
			err,
			"cannot map %zu bytes of huge-page memory (mmap MAP_HUGETLB: errno %d, %s): %s has no HugePages_Free/Hugepagesize, so this kernel lacks huge page support (CONFIG_HUGETLBFS); use --mem=host",
			len_bytes, -err, strerror(-err), meminfo_path);
	need = gd_pages_needed(len_bytes, m.page_kib);
	if (m.free_pages == 0 && m.total_pages <= 0)
		return gd_err(
			err,
			"cannot map %zu bytes of huge-page memory (mmap MAP_HUGETLB: errno %d, %s): no huge pages reserved (HugePages_Free=0); reserve with: echo %zu > /proc/sys/vm/nr_hugepages (%zu pages of %ld KiB)",
			len_bytes, -err, strerror(-err), need, need,
			m.page_kib);
	if ((size_t)m.free_pages < need)
		return gd_err(
			err,
			"cannot map %zu bytes of huge-page memory (mmap MAP_HUGETLB: errno %d, %s): HugePages_Free=%ld of HugePages_Total=%ld but %zu pages of %ld KiB are needed; reserve more with: echo %zu > /proc/sys/vm/nr_hugepages",
			len_bytes, -err, strerror(-err), m.free_pages,
			m.total_pages, need, m.page_kib,
			(size_t)m.total_pages + need - (size_t)m.free_pages);
	return gd_err(
		err,
		"cannot map %zu bytes of huge-page memory (mmap MAP_HUGETLB: errno %d, %s) although HugePages_Free=%ld covers the %zu pages of %ld KiB needed; check the cgroup hugetlb limit of this job and the memlock limit (ulimit -l)",
		len_bytes, -err, strerror(-err), m.free_pages, need,
		m.page_kib);
}

static long gd_hugepage_kib(void)
{
	struct gd_meminfo_huge m;

	if (gd_read_meminfo_huge(GD_MEMINFO_PATH, &m) || m.page_kib <= 0)
		return GD_HUGEPAGE_DEFAULT_KIB;
	return m.page_kib;
}

static int gd_hugepage_alloc(struct gd_mem_buf *buf, size_t len_bytes)
{
	long page_kib = gd_hugepage_kib();
	size_t map_bytes =
		gd_pages_needed(len_bytes, page_kib) * (size_t)page_kib * 1024u;
	void *p = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return gd_mem_hugepage_explain(-errno, GD_MEMINFO_PATH,
					       len_bytes);
	buf->addr = p;
	buf->len_bytes = len_bytes;
	/* The mapped length (whole huge pages) is all munmap needs; keeping
	 * it in the pointer-sized slot avoids a second allocation. */
	buf->priv = (void *)(uintptr_t)map_bytes;
	buf->route_used = GD_ROUTE_PLAIN;
	return gd_mem_fill_pattern(buf, 0, len_bytes, GD_MEM_INIT_SEED);
}

static int gd_hugepage_free(struct gd_mem_buf *buf)
{
	int ret = munmap(buf->addr, (size_t)(uintptr_t)buf->priv) ? -errno : 0;

	buf->addr = NULL;
	buf->priv = NULL;
	return ret ? gd_err(ret, "munmap of a huge-page buffer failed: %s",
			    strerror(-ret))
		   : 0;
}

const struct gd_mem_ops gd_mem_hugepage_ops = {
	.name = "hugepage",
	.cpu_accessible = true,
	.alloc = gd_hugepage_alloc,
	.free = gd_hugepage_free,
	.reg = gd_mem_reg_plain,
	.copy_in = gd_mem_cpu_copy_in,
	.copy_out = gd_mem_cpu_copy_out,
};
