// The NVML loader: which files to try and which exports fill the table (see nvml_api.h).
#include "gpu/api/nvml_api.h"

namespace gpudoctor {

std::vector<std::string> NvmlLibraryCandidates() {
  // Both systems' names: the loader of the other system simply fails on them (no #ifdef outside platform/).
  return {"libnvidia-ml.so.1", "libnvidia-ml.so", "nvml.dll"};
}

LoadedTable<NvmlApi> LoadNvml() {
  return LoadNvml(NvmlLibraryCandidates());
}

LoadedTable<NvmlApi> LoadNvml(const std::vector<std::string>& candidates) {
  return LoadTable<NvmlApi>(candidates, [](SymbolBinder& b, NvmlApi& t) {
    b.Required(t.Init, {"nvmlInit_v2", "nvmlInit"});
    b.Required(t.Shutdown, {"nvmlShutdown"});
    b.Required(t.ErrorString, {"nvmlErrorString"});
    b.Required(t.DeviceGetCount, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
    b.Required(t.DeviceGetHandleByIndex, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
    b.Required(t.DeviceGetName, {"nvmlDeviceGetName"});
    b.Required(t.DeviceGetUUID, {"nvmlDeviceGetUUID"});
    // Never the unversioned export: it is the v1 entry point with an older struct layout.
    b.Required(t.DeviceGetPciInfo, {"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"});
    b.Required(t.DeviceGetMemoryInfo, {"nvmlDeviceGetMemoryInfo"});
    b.Required(t.SystemGetDriverVersion, {"nvmlSystemGetDriverVersion"});
    b.Optional(t.DeviceGetCudaComputeCapability, {"nvmlDeviceGetCudaComputeCapability"});
    b.Optional(t.SystemGetCudaDriverVersion,
               {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"});
    b.Optional(t.DeviceGetHandleByPciBusId,
               {"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"});
    b.Optional(t.DeviceGetClockInfo, {"nvmlDeviceGetClockInfo"});
    b.Optional(t.DeviceGetMaxClockInfo, {"nvmlDeviceGetMaxClockInfo"});
    b.Optional(t.DeviceGetTemperature, {"nvmlDeviceGetTemperature"});
    b.Optional(t.DeviceGetPowerUsage, {"nvmlDeviceGetPowerUsage"});
    b.Optional(t.DeviceGetEnforcedPowerLimit, {"nvmlDeviceGetEnforcedPowerLimit"});
    b.Optional(t.DeviceGetCurrentClocksEventReasons,
               {"nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"});
    b.Optional(t.DeviceGetTotalEccErrors, {"nvmlDeviceGetTotalEccErrors"});
    b.Optional(t.DeviceGetRemappedRows, {"nvmlDeviceGetRemappedRows"});
    b.Optional(t.DeviceGetPowerManagementDefaultLimit, {"nvmlDeviceGetPowerManagementDefaultLimit"});
    b.Optional(t.DeviceGetCurrPcieLinkGeneration, {"nvmlDeviceGetCurrPcieLinkGeneration"});
    b.Optional(t.DeviceGetCurrPcieLinkWidth, {"nvmlDeviceGetCurrPcieLinkWidth"});
    b.Optional(t.DeviceGetMaxPcieLinkGeneration, {"nvmlDeviceGetMaxPcieLinkGeneration"});
    b.Optional(t.DeviceGetMaxPcieLinkWidth, {"nvmlDeviceGetMaxPcieLinkWidth"});
    b.Optional(t.DeviceGetComputeRunningProcesses,
               {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"});
    b.Optional(t.DeviceGetUtilizationRates, {"nvmlDeviceGetUtilizationRates"});
    b.Optional(t.DeviceGetFanSpeed, {"nvmlDeviceGetFanSpeed"});
    b.Optional(t.DeviceGetMemoryInfoV2, {"nvmlDeviceGetMemoryInfo_v2"});
    b.Optional(t.DeviceGetTopologyCommonAncestor, {"nvmlDeviceGetTopologyCommonAncestor"});
    b.Optional(t.DeviceGetP2PStatus, {"nvmlDeviceGetP2PStatus"});
    b.Optional(t.DeviceGetNvLinkState, {"nvmlDeviceGetNvLinkState"});
    // Only _v2: the unversioned export fills the older nvmlPciInfo_t layout.
    b.Optional(t.DeviceGetNvLinkRemotePciInfo, {"nvmlDeviceGetNvLinkRemotePciInfo_v2"});
    b.Optional(t.DeviceGetNvLinkRemoteDeviceType, {"nvmlDeviceGetNvLinkRemoteDeviceType"});
  });
}

std::string NvmlErrorText(const NvmlApi& api, nvmlReturn_t rc) {
  const char* text = api.ErrorString ? api.ErrorString(rc) : nullptr;
  std::string out = text && text[0] ? text : "NVML error";
  return out + " (" + std::to_string(rc) + ")";
}

}  // namespace gpudoctor
