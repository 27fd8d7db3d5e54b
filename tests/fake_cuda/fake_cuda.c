/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * TEST DOUBLE, NOT A GPU DRIVER: a fake libcuda exporting the driver API
 * entry points gdperf resolves. It proves our control flow, never a GPU
 * path. Like the driver it is strict: a device pointer is an address in a
 * PROT_NONE reservation of its own, so a CPU load or store through it
 * faults as it would on a GPU, while the copies go through a private host
 * backing; copies and exports fail with CUDA_ERROR_INVALID_CONTEXT unless
 * the current context is the one that allocated the pointer, and a flush
 * unless the current context is retained; releasing the last reference of
 * a primary context frees the allocations made in it. Its defaults follow
 * an H200 with the open kernel modules (DMA-BUF attribute 1). Knobs, read
 * on every call:
 *   GD_FAKE_CUDA_LENIENT=1          LENIENT MODE, for the VM guest cases
 *                                   only: allocations made while it is set
 *                                   are plain host memory (device pointer ==
 *                                   backing), because Soft-RoCE (rxe) pins
 *                                   and reads a registered buffer with the
 *                                   CPU, which no PROT_NONE address allows;
 *                                   context checks stay strict
 *   GD_FAKE_CUDA_NO_DEVICE=1        cuInit fails with CUDA_ERROR_NO_DEVICE;
 *                                   like the real driver the failure stays
 *                                   for the life of the process
 *   GD_FAKE_CUDA_INIT_ERROR=N       cuInit fails with CUresult N (803, 804,
 *                                   999...), sticky like NO_DEVICE
 *   GD_FAKE_CUDA_FREE_FAIL=1        cuMemFree frees but returns
 *                                   CUDA_ERROR_ILLEGAL_ADDRESS (a sticky
 *                                   error at teardown)
 *   GD_FAKE_CUDA_RELEASE_FAIL=1     cuDevicePrimaryCtxRelease returns
 *                                   CUDA_ERROR_INVALID_CONTEXT
 *   GD_FAKE_CUDA_GPU_COUNT=N        N GPUs (default 1), bus 0000:17:00.0,
 *                                   0000:18:00.0, ...
 *   GD_FAKE_CUDA_BUS_IDS=A,B,...    their PCI bus ids instead (a fixture's)
 *   GD_FAKE_CUDA_DMABUF_ATTR=0|1    CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED (1)
 *   GD_FAKE_CUDA_DRIVER_VERSION=N   cuDriverGetVersion (default 12040)
 *   GD_FAKE_CUDA_WRITES_ORDERING=N  GPU_DIRECT_RDMA_WRITES_ORDERING: 0 none
 *                                   (default), 100 owner, 200 all devices
 *   GD_FAKE_CUDA_FLUSH_OPTIONS=N    GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS (1)
 *   GD_FAKE_CUDA_COMPUTE_MODE=N     CU_DEVICE_ATTRIBUTE_COMPUTE_MODE (0
 *                                   default, 3 exclusive process)
 *   GD_FAKE_CUDA_NO_ERROR_STRING=1  cuGetErrorString knows no code
 *   GD_FAKE_CUDA_HOST_ATOMIC=0|1    HOST_NATIVE_ATOMIC_SUPPORTED (0): 1 is a
 *                                   coherent platform (Grace)
 *   GD_FAKE_CUDA_BAR1_BYTES=N       BAR1 aperture: DMA-BUF exports beyond N
 *                                   live bytes fail with OUT_OF_MEMORY
 *   GD_FAKE_CUDA_ALLOC_FAIL=1       cuMemAlloc fails with OUT_OF_MEMORY
 *   GD_FAKE_CUDA_EXPORT_FAIL=1      DMA-BUF export fails with NOT_SUPPORTED
 *   GD_FAKE_CUDA_PCIE_FLAG_REFUSE=1 export refuses the PCIe mapping flag only
 *   GD_FAKE_CUDA_MANAGED=1          every pointer reports IS_MANAGED=1
 *   GD_FAKE_CUDA_HTOD_DELAY_MS=N    each host-to-device copy takes N ms more
 *                                   (a slow buffer fill on one end)
 *   GD_FAKE_CUDA_P2P_GROUPS=A-B,... GPUs in one range reach each other by
 *                                   peer access (rank 0), others do not, as
 *                                   across the sockets of a PCIe server
 *                                   (default: every pair can)
 *   GD_FAKE_NVML_BAR1_MIB=N         NVML (the same library stands in for
 *   GD_FAKE_NVML_BAR1_USED_MIB=N    libnvidia-ml through GD_NVML_LIBRARY):
 *                                   BAR1 total and in use; unset: NVML
 *                                   knows no such GPU
 * DMA-BUF export returns a memfd of the requested size, named with "pcie"
 * when exported with the PCIe mapping flag (the verbs stand-ins of the
 * tests can refuse to import those, as NVIDIA's attach does with 524). Tests
 * read the call counters
 * gd_fake_cuda_calls("cuInit"|"flush"|"export_pcie"|"nvmlInit"| "nvml_bar1").
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mem/cuda_compat.h"

#define FAKE_MAX_GPUS 16
#define FAKE_MAX_ALLOCS 256
#define FAKE_ALLOC_ALIGN 256u /* like cuMemAlloc: aligned, not page-aligned */
#define FAKE_HOST_PAGE 4096u

struct fake_alloc {
	uintptr_t base; /* the device pointer handed out */
	size_t len;
	unsigned char *host; /* what copies read and write */
	void *reserved;	     /* the PROT_NONE mapping; NULL when lenient */
	size_t reserved_len;
	int device; /* whose primary context owns it */
	bool sync_memops;
	size_t exported; /* bytes of BAR1 its DMA-BUF exports hold */
};

struct fake_ctx {
	int device;
	int refs;
};

static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
static bool fake_initialised;
static CUresult fake_init_rc; /* a failed cuInit is sticky */
static unsigned int fake_init_calls, fake_flush_calls, fake_pcie_exports;
static unsigned int fake_nvml_init_calls, fake_nvml_bar1_calls;
static struct fake_alloc fake_allocs[FAKE_MAX_ALLOCS];
static struct fake_ctx fake_ctxs[FAKE_MAX_GPUS];
/*
 * The current context is per thread, as in the driver. A pthread key, not
 * _Thread_local: the library is dlopen'ed and dlclose'd more than once per
 * test, and a dlclose'd library's dynamic TLS block is left in the thread's
 * vector, where GCC 12's LeakSanitizer reads it at exit and dies ("Tracer
 * caught signal 11"), so that no leak check is made at all.
 */
static pthread_key_t fake_current_key;
static pthread_once_t fake_current_once = PTHREAD_ONCE_INIT;
static bool fake_current_made;

static void fake_current_make(void)
{
	fake_current_made = !pthread_key_create(&fake_current_key, NULL);
}

static struct fake_ctx *fake_current_get(void)
{
	pthread_once(&fake_current_once, fake_current_make);
	return fake_current_made ? pthread_getspecific(fake_current_key) : NULL;
}

__attribute__((destructor)) static void fake_current_drop(void)
{
	if (fake_current_made)
		pthread_key_delete(fake_current_key);
}

static bool fake_knob(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

static long fake_int(const char *name, long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : dflt;
}

/* Test hook, not a driver entry point: how often @what was called. */
unsigned int gd_fake_cuda_calls(const char *what);
unsigned int gd_fake_cuda_calls(const char *what)
{
	if (!strcmp(what, "cuInit"))
		return fake_init_calls;
	if (!strcmp(what, "flush"))
		return fake_flush_calls;
	if (!strcmp(what, "export_pcie"))
		return fake_pcie_exports;
	if (!strcmp(what, "nvmlInit"))
		return fake_nvml_init_calls;
	if (!strcmp(what, "nvml_bar1"))
		return fake_nvml_bar1_calls;
	return 0;
}

static int fake_gpu_count(void)
{
	const char *v = getenv("GD_FAKE_CUDA_GPU_COUNT");
	int n = v ? atoi(v) : 1;

	if (fake_knob("GD_FAKE_CUDA_NO_DEVICE"))
		return 0;
	return n < 0 ? 0 : n > FAKE_MAX_GPUS ? FAKE_MAX_GPUS : n;
}

static CUresult fake_check_device(CUdevice dev)
{
	if (!fake_initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev < 0 || dev >= fake_gpu_count())
		return CUDA_ERROR_INVALID_DEVICE;
	return CUDA_SUCCESS;
}

/* The allocation holding [p, p+len), or NULL. Caller holds fake_lock. */
static struct fake_alloc *fake_find(CUdeviceptr p, size_t len)
{
	for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
		struct fake_alloc *a = &fake_allocs[i];

		if (a->base && p >= a->base && p - a->base <= a->len &&
		    len <= a->len - (p - a->base))
			return a;
	}
	return NULL;
}

/* Caller holds fake_lock. */
static void fake_alloc_drop(struct fake_alloc *a)
{
	if (a->reserved)
		munmap(a->reserved, a->reserved_len);
	free(a->host); /* lenient: the device pointer itself */
	memset(a, 0, sizeof(*a));
}

CUresult cuInit(unsigned int flags)
{
	fake_init_calls++;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_init_rc)
		return fake_init_rc;
	if (fake_knob("GD_FAKE_CUDA_NO_DEVICE")) {
		fake_init_rc = CUDA_ERROR_NO_DEVICE;
		return fake_init_rc;
	}
	if (fake_int("GD_FAKE_CUDA_INIT_ERROR", 0)) {
		fake_init_rc = (CUresult)fake_int("GD_FAKE_CUDA_INIT_ERROR", 0);
		return fake_init_rc;
	}
	fake_initialised = true;
	return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version)
{
	*version = (int)fake_int("GD_FAKE_CUDA_DRIVER_VERSION", 12040);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	if (!fake_initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	*count = fake_gpu_count();
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	CUresult rc = fake_check_device(ordinal);

	if (!rc)
		*dev = ordinal;
	return rc;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	if (!rc)
		snprintf(name, (size_t)len, "Fake GPU %d (gdperf test double)",
			 dev);
	return rc;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	if (rc)
		return rc;
	for (int i = 0; i < 16; i++)
		uuid->bytes[i] = (char)(0xf0 + (i == 15 ? dev : 0));
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	const char *list = getenv("GD_FAKE_CUDA_BUS_IDS");

	if (rc)
		return rc;
	/* The dev-th entry of the list, when there is one. */
	for (int i = 0; list && *list; i++) {
		size_t n = strcspn(list, ",");

		if (i == dev) {
			snprintf(bus_id, (size_t)len, "%.*s", (int)n, list);
			return CUDA_SUCCESS;
		}
		list += n + (list[n] == ',');
	}
	/* Upper-case hex like the real driver, so callers must normalise. */
	snprintf(bus_id, (size_t)len, "0000:%02X:00.0", 0x17 + dev);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	if (rc)
		return rc;
	switch ((int)attr) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		*value = 9;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
		*value = 0;
		break;
	case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED:
		*value = 1;
		break;
	case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
		*value = (int)fake_int("GD_FAKE_CUDA_DMABUF_ATTR", 1);
		break;
	case GD_CU_ATTR_GDR_WRITES_ORDERING:
		*value = (int)fake_int("GD_FAKE_CUDA_WRITES_ORDERING",
				       GD_CU_WRITES_ORDERING_NONE);
		break;
	case GD_CU_ATTR_COMPUTE_MODE:
		*value = (int)fake_int("GD_FAKE_CUDA_COMPUTE_MODE", 0);
		break;
	case GD_CU_ATTR_HOST_NATIVE_ATOMIC:
		*value = (int)fake_int("GD_FAKE_CUDA_HOST_ATOMIC", 0);
		break;
	case GD_CU_ATTR_GDR_FLUSH_WRITES_OPTIONS:
		*value = (int)fake_int("GD_FAKE_CUDA_FLUSH_OPTIONS",
				       GD_CU_FLUSH_OPTION_HOST);
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/* The GD_FAKE_CUDA_P2P_GROUPS range holding @dev, or -1 (every GPU in
 * one group when the knob is unset). */
static int fake_p2p_group(CUdevice dev)
{
	const char *v = getenv("GD_FAKE_CUDA_P2P_GROUPS");
	int group = 0, lo, hi, used;

	if (!v || !*v)
		return 0;
	while (sscanf(v, "%d-%d%n", &lo, &hi, &used) == 2) {
		if (dev >= lo && dev <= hi)
			return group;
		v += used;
		group++;
		if (*v != ',')
			break;
		v++;
	}
	return -1 - dev; /* in no range: alone */
}

CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	CUresult rc = fake_check_device(dev);

	if (!rc)
		rc = fake_check_device(peer);
	if (rc)
		return rc;
	if (dev == peer)
		return CUDA_ERROR_INVALID_DEVICE;
	*can = fake_p2p_group(dev) == fake_p2p_group(peer);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attr,
				 CUdevice src, CUdevice dst)
{
	int can = 0;
	CUresult rc = cuDeviceCanAccessPeer(&can, src, dst);

	if (rc)
		return rc;
	switch ((int)attr) {
	case GD_CU_P2P_PERFORMANCE_RANK:
		*value = 0;
		break;
	case GD_CU_P2P_ACCESS_SUPPORTED:
	case GD_CU_P2P_CUDA_ARRAY_ACCESS_SUPPORTED:
		*value = can;
		break;
	case GD_CU_P2P_NATIVE_ATOMIC_SUPPORTED:
		*value = 0; /* PCIe peers: no native atomics */
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	if (!rc)
		*bytes = (size_t)16 << 30;
	return rc;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	if (rc)
		return rc;
	pthread_mutex_lock(&fake_lock);
	fake_ctxs[dev].device = dev;
	fake_ctxs[dev].refs++;
	pthread_mutex_unlock(&fake_lock);
	*ctx = (CUcontext)(void *)&fake_ctxs[dev];
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CUresult rc = fake_check_device(dev);

	if (rc)
		return rc;
	pthread_mutex_lock(&fake_lock);
	if (fake_ctxs[dev].refs > 0)
		fake_ctxs[dev].refs--;
	else
		rc = CUDA_ERROR_INVALID_CONTEXT;
	/* The last reference destroys the primary context, and with it
	 * every allocation made in it. */
	for (int i = 0; !rc && !fake_ctxs[dev].refs && i < FAKE_MAX_ALLOCS; i++)
		if (fake_allocs[i].base && fake_allocs[i].device == dev)
			fake_alloc_drop(&fake_allocs[i]);
	pthread_mutex_unlock(&fake_lock);
	if (!rc && fake_knob("GD_FAKE_CUDA_RELEASE_FAIL"))
		rc = CUDA_ERROR_INVALID_CONTEXT;
	return rc;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	pthread_once(&fake_current_once, fake_current_make);
	if (!fake_current_made ||
	    pthread_setspecific(fake_current_key, (void *)ctx))
		return CUDA_ERROR_OUT_OF_MEMORY;
	return CUDA_SUCCESS;
}

/*
 * Strict: a PROT_NONE reservation gives the address, 256-aligned but not
 * page-aligned like cuMemAlloc's, and a separate host buffer the data.
 * Lenient: host memory is both.
 */
static CUresult fake_alloc_make(struct fake_alloc *a, size_t bytes)
{
	void *p = NULL;

	if (fake_knob("GD_FAKE_CUDA_LENIENT")) {
		if (posix_memalign(&p, FAKE_ALLOC_ALIGN, bytes))
			return CUDA_ERROR_OUT_OF_MEMORY;
		a->host = p;
		a->base = (uintptr_t)p;
		a->len = bytes;
		return CUDA_SUCCESS;
	}
	a->host = calloc(1, bytes);
	a->reserved_len = bytes + FAKE_HOST_PAGE;
	p = mmap(NULL, a->reserved_len, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!a->host || p == MAP_FAILED) {
		free(a->host);
		if (p != MAP_FAILED)
			munmap(p, a->reserved_len);
		memset(a, 0, sizeof(*a));
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	a->reserved = p;
	a->base = (uintptr_t)p + FAKE_ALLOC_ALIGN;
	a->len = bytes;
	return CUDA_SUCCESS;
}

static struct fake_ctx *fake_current_live(void)
{
	struct fake_ctx *cur = fake_current_get();

	return cur && cur->refs > 0 ? cur : NULL;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
	struct fake_ctx *cur = fake_current_live();
	CUresult rc = CUDA_ERROR_OUT_OF_MEMORY;

	if (!cur)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (fake_knob("GD_FAKE_CUDA_ALLOC_FAIL"))
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&fake_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
		struct fake_alloc *a = &fake_allocs[i];

		if (a->base)
			continue;
		rc = fake_alloc_make(a, bytes);
		if (!rc) {
			a->device = cur->device;
			*dptr = (CUdeviceptr)a->base;
		}
		break;
	}
	pthread_mutex_unlock(&fake_lock);
	return rc;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	CUresult rc = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&fake_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCS; i++) {
		if (fake_allocs[i].base != dptr || !dptr)
			continue;
		fake_alloc_drop(&fake_allocs[i]);
		rc = fake_knob("GD_FAKE_CUDA_FREE_FAIL")
			     ? (CUresult)700 /* ILLEGAL_ADDRESS */
			     : CUDA_SUCCESS;
		break;
	}
	pthread_mutex_unlock(&fake_lock);
	return rc;
}

/*
 * [p, p+len) must be one allocation of the current, live context. The
 * driver with unified addressing finds the owner from the pointer itself;
 * the fake is stricter on purpose, so that code which forgets to make the
 * buffer's context current (and would export from, or flush, the wrong
 * GPU) fails here. On success *host is the backing of p.
 */
static CUresult fake_check_range(CUdeviceptr p, size_t len,
				 unsigned char **host)
{
	struct fake_ctx *cur = fake_current_live();
	struct fake_alloc *a;
	CUresult rc = CUDA_ERROR_INVALID_VALUE;

	if (!cur)
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&fake_lock);
	a = fake_find(p, len);
	if (a && a->device != cur->device) {
		rc = CUDA_ERROR_INVALID_CONTEXT;
	} else if (a) {
		*host = a->host + (p - a->base);
		rc = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&fake_lock);
	return rc;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes)
{
	unsigned char *to = NULL;
	CUresult rc = fake_check_range(dst, bytes, &to);
	long delay_ms = fake_int("GD_FAKE_CUDA_HTOD_DELAY_MS", 0);

	if (delay_ms > 0)
		usleep((useconds_t)delay_ms * 1000);
	if (!rc)
		memcpy(to, src, bytes);
	return rc;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes)
{
	unsigned char *from = NULL;
	CUresult rc = fake_check_range(src, bytes, &from);

	if (!rc)
		memcpy(dst, from, bytes);
	return rc;
}

CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attr,
			       CUdeviceptr ptr)
{
	struct fake_alloc *a;
	CUresult rc = CUDA_ERROR_INVALID_VALUE;

	if ((int)attr != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&fake_lock);
	a = fake_find(ptr, 0);
	if (a) {
		a->sync_memops = *(const unsigned int *)value != 0;
		rc = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&fake_lock);
	return rc;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attr,
			       CUdeviceptr ptr)
{
	struct fake_alloc *a;
	CUresult rc = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&fake_lock);
	a = fake_find(ptr, 0);
	if (a && (int)attr == CU_POINTER_ATTRIBUTE_IS_MANAGED) {
		*(unsigned int *)data = fake_knob("GD_FAKE_CUDA_MANAGED");
		rc = CUDA_SUCCESS;
	} else if (a && (int)attr == CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) {
		*(unsigned int *)data = a->sync_memops;
		rc = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&fake_lock);
	return rc;
}

/* Charge @size bytes of BAR1 to the allocation holding @dptr. */
static CUresult fake_bar1_charge(CUdeviceptr dptr, size_t size)
{
	long limit = fake_int("GD_FAKE_CUDA_BAR1_BYTES", -1);
	struct fake_alloc *a;
	size_t used = 0;
	CUresult rc = CUDA_SUCCESS;

	pthread_mutex_lock(&fake_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
		used += fake_allocs[i].exported;
	a = fake_find(dptr, size);
	if (limit >= 0 && used + size > (size_t)limit)
		rc = CUDA_ERROR_OUT_OF_MEMORY;
	else if (a)
		a->exported += size;
	pthread_mutex_unlock(&fake_lock);
	return rc;
}

CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr,
				       size_t size, CUmemRangeHandleType type,
				       unsigned long long flags)
{
	unsigned char *host = NULL;
	int fd;
	CUresult rc = fake_check_range(dptr, size, &host);

	if (rc)
		return rc;
	if ((int)type != CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD ||
	    dptr % FAKE_HOST_PAGE || size % FAKE_HOST_PAGE || flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags)
		fake_pcie_exports++;
	if (fake_knob("GD_FAKE_CUDA_EXPORT_FAIL"))
		return CUDA_ERROR_NOT_SUPPORTED;
	if (flags && fake_knob("GD_FAKE_CUDA_PCIE_FLAG_REFUSE"))
		return CUDA_ERROR_INVALID_VALUE;
	rc = fake_bar1_charge(dptr, size);
	if (rc)
		return rc;
	fd = memfd_create(flags ? "gdperf-fake-cuda-dmabuf pcie (test double)"
				: "gdperf-fake-cuda-dmabuf (test double)",
			  MFD_CLOEXEC);
	if (fd < 0)
		return CUDA_ERROR_UNKNOWN;
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return CUDA_ERROR_UNKNOWN;
	}
	*(int *)handle = fd;
	return CUDA_SUCCESS;
}

CUresult cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
				    CUflushGPUDirectRDMAWritesScope scope)
{
	if (!fake_current_live())
		return CUDA_ERROR_INVALID_CONTEXT;
	if ((int)target != GD_CU_FLUSH_TARGET_CURRENT_CTX ||
	    ((int)scope != GD_CU_FLUSH_TO_OWNER &&
	     (int)scope != GD_CU_WRITES_ORDERING_ALL_DEVICES))
		return CUDA_ERROR_INVALID_VALUE;
	fake_flush_calls++;
	return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **name)
{
	static const struct {
		int code;
		const char *name;
	} names[] = {
		{ CUDA_SUCCESS, "CUDA_SUCCESS" },
		{ CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE" },
		{ CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY" },
		{ CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED" },
		{ CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE" },
		{ CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE" },
		{ CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT" },
		{ CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED" },
		{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS" },
		{ 802, "CUDA_ERROR_SYSTEM_NOT_READY" },
		{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH" },
		{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE" },
		{ CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i].code == (int)error) {
			*name = names[i].name;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* The driver's own sentences for the codes the tests meet (cuda.h's
 * comments); GD_FAKE_CUDA_NO_ERROR_STRING=1 hides the symbol's answer, as
 * a driver without it would leave the text out. */
CUresult cuGetErrorString(CUresult error, const char **str)
{
	static const struct {
		int code;
		const char *text;
	} texts[] = {
		{ CUDA_ERROR_OUT_OF_MEMORY, "out of memory" },
		{ CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected" },
		{ CUDA_ERROR_INVALID_CONTEXT, "invalid device context" },
		{ CUDA_ERROR_NOT_SUPPORTED, "operation not supported" },
		{ 46, "CUDA-capable device(s) is/are busy or unavailable" },
		{ 802, "system not yet initialized" },
		{ 803,
		  "system has unsupported display driver / cuda driver combination" },
		{ CUDA_ERROR_UNKNOWN, "unknown error" },
	};

	if (fake_knob("GD_FAKE_CUDA_NO_ERROR_STRING"))
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		if (texts[i].code == (int)error) {
			*str = texts[i].text;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* NVML stand-ins: just what the BAR1 reader asks (nvml.h's types). */
struct fake_nvml_bar1 {
	unsigned long long total, free, used;
};

int nvmlInit_v2(void);
int nvmlInit_v2(void)
{
	fake_nvml_init_calls++;
	return 0;
}

int nvmlShutdown(void);
int nvmlShutdown(void)
{
	return 0;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
	static int handle;

	if (!bus || fake_int("GD_FAKE_NVML_BAR1_MIB", -1) < 0)
		return 6; /* NVML_ERROR_NOT_FOUND */
	*dev = &handle;
	return 0;
}

int nvmlDeviceGetBAR1MemoryInfo(void *dev, struct fake_nvml_bar1 *mem);
int nvmlDeviceGetBAR1MemoryInfo(void *dev, struct fake_nvml_bar1 *mem)
{
	unsigned long long total =
		(unsigned long long)fake_int("GD_FAKE_NVML_BAR1_MIB", 0) << 20;
	unsigned long long used =
		(unsigned long long)fake_int("GD_FAKE_NVML_BAR1_USED_MIB", 0)
		<< 20;

	fake_nvml_bar1_calls++;
	if (!dev)
		return 2; /* NVML_ERROR_INVALID_ARGUMENT */
	mem->total = total;
	mem->used = used > total ? total : used;
	mem->free = total - mem->used;
	return 0;
}
