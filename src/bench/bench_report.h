// Renderings of a bench run: aligned text tables per group (best figure, peak, % of peak, verdict, check,
// the sweep in one line) and CSV (one row per sweep point, RFC 4180 quoting). The JSON document is the
// type's codec, bench/bench_json.h.
#pragma once

#include <string>

#include "bench/bench_types.h"

namespace gpudoctor {

std::string RenderBenchText(const BenchReport& report, bool color);
std::string RenderBenchCsv(const BenchReport& report);
// One line saying how the run went ("17 benchmarks ran, results checked; 2 low" / "FAILED: ...").
std::string BenchVerdictLine(const BenchReport& report);

}  // namespace gpudoctor
