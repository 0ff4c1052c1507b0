// BenchReport <-> its JSON document, `gpudoctor bench --json` (schema "gpudoctor.bench/1", fields in
// docs/bench-json.md), and one BenchResult <-> its entry in that document (which the worker's result line
// carries too, bench_protocol.h). The one codec of the types: bench writes with it, `report` and `fleet
// merge` read with it. Reading checks every field's type and enumerated value and names the file and the
// JSON path of the first problem; it never throws (fuzzed: fuzz/result_documents_fuzz.cpp). The telemetry
// readings a run took are not part of the document.
#pragma once

#include <string>
#include <string_view>

#include "bench/bench_types.h"
#include "core/json_reader.h"
#include "core/result.h"

namespace gpudoctor {

inline constexpr int64_t kBenchSchemaMajor = 1;

// Pretty-printed.
std::string BenchReportToJson(const BenchReport& report);
// `origin` names the text in messages ("bench.json").
Result<BenchReport> BenchReportFromJson(std::string_view text, const std::string& origin);

// One entry of "benchmarks"; reading it keeps the first problem in `entry`'s error.
JsonValue BenchResultToJson(const BenchResult& result);
BenchResult BenchResultFromJson(const JsonReader& entry);

}  // namespace gpudoctor
