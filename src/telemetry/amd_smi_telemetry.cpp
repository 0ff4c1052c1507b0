// The AMD SMI telemetry session (see amd_library_telemetry.h). amd_smi gives memory in bytes, activity in
// percent, temperatures in whole degrees Celsius and clocks in MHz. Power and per-process memory are not
// asked of it (their structs changed layout between releases, gpu/api/amd_smi_api.h): rocm_smi or sysfs
// fill them.
#include <algorithm>
#include <map>

#include "gpu/api/amd_smi_api.h"
#include "telemetry/amd_library_telemetry.h"

namespace gpudoctor {
namespace {

constexpr uint32_t kMaxSockets = 256;
constexpr uint32_t kMaxProcessors = 1024;

std::optional<double> AmdSmiTemperatureC(const AmdSmiApi& api, amdsmi_processor_handle h, int sensor) {
  int64_t c = 0;
  if (!api.GetTempMetric || api.GetTempMetric(h, sensor, kAmdSmiTempCurrent, &c) != kAmdSmiSuccess)
    return std::nullopt;
  return static_cast<double>(c);
}

std::optional<uint32_t> ClockMhz(const AmdSmiApi& api, amdsmi_processor_handle h, int clk_type) {
  amdsmi_clk_info_t info{};
  if (!api.GetClockInfo || api.GetClockInfo(h, clk_type, &info) != kAmdSmiSuccess) return std::nullopt;
  return info.clk;
}

class AmdSmiTelemetry final : public AmdLibraryTelemetryOf<amdsmi_processor_handle> {
 public:
  AmdSmiTelemetry(LoadedTable<AmdSmiApi> table, std::map<std::string, amdsmi_processor_handle> devices)
      : AmdLibraryTelemetryOf(std::move(devices)), table_(std::move(table)) {}
  ~AmdSmiTelemetry() override { table_.api.ShutDown(); }

  const char* SourceName() const override { return "amd_smi"; }

 protected:
  const char* DisplayName() const override { return "AMD SMI"; }

  TelemetrySample ReadDevice(amdsmi_processor_handle h, std::vector<std::string>&) override {
    TelemetrySample s;
    const AmdSmiApi& api = table_.api;
    if (uint64_t v = 0;
        api.GetGpuMemoryUsage && api.GetGpuMemoryUsage(h, kAmdSmiMemTypeVram, &v) == kAmdSmiSuccess)
      s.memory_used_bytes = v;
    if (uint64_t v = 0;
        api.GetGpuMemoryTotal && api.GetGpuMemoryTotal(h, kAmdSmiMemTypeVram, &v) == kAmdSmiSuccess)
      s.memory_total_bytes = v;
    // Beyond 100 is not a percentage: later releases write all ones where the GPU does not report it.
    if (amdsmi_engine_usage_t u{};
        api.GetGpuActivity && api.GetGpuActivity(h, &u) == kAmdSmiSuccess && u.gfx_activity <= 100)
      s.utilization_percent = u.gfx_activity;
    auto edge = AmdSmiTemperatureC(api, h, kAmdSmiTempTypeEdge);
    s.temperature_hotspot_c = AmdSmiTemperatureC(api, h, kAmdSmiTempTypeHotspot);
    s.temperature_memory_c = AmdSmiTemperatureC(api, h, kAmdSmiTempTypeVram);
    s.temperature_c = edge ? edge : s.temperature_hotspot_c;  // MI300X has no edge sensor
    s.sm_clock_mhz = ClockMhz(api, h, kAmdSmiClkTypeSys);
    s.mem_clock_mhz = ClockMhz(api, h, kAmdSmiClkTypeMem);
    return s;
  }

 private:
  LoadedTable<AmdSmiApi> table_;
};

// Every GPU of every socket, by PCI address; a socket or processor that does not answer is left out.
std::map<std::string, amdsmi_processor_handle> ListGpus(const AmdSmiApi& api) {
  std::map<std::string, amdsmi_processor_handle> out;
  uint32_t sockets = 0;
  if (api.GetSocketHandles(&sockets, nullptr) != kAmdSmiSuccess) return out;
  std::vector<amdsmi_socket_handle> socket_handles(std::min(sockets, kMaxSockets));
  sockets = static_cast<uint32_t>(socket_handles.size());
  if (sockets == 0 || api.GetSocketHandles(&sockets, socket_handles.data()) != kAmdSmiSuccess) return out;
  for (uint32_t i = 0; i < sockets && i < socket_handles.size(); ++i) {
    uint32_t count = 0;
    if (api.GetProcessorHandles(socket_handles[i], &count, nullptr) != kAmdSmiSuccess || count == 0) continue;
    std::vector<amdsmi_processor_handle> handles(std::min(count, kMaxProcessors));
    count = static_cast<uint32_t>(handles.size());
    if (api.GetProcessorHandles(socket_handles[i], &count, handles.data()) != kAmdSmiSuccess) continue;
    for (uint32_t j = 0; j < count && j < handles.size(); ++j) {
      amdsmi_bdf_t bdf = 0;
      if (api.GetGpuDeviceBdf(handles[j], &bdf) == kAmdSmiSuccess)
        out.emplace(FormatAmdSmiBdf(bdf), handles[j]);
    }
  }
  return out;
}

}  // namespace

AmdLibraryOpening OpenAmdSmiTelemetry(const std::vector<std::string>& candidates) {
  AmdLibraryOpening out;
  auto table = LoadAmdSmi(candidates);
  if (table.status == LoadStatus::kAbsent) {
    out.absent = true;
    return out;
  }
  if (table.status == LoadStatus::kBroken) {
    out.problem = "AMD SMI (" + table.load.loaded_path + ") is missing symbols: " + table.symbols.Summary();
    return out;
  }
  const AmdSmiApi& api = table.api;
  if (amdsmi_status_t rc = api.Init(kAmdSmiInitAmdGpus); rc != kAmdSmiSuccess) {
    out.problem = "AMD SMI (" + table.load.loaded_path + "): amdsmi_init failed: " + AmdSmiErrorText(api, rc);
    return out;
  }
  auto devices = ListGpus(api);
  out.session = std::make_unique<AmdSmiTelemetry>(std::move(table), std::move(devices));
  return out;
}

}  // namespace gpudoctor
