/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CUDA driver API loaded at run time: dlopen of libcuda.so.1 (or
 * $GD_CUDA_LIBRARY), dlsym of the versioned entry points, and thin wrappers
 * that turn CUresult codes into -errno plus a message naming the GPU and
 * the next check. Nothing here links against libcuda.
 */
#include <config.h>

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cuda_api.h"
#include "mem/cuda_compat.h"
#include "util/error.h"

#define GD_CUDA_DEFAULT_LIBRARY "libcuda.so.1"
#define GD_CUDA_WHY_MAX 1024
#define GD_CU_ERR_MAX 256 /* "NAME (N): text" */

struct gd_cuda_fns {
	__typeof__(cuInit) *init;
	__typeof__(cuDriverGetVersion) *driver_get_version;
	__typeof__(cuDeviceGetCount) *device_get_count;
	__typeof__(cuDeviceGet) *device_get;
	__typeof__(cuDeviceGetName) *device_get_name;
	__typeof__(cuDeviceGetUuid_v2) *device_get_uuid;
	__typeof__(cuDeviceGetPCIBusId) *device_get_pci_bus_id;
	__typeof__(cuDeviceGetAttribute) *device_get_attribute;
	__typeof__(cuDeviceTotalMem_v2) *device_total_mem;
	__typeof__(cuDevicePrimaryCtxRetain) *primary_ctx_retain;
	__typeof__(cuDevicePrimaryCtxRelease_v2) *primary_ctx_release;
	__typeof__(cuCtxSetCurrent) *ctx_set_current;
	__typeof__(cuMemAlloc_v2) *mem_alloc;
	__typeof__(cuMemFree_v2) *mem_free;
	__typeof__(cuMemcpyHtoD_v2) *memcpy_htod;
	__typeof__(cuMemcpyDtoH_v2) *memcpy_dtoh;
	__typeof__(cuPointerSetAttribute) *pointer_set_attribute;
	__typeof__(cuPointerGetAttribute) *pointer_get_attribute;
	__typeof__(cuMemGetHandleForAddressRange) *get_handle_for_range;
	__typeof__(cuFlushGPUDirectRDMAWrites) *flush_rdma_writes;
	__typeof__(cuGetErrorName) *get_error_name;
	__typeof__(cuGetErrorString) *get_error_string;
	__typeof__(cuDeviceCanAccessPeer) *device_can_access_peer;
	__typeof__(cuDeviceGetP2PAttribute) *device_get_p2p_attribute;
};

struct gd_cuda_sym {
	const char *name;
	const char *fallback; /* older unversioned name, or NULL */
	size_t offset;
	bool optional; /* absent in drivers older than the feature */
};

#define GD_SYM(field, name, fallback, optional)                                \
	{                                                                      \
		name, fallback, offsetof(struct gd_cuda_fns, field), optional  \
	}

static const struct gd_cuda_sym gd_cuda_syms[] = {
	GD_SYM(init, "cuInit", NULL, false),
	GD_SYM(driver_get_version, "cuDriverGetVersion", NULL, false),
	GD_SYM(device_get_count, "cuDeviceGetCount", NULL, false),
	GD_SYM(device_get, "cuDeviceGet", NULL, false),
	GD_SYM(device_get_name, "cuDeviceGetName", NULL, false),
	GD_SYM(device_get_uuid, "cuDeviceGetUuid_v2", "cuDeviceGetUuid", false),
	GD_SYM(device_get_pci_bus_id, "cuDeviceGetPCIBusId", NULL, false),
	GD_SYM(device_get_attribute, "cuDeviceGetAttribute", NULL, false),
	GD_SYM(device_total_mem, "cuDeviceTotalMem_v2", NULL, false),
	GD_SYM(primary_ctx_retain, "cuDevicePrimaryCtxRetain", NULL, false),
	GD_SYM(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2",
	       "cuDevicePrimaryCtxRelease", false),
	GD_SYM(ctx_set_current, "cuCtxSetCurrent", NULL, false),
	GD_SYM(mem_alloc, "cuMemAlloc_v2", NULL, false),
	GD_SYM(mem_free, "cuMemFree_v2", NULL, false),
	GD_SYM(memcpy_htod, "cuMemcpyHtoD_v2", NULL, false),
	GD_SYM(memcpy_dtoh, "cuMemcpyDtoH_v2", NULL, false),
	GD_SYM(pointer_set_attribute, "cuPointerSetAttribute", NULL, false),
	GD_SYM(pointer_get_attribute, "cuPointerGetAttribute", NULL, false),
	GD_SYM(get_handle_for_range, "cuMemGetHandleForAddressRange", NULL,
	       true),
	GD_SYM(flush_rdma_writes, "cuFlushGPUDirectRDMAWrites", NULL, true),
	GD_SYM(get_error_name, "cuGetErrorName", NULL, false),
	GD_SYM(get_error_string, "cuGetErrorString", NULL, true),
	GD_SYM(device_can_access_peer, "cuDeviceCanAccessPeer", NULL, true),
	GD_SYM(device_get_p2p_attribute, "cuDeviceGetP2PAttribute", NULL, true),
};

static struct {
	pthread_mutex_t lock;
	void *handle;
	bool ready;   /* resolved and cuInit succeeded */
	int state;    /* gd_cuda_load_state() */
	int init_err; /* -errno of a failed cuInit, kept: never retried */
	int init_rc;  /* its CUresult */
	char init_why[GD_CUDA_WHY_MAX];
	char library[256];
	struct gd_cuda_fns fn;
} gd_cuda = { .lock = PTHREAD_MUTEX_INITIALIZER, .state = -1 };

/* "NAME (N): the driver's text" (the text only where cuGetErrorString is
 * offered and knows the code). */
static void gd_cu_errstr(CUresult rc, char *out, size_t len)
{
	const char *name = NULL, *text = NULL;

	if (!gd_cuda.fn.get_error_name ||
	    gd_cuda.fn.get_error_name(rc, &name) || !name)
		name = "CUDA_ERROR_?";
	if (!gd_cuda.fn.get_error_string ||
	    gd_cuda.fn.get_error_string(rc, &text) || !text)
		text = NULL;
	snprintf(out, len, "%s (%d)%s%s", name, (int)rc, text ? ": " : "",
		 text ? text : "");
}

static int gd_cu_to_errno(CUresult rc)
{
	switch ((int)rc) {
	case CUDA_ERROR_OUT_OF_MEMORY:
		return -ENOMEM;
	case CUDA_ERROR_NO_DEVICE:
	case CUDA_ERROR_INVALID_DEVICE:
		return -ENODEV;
	case CUDA_ERROR_INVALID_VALUE:
		return -EINVAL;
	case CUDA_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

static int gd_cuda_resolve(char *why, size_t why_len)
{
	for (size_t i = 0; i < sizeof(gd_cuda_syms) / sizeof(gd_cuda_syms[0]);
	     i++) {
		const struct gd_cuda_sym *s = &gd_cuda_syms[i];
		void *p = dlsym(gd_cuda.handle, s->name);

		if (!p && s->fallback)
			p = dlsym(gd_cuda.handle, s->fallback);
		if (!p && !s->optional) {
			snprintf(
				why, why_len,
				"CUDA driver not available (%s lacks %s; the driver is older than this program needs)",
				gd_cuda.library, s->name);
			return -ENOENT;
		}
		*(void **)((char *)&gd_cuda.fn + s->offset) = p;
	}
	return 0;
}

static int gd_cuda_open_locked(char *why, size_t why_len)
{
	const char *lib = gd_cuda_library_name();
	int ret;

	snprintf(gd_cuda.library, sizeof(gd_cuda.library), "%s", lib);
	gd_cuda.handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!gd_cuda.handle) {
		snprintf(
			why, why_len,
			"CUDA driver not available (%s); host memory still works; check that the NVIDIA driver is installed (ldconfig -p | grep libcuda) or point GD_CUDA_LIBRARY at libcuda.so.1",
			dlerror());
		return -ENOENT;
	}
	ret = gd_cuda_resolve(why, why_len);
	if (ret) {
		dlclose(gd_cuda.handle);
		gd_cuda.handle = NULL;
		memset(&gd_cuda.fn, 0, sizeof(gd_cuda.fn));
	}
	return ret;
}

/* What a failed cuInit means, by class: the errno it becomes and the next
 * check. Codes by value (cuda.h of any age); the last entry is the rest. */
static const struct gd_cu_init_class {
	int rc;
	int err;
	const char *hint;
} gd_cu_init_classes[] = {
	{ 100, -ENODEV, /* CUDA_ERROR_NO_DEVICE */
	  "no GPU is visible to this process: check nvidia-smi, CUDA_VISIBLE_DEVICES (an empty or unknown value hides every GPU) and the container's access to /dev/nvidia*" },
	{ 802, -EAGAIN, /* CUDA_ERROR_SYSTEM_NOT_READY */
	  "the system is not ready for CUDA, on an NVSwitch (HGX/DGX) node most often because nvidia-fabricmanager is not running: start it at the driver's exact version (systemctl status nvidia-fabricmanager; its version must equal /proc/driver/nvidia/version's), then check nvidia-smi -q | grep -i fabric" },
	{ 803, -ELIBBAD, /* CUDA_ERROR_SYSTEM_DRIVER_MISMATCH */
	  "the user-space driver (libcuda) does not match the loaded NVIDIA kernel module, as after a driver upgrade without a reboot or with a container's own libcuda: compare /proc/driver/nvidia/version with the libcuda.so version (ldconfig -p | grep libcuda), then reboot or reload the nvidia modules" },
	{ 804, -EOPNOTSUPP, /* CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE */
	  "a forward-compatibility libcuda (the cuda-compat package) is loaded on a GPU it does not support (forward compatibility is for data-center GPUs): take the compat directory out of LD_LIBRARY_PATH or use the driver's own libcuda" },
	{ 999, -EIO, /* CUDA_ERROR_UNKNOWN */
	  "the driver failed without naming a reason, often a kernel module that is not loaded or a GPU that fell off the bus: check dmesg for NVRM and Xid messages and nvidia-smi; a reset or reboot may be needed" },
	{ 0, -EIO,
	  "no usable GPU in this process: check nvidia-smi, CUDA_VISIBLE_DEVICES and the container's access to /dev/nvidia*" },
};

static const struct gd_cu_init_class *gd_cu_init_class(CUresult rc)
{
	size_t i = 0,
	       n = sizeof(gd_cu_init_classes) / sizeof(gd_cu_init_classes[0]);

	while (i < n - 1 && gd_cu_init_classes[i].rc != (int)rc)
		i++;
	return &gd_cu_init_classes[i];
}

/* cuInit is called once per process. The real driver keeps a failed
 * cuInit's error for the life of the process (a retry returns it again
 * without looking for GPUs), so a retry would only hide that the first
 * failure decides; the first message is returned instead. */
static int gd_cuda_init_locked(char *why, size_t why_len)
{
	const struct gd_cu_init_class *cls;
	char cu[GD_CU_ERR_MAX];
	CUresult rc;

	if (gd_cuda.init_err) {
		snprintf(why, why_len, "%s", gd_cuda.init_why);
		return gd_cuda.init_err;
	}
	rc = gd_cuda.fn.init(0);
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	cls = gd_cu_init_class(rc);
	snprintf(
		gd_cuda.init_why, sizeof(gd_cuda.init_why),
		"CUDA driver %s loaded but cuInit failed: %s; %s (the driver keeps this failure until the process exits)",
		gd_cuda.library, cu, cls->hint);
	gd_cuda.init_err = cls->err;
	gd_cuda.init_rc = (int)rc;
	snprintf(why, why_len, "%s", gd_cuda.init_why);
	return gd_cuda.init_err;
}

int gd_cuda_try_load(char *why, size_t why_len)
{
	int ret = 0;

	pthread_mutex_lock(&gd_cuda.lock);
	if (gd_cuda.ready)
		goto out_unlock;
	if (!gd_cuda.handle) {
		ret = gd_cuda_open_locked(why, why_len);
		if (ret) {
			gd_cuda.state = 0;
			goto out_unlock;
		}
	}
	ret = gd_cuda_init_locked(why, why_len);
	gd_cuda.state = ret ? 1 : 2;
	gd_cuda.ready = !ret;
out_unlock:
	pthread_mutex_unlock(&gd_cuda.lock);
	return ret;
}

const char *gd_cuda_library_name(void)
{
	const char *lib = getenv("GD_CUDA_LIBRARY");

	return lib && *lib ? lib : GD_CUDA_DEFAULT_LIBRARY;
}

bool gd_cuda_library_present(void)
{
	bool present;
	void *h;

	pthread_mutex_lock(&gd_cuda.lock);
	present = gd_cuda.handle != NULL;
	pthread_mutex_unlock(&gd_cuda.lock);
	if (present)
		return true;
	h = dlopen(gd_cuda_library_name(), RTLD_LAZY | RTLD_LOCAL);
	if (h)
		dlclose(h);
	return h != NULL;
}

int gd_cuda_load_state(void)
{
	return gd_cuda.state;
}

int gd_cuda_init_result(void)
{
	return gd_cuda.init_rc;
}

const char *gd_cuda_ordering_name(int writes_ordering)
{
	switch (writes_ordering) {
	case GD_CU_WRITES_ORDERING_NONE:
		return "none";
	case GD_CU_WRITES_ORDERING_OWNER:
		return "owner";
	case GD_CU_WRITES_ORDERING_ALL_DEVICES:
		return "all_devices";
	default:
		return "unknown";
	}
}

int gd_cuda_load(void)
{
	char why[GD_CUDA_WHY_MAX];
	int ret = gd_cuda_try_load(why, sizeof(why));

	if (ret)
		return gd_err(ret, "%s", why);
	return 0;
}

void gd_cuda_unload(void)
{
	pthread_mutex_lock(&gd_cuda.lock);
	if (gd_cuda.handle)
		dlclose(gd_cuda.handle);
	gd_cuda.handle = NULL;
	gd_cuda.ready = false;
	gd_cuda.state = -1;
	gd_cuda.init_err = 0;
	gd_cuda.init_rc = 0;
	gd_cuda.init_why[0] = '\0';
	memset(&gd_cuda.fn, 0, sizeof(gd_cuda.fn));
	pthread_mutex_unlock(&gd_cuda.lock);
}

int gd_cuda_device_count(int *count)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_load();

	if (ret)
		return ret;
	rc = gd_cuda.fn.device_get_count(count);
	if (rc) {
		gd_cu_errstr(rc, cu, sizeof(cu));
		return gd_err(
			gd_cu_to_errno(rc),
			"cuDeviceGetCount failed: %s; check nvidia-smi and CUDA_VISIBLE_DEVICES",
			cu);
	}
	return 0;
}

static int gd_cuda_get_device(int index, CUdevice *dev)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int count, ret = gd_cuda_device_count(&count);

	if (ret)
		return ret;
	if (index < 0 || index >= count)
		return gd_err(
			-ENODEV,
			"GPU %d not present: this process sees %d GPU(s); check CUDA_VISIBLE_DEVICES and nvidia-smi",
			index, count);
	rc = gd_cuda.fn.device_get(dev, index);
	if (rc) {
		gd_cu_errstr(rc, cu, sizeof(cu));
		return gd_err(gd_cu_to_errno(rc), "cuDeviceGet(%d) failed: %s",
			      index, cu);
	}
	return 0;
}

/* One P2P attribute of the ordered pair, -1 when the driver has none. */
static int gd_cuda_p2p_attr(int attr, CUdevice a, CUdevice b)
{
	int v = -1;

	if (!gd_cuda.fn.device_get_p2p_attribute ||
	    gd_cuda.fn.device_get_p2p_attribute(&v, attr, a, b))
		return -1;
	return v;
}

int gd_cuda_peer_access(int from, int to, struct gd_gpu_p2p *out)
{
	CUdevice a, b;
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret, can = 0;

	memset(out, 0xff, sizeof(*out)); /* every field -1: unknown */
	ret = gd_cuda_get_device(from, &a);
	if (!ret)
		ret = gd_cuda_get_device(to, &b);
	if (ret)
		return ret;
	if (!gd_cuda.fn.device_can_access_peer)
		return gd_err(
			-ENOSYS,
			"this CUDA driver has no cuDeviceCanAccessPeer; peer access between GPUs %d and %d is unknown",
			from, to);
	rc = gd_cuda.fn.device_can_access_peer(&can, a, b);
	if (rc) {
		gd_cu_errstr(rc, cu, sizeof(cu));
		return gd_err(gd_cu_to_errno(rc),
			      "cuDeviceCanAccessPeer(%d, %d) failed: %s", from,
			      to, cu);
	}
	out->can_access_peer = can != 0;
	out->access_supported =
		gd_cuda_p2p_attr(GD_CU_P2P_ACCESS_SUPPORTED, a, b);
	out->native_atomic =
		gd_cuda_p2p_attr(GD_CU_P2P_NATIVE_ATOMIC_SUPPORTED, a, b);
	out->cuda_array_access =
		gd_cuda_p2p_attr(GD_CU_P2P_CUDA_ARRAY_ACCESS_SUPPORTED, a, b);
	out->performance_rank =
		gd_cuda_p2p_attr(GD_CU_P2P_PERFORMANCE_RANK, a, b);
	return 0;
}

/* Lower-case, four-digit-domain form ("0000:17:00.0") whatever width the
 * driver used for the domain. */
static bool gd_normalise_bdf(const char *in, char *out, size_t len)
{
	unsigned int dom, bus, dev, fn;
	char tail;

	if (sscanf(in, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4) {
		snprintf(out, len, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
		return true;
	}
	if (sscanf(in, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3) {
		snprintf(out, len, "0000:%02x:%02x.%x", bus, dev, fn);
		return true;
	}
	return false;
}

static int gd_cuda_attr(CUdevice dev, int attr)
{
	int v = -1;

	if (gd_cuda.fn.device_get_attribute(&v, (CUdevice_attribute)attr, dev))
		return -1;
	return v;
}

static void gd_format_uuid(const CUuuid *u, char *out, size_t len)
{
	const unsigned char *b = (const unsigned char *)u->bytes;

	snprintf(
		out, len,
		"GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		b[10], b[11], b[12], b[13], b[14], b[15]);
}

int gd_cuda_gpu_info(int index, struct gd_gpu_info *info)
{
	char bus[64] = "";
	CUuuid uuid;
	CUdevice dev;
	size_t total = 0;
	int ret = gd_cuda_get_device(index, &dev);

	memset(info, 0, sizeof(*info));
	info->index = index;
	if (ret)
		return ret;
	if (gd_cuda.fn.device_get_name(info->name, (int)sizeof(info->name),
				       dev))
		snprintf(info->name, sizeof(info->name), "unknown");
	if (!gd_cuda.fn.device_get_uuid(&uuid, dev))
		gd_format_uuid(&uuid, info->uuid, sizeof(info->uuid));
	if (gd_cuda.fn.device_get_pci_bus_id(bus, (int)sizeof(bus), dev) ||
	    !gd_normalise_bdf(bus, info->pci_bus_id, sizeof(info->pci_bus_id)))
		snprintf(info->pci_bus_id, sizeof(info->pci_bus_id), "unknown");
	if (gd_cuda.fn.driver_get_version(&info->driver_version))
		info->driver_version = -1;
	info->compute_major =
		gd_cuda_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	info->compute_minor =
		gd_cuda_attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	info->dmabuf_supported =
		gd_cuda_attr(dev, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED);
	info->gdr_supported = gd_cuda_attr(
		dev, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
	info->writes_ordering =
		gd_cuda_attr(dev, GD_CU_ATTR_GDR_WRITES_ORDERING);
	info->flush_options =
		gd_cuda_attr(dev, GD_CU_ATTR_GDR_FLUSH_WRITES_OPTIONS);
	info->host_native_atomic =
		gd_cuda_attr(dev, GD_CU_ATTR_HOST_NATIVE_ATOMIC);
	info->compute_mode = gd_cuda_attr(dev, GD_CU_ATTR_COMPUTE_MODE);
	if (!gd_cuda.fn.device_total_mem(&total, dev))
		info->total_mem_bytes = total;
	return 0;
}

int gd_cuda_find(const char *index_or_bdf, int *index)
{
	struct gd_gpu_info info;
	char want[32], seen[256] = "";
	size_t used = 0;
	char *end;
	long v;
	int count, ret;

	errno = 0;
	v = strtol(index_or_bdf, &end, 10);
	if (*index_or_bdf && !*end && !errno && v >= 0 && v <= 1023) {
		struct gd_gpu_info probe;

		ret = gd_cuda_gpu_info((int)v, &probe);
		if (!ret)
			*index = (int)v;
		return ret;
	}
	if (!gd_normalise_bdf(index_or_bdf, want, sizeof(want)))
		return gd_err(
			-EINVAL,
			"'%s' is neither a GPU index nor a PCI bus id (0000:17:00.0)",
			index_or_bdf);
	ret = gd_cuda_device_count(&count);
	if (ret)
		return ret;
	for (int i = 0; i < count; i++) {
		ret = gd_cuda_gpu_info(i, &info);
		if (ret)
			return ret;
		if (!strcmp(info.pci_bus_id, want)) {
			*index = i;
			return 0;
		}
		if (used < sizeof(seen))
			used += (size_t)snprintf(seen + used,
						 sizeof(seen) - used,
						 "%s%s (GPU %d)", i ? ", " : "",
						 info.pci_bus_id, i);
	}
	return gd_err(
		-ENODEV,
		"no GPU at PCI bus id %s; this process sees %d GPU(s)%s%s; check CUDA_VISIBLE_DEVICES",
		want, count, count ? ": " : "", seen);
}

int gd_cuda_ctx_retain(int index, struct gd_cuda_ctx *ctx)
{
	struct gd_gpu_info info;
	CUcontext cu_ctx = NULL;
	CUdevice dev;
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_gpu_info(index, &info);

	memset(ctx, 0, sizeof(*ctx));
	if (ret)
		return ret;
	ret = gd_cuda_get_device(index, &dev);
	if (ret)
		return ret;
	rc = gd_cuda.fn.primary_ctx_retain(&cu_ctx, dev);
	if (rc) {
		gd_cu_errstr(rc, cu, sizeof(cu));
		return gd_err(
			gd_cu_to_errno(rc),
			"cannot retain the primary context of GPU %d (%s): %s; check the GPU's compute mode (nvidia-smi -q) and other processes using it",
			index, info.pci_bus_id, cu);
	}
	ctx->index = index;
	ctx->device = dev;
	ctx->context = cu_ctx;
	ctx->writes_ordering = info.writes_ordering;
	ctx->flush_options = info.flush_options;
	snprintf(ctx->pci_bus_id, sizeof(ctx->pci_bus_id), "%s",
		 info.pci_bus_id);
	return 0;
}

int gd_cuda_ctx_release(struct gd_cuda_ctx *ctx)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;

	if (!ctx->context || !gd_cuda.fn.primary_ctx_release) {
		ctx->context = NULL;
		return 0;
	}
	rc = gd_cuda.fn.primary_ctx_release(ctx->device);
	ctx->context = NULL;
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(
		gd_cu_to_errno(rc),
		"releasing the primary context of GPU %d (%s) failed: %s; its memory stays allocated until the process exits; a sticky CUDA error means the GPU needs attention (dmesg: Xid)",
		ctx->index, ctx->pci_bus_id, cu);
}

static int gd_cuda_make_current(const struct gd_cuda_ctx *ctx)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc = gd_cuda.fn.ctx_set_current((CUcontext)ctx->context);

	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(gd_cu_to_errno(rc),
		      "cuCtxSetCurrent on GPU %d (%s) failed: %s", ctx->index,
		      ctx->pci_bus_id, cu);
}

int gd_cuda_mem_alloc(const struct gd_cuda_ctx *ctx, size_t len_bytes,
		      uint64_t *dptr)
{
	CUdeviceptr p = 0;
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_make_current(ctx);

	if (ret)
		return ret;
	rc = gd_cuda.fn.mem_alloc(&p, len_bytes);
	if (rc) {
		gd_cu_errstr(rc, cu, sizeof(cu));
		return gd_err(
			gd_cu_to_errno(rc),
			"cuMemAlloc of %zu bytes on GPU %d (%s) failed: %s; check free GPU memory and other processes on this GPU (nvidia-smi)",
			len_bytes, ctx->index, ctx->pci_bus_id, cu);
	}
	*dptr = (uint64_t)p;
	return 0;
}

int gd_cuda_mem_free(const struct gd_cuda_ctx *ctx, uint64_t dptr)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_make_current(ctx);

	if (ret)
		return ret;
	rc = gd_cuda.fn.mem_free((CUdeviceptr)dptr);
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(
		gd_cu_to_errno(rc),
		"cuMemFree of GPU %d (%s) memory at 0x%llx failed: %s; the memory stays allocated until the context goes; a sticky CUDA error means the GPU needs attention (dmesg: Xid)",
		ctx->index, ctx->pci_bus_id, (unsigned long long)dptr, cu);
}

int gd_cuda_copy_htod(const struct gd_cuda_ctx *ctx, uint64_t dst,
		      const void *src, size_t len_bytes)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_make_current(ctx);

	if (ret)
		return ret;
	rc = gd_cuda.fn.memcpy_htod((CUdeviceptr)dst, src, len_bytes);
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(
		gd_cu_to_errno(rc),
		"cuMemcpyHtoD of %zu bytes to GPU %d (%s) failed: %s; a sticky CUDA error means the GPU needs attention (dmesg: Xid)",
		len_bytes, ctx->index, ctx->pci_bus_id, cu);
}

int gd_cuda_copy_dtoh(const struct gd_cuda_ctx *ctx, void *dst, uint64_t src,
		      size_t len_bytes)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_make_current(ctx);

	if (ret)
		return ret;
	rc = gd_cuda.fn.memcpy_dtoh(dst, (CUdeviceptr)src, len_bytes);
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(
		gd_cu_to_errno(rc),
		"cuMemcpyDtoH of %zu bytes from GPU %d (%s) failed: %s; a sticky CUDA error means the GPU needs attention (dmesg: Xid)",
		len_bytes, ctx->index, ctx->pci_bus_id, cu);
}

int gd_cuda_prepare_rdma(const struct gd_cuda_ctx *ctx, uint64_t dptr)
{
	unsigned int managed = 0, sync = 1;
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret = gd_cuda_make_current(ctx);

	if (ret)
		return ret;
	rc = gd_cuda.fn.pointer_get_attribute(
		&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)dptr);
	if (!rc && managed)
		return gd_err(
			-EINVAL,
			"GPU %d (%s): buffer is managed (unified) memory; RDMA on it measures a CPU path, not GPUDirect, so it is refused",
			ctx->index, ctx->pci_bus_id);
	rc = gd_cuda.fn.pointer_set_attribute(
		&sync, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)dptr);
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(
		gd_cu_to_errno(rc),
		"cuPointerSetAttribute(SYNC_MEMOPS) on GPU %d (%s) failed: %s; without it a copy may still be in flight when RDMA reads the buffer",
		ctx->index, ctx->pci_bus_id, cu);
}

/* One cuMemGetHandleForAddressRange call; the CUDA error text in @cu. */
static CUresult gd_cuda_export_once(uint64_t dptr, size_t len_bytes,
				    unsigned long long flags, int *fd, char *cu,
				    size_t cu_len)
{
	CUresult rc = gd_cuda.fn.get_handle_for_range(
		fd, (CUdeviceptr)dptr, len_bytes,
		CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, flags);

	if (rc) {
		*fd = -1;
		gd_cu_errstr(rc, cu, cu_len);
	}
	return rc;
}

/* The PCIe (BAR1) mapping flag, only when asked: on platforms with two
 * paths (Grace/C2C) it picks the non-default one. 0 when it worked. */
static int gd_cuda_export_pcie(const struct gd_cuda_ctx *ctx, uint64_t dptr,
			       size_t len_bytes, struct gd_cuda_export *out)
{
	int version = -1;
	char cu[GD_CU_ERR_MAX];

	if (gd_cuda.fn.driver_get_version(&version) ||
	    version < GD_CU_DMABUF_PCIE_MIN_DRIVER) {
		snprintf(
			out->pcie_note, sizeof(out->pcie_note),
			"PCIe mapping flag not tried: CUDA driver %d is older than %d, which introduced it; exported with flags 0",
			version, GD_CU_DMABUF_PCIE_MIN_DRIVER);
		return -EOPNOTSUPP;
	}
	if (!gd_cuda_export_once(dptr, len_bytes, GD_CU_DMABUF_FLAG_PCIE,
				 &out->fd, cu, sizeof(cu))) {
		out->flags = GD_CU_DMABUF_FLAG_PCIE;
		return 0;
	}
	snprintf(
		out->pcie_note, sizeof(out->pcie_note),
		"GPU %d (%s) refused the PCIe mapping flag: %s; exported with flags 0 (the driver's default path)",
		ctx->index, ctx->pci_bus_id, cu);
	return -EOPNOTSUPP;
}

int gd_cuda_export_dmabuf(const struct gd_cuda_ctx *ctx, uint64_t dptr,
			  size_t len_bytes, bool want_pcie,
			  struct gd_cuda_export *out, char *why, size_t why_len)
{
	char cu[GD_CU_ERR_MAX];
	int ret = gd_cuda_make_current(ctx);

	out->fd = -1;
	out->flags = 0;
	out->pcie_note[0] = '\0';
	if (ret) {
		snprintf(why, why_len, "%s", gd_err_msg());
		return ret;
	}
	if (!gd_cuda.fn.get_handle_for_range) {
		snprintf(
			why, why_len,
			"CUDA driver %s lacks cuMemGetHandleForAddressRange (DMA-BUF export needs CUDA >= 11.7)",
			gd_cuda.library);
		return -EOPNOTSUPP;
	}
	if (want_pcie && !gd_cuda_export_pcie(ctx, dptr, len_bytes, out))
		return 0;
	ret = (int)gd_cuda_export_once(dptr, len_bytes, 0, &out->fd, cu,
				       sizeof(cu));
	if (!ret)
		return 0;
	snprintf(
		why, why_len,
		"cuMemGetHandleForAddressRange(DMA_BUF_FD) on GPU %d (%s) failed: %s with flags 0%s%s",
		ctx->index, ctx->pci_bus_id, cu, out->pcie_note[0] ? "; " : "",
		out->pcie_note);
	return gd_cu_to_errno((CUresult)ret);
}

const char *gd_cuda_flush_plan(const struct gd_cuda_ctx *ctx)
{
	/* The read-back is a consumer in the owner's scope. */
	if (ctx->writes_ordering >= GD_CU_WRITES_ORDERING_OWNER)
		return "native ordering";
	if (!gd_cuda.fn.flush_rdma_writes || ctx->flush_options < 0 ||
	    !(ctx->flush_options & GD_CU_FLUSH_OPTION_HOST))
		return "no flush available";
	return "cuFlushGPUDirectRDMAWrites";
}

int gd_cuda_flush_rdma_writes(const struct gd_cuda_ctx *ctx)
{
	char cu[GD_CU_ERR_MAX];
	CUresult rc;
	int ret;

	if (strcmp(gd_cuda_flush_plan(ctx), "cuFlushGPUDirectRDMAWrites"))
		return 0;
	ret = gd_cuda_make_current(ctx);
	if (ret)
		return ret;
	rc = gd_cuda.fn.flush_rdma_writes(GD_CU_FLUSH_TARGET_CURRENT_CTX,
					  GD_CU_FLUSH_TO_OWNER);
	if (!rc)
		return 0;
	gd_cu_errstr(rc, cu, sizeof(cu));
	return gd_err(
		gd_cu_to_errno(rc),
		"cuFlushGPUDirectRDMAWrites on GPU %d (%s) failed: %s; RDMA writes may not be visible to the verification read-back (check dmesg for Xid errors)",
		ctx->index, ctx->pci_bus_id, cu);
}
