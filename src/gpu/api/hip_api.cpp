// The HIP runtime loader: which files to try and which exports fill the table (see hip_api.h).
#include "gpu/api/hip_api.h"

namespace gpudoctor {

std::vector<std::string> HipLibraryNames() {
  return {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
          "amdhip64_7.dll",   "amdhip64_6.dll",   "amdhip64.dll"};
}

LoadedTable<HipApi> LoadHip(const std::vector<std::string>& candidates) {
  return LoadTable<HipApi>(candidates, [](SymbolBinder& b, HipApi& t) {
    b.Required(t.Init, {"hipInit"});
    b.Required(t.DriverGetVersion, {"hipDriverGetVersion"});
    b.Required(t.RuntimeGetVersion, {"hipRuntimeGetVersion"});
    b.Required(t.GetDeviceCount, {"hipGetDeviceCount"});
    b.Required(t.DeviceGetName, {"hipDeviceGetName"});
    b.Required(t.DeviceGetPCIBusId, {"hipDeviceGetPCIBusId"});
    b.Required(t.DeviceTotalMem, {"hipDeviceTotalMem"});
    b.Required(t.DeviceGetAttribute, {"hipDeviceGetAttribute"});
    b.Required(t.GetErrorName, {"hipGetErrorName"});
    b.Required(t.GetErrorString, {"hipGetErrorString"});
    b.Required(t.SetDevice, {"hipSetDevice"});
    b.Required(t.DeviceSynchronize, {"hipDeviceSynchronize"});
    b.Required(t.MemGetInfo, {"hipMemGetInfo"});
    b.Required(t.Malloc, {"hipMalloc"});
    b.Required(t.Free, {"hipFree"});
    b.Required(t.Memcpy, {"hipMemcpy"});
    b.Required(t.MemsetD32, {"hipMemsetD32"});
    b.Required(t.ModuleLoadData, {"hipModuleLoadData"});
    b.Required(t.ModuleUnload, {"hipModuleUnload"});
    b.Required(t.ModuleGetFunction, {"hipModuleGetFunction"});
    b.Required(t.ModuleLaunchKernel, {"hipModuleLaunchKernel"});
    b.Required(t.EventCreate, {"hipEventCreate"});
    b.Required(t.EventRecord, {"hipEventRecord"});
    b.Required(t.EventSynchronize, {"hipEventSynchronize"});
    b.Required(t.EventElapsedTime, {"hipEventElapsedTime"});
    b.Required(t.EventDestroy, {"hipEventDestroy"});
    b.Optional(t.GetDeviceProperties, {"hipGetDeviceProperties"});
    b.Optional(t.GetDevicePropertiesR0600, {"hipGetDevicePropertiesR0600"});
    b.Optional(t.HostMalloc, {"hipHostMalloc"});
    b.Optional(t.HostFree, {"hipHostFree"});
    b.Optional(t.MemcpyAsync, {"hipMemcpyAsync"});
    b.Optional(t.DeviceCanAccessPeer, {"hipDeviceCanAccessPeer"});
    b.Optional(t.DeviceEnablePeerAccess, {"hipDeviceEnablePeerAccess"});
    b.Optional(t.MemcpyPeer, {"hipMemcpyPeer"});
  });
}

std::string HipErrorText(const HipApi& api, hipError_t rc) {
  const char* name = api.GetErrorName ? api.GetErrorName(rc) : nullptr;
  std::string out = name && name[0] ? name : "HIP error";
  out += " (" + std::to_string(rc) + ")";
  const char* text = api.GetErrorString ? api.GetErrorString(rc) : nullptr;
  if (text && text[0]) out += std::string(": ") + text;
  return out;
}

}  // namespace gpudoctor
