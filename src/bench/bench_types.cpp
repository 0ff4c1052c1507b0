// Names of the benchmark enums and the small shared helpers of bench_types.h.
#include "bench/bench_types.h"

#include "core/enum_names.h"

namespace gpudoctor {

constexpr std::array kBenchLevelNames = {
    EnumName<BenchLevel>{BenchLevel::kQuick, "quick"},
    EnumName<BenchLevel>{BenchLevel::kStandard, "standard"},
};

const char* ToString(BenchLevel level) {
  return NameIn(kBenchLevelNames, level);
}

std::optional<BenchLevel> BenchLevelFromString(std::string_view s) {
  return ValueIn(kBenchLevelNames, s);
}

constexpr std::array kBenchVerdictNames = {
    EnumName<BenchVerdict>{BenchVerdict::kSkipped, "skipped"},
    EnumName<BenchVerdict>{BenchVerdict::kOk, "ok"},
    EnumName<BenchVerdict>{BenchVerdict::kLow, "low"},
    EnumName<BenchVerdict>{BenchVerdict::kFailed, "failed"},
};

const char* ToString(BenchVerdict v) {
  return NameIn(kBenchVerdictNames, v);
}

std::optional<BenchVerdict> BenchVerdictFromString(std::string_view s) {
  return ValueIn(kBenchVerdictNames, s);
}

constexpr std::array kBenchRunNames = {
    EnumName<BenchRun>{BenchRun::kError, "error"},
    EnumName<BenchRun>{BenchRun::kMeasured, "measured"},
    EnumName<BenchRun>{BenchRun::kSkipped, "skipped"},
};

const char* ToString(BenchRun r) {
  return NameIn(kBenchRunNames, r);
}

std::optional<BenchRun> BenchRunFromString(std::string_view s) {
  return ValueIn(kBenchRunNames, s);
}

std::string CheckText(const BenchResult& r) {
  switch (r.check) {
    case BenchCheck::kPassed:
      return "passed";
    case BenchCheck::kFailed:
      return "failed: " + (r.check_detail.empty() ? std::string("wrong results") : r.check_detail);
    case BenchCheck::kNotRun:
      return "not run";
  }
  return "not run";
}

std::optional<double> BestOf(const std::vector<BenchPoint>& points, bool higher_is_better, double min_x) {
  bool any_large = false;
  for (const auto& p : points) any_large = any_large || p.x >= min_x;
  std::optional<double> best;
  for (const auto& p : points) {
    if (any_large && p.x < min_x) continue;
    if (!best || (higher_is_better ? p.value > *best : p.value < *best)) best = p.value;
  }
  return best;
}

}  // namespace gpudoctor
