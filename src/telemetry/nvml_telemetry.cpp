// The live NVML telemetry session (see nvml_telemetry.h). Units converted at the boundary: NVML's power is
// in milliwatts, its clocks in MHz, its temperatures in whole degrees Celsius.
#include "telemetry/nvml_telemetry.h"

#include <cstring>

#include "core/pci_address.h"
#include "gpu/api/nvml_api.h"

namespace gpudoctor {
namespace {

constexpr unsigned kMaxDevices = 1024;
constexpr unsigned kMaxProcesses = 256;

std::string FixedString(const char* buf, size_t size) {
  return std::string(buf, ::strnlen(buf, size));
}

// Clocks, their ceiling and the clocks event (throttle) reasons.
void ReadClocks(const NvmlApi& api, nvmlDevice_t h, TelemetrySample& s) {
  unsigned mhz = 0;
  if (api.DeviceGetClockInfo && api.DeviceGetClockInfo(h, kNvmlClockSm, &mhz) == kNvmlSuccess)
    s.sm_clock_mhz = mhz;
  if (api.DeviceGetMaxClockInfo && api.DeviceGetMaxClockInfo(h, kNvmlClockSm, &mhz) == kNvmlSuccess)
    s.sm_clock_max_mhz = mhz;
  if (api.DeviceGetClockInfo && api.DeviceGetClockInfo(h, kNvmlClockMem, &mhz) == kNvmlSuccess)
    s.mem_clock_mhz = mhz;
  if (unsigned long long mask = 0; api.DeviceGetCurrentClocksEventReasons &&
                                   api.DeviceGetCurrentClocksEventReasons(h, &mask) == kNvmlSuccess) {
    s.throttle_reasons_mask = mask;
    s.throttle_reasons = ThrottleReasonNames(mask);
  }
}

// The power limits (milliwatts in NVML), the volatile ECC counts and the row remapping state.
void ReadHealth(const NvmlApi& api, nvmlDevice_t h, TelemetrySample& s) {
  unsigned mw = 0;
  if (api.DeviceGetEnforcedPowerLimit && api.DeviceGetEnforcedPowerLimit(h, &mw) == kNvmlSuccess)
    s.power_limit_watts = mw / 1000.0;
  if (api.DeviceGetPowerManagementDefaultLimit &&
      api.DeviceGetPowerManagementDefaultLimit(h, &mw) == kNvmlSuccess)
    s.power_default_limit_watts = mw / 1000.0;
  unsigned long long count = 0;
  if (api.DeviceGetTotalEccErrors &&
      api.DeviceGetTotalEccErrors(h, kNvmlMemoryErrorCorrected, kNvmlVolatileEcc, &count) == kNvmlSuccess)
    s.ecc_corrected = count;
  if (api.DeviceGetTotalEccErrors &&
      api.DeviceGetTotalEccErrors(h, kNvmlMemoryErrorUncorrected, kNvmlVolatileEcc, &count) == kNvmlSuccess)
    s.ecc_uncorrected = count;
  unsigned corrected = 0, uncorrected = 0, pending = 0, failed = 0;
  if (api.DeviceGetRemappedRows &&
      api.DeviceGetRemappedRows(h, &corrected, &uncorrected, &pending, &failed) == kNvmlSuccess) {
    s.remapped_rows_pending = pending;
    s.remapped_rows_failed = failed;
  }
}

// The PCIe link now and at most.
void ReadLink(const NvmlApi& api, nvmlDevice_t h, TelemetrySample& s) {
  unsigned v = 0;
  if (api.DeviceGetCurrPcieLinkGeneration && api.DeviceGetCurrPcieLinkGeneration(h, &v) == kNvmlSuccess)
    s.pcie_gen = v;
  if (api.DeviceGetCurrPcieLinkWidth && api.DeviceGetCurrPcieLinkWidth(h, &v) == kNvmlSuccess)
    s.pcie_width = v;
  if (api.DeviceGetMaxPcieLinkGeneration && api.DeviceGetMaxPcieLinkGeneration(h, &v) == kNvmlSuccess)
    s.pcie_gen_max = v;
  if (api.DeviceGetMaxPcieLinkWidth && api.DeviceGetMaxPcieLinkWidth(h, &v) == kNvmlSuccess)
    s.pcie_width_max = v;
}

// The compute processes and their memory.
void ReadProcesses(const NvmlApi& api, nvmlDevice_t h, TelemetrySample& s) {
  if (!api.DeviceGetComputeRunningProcesses) return;
  nvmlProcessInfo_t procs[kMaxProcesses] = {};
  unsigned n = kMaxProcesses;
  if (api.DeviceGetComputeRunningProcesses(h, &n, procs) != kNvmlSuccess) return;
  for (unsigned i = 0; i < n && i < kMaxProcesses; ++i) {
    ProcessMemory p;
    p.pid = procs[i].pid;
    // NVML_VALUE_NOT_AVAILABLE (all ones) where the driver cannot tell, e.g. inside a container.
    if (procs[i].usedGpuMemory != ~0ull) p.used_bytes = procs[i].usedGpuMemory;
    s.processes.push_back(p);
  }
}

class LiveNvmlSession final : public NvmlTelemetrySession {
 public:
  explicit LiveNvmlSession(LoadedTable<NvmlApi> table) : table_(std::move(table)) {}
  ~LiveNvmlSession() override { table_.api.Shutdown(); }

  std::vector<TelemetryDevice> Devices(std::vector<std::string>& warnings) override {
    const NvmlApi& api = table_.api;
    std::vector<TelemetryDevice> out;
    unsigned count = 0;
    if (nvmlReturn_t rc = api.DeviceGetCount(&count); rc != kNvmlSuccess) {
      warnings.push_back("NVML: nvmlDeviceGetCount failed: " + NvmlErrorText(api, rc));
      return out;
    }
    for (unsigned i = 0; i < count && i < kMaxDevices; ++i) {
      nvmlDevice_t handle = nullptr;
      if (api.DeviceGetHandleByIndex(i, &handle) != kNvmlSuccess) {
        warnings.push_back("NVML device " + std::to_string(i) + ": no handle; left out");
        continue;
      }
      TelemetryDevice d;
      d.index = i;
      d.vendor = "nvidia";
      char name[kNvmlNameBufferSize] = {};
      if (api.DeviceGetName(handle, name, sizeof name) == kNvmlSuccess)
        d.name = FixedString(name, sizeof name);
      char uuid[kNvmlUuidBufferSize] = {};
      if (api.DeviceGetUUID(handle, uuid, sizeof uuid) == kNvmlSuccess)
        d.uuid = FixedString(uuid, sizeof uuid);
      nvmlPciInfo_t pci{};
      if (api.DeviceGetPciInfo(handle, &pci) == kNvmlSuccess)
        d.pci_address = NormalizeNvidiaBusId(FixedString(pci.busId, sizeof pci.busId));
      out.push_back(std::move(d));
    }
    return out;
  }

  TelemetrySample Read(const TelemetryDevice& device, std::vector<std::string>& warnings) override {
    const NvmlApi& api = table_.api;
    TelemetrySample s;
    s.device = device;
    s.source = "nvml";
    nvmlDevice_t h = nullptr;
    if (nvmlReturn_t rc = api.DeviceGetHandleByIndex(device.index, &h); rc != kNvmlSuccess) {
      warnings.push_back("NVML device " + std::to_string(device.index) + ": " + NvmlErrorText(api, rc));
      return s;
    }
    nvmlMemory_v2_t mem2{};
    mem2.version = kNvmlMemoryV2Version;
    nvmlMemory_t mem{};
    if (api.DeviceGetMemoryInfoV2 && api.DeviceGetMemoryInfoV2(h, &mem2) == kNvmlSuccess) {
      s.memory_used_bytes = mem2.used;  // without the driver's reserve, as nvidia-smi counts it
      s.memory_total_bytes = mem2.total;
    } else if (api.DeviceGetMemoryInfo(h, &mem) == kNvmlSuccess) {
      s.memory_used_bytes = mem.used;
      s.memory_total_bytes = mem.total;
    }
    if (nvmlUtilization_t u{};
        api.DeviceGetUtilizationRates && api.DeviceGetUtilizationRates(h, &u) == kNvmlSuccess)
      s.utilization_percent = u.gpu;
    if (unsigned mw = 0; api.DeviceGetPowerUsage && api.DeviceGetPowerUsage(h, &mw) == kNvmlSuccess)
      s.power_watts = mw / 1000.0;
    if (unsigned c = 0;
        api.DeviceGetTemperature && api.DeviceGetTemperature(h, kNvmlTemperatureGpu, &c) == kNvmlSuccess)
      s.temperature_c = c;
    // Boards without a fan of their own (SXM modules) answer "not supported".
    if (unsigned pct = 0; api.DeviceGetFanSpeed && api.DeviceGetFanSpeed(h, &pct) == kNvmlSuccess)
      s.fan_percent = pct;
    ReadClocks(api, h, s);
    ReadHealth(api, h, s);
    ReadLink(api, h, s);
    ReadProcesses(api, h, s);
    return s;
  }

 private:
  LoadedTable<NvmlApi> table_;
};

}  // namespace

Result<std::unique_ptr<NvmlTelemetrySession>> NvmlTelemetrySession::Open() {
  return Open(NvmlLibraryCandidates());
}

Result<std::unique_ptr<NvmlTelemetrySession>> NvmlTelemetrySession::Open(
    const std::vector<std::string>& nvml_candidates) {
  auto table = LoadNvml(nvml_candidates);
  if (table.status == LoadStatus::kAbsent)
    return EnvError("NVML not found (" + table.load.last_error + ")",
                    "install the NVIDIA driver; NVML (libnvidia-ml) comes with it");
  if (table.status == LoadStatus::kBroken)
    return EnvError("NVML is missing symbols: " + table.symbols.Summary(), "update the NVIDIA driver");
  if (nvmlReturn_t rc = table.api.Init(); rc != kNvmlSuccess)
    return EnvError("nvmlInit failed: " + NvmlErrorText(table.api, rc),
                    "check that the NVIDIA kernel module is loaded (nvidia-smi)");
  return std::unique_ptr<NvmlTelemetrySession>(std::make_unique<LiveNvmlSession>(std::move(table)));
}

}  // namespace gpudoctor
