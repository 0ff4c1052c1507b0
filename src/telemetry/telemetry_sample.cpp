// Merging the samples of several sources, and the names of NVML's clocks event reason bits (nvml.h
// nvmlClocksEventReason*, formerly nvmlClocksThrottleReason*), as dcgm-exporter's
// DCGM_FI_DEV_CLOCK_THROTTLE_REASONS documents them.
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {
namespace {

template <typename T>
bool TakeMissing(const char* json_name, const std::optional<T>& from, std::optional<T>& into,
                 const std::string& source, std::map<std::string, std::string>& sources) {
  if (into || !from) return false;
  into = from;
  sources[json_name] = source;
  return true;
}

}  // namespace

void FillMissingMetrics(const TelemetrySample& from, TelemetrySample& into) {
  auto& m = into.metric_sources;
  const std::string& src = from.source;
  bool gave = false;
  gave |= TakeMissing("memory_used_bytes", from.memory_used_bytes, into.memory_used_bytes, src, m);
  gave |= TakeMissing("memory_total_bytes", from.memory_total_bytes, into.memory_total_bytes, src, m);
  gave |= TakeMissing("utilization_percent", from.utilization_percent, into.utilization_percent, src, m);
  gave |= TakeMissing("power_watts", from.power_watts, into.power_watts, src, m);
  gave |= TakeMissing("temperature_c", from.temperature_c, into.temperature_c, src, m);
  gave |=
      TakeMissing("temperature_hotspot_c", from.temperature_hotspot_c, into.temperature_hotspot_c, src, m);
  gave |= TakeMissing("temperature_memory_c", from.temperature_memory_c, into.temperature_memory_c, src, m);
  gave |= TakeMissing("fan_rpm", from.fan_rpm, into.fan_rpm, src, m);
  gave |= TakeMissing("fan_percent", from.fan_percent, into.fan_percent, src, m);
  gave |= TakeMissing("sm_clock_mhz", from.sm_clock_mhz, into.sm_clock_mhz, src, m);
  gave |= TakeMissing("sm_clock_max_mhz", from.sm_clock_max_mhz, into.sm_clock_max_mhz, src, m);
  gave |= TakeMissing("mem_clock_mhz", from.mem_clock_mhz, into.mem_clock_mhz, src, m);
  gave |= TakeMissing("power_limit_watts", from.power_limit_watts, into.power_limit_watts, src, m);
  gave |= TakeMissing("power_default_limit_watts", from.power_default_limit_watts,
                      into.power_default_limit_watts, src, m);
  gave |= TakeMissing("ecc_corrected", from.ecc_corrected, into.ecc_corrected, src, m);
  gave |= TakeMissing("ecc_uncorrected", from.ecc_uncorrected, into.ecc_uncorrected, src, m);
  gave |=
      TakeMissing("remapped_rows_pending", from.remapped_rows_pending, into.remapped_rows_pending, src, m);
  gave |= TakeMissing("remapped_rows_failed", from.remapped_rows_failed, into.remapped_rows_failed, src, m);
  gave |= TakeMissing("pcie_gen", from.pcie_gen, into.pcie_gen, src, m);
  gave |= TakeMissing("pcie_width", from.pcie_width, into.pcie_width, src, m);
  gave |= TakeMissing("pcie_gen_max", from.pcie_gen_max, into.pcie_gen_max, src, m);
  gave |= TakeMissing("pcie_width_max", from.pcie_width_max, into.pcie_width_max, src, m);
  if (TakeMissing("throttle_reasons_mask", from.throttle_reasons_mask, into.throttle_reasons_mask, src, m)) {
    into.throttle_reasons = from.throttle_reasons;
    gave = true;
  }
  if (into.processes.empty() && !from.processes.empty()) {
    into.processes = from.processes;
    m["processes"] = src;
    gave = true;
  }
  if (gave && !src.empty()) into.source += (into.source.empty() ? "" : "+") + src;
}

const std::string& MetricSource(const TelemetrySample& sample, const std::string& json_name) {
  auto it = sample.metric_sources.find(json_name);
  return it != sample.metric_sources.end() ? it->second : sample.source;
}

std::vector<std::string> ThrottleReasonNames(uint64_t mask) {
  static constexpr const char* kNames[] = {"gpu_idle",
                                           "applications_clocks_setting",
                                           "sw_power_cap",
                                           "hw_slowdown",
                                           "sync_boost",
                                           "sw_thermal_slowdown",
                                           "hw_thermal_slowdown",
                                           "hw_power_brake_slowdown",
                                           "display_clock_setting"};
  std::vector<std::string> out;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (!(mask & (1ull << bit))) continue;
    out.push_back(bit < std::size(kNames) ? kNames[bit] : "bit_" + std::to_string(bit));
  }
  return out;
}

bool IsAlarmingThrottleReason(std::string_view reason) {
  return reason == "hw_slowdown" || reason == "sw_thermal_slowdown" || reason == "hw_thermal_slowdown" ||
         reason == "hw_power_brake_slowdown";
}

}  // namespace gpudoctor
