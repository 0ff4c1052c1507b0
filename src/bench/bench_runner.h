// The parent side of `gpudoctor bench`: finds the runtime and its devices with verify's runtime and devices
// gates (one worker), picks the device, runs each benchmark group in a worker of its own (one GPU context
// for the group's benchmarks), goes on in a fresh worker after a crash or a hang (which fails only the
// benchmark it happened in), then sets each figure beside the card's peak (bench_spec.h) and explains the
// low ones (bench_causes.h). The executors are interfaces, so the order, the retries and the judgement are
// tested against scripted answers; the real ones start worker processes.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_protocol.h"
#include "bench/bench_types.h"
#include "gates/verify_runner.h"
#include "knowledge/knowledge_db.h"
#include "platform/environment.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Runs some of one group's benchmarks somewhere and always returns their outcome (a crash or a hang is a
// failed result); never empty for a non-empty request.
class BenchExecutor {
 public:
  virtual ~BenchExecutor() = default;
  virtual BenchStepOutcome Run(const BenchWorkerRequest& request) = 0;
};

// Re-executes `executable` as a bench worker (bench_job.h).
class BenchProcessExecutor final : public BenchExecutor {
 public:
  explicit BenchProcessExecutor(std::string executable) : executable_(std::move(executable)) {}
  BenchStepOutcome Run(const BenchWorkerRequest& request) override;

 private:
  std::string executable_;
};

struct BenchRequest {
  BenchOptions options;                       // level, planted fault (the device index is picked here)
  std::vector<std::string> groups;            // --only; empty = every group
  std::string device_selector;                // --device: "", an index or a PCI address
  std::optional<BackendKind> backend;         // --backend; nullopt = from the snapshot
  std::string fake_script_path;               // hidden: the fake backend's script (forces the fake backend)
  std::optional<std::chrono::seconds> limit;  // hidden: one limit for every benchmark (tests)
};

// Called as the run goes: a line of progress for the terminal (stderr).
using BenchProgress = std::function<void(const std::string& line)>;

// The groups `--only` may name, in order.
std::vector<std::string> BenchGroupNames();

BenchReport RunBench(const BenchRequest& request, const Snapshot& snapshot, const KnowledgeDb& db,
                     GateExecutor& device_executor, BenchExecutor& executor,
                     const BenchProgress& progress = {});

// 0 every benchmark ran, checked right and none is low; 1 one failed or is low; 2 no usable GPU.
int BenchExitCode(const BenchReport& report);

}  // namespace gpudoctor
