/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libibverbs stand-ins for the memory tests, linked with -Wl,--wrap (see
 * src/mem/mem.mk): registration outcomes and the access flags each call
 * received, without an RDMA device. Only the route and fallback logic is
 * proven with them. Include once per test program, after <cmocka.h>.
 */
#ifndef GD_TESTS_FAKE_VERBS_H
#define GD_TESTS_FAKE_VERBS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define FV_LOG_MAX 16

static struct {
	int dmabuf_errno; /* ibv_reg_dmabuf_mr fails with it; 0 succeeds */
	/* ibv_reg_dmabuf_mr of a PCIe-mapped export (the fake driver names
	 * its memfd so) fails with it, as NVIDIA's attach answers 524 */
	int pcie_dmabuf_errno;
	int mr_errno; /* ibv_reg_mr fails with it; 0 succeeds */
	/* the support probe, ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0), fails
	 * with it; 0 answers EBADF (supported), as a kernel with the import */
	int probe_errno;
	unsigned int mr_calls, dmabuf_calls, probe_calls;
	int access;
	/* every registration in order: 'm' ibv_reg_mr, 'd' the dma-buf one;
	 * @addr: the CPU/device address ('m') or the IOVA ('d'); @offset and
	 * @fd_bytes (the dma-buf's size, -1 for a closed fd): 'd' only */
	struct {
		char call;
		int access;
		uint64_t addr, offset;
		size_t length;
		long long fd_bytes;
	} log[FV_LOG_MAX];
	unsigned int nlog;
} fv;

static struct ibv_mr *fake_mr(int err, char call, int access, uint64_t addr,
			      size_t length)
{
	fv.access = access;
	if (fv.nlog < FV_LOG_MAX) {
		fv.log[fv.nlog].call = call;
		fv.log[fv.nlog].addr = addr;
		fv.log[fv.nlog].length = length;
		fv.log[fv.nlog++].access = access;
	}
	if (err) {
		errno = err;
		return NULL;
	}
	return calloc(1, sizeof(struct ibv_mr));
}

struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr,
				       size_t length, uint64_t iova,
				       unsigned int access);
struct ibv_mr *__wrap_ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr,
				       size_t length, uint64_t iova,
				       unsigned int access)
{
	fv.mr_calls++;
	return fake_mr(fv.mr_errno, 'm', (int)access, (uintptr_t)addr, length);
}

struct ibv_mr *__wrap_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				 int access);
struct ibv_mr *__wrap_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
				 int access)
{
	fv.mr_calls++;
	return fake_mr(fv.mr_errno, 'm', access, (uintptr_t)addr, length);
}

struct ibv_mr *__wrap_ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					size_t length, uint64_t iova, int fd,
					int access);
struct ibv_mr *__wrap_ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
					size_t length, uint64_t iova, int fd,
					int access)
{
	struct stat st;
	unsigned int i = fv.nlog;
	char link[64], name[256] = "";
	ssize_t n;

	if (fd == -1 && length == 0) {
		fv.probe_calls++;
		errno = fv.probe_errno ? fv.probe_errno : EBADF;
		return NULL;
	}
	fv.dmabuf_calls++;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, sizeof(name) - 1);
	if (n > 0)
		name[n] = '\0';
	if (i < FV_LOG_MAX) {
		fv.log[i].offset = offset;
		fv.log[i].fd_bytes =
			fstat(fd, &st) ? -1 : (long long)st.st_size;
	}
	return fake_mr(fv.pcie_dmabuf_errno && strstr(name, " pcie ")
			       ? fv.pcie_dmabuf_errno
			       : fv.dmabuf_errno,
		       'd', access, iova, length);
}

int __wrap_ibv_dereg_mr(struct ibv_mr *mr);
int __wrap_ibv_dereg_mr(struct ibv_mr *mr)
{
	free(mr);
	return 0;
}

static struct ibv_device fake_dev = { .name = "mlx5_9" };
static struct ibv_context fake_verbs_ctx = { .device = &fake_dev };
static struct ibv_pd fake_pd = { .context = &fake_verbs_ctx };

#endif
