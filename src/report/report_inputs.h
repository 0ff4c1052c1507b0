// The saved results `gpudoctor report` puts in its page: a `gpudoctor verify --json` document
// (docs/verify-json.md) and a `gpudoctor bench --json` document (docs/bench-json.md), read back from
// files a user passes in. The parsers check the schema, the types and the enumerated values, and name
// the file and the JSON path of the first problem; they never throw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

// ---- verify --json (schema_version 1) ----

enum class GateOutcome { kPass, kFail, kSkip };
const char* ToString(GateOutcome g);  // "pass", "fail", "skip"

struct VerifyFigure {
  std::string label;
  std::optional<double> value;  // null in the file: could not be measured
  std::string unit;
};

struct VerifyGateEntry {
  std::string gate;  // "kernel"
  std::string title;
  GateOutcome status = GateOutcome::kSkip;
  std::string summary;
  std::string hint;
  std::optional<double> elapsed_ms;
  std::vector<VerifyFigure> figures;  // the first is the headline
  std::vector<std::string> details;
  std::vector<std::string> findings;
};

struct VerifyDeviceEntry {
  int64_t index = 0;
  std::string name;
  std::string pci_address;
  std::string arch;
  std::optional<uint64_t> memory_total_bytes;
  std::optional<int64_t> compute_units;
};

struct VerifyDocument {
  int64_t schema_version = 1;
  std::string tool_version;
  std::string level;
  std::string backend;  // "" when null
  std::string runtime_version;
  std::optional<VerifyDeviceEntry> device;
  std::vector<VerifyGateEntry> gates;
  std::vector<std::string> findings;
  std::string advice;
  std::string inject;  // "none" outside gpudoctor's own tests
  std::optional<double> elapsed_ms;
  std::string verdict;
  std::optional<int64_t> exit_code;
};

inline constexpr int64_t kVerifyInputSchemaVersion = 1;

// `origin` names the file in messages ("verify.json").
Result<VerifyDocument> ParseVerifyJson(std::string_view text, const std::string& origin);

// ---- bench --json (schema "gpudoctor.bench/1") ----

inline constexpr std::string_view kBenchSchema = "gpudoctor.bench/1";

enum class BenchVerdict { kOk, kLow, kFailed, kSkipped };
const char* ToString(BenchVerdict v);  // "ok", "low", "failed", "skipped"

enum class BenchCheck { kPassed, kFailed, kNotRun };

struct BenchPoint {
  double x = 0;
  double value = 0;  // NaN when the file has null
};

struct BenchEntry {
  std::string id;     // "memory.triad"
  std::string group;  // "memory"
  std::string title;  // "Device memory: triad"
  std::string unit;   // "GB/s"
  bool higher_is_better = true;
  std::string x_label;
  std::string x_unit;  // "bytes"
  std::vector<BenchPoint> points;
  std::optional<double> best;
  std::optional<double> peak;
  std::optional<double> percent_of_peak;
  BenchVerdict verdict = BenchVerdict::kOk;
  BenchCheck check = BenchCheck::kNotRun;
  std::string check_text;  // the file's text: "passed", "failed: <why>", "not run"
  std::string note;
};

struct BenchFindingEntry {
  std::string id;
  std::string severity;  // "ok", "info", "warning", "error"
  std::string title;
  std::vector<std::string> evidence;
  std::string fix;
};

struct BenchDeviceEntry {
  int64_t index = 0;
  std::string name;
  std::string arch;
  std::string pci_address;
  std::string backend;
};

struct BenchDocument {
  std::string schema;
  std::string tool_version;
  BenchDeviceEntry device;
  std::string level;
  std::optional<double> duration_s;
  std::vector<BenchEntry> benchmarks;
  std::vector<BenchFindingEntry> findings;
};

Result<BenchDocument> ParseBenchJson(std::string_view text, const std::string& origin);

}  // namespace gpudoctor
