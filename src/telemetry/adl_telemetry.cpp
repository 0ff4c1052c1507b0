// The ADL telemetry session (see amd_library_telemetry.h): AMD GPUs on Windows, where amd_smi, rocm_smi and
// sysfs do not exist. One ADL2 context for the session; the GPUs are the adapters of vendor 1002, one per
// PCI location (ADL lists an adapter once per display output). The power management log gives clocks
// (MHz), temperatures (°C), fan, activity (%) and power (W) as whole numbers, each with a `supported` flag;
// ADL gives the dedicated VRAM in use in MB and the memory size in bytes. ADL has no per-process memory
// and no throttle mask that means what NVML's does; those stay empty (docs/monitor.md).
#include <algorithm>
#include <cstdlib>
#include <map>

#include "gpu/api/adl_api.h"
#include "telemetry/amd_library_telemetry.h"

namespace gpudoctor {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

// ADL_MAIN_MALLOC_CALLBACK: what ADL allocates through it belongs to the caller; none of the calls made
// here hand memory back, so nothing is freed by us.
void* AdlAllocate(int size) {
  return size > 0 ? std::malloc(static_cast<size_t>(size)) : nullptr;
}

// A sensor's value when the driver says it is supported (negative values are not readings).
std::optional<int> Sensor(const AdlPmLogDataOutput& log, AdlPmLogSensor sensor) {
  const AdlSingleSensorData& d = log.sensors[sensor];
  if (!d.supported || d.value < 0) return std::nullopt;
  return d.value;
}

std::optional<double> AsDouble(std::optional<int> v) {
  return v ? std::optional<double>(*v) : std::nullopt;
}

std::optional<uint32_t> Positive(std::optional<int> v) {
  return v && *v > 0 ? std::optional<uint32_t>(static_cast<uint32_t>(*v)) : std::nullopt;
}

// At most 100 is a percentage: some drivers report 65535 for the GFX activity they do not measure (ADL
// SDK 15.0 release notes, SWDEV-217167).
std::optional<double> Percent(std::optional<int> v) {
  return v && *v <= 100 ? AsDouble(v) : std::nullopt;
}

void FillFromPmLog(const AdlPmLogDataOutput& log, TelemetrySample& s) {
  s.sm_clock_mhz = Positive(Sensor(log, kAdlPmLogClkGfxclk));
  s.mem_clock_mhz = Positive(Sensor(log, kAdlPmLogClkMemclk));
  s.utilization_percent = Percent(Sensor(log, kAdlPmLogInfoActivityGfx));
  auto edge = AsDouble(Sensor(log, kAdlPmLogTemperatureEdge));
  s.temperature_hotspot_c = AsDouble(Sensor(log, kAdlPmLogTemperatureHotspot));
  s.temperature_memory_c = AsDouble(Sensor(log, kAdlPmLogTemperatureMem));
  s.temperature_c = edge ? edge : s.temperature_hotspot_c;
  if (auto rpm = Sensor(log, kAdlPmLogFanRpm)) s.fan_rpm = static_cast<uint32_t>(*rpm);
  s.fan_percent = Percent(Sensor(log, kAdlPmLogFanPercentage));
  // The ASIC's power, as amdgpu's hwmon power1_average on Linux; the board's where only that is logged.
  auto power = Sensor(log, kAdlPmLogAsicPower);
  if (!power) power = Sensor(log, kAdlPmLogBoardPower);
  s.power_watts = AsDouble(power);
}

class AdlTelemetry final : public AmdLibraryTelemetryOf<int> {
 public:
  // `devices`: PCI address -> ADL adapter index.
  AdlTelemetry(LoadedTable<AdlApi> table, ADL_CONTEXT_HANDLE context, std::map<std::string, int> devices)
      : AmdLibraryTelemetryOf(std::move(devices)), table_(std::move(table)), context_(context) {}
  ~AdlTelemetry() override { table_.api.MainControlDestroy(context_); }

  const char* SourceName() const override { return "adl"; }

 protected:
  const char* DisplayName() const override { return "ADL"; }

  TelemetrySample ReadDevice(int adapter, std::vector<std::string>&) override {
    TelemetrySample s;
    const AdlApi& api = table_.api;
    if (api.QueryPmLogData) {
      AdlPmLogDataOutput log{};
      log.size = static_cast<int>(sizeof log);
      if (AdlSucceeded(api.QueryPmLogData(context_, adapter, &log))) FillFromPmLog(log, s);
    }
    if (int mb = 0;
        api.DedicatedVramUsage && AdlSucceeded(api.DedicatedVramUsage(context_, adapter, &mb)) && mb >= 0)
      s.memory_used_bytes = static_cast<uint64_t>(mb) * kMiB;
    if (AdlMemoryInfo2 info{};
        api.MemoryInfo2 && AdlSucceeded(api.MemoryInfo2(context_, adapter, &info)) && info.iMemorySize > 0)
      s.memory_total_bytes = static_cast<uint64_t>(info.iMemorySize);
    return s;
  }

 private:
  LoadedTable<AdlApi> table_;
  ADL_CONTEXT_HANDLE context_ = nullptr;
};

// The AMD adapters ADL lists, one per PCI location (the first adapter index of each).
std::map<std::string, int> ListAdapters(const AdlApi& api, ADL_CONTEXT_HANDLE context) {
  std::map<std::string, int> out;
  int count = 0;
  if (!AdlSucceeded(api.NumberOfAdapters(context, &count)) || count <= 0) return out;
  std::vector<AdlAdapterInfo> infos(static_cast<size_t>(std::min(count, kAdlMaxAdapters)));
  for (auto& info : infos) info.iSize = static_cast<int>(sizeof info);
  const int bytes = static_cast<int>(infos.size() * sizeof(AdlAdapterInfo));
  if (!AdlSucceeded(api.AdapterInfo(context, infos.data(), bytes))) return out;
  for (const auto& info : infos) {
    if (info.iVendorID != kAdlAmdVendorId && info.iVendorID != 0x1002) continue;
    std::string address = FormatAdlPciAddress(info.iBusNumber, info.iDeviceNumber, info.iFunctionNumber);
    if (!address.empty()) out.emplace(address, info.iAdapterIndex);
  }
  return out;
}

}  // namespace

AmdLibraryOpening OpenAdlTelemetry(const std::vector<std::string>& candidates) {
  AmdLibraryOpening out;
  auto table = LoadAdl(candidates);
  if (table.status == LoadStatus::kAbsent) {
    out.absent = true;
    return out;
  }
  if (table.status == LoadStatus::kBroken) {
    out.problem = "ADL (" + table.load.loaded_path + ") is missing symbols: " + table.symbols.Summary();
    return out;
  }
  const AdlApi& api = table.api;
  ADL_CONTEXT_HANDLE context = nullptr;
  // 1: only the adapters present and enabled now, not every one ever installed.
  if (int rc = api.MainControlCreate(AdlAllocate, 1, &context); !AdlSucceeded(rc) || !context) {
    out.problem = "ADL (" + table.load.loaded_path + "): ADL2_Main_Control_Create failed: " +
                  (AdlSucceeded(rc) ? std::string("it gave no context") : AdlErrorText(rc));
    return out;
  }
  auto devices = ListAdapters(api, context);
  out.session = std::make_unique<AdlTelemetry>(std::move(table), context, std::move(devices));
  return out;
}

}  // namespace gpudoctor
