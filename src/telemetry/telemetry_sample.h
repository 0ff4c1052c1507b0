// One GPU at one moment, the one sample type of gpudoctor: what `monitor` and the Prometheus exporter show,
// and what the sustained gate and the benchmarks read under load. Every metric is optional (a vendor, a
// driver or a board may not expose it) and carries its unit in its name; missing is `n/a` in text and null
// in JSON.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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
  std::optional<uint32_t> sm_clock_mhz;             // AMD sclk, NVIDIA SM clock
  std::optional<uint32_t> sm_clock_max_mhz;         // the most the SM clock may reach (NVIDIA)
  std::optional<uint32_t> mem_clock_mhz;            // AMD mclk, NVIDIA memory clock
  std::optional<double> power_limit_watts;          // the power limit enforced now (NVIDIA)
  std::optional<double> power_default_limit_watts;  // the board's default power limit (NVIDIA)
  std::optional<uint64_t> throttle_reasons_mask;    // NVML clocks event reasons bit mask
  std::vector<std::string> throttle_reasons;        // names of the set bits ("sw_power_cap", ...)
  std::optional<uint64_t> ecc_corrected;            // memory errors since the driver loaded
  std::optional<uint64_t> ecc_uncorrected;
  std::optional<uint32_t> remapped_rows_pending;  // row remapping waiting for a GPU reset (NVIDIA A100+)
  std::optional<uint32_t> remapped_rows_failed;   // remappings that found no spare row
  // The PCIe link as the GPU reports it: generation (1..6) and lanes, now and at most (the most the GPU and
  // the slot allow together).
  std::optional<uint32_t> pcie_gen;
  std::optional<uint32_t> pcie_width;
  std::optional<uint32_t> pcie_gen_max;
  std::optional<uint32_t> pcie_width_max;
  // The processes holding a compute context on the GPU, where the vendor exposes them (NVML's compute
  // processes; none listed and not known look alike).
  std::vector<ProcessMemory> processes;
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

// Whether a reason of ThrottleReasonNames means trouble (a slowdown forced by the hardware, by heat or by a
// power brake), as opposed to the power cap or the idle and setting states that are normal under load.
bool IsAlarmingThrottleReason(std::string_view reason);

}  // namespace gpudoctor
