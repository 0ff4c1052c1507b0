// The AMD SMI loader: which files to try and which exports fill the table (see amd_smi_api.h).
#include "gpu/api/amd_smi_api.h"

#include "core/strings.h"

namespace gpudoctor {

std::vector<std::string> AmdSmiLibraryNames() {
  return {"libamd_smi.so.26", "libamd_smi.so.25", "libamd_smi.so.24", "libamd_smi.so"};
}

LoadedTable<AmdSmiApi> LoadAmdSmi(const std::vector<std::string>& candidates) {
  return LoadTable<AmdSmiApi>(candidates, [](SymbolBinder& b, AmdSmiApi& t) {
    b.Required(t.Init, {"amdsmi_init"});
    b.Required(t.ShutDown, {"amdsmi_shut_down"});
    b.Required(t.GetSocketHandles, {"amdsmi_get_socket_handles"});
    b.Required(t.GetProcessorHandles, {"amdsmi_get_processor_handles"});
    b.Required(t.GetGpuDeviceBdf, {"amdsmi_get_gpu_device_bdf"});
    b.Optional(t.StatusCodeToString, {"amdsmi_status_code_to_string"});
    b.Optional(t.GetGpuActivity, {"amdsmi_get_gpu_activity"});
    b.Optional(t.GetTempMetric, {"amdsmi_get_temp_metric"});
    b.Optional(t.GetGpuMemoryTotal, {"amdsmi_get_gpu_memory_total"});
    b.Optional(t.GetGpuMemoryUsage, {"amdsmi_get_gpu_memory_usage"});
    b.Optional(t.GetClockInfo, {"amdsmi_get_clock_info"});
  });
}

std::string AmdSmiErrorText(const AmdSmiApi& api, amdsmi_status_t rc) {
  const char* text = nullptr;
  if (api.StatusCodeToString && api.StatusCodeToString(rc, &text) != kAmdSmiSuccess) text = nullptr;
  std::string out = text && text[0] ? text : "AMD SMI status";
  return out + " (" + std::to_string(rc) + ")";
}

std::string FormatAmdSmiBdf(amdsmi_bdf_t bdf) {
  uint64_t function = bdf & 0x7u;
  uint64_t device = (bdf >> 3) & 0x1fu;
  uint64_t bus = (bdf >> 8) & 0xffu;
  uint64_t domain = (bdf >> 16) & 0xffffffffffffull;
  return Hex(domain, 4) + ":" + Hex(bus, 2) + ":" + Hex(device, 2) + "." + Hex(function, 1);
}

}  // namespace gpudoctor
