// Names of the benchmark enums and the small shared helpers of bench_types.h.
#include "bench/bench_types.h"

namespace gpudoctor {

const char* ToString(BenchLevel level) {
  return level == BenchLevel::kStandard ? "standard" : "quick";
}

std::optional<BenchLevel> BenchLevelFromString(std::string_view s) {
  for (BenchLevel l : {BenchLevel::kQuick, BenchLevel::kStandard})
    if (s == ToString(l)) return l;
  return std::nullopt;
}

const char* ToString(BenchVerdict v) {
  switch (v) {
    case BenchVerdict::kOk:
      return "ok";
    case BenchVerdict::kLow:
      return "low";
    case BenchVerdict::kFailed:
      return "failed";
    case BenchVerdict::kSkipped:
      return "skipped";
  }
  return "skipped";
}

std::optional<BenchVerdict> BenchVerdictFromString(std::string_view s) {
  for (BenchVerdict v :
       {BenchVerdict::kOk, BenchVerdict::kLow, BenchVerdict::kFailed, BenchVerdict::kSkipped})
    if (s == ToString(v)) return v;
  return std::nullopt;
}

const char* ToString(BenchRun r) {
  switch (r) {
    case BenchRun::kMeasured:
      return "measured";
    case BenchRun::kSkipped:
      return "skipped";
    case BenchRun::kError:
      return "error";
  }
  return "error";
}

std::optional<BenchRun> BenchRunFromString(std::string_view s) {
  for (BenchRun r : {BenchRun::kMeasured, BenchRun::kSkipped, BenchRun::kError})
    if (s == ToString(r)) return r;
  return std::nullopt;
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
