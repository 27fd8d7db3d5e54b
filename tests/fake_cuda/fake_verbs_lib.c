/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * TEST DOUBLE, NOT AN RDMA DEVICE: a fake libibverbs with one device,
 * "fakenic0", exporting only the calls cuda-smoke resolves to attach a
 * DMA-BUF export (device list, open, PD, ibv_reg_dmabuf_mr, teardown),
 * loaded through GD_VERBS_LIBRARY beside the fake CUDA driver. It imports
 * the fake driver's memfd exports; GD_FAKE_VERBS_PCIE_REFUSE=1 refuses the
 * PCIe-mapped ones (their memfd name says "pcie") with 524, as NVIDIA's
 * attach does where its topology check fails; =all refuses every import
 * with EOPNOTSUPP, a NIC without DMA-BUF import. Proves control flow only.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAKE_ENOTSUPP 524 /* the kernel-internal ENOTSUPP */

static int fake_device, fake_context, fake_pd, fake_mr;
static void *fake_list[2] = { &fake_device, NULL };

void **ibv_get_device_list(int *num);
const char *ibv_get_device_name(void *dev);
void *ibv_open_device(void *dev);
void *ibv_alloc_pd(void *ctx);
void *ibv_reg_dmabuf_mr(void *pd, uint64_t offset, size_t length, uint64_t iova,
			int fd, int access);
int ibv_dereg_mr(void *mr);
int ibv_dealloc_pd(void *pd);
int ibv_close_device(void *ctx);
void ibv_free_device_list(void **list);

void **ibv_get_device_list(int *num)
{
	if (num)
		*num = 1;
	return fake_list;
}

const char *ibv_get_device_name(void *dev)
{
	return dev == &fake_device ? "fakenic0" : NULL;
}

void *ibv_open_device(void *dev)
{
	return dev == &fake_device ? &fake_context : NULL;
}

void *ibv_alloc_pd(void *ctx)
{
	return ctx == &fake_context ? &fake_pd : NULL;
}

/* The memfd's name, from /proc/self/fd: "pcie" marks a PCIe export. */
static int fake_is_pcie(int fd)
{
	char path[64], target[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	if (!strstr(target, "gdperf-fake-cuda-dmabuf"))
		return -1; /* not the fake driver's export */
	return strstr(target, " pcie ") != NULL;
}

void *ibv_reg_dmabuf_mr(void *pd, uint64_t offset, size_t length, uint64_t iova,
			int fd, int access)
{
	const char *refuse = getenv("GD_FAKE_VERBS_PCIE_REFUSE");
	int pcie = fake_is_pcie(fd);

	(void)offset;
	(void)iova;
	(void)access;
	if (pd != &fake_pd || !length || pcie < 0) {
		errno = EINVAL;
		return NULL;
	}
	if (pcie && refuse && *refuse == '1') {
		errno = FAKE_ENOTSUPP;
		return NULL;
	}
	if (refuse && !strcmp(refuse, "all")) {
		errno = EOPNOTSUPP; /* a NIC without DMA-BUF import */
		return NULL;
	}
	return &fake_mr;
}

int ibv_dereg_mr(void *mr)
{
	return mr == &fake_mr ? 0 : EINVAL;
}

int ibv_dealloc_pd(void *pd)
{
	return pd == &fake_pd ? 0 : EINVAL;
}

int ibv_close_device(void *ctx)
{
	return ctx == &fake_context ? 0 : -1;
}

void ibv_free_device_list(void **list)
{
	(void)list;
}
