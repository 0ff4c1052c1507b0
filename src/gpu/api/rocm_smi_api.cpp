// The ROCm SMI loader: which files to try and which exports fill the table (see rocm_smi_api.h).
#include "gpu/api/rocm_smi_api.h"

#include "core/strings.h"

namespace gpudoctor {

std::vector<std::string> RocmSmiLibraryNames() {
  return {"librocm_smi64.so.7", "librocm_smi64.so.6", "librocm_smi64.so.5", "librocm_smi64.so.1",
          "librocm_smi64.so"};
}

LoadedTable<RocmSmiApi> LoadRocmSmi(const std::vector<std::string>& candidates) {
  return LoadTable<RocmSmiApi>(candidates, [](SymbolBinder& b, RocmSmiApi& t) {
    b.Required(t.Init, {"rsmi_init"});
    b.Required(t.ShutDown, {"rsmi_shut_down"});
    b.Required(t.NumMonitorDevices, {"rsmi_num_monitor_devices"});
    b.Required(t.DevPciIdGet, {"rsmi_dev_pci_id_get"});
    b.Required(t.StatusString, {"rsmi_status_string"});
    b.Optional(t.DevTempMetricGet, {"rsmi_dev_temp_metric_get"});
    b.Optional(t.DevPowerAveGet, {"rsmi_dev_power_ave_get"});
    b.Optional(t.DevEccCountGet, {"rsmi_dev_ecc_count_get"});
    b.Optional(t.VersionGet, {"rsmi_version_get"});
    b.Optional(t.DevPowerGet, {"rsmi_dev_power_get"});
    b.Optional(t.DevMemoryTotalGet, {"rsmi_dev_memory_total_get"});
    b.Optional(t.DevMemoryUsageGet, {"rsmi_dev_memory_usage_get"});
    b.Optional(t.DevBusyPercentGet, {"rsmi_dev_busy_percent_get"});
    b.Optional(t.DevFanRpmsGet, {"rsmi_dev_fan_rpms_get"});
    b.Optional(t.DevFanSpeedGet, {"rsmi_dev_fan_speed_get"});
    b.Optional(t.DevFanSpeedMaxGet, {"rsmi_dev_fan_speed_max_get"});
    b.Optional(t.DevGpuClkFreqGet, {"rsmi_dev_gpu_clk_freq_get"});
    b.Optional(t.ComputeProcessInfoGet, {"rsmi_compute_process_info_get"});
    b.Optional(t.ComputeProcessInfoByDeviceGet, {"rsmi_compute_process_info_by_device_get"});
  });
}

std::string RocmSmiErrorText(const RocmSmiApi& api, rsmi_status_t rc) {
  const char* text = nullptr;
  if (api.StatusString && api.StatusString(rc, &text) != kRsmiSuccess) text = nullptr;
  std::string out = text && text[0] ? text : "ROCm SMI status";
  return out + " (" + std::to_string(rc) + ")";
}

std::string FormatRsmiPciId(uint64_t bdfid) {
  uint64_t domain = (bdfid >> 32) & 0xffffffffu;
  uint64_t bus = (bdfid >> 8) & 0xffu;
  uint64_t device = (bdfid >> 3) & 0x1fu;
  uint64_t function = bdfid & 0x7u;
  return Hex(domain, 4) + ":" + Hex(bus, 2) + ":" + Hex(device, 2) + "." + Hex(function, 1);
}

}  // namespace gpudoctor
