// The CUDA driver API (libcuda / nvcuda.dll) as gpudoctor uses it: our own minimal mirror of the types,
// one table of function pointers, and the loader that fills it at run time. No CUDA header is included.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

// ---- Types mirrored from the CUDA driver ABI (cuda.h). ----
using CUresult = int;  // 0 = CUDA_SUCCESS
using CUdevice = int;
using CUdevice_attribute = int;
using CUdeviceptr = unsigned long long;  // CUdeviceptr_v2: 64-bit on every supported platform
struct CUctx_st;
using CUcontext = CUctx_st*;
struct CUmod_st;
using CUmodule = CUmod_st*;
struct CUfunc_st;
using CUfunction = CUfunc_st*;
struct CUstream_st;
using CUstream = CUstream_st*;  // nullptr = the legacy default stream
struct CUevent_st;
using CUevent = CUevent_st*;
inline constexpr CUresult kCudaSuccess = 0;
inline constexpr CUresult kCudaErrorOutOfMemory = 2;
inline constexpr CUresult kCudaErrorNoDevice = 100;
inline constexpr CUresult kCudaErrorPeerAccessAlreadyEnabled = 704;
static_assert(sizeof(CUdeviceptr) == 8, "CUdeviceptr is 64-bit");

struct CUuuid {
  char bytes[16];
};
static_assert(sizeof(CUuuid) == 16 && offsetof(CUuuid, bytes) == 0, "CUuuid is 16 raw bytes");

// Attribute numbers of CUdevice_attribute (cuda.h).
inline constexpr CUdevice_attribute kCuAttrPciBusId = 33;
inline constexpr CUdevice_attribute kCuAttrPciDeviceId = 34;
inline constexpr CUdevice_attribute kCuAttrPciDomainId = 50;
inline constexpr CUdevice_attribute kCuAttrComputeCapabilityMajor = 75;
inline constexpr CUdevice_attribute kCuAttrComputeCapabilityMinor = 76;
inline constexpr CUdevice_attribute kCuAttrMultiprocessorCount = 16;

// ---- The table. ----
struct CudaDriverApi {
  // Required.
  CUresult (*Init)(unsigned int) = nullptr;                                      // cuInit
  CUresult (*DriverGetVersion)(int*) = nullptr;                                  // cuDriverGetVersion
  CUresult (*DeviceGetCount)(int*) = nullptr;                                    // cuDeviceGetCount
  CUresult (*DeviceGet)(CUdevice*, int) = nullptr;                               // cuDeviceGet
  CUresult (*DeviceGetName)(char*, int, CUdevice) = nullptr;                     // cuDeviceGetName
  CUresult (*DeviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;  // cuDeviceGetAttribute
  CUresult (*DeviceTotalMem)(size_t*, CUdevice) = nullptr;                       // cuDeviceTotalMem_v2
  CUresult (*GetErrorName)(CUresult, const char**) = nullptr;                    // cuGetErrorName
  // Optional: the probe needs only the functions above; the GPU backend (gpu/cuda/) checks these itself
  // and names the missing ones (CudaBackendSymbolsMissing).
  CUresult (*DeviceGetUuid)(CUuuid*, CUdevice) = nullptr;              // cuDeviceGetUuid_v2 | cuDeviceGetUuid
  CUresult (*GetErrorString)(CUresult, const char**) = nullptr;        // cuGetErrorString
  CUresult (*DeviceGetPCIBusId)(char*, int, CUdevice) = nullptr;       // cuDeviceGetPCIBusId
  CUresult (*DevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;  // cuDevicePrimaryCtxRetain
  CUresult (*DevicePrimaryCtxRelease)(CUdevice) = nullptr;             // cuDevicePrimaryCtxRelease_v2
  CUresult (*CtxSetCurrent)(CUcontext) = nullptr;                      // cuCtxSetCurrent
  CUresult (*CtxSynchronize)() = nullptr;                              // cuCtxSynchronize
  CUresult (*MemGetInfo)(size_t*, size_t*) = nullptr;                  // cuMemGetInfo_v2
  CUresult (*MemAlloc)(CUdeviceptr*, size_t) = nullptr;                // cuMemAlloc_v2
  CUresult (*MemFree)(CUdeviceptr) = nullptr;                          // cuMemFree_v2
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;  // cuMemcpyHtoD_v2
  CUresult (*MemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;        // cuMemcpyDtoH_v2
  CUresult (*MemsetD32)(CUdeviceptr, unsigned int, size_t) = nullptr;  // cuMemsetD32_v2
  CUresult (*ModuleLoadData)(CUmodule*, const void*) = nullptr;        // cuModuleLoadData
  CUresult (*ModuleUnload)(CUmodule) = nullptr;                        // cuModuleUnload
  CUresult (*ModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;  // cuModuleGetFunction
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void**, void**) = nullptr;      // cuLaunchKernel
  CUresult (*EventCreate)(CUevent*, unsigned int) = nullptr;         // cuEventCreate
  CUresult (*EventRecord)(CUevent, CUstream) = nullptr;              // cuEventRecord
  CUresult (*EventSynchronize)(CUevent) = nullptr;                   // cuEventSynchronize
  CUresult (*EventElapsedTime)(float*, CUevent, CUevent) = nullptr;  // cuEventElapsedTime_v2 | plain
  CUresult (*EventDestroy)(CUevent) = nullptr;                       // cuEventDestroy_v2
  // Optional, for the benchmarks (gpu/cuda/cuda_transfers.cpp); a call that needs a missing one says so.
  CUresult (*MemAllocHost)(void**, size_t) = nullptr;                                 // cuMemAllocHost_v2
  CUresult (*MemFreeHost)(void*) = nullptr;                                           // cuMemFreeHost
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream) = nullptr;  // cuMemcpyHtoDAsync_v2
  CUresult (*MemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream) = nullptr;        // cuMemcpyDtoHAsync_v2
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream) = nullptr;  // cuMemcpyDtoDAsync_v2
  // Optional, for the peer-to-peer matrix (collectives/p2p_matrix.cpp).
  CUresult (*DeviceCanAccessPeer)(int*, CUdevice, CUdevice) = nullptr;  // cuDeviceCanAccessPeer
  CUresult (*CtxEnablePeerAccess)(CUcontext, unsigned int) = nullptr;   // cuCtxEnablePeerAccess
  CUresult (*MemcpyPeer)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t) = nullptr;  // cuMemcpyPeer
};

// The optional functions the GPU backend cannot work without, by export name, when unbound.
std::vector<std::string> CudaBackendSymbolsMissing(const CudaDriverApi& api);

// The names tried, versioned first: libcuda.so.1 then libcuda.so (nvcuda.dll on Windows).
std::vector<std::string> CudaDriverLibraryCandidates();

// Loads the driver API and binds the table once; cuInit is the caller's first call.
LoadedTable<CudaDriverApi> LoadCudaDriver();
// The same from an explicit candidate list (gpu/api/library_search.h puts the framework's copies first).
LoadedTable<CudaDriverApi> LoadCudaDriver(const std::vector<std::string>& candidates);

// "CUDA_ERROR_NO_DEVICE (100)": the driver's own name for a code when cuGetErrorName is bound,
// followed by its description when cuGetErrorString is.
std::string CudaErrorText(const CudaDriverApi& api, CUresult rc);

// "GPU-8f2a3b4c-..." the way nvidia-smi writes a UUID.
std::string FormatCudaUuid(const CUuuid& uuid);

}  // namespace gpudoctor
