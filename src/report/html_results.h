// The measured half of the HTML report: the verify gates as a table with pass/fail/skip badges and
// their figures, and the bench results as charts (one per group of sweeps that share a unit) with a
// table of best figures against the spec peak. A failed result check is shown loudly: a benchmark
// whose own verification failed has no trustworthy number, whatever the number says.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_types.h"
#include "gates/verify_result.h"
#include "report/svg_chart.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The <section id="verify"> element; `verify` absent gives the section with how to add it.
std::string RenderVerifySection(const std::optional<VerifyReport>& verify, const std::string& origin,
                                const Snapshot& snapshot);

// The <section id="bench"> element, likewise.
std::string RenderBenchSection(const std::optional<BenchReport>& bench, const std::string& origin,
                               const Snapshot& snapshot);

// Benchmarks drawn in one chart: the same group, unit and x unit, in the file's order.
struct BenchChartGroup {
  std::string group;
  std::string title;  // "Device memory" (the titles' common part before ':'), else the group
  std::vector<const BenchResult*> entries;
  bool drawable = false;  // at least one point has a finite value: a chart is drawn
};
std::vector<BenchChartGroup> GroupBenchmarks(const BenchReport& bench);
ChartSpec BenchChartSpec(const BenchChartGroup& group);

// The benchmarks whose result check failed.
std::vector<const BenchResult*> FailedBenchChecks(const BenchReport& bench);

}  // namespace gpudoctor
