/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The slice of the CUDA driver API that gdperf uses: <cuda.h> when configure
 * found it, otherwise minimal declarations of the same ABI so the project
 * builds without the CUDA toolkit. Function names are the versioned symbols
 * libcuda.so.1 exports (cuMemAlloc_v2...), which is what dlsym needs.
 */
#ifndef GD_CUDA_COMPAT_H
#define GD_CUDA_COMPAT_H

#include <stddef.h>

/* CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE: map the dma-buf through BAR1.
 * Known to drivers from 12.8 (perftest's --use_cuda_pcie_mapping check). */
#define GD_CU_DMABUF_FLAG_PCIE 0x1ULL
#define GD_CU_DMABUF_PCIE_MIN_DRIVER 12080

/* Device attributes and enums of cuFlushGPUDirectRDMAWrites (CUDA 11.3),
 * by value so that headers of any age give the same numbers. */
#define GD_CU_ATTR_GDR_FLUSH_WRITES_OPTIONS 117
#define GD_CU_ATTR_GDR_WRITES_ORDERING 118
/* CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED (CUDA 11.x): the link to
 * the host is coherent (NVLink-C2C on Grace), where the PCIe mapping type
 * of a DMA-BUF export can be imported. */
#define GD_CU_ATTR_HOST_NATIVE_ATOMIC 86
/* CU_DEVICE_ATTRIBUTE_COMPUTE_MODE and its EXCLUSIVE_PROCESS value: one
 * process at a time may hold a context on the GPU. */
#define GD_CU_ATTR_COMPUTE_MODE 20
#define GD_CU_COMPUTE_MODE_EXCLUSIVE_PROCESS 3
#define GD_CU_FLUSH_OPTION_HOST 0x1
#define GD_CU_WRITES_ORDERING_NONE 0
#define GD_CU_WRITES_ORDERING_OWNER 100
#define GD_CU_WRITES_ORDERING_ALL_DEVICES 200
#define GD_CU_FLUSH_TARGET_CURRENT_CTX 0
#define GD_CU_FLUSH_TO_OWNER 100
/* CUdevice_P2PAttribute values (stable since CUDA 8). */
#define GD_CU_P2P_PERFORMANCE_RANK 1
#define GD_CU_P2P_ACCESS_SUPPORTED 2
#define GD_CU_P2P_NATIVE_ATOMIC_SUPPORTED 3
#define GD_CU_P2P_CUDA_ARRAY_ACCESS_SUPPORTED 4

#ifdef HAVE_CUDA_H
#include <cuda.h>
#if CUDA_VERSION < 11030
/* Older headers: cuFlushGPUDirectRDMAWrites appeared with CUDA 11.3. */
typedef int CUflushGPUDirectRDMAWritesTarget;
typedef int CUflushGPUDirectRDMAWritesScope;
CUresult cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
				    CUflushGPUDirectRDMAWritesScope scope);
#endif
#if CUDA_VERSION < 11070
/* Older headers: these appeared with CUDA 11.7. */
#define CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED 124
typedef int CUmemRangeHandleType;
#define CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 1
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr,
				       size_t size, CUmemRangeHandleType type,
				       unsigned long long flags);
#endif
#else /* !HAVE_CUDA_H */

/* Enumerations are passed as int in the driver ABI. */
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUpointer_attribute;
typedef int CUmemRangeHandleType;
typedef int CUflushGPUDirectRDMAWritesTarget;
typedef int CUflushGPUDirectRDMAWritesScope;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUuuid_st {
	char bytes[16];
} CUuuid;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_NOT_FOUND 500
#define CUDA_ERROR_NOT_SUPPORTED 801
#define CUDA_ERROR_UNKNOWN 999

#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED 116
#define CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED 124

#define CU_POINTER_ATTRIBUTE_SYNC_MEMOPS 6
#define CU_POINTER_ATTRIBUTE_IS_MANAGED 8

#define CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 1

CUresult cuInit(unsigned int flags);
CUresult cuDriverGetVersion(int *version);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGet(CUdevice *dev, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev);
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr,
			      CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes);
CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes);
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes);
CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attr,
			       CUdeviceptr ptr);
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attr,
			       CUdeviceptr ptr);
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr,
				       size_t size, CUmemRangeHandleType type,
				       unsigned long long flags);
CUresult cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
				    CUflushGPUDirectRDMAWritesScope scope);
CUresult cuGetErrorName(CUresult error, const char **name);
CUresult cuGetErrorString(CUresult error, const char **str);
typedef int CUdevice_P2PAttribute;
CUresult cuDeviceCanAccessPeer(int *can_access, CUdevice dev, CUdevice peer);
CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attr,
				 CUdevice src, CUdevice dst);

#endif /* HAVE_CUDA_H */
#endif
