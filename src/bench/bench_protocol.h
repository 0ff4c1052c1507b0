// bench as a job of the worker layer (`gpudoctor __worker bench --items ID[,ID...] --set group=GROUP ...`):
// the request in and out of the one WorkerRequest (worker/worker_request.h), and the job's own lines of
// worker/worker_protocol.h:
//   {"type":"result", <the entry of docs/bench-json.md>, "run":"measured","elapsed_ms":...}
//   {"type":"telemetry","id":...,"worker_pid":...,"reading":{...}}
// (begin, timeout and error lines are the worker layer's). A worker that dies leaves its answers so far; the
// first benchmark it did not answer is failed with how the worker ended, and the rest go to a fresh worker.
// Pure functions, tested without any process.
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
#include "worker/worker_request.h"

namespace gpudoctor {

inline constexpr const char* kWorkerBench = "bench";

struct BenchWorkerRequest {
  std::string group = "memory";  // "memory", "transfer", "gemm", "latency"
  std::vector<std::string> ids;  // the group's benchmarks to run, in order
  // Backend, device, fake script, hints; its limit is one per benchmark (tests), else the group's own.
  WorkerTarget target;
  BenchOptions options;
};

// The request in the worker layer's form and back; a user error on anything unexpected.
WorkerRequest ToWorkerRequest(const BenchWorkerRequest& request);
Result<BenchWorkerRequest> BenchRequestFromWorker(const WorkerRequest& request);

// The worker's lines.
std::string BenchResultLine(const BenchResult& r);
std::string BenchTelemetryLine(const BenchTelemetry& t);
Result<BenchResult> BenchResultFromLine(const std::string& line);
Result<BenchTelemetry> BenchTelemetryFromLine(const std::string& line);

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
