// The judgement of a sustained load, apart from the GPU work so it is tested on recorded readings: which
// throttle reasons were seen and how often, the temperature, power and clock ranges, and new memory errors.
// Throttling that means trouble (hardware slowdown, thermal limits, a power brake) or new uncorrectable ECC
// errors fail the gate; the power cap and idle states are normal under load and are only reported.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

struct SustainedVerdict {
  bool failed = false;
  std::vector<std::string> problems;  // why it failed, one line each
  std::vector<std::string> notes;     // what was seen that is fine ("sw_power_cap in 12 of 40 readings")
  std::map<std::string, int> reason_counts;
  int readings = 0;
  std::optional<double> max_temperature_c;
  std::optional<double> max_power_watts;
  std::optional<uint32_t> min_sm_clock_mhz;
  std::optional<uint32_t> max_sm_clock_mhz;
};

SustainedVerdict AnalyzeSustained(const std::vector<TelemetrySample>& readings,
                                  const std::optional<TelemetrySample>& before,
                                  const std::optional<TelemetrySample>& after);

}  // namespace gpudoctor
