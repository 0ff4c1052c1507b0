// The contract between `gpudoctor bench` and its worker (`gpudoctor __worker bench GROUP ...`): the request
// travels as command-line arguments, the answers as JSON lines on stdout (logs go to stderr):
//   {"type":"begin","id":"memory.triad"}                  a benchmark starts (a crash from here is its)
//   {"type":"result", <the entry of docs/bench-json.md>, "run":"measured","elapsed_ms":...}
//   {"type":"telemetry","id":...,"worker_pid":...,"reading":{...}}
//   {"type":"timeout","id":...,"limit_s":...}             the worker's watchdog gave up on a benchmark
//   {"type":"error","message":...,"hint":...}             the step could not start (no backend, say)
// A worker that dies leaves its answers so far; the first benchmark it did not answer is failed with how the
// worker ended, and the rest go to a fresh worker. (Finding the runtime and its devices is verify's runtime
// and devices gates, run by verify's worker: gates/worker_protocol.h.) Pure functions, tested without any
// process.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_types.h"
#include "bench/benchmark.h"
#include "core/result.h"
#include "platform/process.h"

namespace gpudoctor {

inline constexpr const char* kWorkerBench = "bench";

struct BenchWorkerRequest {
  std::string group = "memory";  // "memory", "transfer", "gemm", "latency"
  std::vector<std::string> ids;  // the group's benchmarks to run, in order
  BackendKind backend = BackendKind::kCuda;
  BenchOptions options;
  std::string fake_script_path;
  std::map<std::string, std::string> arch_by_pci;
  std::optional<std::chrono::seconds> limit;  // one limit per benchmark (tests); else the group's own
};

// The arguments after the executable path: "__worker", "bench", GROUP, options.
std::vector<std::string> BenchWorkerArguments(const BenchWorkerRequest& request);
// Parses what follows "__worker bench"; a user error on anything unexpected.
Result<BenchWorkerRequest> ParseBenchWorkerArguments(const std::vector<std::string>& args);

// One benchmark's entry as docs/bench-json.md shows it (used by the report too).
std::string BenchEntryJson(const BenchResult& r);  // one JSON object, compact
// The worker's lines.
std::string BenchResultLine(const BenchResult& r);
std::string BenchBeginLine(const std::string& id);
std::string BenchTelemetryLine(const BenchTelemetry& t);
std::string BenchTimeoutLine(const std::string& id, long limit_s);
std::string BenchErrorLine(const Error& error);

// The telemetry reading as JSON (every field null when missing) and back.
std::string TelemetryJson(const Telemetry& t);
Telemetry TelemetryFromJson(const std::string& text);

// Everything a worker printed, parsed; lines that are not ours (a vendor library's chatter) are ignored.
struct BenchWorkerOutput {
  std::vector<BenchResult> results;
  std::vector<BenchTelemetry> telemetry;
  std::vector<std::string> begun;  // in order
  std::optional<std::pair<std::string, long>> timeout;
  std::optional<Error> error;
};
BenchWorkerOutput ParseBenchWorkerOutput(const std::string& stdout_text);

// One worker's outcome after the process ended: a result per benchmark it answered, plus a failed result
// for the benchmark it died or hung in; `rerun` lists the ones after that one, for a fresh worker.
struct BenchStepOutcome {
  std::vector<BenchResult> results;
  std::vector<BenchTelemetry> telemetry;
  std::vector<std::string> rerun;
};
// `specs` names every benchmark (for the failed results' titles); `timeout_seconds` is the limit the whole
// process ran under.
BenchStepOutcome InterpretBenchWorker(const BenchWorkerRequest& request, const ProcessResult& process,
                                      long timeout_seconds, const std::vector<BenchSpec>& specs);

}  // namespace gpudoctor
