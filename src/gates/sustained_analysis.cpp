// AnalyzeSustained (see sustained_analysis.h).
#include "gates/sustained_analysis.h"

#include <algorithm>

namespace gpudoctor {
namespace {

template <typename T>
void KeepMax(std::optional<T>& slot, const std::optional<T>& v) {
  if (v && (!slot || *v > *slot)) slot = v;
}
void KeepMin(std::optional<uint32_t>& slot, const std::optional<uint32_t>& v) {
  if (v && (!slot || *v < *slot)) slot = v;
}

}  // namespace

SustainedVerdict AnalyzeSustained(const std::vector<TelemetrySample>& readings,
                                  const std::optional<TelemetrySample>& before,
                                  const std::optional<TelemetrySample>& after) {
  SustainedVerdict v;
  v.readings = static_cast<int>(readings.size());
  for (const auto& t : readings) {
    KeepMax(v.max_temperature_c, t.temperature_c);
    KeepMax(v.max_power_watts, t.power_watts);
    KeepMin(v.min_sm_clock_mhz, t.sm_clock_mhz);
    KeepMax(v.max_sm_clock_mhz, t.sm_clock_mhz);
    for (const auto& r : t.throttle_reasons) ++v.reason_counts[r];
  }
  std::string of = " of " + std::to_string(v.readings) + " readings";
  for (const auto& [reason, count] : v.reason_counts) {
    std::string line = reason + " in " + std::to_string(count) + of;
    if (IsAlarmingThrottleReason(reason)) {
      v.failed = true;
      v.problems.push_back("clocks held down by " + line);
    } else if (reason != "gpu_idle") {
      v.notes.push_back(line);
    }
  }
  if (before && after && before->ecc_uncorrected && after->ecc_uncorrected &&
      *after->ecc_uncorrected > *before->ecc_uncorrected) {
    v.failed = true;
    v.problems.push_back(std::to_string(*after->ecc_uncorrected - *before->ecc_uncorrected) +
                         " new uncorrectable ECC errors during the load");
  }
  if (before && after && before->ecc_corrected && after->ecc_corrected &&
      *after->ecc_corrected > *before->ecc_corrected)
    v.notes.push_back(std::to_string(*after->ecc_corrected - *before->ecc_corrected) +
                      " corrected ECC errors during the load");
  if (after && after->remapped_rows_failed && *after->remapped_rows_failed) {
    v.failed = true;
    v.problems.push_back("row remapping failed: the GPU's memory has run out of spare rows");
  }
  if (after && after->remapped_rows_pending && *after->remapped_rows_pending)
    v.notes.push_back("row remapping pending: a GPU reset is needed to apply it");
  return v;
}

}  // namespace gpudoctor
