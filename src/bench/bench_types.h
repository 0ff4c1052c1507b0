// The benchmarks as data: run levels, what one benchmark measured (one entry of `bench --json`), its verdict
// against the card's peak, the findings that explain a low figure, and the whole report. The worker
// (bench_worker.h) fills the measured half of a BenchResult; the parent (bench_runner.h) adds the peak, the
// percentage and the verdict (bench_spec.h) and the findings (bench_causes.h); renderers (bench_report.h)
// turn it into text, JSON or CSV.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/severity.h"
#include "gpu/backend.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// quick: under 15 s on an H200; standard: under a minute.
enum class BenchLevel { kQuick, kStandard };
const char* ToString(BenchLevel level);  // "quick", "standard"
std::optional<BenchLevel> BenchLevelFromString(std::string_view s);

// A figure set against the card's peak (bench_spec.h).
enum class BenchVerdict { kOk, kLow, kFailed, kSkipped };
const char* ToString(BenchVerdict v);  // "ok", "low", "failed", "skipped"
std::optional<BenchVerdict> BenchVerdictFromString(std::string_view s);

// The benchmark's own check of its results (against an analytic or CPU reference).
enum class BenchCheck { kPassed, kFailed, kNotRun };

// One point of a sweep: the size or count at x, the best of the repetitions there (NaN: none measured).
struct BenchPoint {
  double x = 0;
  double value = 0;
};

// How the worker's run of one benchmark ended.
enum class BenchRun {
  kMeasured,  // it ran; `check` says whether its results were right
  kSkipped,   // it could not apply here (no TF32 on this backend, no BLAS library): `note` says why
  kError,     // it could not run, crashed or hung: `note` says why
};
const char* ToString(BenchRun r);  // "measured", "skipped", "error"
std::optional<BenchRun> BenchRunFromString(std::string_view s);

// The fixed facts of one benchmark.
struct BenchSpec {
  std::string id;       // "memory.triad"
  std::string group;    // "memory"
  std::string title;    // "Device memory: triad"
  std::string unit;     // "GB/s", "TFLOP/s", "us"
  std::string x_label;  // "array size"
  std::string x_unit;   // "bytes"
  bool higher_is_better = true;
};

struct BenchResult {
  BenchSpec spec;
  BenchRun run = BenchRun::kMeasured;
  std::vector<BenchPoint> points;  // the sweep, in x order; value = the best of the repetitions at x
  std::optional<double> best;      // the best point (highest, or lowest when !higher_is_better)
  BenchCheck check = BenchCheck::kNotRun;
  std::string check_detail;  // why the check failed
  std::string note;          // how it was measured, what was chosen, why it did not run
  double elapsed_ms = 0;
  // The parent's judgement (bench_spec.h).
  std::optional<double> peak;
  std::optional<double> percent_of_peak;
  BenchVerdict verdict = BenchVerdict::kOk;
  std::string peak_source;  // "knowledge base: H200", "PCIe 5.0 x16 (NVML)"; "" when there is no peak
};

// "passed", "failed: <why>", "not run".
std::string CheckText(const BenchResult& r);
// The best point of a sweep in the benchmark's direction, over the points at x >= min_x when there are
// any (all of them otherwise); nullopt for an empty sweep.
std::optional<double> BestOf(const std::vector<BenchPoint>& points, bool higher_is_better, double min_x = 0);

// Sweeps over device memory take their best figure from buffers of this size and more: beyond every GPU
// cache today (MI300X's Infinity Cache is 256 MB, an H200's L2 50 MB), so the figure is the memory's.
inline constexpr uint64_t kBeyondCacheBytes = 256ull << 20;

// A telemetry reading a worker took while a benchmark loaded the GPU.
struct BenchTelemetry {
  std::string id;  // the benchmark running at the time
  TelemetrySample reading;
  uint32_t worker_pid = 0;  // the worker's own process id (to tell it from the reading's other processes)
};

struct BenchFinding {
  std::string id;  // "bench.pcie_downtrained"
  Severity severity = Severity::kInfo;
  std::string title;
  std::vector<std::string> evidence;
  std::string fix;
};

// The device the benchmarks ran on: the runtime's identity of it (gpu/backend.h) and the backend it ran
// through.
struct BenchDevice : DeviceInfo {
  std::string backend;  // "cuda", "hip", "fake"
};

struct BenchReport {
  std::string tool_version;
  BenchLevel level = BenchLevel::kQuick;
  std::optional<BenchDevice> device;
  std::string runtime_version;
  std::vector<BenchResult> benchmarks;
  std::vector<BenchTelemetry> telemetry;
  std::vector<BenchFinding> findings;
  // What the figures were set against (bench_spec.h): the knowledge base's model and how it was matched,
  // and the PCIe link as trained and at most ("PCIe 5.0 x16 (NVML under load)"); "" when unknown.
  std::string peak_model;
  std::string peak_model_source;
  std::string link_now;
  std::string link_max;
  double duration_s = 0;
  int exit_code = 0;  // 0 all ok, 1 a benchmark failed or is low, 2 no usable GPU
};

}  // namespace gpudoctor
