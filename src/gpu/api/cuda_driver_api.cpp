// The CUDA driver API loader: which files to try and which exports fill the table (see cuda_driver_api.h).
#include "gpu/api/cuda_driver_api.h"

#include "core/strings.h"

namespace gpudoctor {

std::vector<std::string> CudaDriverLibraryCandidates() {
  // Both systems' names: the loader of the other system simply fails on them (no #ifdef outside platform/).
  return {"libcuda.so.1", "libcuda.so", "nvcuda.dll"};
}

LoadedTable<CudaDriverApi> LoadCudaDriver() {
  return LoadCudaDriver(CudaDriverLibraryCandidates());
}

LoadedTable<CudaDriverApi> LoadCudaDriver(const std::vector<std::string>& candidates) {
  return LoadTable<CudaDriverApi>(candidates, [](SymbolBinder& b, CudaDriverApi& t) {
    b.Required(t.Init, {"cuInit"});
    b.Required(t.DriverGetVersion, {"cuDriverGetVersion"});
    b.Required(t.DeviceGetCount, {"cuDeviceGetCount"});
    b.Required(t.DeviceGet, {"cuDeviceGet"});
    b.Required(t.DeviceGetName, {"cuDeviceGetName"});
    b.Required(t.DeviceGetAttribute, {"cuDeviceGetAttribute"});
    // The unversioned export takes an unsigned int (32-bit) size: never bind it.
    b.Required(t.DeviceTotalMem, {"cuDeviceTotalMem_v2"});
    b.Required(t.GetErrorName, {"cuGetErrorName"});
    b.Optional(t.DeviceGetUuid, {"cuDeviceGetUuid_v2", "cuDeviceGetUuid"});
    b.Optional(t.GetErrorString, {"cuGetErrorString"});
    b.Optional(t.DeviceGetPCIBusId, {"cuDeviceGetPCIBusId"});
    b.Optional(t.DevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    b.Optional(t.DevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2"});
    b.Optional(t.CtxSetCurrent, {"cuCtxSetCurrent"});
    b.Optional(t.CtxSynchronize, {"cuCtxSynchronize"});
    // The unversioned memory exports take 32-bit sizes and pointers: only the _v2 ones are bound.
    b.Optional(t.MemGetInfo, {"cuMemGetInfo_v2"});
    b.Optional(t.MemAlloc, {"cuMemAlloc_v2"});
    b.Optional(t.MemFree, {"cuMemFree_v2"});
    b.Optional(t.MemcpyHtoD, {"cuMemcpyHtoD_v2"});
    b.Optional(t.MemcpyDtoH, {"cuMemcpyDtoH_v2"});
    b.Optional(t.MemsetD32, {"cuMemsetD32_v2"});
    b.Optional(t.ModuleLoadData, {"cuModuleLoadData"});
    b.Optional(t.ModuleUnload, {"cuModuleUnload"});
    b.Optional(t.ModuleGetFunction, {"cuModuleGetFunction"});
    b.Optional(t.LaunchKernel, {"cuLaunchKernel"});
    b.Optional(t.EventCreate, {"cuEventCreate"});
    b.Optional(t.EventRecord, {"cuEventRecord"});
    b.Optional(t.EventSynchronize, {"cuEventSynchronize"});
    // cuda.h maps cuEventElapsedTime to _v2 since CUDA 12.8; older drivers export only the plain one.
    b.Optional(t.EventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    b.Optional(t.EventDestroy, {"cuEventDestroy_v2"});
    // Only the _v2 exports: the plain ones take 32-bit sizes and device pointers.
    b.Optional(t.MemAllocHost, {"cuMemAllocHost_v2"});
    b.Optional(t.MemFreeHost, {"cuMemFreeHost"});
    b.Optional(t.MemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"});
    b.Optional(t.MemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"});
    b.Optional(t.MemcpyDtoDAsync, {"cuMemcpyDtoDAsync_v2"});
    b.Optional(t.DeviceCanAccessPeer, {"cuDeviceCanAccessPeer"});
    b.Optional(t.CtxEnablePeerAccess, {"cuCtxEnablePeerAccess"});
    b.Optional(t.MemcpyPeer, {"cuMemcpyPeer"});
  });
}

std::vector<std::string> CudaBackendSymbolsMissing(const CudaDriverApi& api) {
  std::vector<std::string> missing;
  auto need = [&missing](const void* fn, const char* name) {
    if (!fn) missing.emplace_back(name);
  };
  need(reinterpret_cast<const void*>(api.DeviceGetPCIBusId), "cuDeviceGetPCIBusId");
  need(reinterpret_cast<const void*>(api.DevicePrimaryCtxRetain), "cuDevicePrimaryCtxRetain");
  need(reinterpret_cast<const void*>(api.DevicePrimaryCtxRelease), "cuDevicePrimaryCtxRelease_v2");
  need(reinterpret_cast<const void*>(api.CtxSetCurrent), "cuCtxSetCurrent");
  need(reinterpret_cast<const void*>(api.CtxSynchronize), "cuCtxSynchronize");
  need(reinterpret_cast<const void*>(api.MemGetInfo), "cuMemGetInfo_v2");
  need(reinterpret_cast<const void*>(api.MemAlloc), "cuMemAlloc_v2");
  need(reinterpret_cast<const void*>(api.MemFree), "cuMemFree_v2");
  need(reinterpret_cast<const void*>(api.MemcpyHtoD), "cuMemcpyHtoD_v2");
  need(reinterpret_cast<const void*>(api.MemcpyDtoH), "cuMemcpyDtoH_v2");
  need(reinterpret_cast<const void*>(api.MemsetD32), "cuMemsetD32_v2");
  need(reinterpret_cast<const void*>(api.ModuleLoadData), "cuModuleLoadData");
  need(reinterpret_cast<const void*>(api.ModuleUnload), "cuModuleUnload");
  need(reinterpret_cast<const void*>(api.ModuleGetFunction), "cuModuleGetFunction");
  need(reinterpret_cast<const void*>(api.LaunchKernel), "cuLaunchKernel");
  need(reinterpret_cast<const void*>(api.EventCreate), "cuEventCreate");
  need(reinterpret_cast<const void*>(api.EventRecord), "cuEventRecord");
  need(reinterpret_cast<const void*>(api.EventSynchronize), "cuEventSynchronize");
  need(reinterpret_cast<const void*>(api.EventElapsedTime), "cuEventElapsedTime_v2|cuEventElapsedTime");
  need(reinterpret_cast<const void*>(api.EventDestroy), "cuEventDestroy_v2");
  return missing;
}

std::string CudaErrorText(const CudaDriverApi& api, CUresult rc) {
  const char* name = nullptr;
  if (api.GetErrorName && api.GetErrorName(rc, &name) != kCudaSuccess) name = nullptr;
  std::string out = name && name[0] ? name : "CUDA error";
  out += " (" + std::to_string(rc) + ")";
  const char* text = nullptr;
  if (api.GetErrorString && api.GetErrorString(rc, &text) == kCudaSuccess && text && text[0])
    out += std::string(": ") + text;
  return out;
}

std::string FormatCudaUuid(const CUuuid& uuid) {
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += Hex(static_cast<unsigned char>(uuid.bytes[i]), 2);
  }
  return out;
}

}  // namespace gpudoctor
