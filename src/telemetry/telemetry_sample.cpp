// The names of NVML's clocks event reason bits (nvml.h nvmlClocksEventReason*, formerly
// nvmlClocksThrottleReason*), as dcgm-exporter's DCGM_FI_DEV_CLOCK_THROTTLE_REASONS documents them.
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

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

}  // namespace gpudoctor
