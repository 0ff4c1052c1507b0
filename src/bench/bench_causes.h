// Why a figure is low, checked where it can be: findings built from the judged results, the telemetry the
// workers read while the GPU was loaded, and the link state (bench_spec.h). Pure functions.
//   bench.wrong_results      error    a benchmark's own check failed (FAILED whatever its figure)
//   bench.not_completed      error    a benchmark crashed, hung or could not run
//   bench.pcie_downtrained   warning  the link trained below what the card and slot allow
//   bench.power_capped       warning  the power limit is below the board's default
//   bench.throttled          warning  hardware, thermal or power-brake slowdown during a benchmark
//   bench.hot                warning  90 C or more during a benchmark
//   bench.clocks_low         warning  SM clock under 60% of its maximum while a GEMM is low
//   bench.other_processes    warning  other processes held the GPU while it was measured
//   bench.below_spec         info     low figures none of the above explains
#pragma once

#include <vector>

#include "bench/bench_spec.h"
#include "bench/bench_types.h"

namespace gpudoctor {

std::vector<BenchFinding> FindBenchCauses(const std::vector<BenchResult>& results,
                                          const std::vector<BenchTelemetry>& telemetry,
                                          const BenchPeaks& peaks);

}  // namespace gpudoctor
