// What `monitor` and the Prometheus exporter show of one GPU at one moment. Every metric is optional (a
// vendor, a driver or a board may not expose it) and carries its unit in its name; missing is `n/a` in
// text and null in JSON.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

// Which GPU a sample belongs to. The PCI address is its identity; the index is the vendor's ordinal
// (NVML's index, or the AMD GPUs in PCI address order, as amd-smi numbers them).
struct TelemetryDevice {
  uint32_t index = 0;
  std::string vendor;       // "amd", "nvidia"
  std::string name;         // "NVIDIA H100 80GB HBM3", "Radeon RX 6700 XT"
  std::string pci_address;  // "0000:03:00.0"
  std::string uuid;         // NVML's "GPU-..."; empty where not known
};

// One process's memory on a GPU (NVML's compute processes).
struct ProcessMemory {
  uint32_t pid = 0;
  std::optional<uint64_t> used_bytes;
};

struct TelemetrySample {
  TelemetryDevice device;
  // Where the values came from: "nvml", "nvml-recorded", "sysfs", or for AMD the libraries that gave
  // something, in the order asked ("amd_smi+rocm_smi+sysfs").
  std::string source;
  // The source of each metric filled by FillMissingMetrics, by its JSON name ("power_watts" -> "rocm_smi");
  // a metric not named here came from `source`.
  std::map<std::string, std::string> metric_sources;
  std::optional<uint64_t> memory_used_bytes;
  std::optional<uint64_t> memory_total_bytes;
  std::optional<double> utilization_percent;    // GPU busy, 0-100
  std::optional<double> power_watts;            // average board or socket power
  std::optional<double> temperature_c;          // the GPU's main sensor (AMD: edge, else junction)
  std::optional<double> temperature_hotspot_c;  // AMD junction
  std::optional<double> temperature_memory_c;   // AMD mem (HBM/GDDR)
  std::optional<uint32_t> fan_rpm;
  std::optional<double> fan_percent;
  std::optional<uint32_t> sm_clock_mhz;           // AMD sclk, NVIDIA SM clock
  std::optional<uint32_t> mem_clock_mhz;          // AMD mclk, NVIDIA memory clock
  std::optional<uint64_t> throttle_reasons_mask;  // NVML clocks event reasons bit mask
  std::vector<std::string> throttle_reasons;      // names of the set bits ("sw_power_cap", ...)
  std::vector<ProcessMemory> processes;           // where the vendor exposes them
};

// Fills each metric `into` lacks from `from` (and the processes, when `into` has none), noting `from.source`
// in `into.metric_sources` for each and appending it to `into.source` when it gave anything: the AMD chain
// amd_smi, then rocm_smi, then sysfs asks each only for what the ones before it left empty.
void FillMissingMetrics(const TelemetrySample& from, TelemetrySample& into);

// The source of the metric named `json_name` in `sample` (its metric_sources entry, else `source`).
const std::string& MetricSource(const TelemetrySample& sample, const std::string& json_name);

// The names of NVML's clocks event reason bits set in `mask` ("gpu_idle", "sw_power_cap", ...), in bit
// order; an unknown bit is named "bit_N".
std::vector<std::string> ThrottleReasonNames(uint64_t mask);

}  // namespace gpudoctor
