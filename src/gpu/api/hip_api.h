// The HIP runtime (libamdhip64 / amdhip64_N.dll) as gpudoctor uses it: our own minimal typedefs, one table of
// function pointers, and the loader that fills it at run time. No HIP header is included; values were read
// from Debian's HIP 5.2 headers (hip_runtime_api.h) and checked against ROCm 6's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using hipError_t = int;  // 0 = hipSuccess
inline constexpr hipError_t kHipSuccess = 0;
inline constexpr hipError_t kHipErrorOutOfMemory = 2;      // hipErrorOutOfMemory
inline constexpr hipError_t kHipErrorNoDevice = 100;       // hipErrorNoDevice
inline constexpr hipError_t kHipErrorInvalidDevice = 101;  // hipErrorInvalidDevice
// hipDeviceEnablePeerAccess on a pair already enabled (hipErrorPeerAccessAlreadyEnabled).
inline constexpr hipError_t kHipErrorPeerAccessAlreadyEnabled = 704;
using hipDevice_t = int;
struct ihipModule_t;
using hipModule_t = ihipModule_t*;
struct ihipModuleSymbol_t;
using hipFunction_t = ihipModuleSymbol_t*;
struct ihipStream_t;
using hipStream_t = ihipStream_t*;  // nullptr = the null stream
struct ihipEvent_t;
using hipEvent_t = ihipEvent_t*;

// hipMemcpyKind
inline constexpr int kHipMemcpyHostToDevice = 1;
inline constexpr int kHipMemcpyDeviceToHost = 2;
inline constexpr int kHipMemcpyDeviceToDevice = 3;
// hipHostMalloc flags: hipHostMallocDefault.
inline constexpr unsigned kHipHostMallocDefault = 0;
// hipDeviceAttribute_t (HIP 5.0 and later number them the same way).
inline constexpr int kHipAttrMultiprocessorCount = 63;

// hipDeviceProp_t of HIP 5.x (the layout hipGetDeviceProperties fills where hipGetDevicePropertiesR0600 does
// not exist): gcnArchName ("gfx1100:sramecc-:xnack-") sits at byte 396 of 792 (offsetof, Debian HIP 5.2).
inline constexpr size_t kHip5DevicePropSize = 792;
inline constexpr size_t kHip5GcnArchNameOffset = 396;
inline constexpr size_t kHipGcnArchNameSize = 256;
static_assert(kHip5GcnArchNameOffset + kHipGcnArchNameSize <= kHip5DevicePropSize,
              "gcnArchName in the struct");

struct HipApi {
  // Required.
  hipError_t (*Init)(unsigned int) = nullptr;                         // hipInit
  hipError_t (*DriverGetVersion)(int*) = nullptr;                     // hipDriverGetVersion
  hipError_t (*RuntimeGetVersion)(int*) = nullptr;                    // hipRuntimeGetVersion
  hipError_t (*GetDeviceCount)(int*) = nullptr;                       // hipGetDeviceCount
  hipError_t (*DeviceGetName)(char*, int, hipDevice_t) = nullptr;     // hipDeviceGetName
  hipError_t (*DeviceGetPCIBusId)(char*, int, int) = nullptr;         // hipDeviceGetPCIBusId
  hipError_t (*DeviceTotalMem)(size_t*, hipDevice_t) = nullptr;       // hipDeviceTotalMem
  hipError_t (*DeviceGetAttribute)(int*, int, int) = nullptr;         // hipDeviceGetAttribute
  const char* (*GetErrorName)(hipError_t) = nullptr;                  // hipGetErrorName
  const char* (*GetErrorString)(hipError_t) = nullptr;                // hipGetErrorString
  hipError_t (*SetDevice)(int) = nullptr;                             // hipSetDevice
  hipError_t (*DeviceSynchronize)() = nullptr;                        // hipDeviceSynchronize
  hipError_t (*MemGetInfo)(size_t*, size_t*) = nullptr;               // hipMemGetInfo
  hipError_t (*Malloc)(void**, size_t) = nullptr;                     // hipMalloc
  hipError_t (*Free)(void*) = nullptr;                                // hipFree
  hipError_t (*Memcpy)(void*, const void*, size_t, int) = nullptr;    // hipMemcpy
  hipError_t (*MemsetD32)(void*, int, size_t) = nullptr;              // hipMemsetD32
  hipError_t (*ModuleLoadData)(hipModule_t*, const void*) = nullptr;  // hipModuleLoadData
  hipError_t (*ModuleUnload)(hipModule_t) = nullptr;                  // hipModuleUnload
  hipError_t (*ModuleGetFunction)(hipFunction_t*, hipModule_t, const char*) = nullptr;
  hipError_t (*ModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, hipStream_t, void**, void**) = nullptr;  // hipModuleLaunchKernel
  hipError_t (*EventCreate)(hipEvent_t*) = nullptr;                                   // hipEventCreate
  hipError_t (*EventRecord)(hipEvent_t, hipStream_t) = nullptr;                       // hipEventRecord
  hipError_t (*EventSynchronize)(hipEvent_t) = nullptr;                               // hipEventSynchronize
  hipError_t (*EventElapsedTime)(float*, hipEvent_t, hipEvent_t) = nullptr;           // hipEventElapsedTime
  hipError_t (*EventDestroy)(hipEvent_t) = nullptr;                                   // hipEventDestroy
  // Optional: the HIP 5.x properties call; present with R0600 beside it on HIP 6+, where its layout is not
  // the one above (DeviceGetPropertiesR0600 tells them apart).
  hipError_t (*GetDeviceProperties)(void*, int) = nullptr;       // hipGetDeviceProperties
  hipError_t (*GetDevicePropertiesR0600)(void*, int) = nullptr;  // hipGetDevicePropertiesR0600
  // Optional, for the benchmarks (gpu/hip/hip_transfers.cpp); a call that needs a missing one says so.
  hipError_t (*HostMalloc)(void**, size_t, unsigned) = nullptr;                       // hipHostMalloc
  hipError_t (*HostFree)(void*) = nullptr;                                            // hipHostFree
  hipError_t (*MemcpyAsync)(void*, const void*, size_t, int, hipStream_t) = nullptr;  // hipMemcpyAsync
  // Optional, for the peer-to-peer matrix (gpu/hip/hip_peers.cpp); in every HIP since 4.2.
  hipError_t (*DeviceCanAccessPeer)(int*, int, int) = nullptr;               // hipDeviceCanAccessPeer
  hipError_t (*DeviceEnablePeerAccess)(int, unsigned int) = nullptr;         // hipDeviceEnablePeerAccess
  hipError_t (*MemcpyPeer)(void*, int, const void*, int, size_t) = nullptr;  // hipMemcpyPeer
};

// libamdhip64.so.7, .so.6, .so.5, libamdhip64.so, amdhip64_7.dll, amdhip64_6.dll, amdhip64.dll.
std::vector<std::string> HipLibraryNames();

LoadedTable<HipApi> LoadHip(const std::vector<std::string>& candidates);

// "hipErrorNoDevice (100): no ROCm-capable device is detected".
std::string HipErrorText(const HipApi& api, hipError_t rc);

}  // namespace gpudoctor
