// The ROCm SMI telemetry session (see amd_library_telemetry.h). Units converted at the boundary: rocm_smi
// gives power in microwatts, temperatures in millidegrees Celsius, clocks in Hz, memory in bytes.
#include <algorithm>
#include <cstdint>
#include <map>

#include "gpu/api/rocm_smi_api.h"
#include "telemetry/amd_library_telemetry.h"

namespace gpudoctor {
namespace {

constexpr uint32_t kMaxRsmiDevices = 1024;
constexpr uint32_t kMaxRsmiProcesses = 1024;

// The current level of a clock table, in MHz; the layout is chosen by the library's major version.
std::optional<uint32_t> CurrentClockMhz(const RocmSmiApi& api, uint32_t dv, int clk_type,
                                        uint32_t library_major) {
  if (!api.DevGpuClkFreqGet || library_major == 0) return std::nullopt;
  uint32_t num = 0;
  uint32_t current = 0;
  const uint64_t* table = nullptr;
  rsmi_frequencies_v7_t v7{};
  rsmi_frequencies_v5_t v5{};
  if (library_major >= kRsmiFrequenciesV7Major) {
    if (api.DevGpuClkFreqGet(dv, clk_type, &v7) != kRsmiSuccess) return std::nullopt;
    num = std::min<uint32_t>(v7.num_supported, std::size(v7.frequency));
    current = v7.current;
    table = v7.frequency;
  } else {
    if (api.DevGpuClkFreqGet(dv, clk_type, &v5) != kRsmiSuccess) return std::nullopt;
    num = std::min<uint32_t>(v5.num_supported, std::size(v5.frequency));
    current = v5.current;
    table = v5.frequency;
  }
  if (current >= num) return std::nullopt;
  return static_cast<uint32_t>(table[current] / 1000000u);
}

std::optional<double> TemperatureC(const RocmSmiApi& api, uint32_t dv, uint32_t sensor) {
  int64_t milli = 0;
  if (!api.DevTempMetricGet || api.DevTempMetricGet(dv, sensor, kRsmiTempCurrent, &milli) != kRsmiSuccess)
    return std::nullopt;
  return static_cast<double>(milli) / 1000.0;
}

class RocmSmiTelemetry final : public AmdLibraryTelemetryOf<uint32_t> {
 public:
  // `devices`: PCI address -> rocm_smi's device index.
  RocmSmiTelemetry(LoadedTable<RocmSmiApi> table, std::map<std::string, uint32_t> devices, uint32_t major)
      : AmdLibraryTelemetryOf(std::move(devices)), table_(std::move(table)), library_major_(major) {}
  ~RocmSmiTelemetry() override { table_.api.ShutDown(); }

  const char* SourceName() const override { return "rocm_smi"; }

 protected:
  const char* DisplayName() const override { return "ROCm SMI"; }

  TelemetrySample ReadDevice(uint32_t dv, std::vector<std::string>&) override {
    TelemetrySample s;
    const RocmSmiApi& api = table_.api;
    if (uint64_t v = 0;
        api.DevMemoryUsageGet && api.DevMemoryUsageGet(dv, kRsmiMemTypeVram, &v) == kRsmiSuccess)
      s.memory_used_bytes = v;
    if (uint64_t v = 0;
        api.DevMemoryTotalGet && api.DevMemoryTotalGet(dv, kRsmiMemTypeVram, &v) == kRsmiSuccess)
      s.memory_total_bytes = v;
    if (uint32_t busy = 0;
        api.DevBusyPercentGet && api.DevBusyPercentGet(dv, &busy) == kRsmiSuccess && busy <= 100)
      s.utilization_percent = busy;
    // rsmi_dev_power_get (ROCm 6) answers on MI300, where the average of rsmi_dev_power_ave_get is gone.
    uint64_t micro_w = 0;
    uint32_t power_type = kRsmiInvalidPowerType;
    if (api.DevPowerGet && api.DevPowerGet(dv, &micro_w, &power_type) == kRsmiSuccess &&
        power_type != kRsmiInvalidPowerType)
      s.power_watts = static_cast<double>(micro_w) / 1e6;
    else if (api.DevPowerAveGet && api.DevPowerAveGet(dv, 0, &micro_w) == kRsmiSuccess)
      s.power_watts = static_cast<double>(micro_w) / 1e6;
    auto edge = TemperatureC(api, dv, kRsmiTempTypeEdge);
    s.temperature_hotspot_c = TemperatureC(api, dv, kRsmiTempTypeJunction);
    s.temperature_memory_c = TemperatureC(api, dv, kRsmiTempTypeMemory);
    s.temperature_c = edge ? edge : s.temperature_hotspot_c;  // MI300X has no edge sensor
    if (int64_t rpm = 0; api.DevFanRpmsGet && api.DevFanRpmsGet(dv, 0, &rpm) == kRsmiSuccess && rpm >= 0)
      s.fan_rpm = static_cast<uint32_t>(std::min<int64_t>(rpm, UINT32_MAX));
    int64_t speed = 0;
    uint64_t max_speed = 0;
    if (api.DevFanSpeedGet && api.DevFanSpeedMaxGet && api.DevFanSpeedGet(dv, 0, &speed) == kRsmiSuccess &&
        api.DevFanSpeedMaxGet(dv, 0, &max_speed) == kRsmiSuccess && max_speed > 0 && speed >= 0 &&
        static_cast<uint64_t>(speed) <= max_speed)
      s.fan_percent = 100.0 * static_cast<double>(speed) / static_cast<double>(max_speed);
    s.sm_clock_mhz = CurrentClockMhz(api, dv, kRsmiClkTypeSys, library_major_);
    s.mem_clock_mhz = CurrentClockMhz(api, dv, kRsmiClkTypeMem, library_major_);
    // The memory controller's error counts (corrected, uncorrected), as the sustained gate compares them.
    uint64_t counts[kRsmiErrorCountBufferWords] = {};
    if (api.DevEccCountGet && api.DevEccCountGet(dv, kRsmiGpuBlockUmc, counts) == kRsmiSuccess) {
      s.ecc_corrected = counts[0];
      s.ecc_uncorrected = counts[1];
    }
    ReadProcesses(dv, s);
    return s;
  }

 private:
  // rsmi_compute_process_info_get lists every GPU's processes with their memory summed over GPUs; only the
  // per-device call (ROCm 5.7+) says which use this GPU and how much of its memory.
  void ReadProcesses(uint32_t dv, TelemetrySample& s) const {
    const RocmSmiApi& api = table_.api;
    if (!api.ComputeProcessInfoGet || !api.ComputeProcessInfoByDeviceGet) return;
    uint32_t n = 0;
    if (api.ComputeProcessInfoGet(nullptr, &n) != kRsmiSuccess || n == 0) return;
    std::vector<rsmi_process_info_t> procs(std::min(n, kMaxRsmiProcesses));
    n = static_cast<uint32_t>(procs.size());
    if (api.ComputeProcessInfoGet(procs.data(), &n) != kRsmiSuccess) return;
    for (uint32_t i = 0; i < n && i < procs.size(); ++i) {
      rsmi_process_info_t on_device{};
      if (api.ComputeProcessInfoByDeviceGet(procs[i].process_id, dv, &on_device) != kRsmiSuccess) continue;
      ProcessMemory p;
      p.pid = procs[i].process_id;
      p.used_bytes = on_device.vram_usage;
      s.processes.push_back(p);
    }
  }

  LoadedTable<RocmSmiApi> table_;
  uint32_t library_major_ = 0;  // 0: unknown, clocks left to sysfs
};

}  // namespace

AmdLibraryOpening OpenRocmSmiTelemetry(const std::vector<std::string>& candidates) {
  AmdLibraryOpening out;
  auto table = LoadRocmSmi(candidates);
  if (table.status == LoadStatus::kAbsent) {
    out.absent = true;
    return out;
  }
  if (table.status == LoadStatus::kBroken) {
    out.problem = "ROCm SMI (" + table.load.loaded_path + ") is missing symbols: " + table.symbols.Summary();
    return out;
  }
  const RocmSmiApi& api = table.api;
  if (rsmi_status_t rc = api.Init(0); rc != kRsmiSuccess) {
    out.problem = "ROCm SMI (" + table.load.loaded_path + "): rsmi_init failed: " + RocmSmiErrorText(api, rc);
    return out;
  }
  uint32_t count = 0;
  if (rsmi_status_t rc = api.NumMonitorDevices(&count); rc != kRsmiSuccess) {
    out.problem = "ROCm SMI: rsmi_num_monitor_devices failed: " + RocmSmiErrorText(api, rc);
    api.ShutDown();
    return out;
  }
  std::map<std::string, uint32_t> devices;
  for (uint32_t i = 0; i < count && i < kMaxRsmiDevices; ++i) {
    uint64_t bdf = 0;
    if (api.DevPciIdGet(i, &bdf) == kRsmiSuccess) devices.emplace(FormatRsmiPciId(bdf), i);
  }
  rsmi_version_t version{};
  uint32_t major = 0;
  if (api.VersionGet && api.VersionGet(&version) == kRsmiSuccess) major = version.major;
  out.session = std::make_unique<RocmSmiTelemetry>(std::move(table), std::move(devices), major);
  return out;
}

}  // namespace gpudoctor
