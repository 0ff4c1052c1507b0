// The parent side of `gpudoctor verify`: picks the backend, runs each gate in a worker under its time
// limit, skips the gates whose dependencies did not pass, matches the runtime's devices with the PCI bus,
// and gathers everything into one VerifyReport. The executor is an interface so the ordering and skipping
// logic is tested against scripted answers, and the real one starts worker processes.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gates/gate_protocol.h"
#include "gates/gate_types.h"
#include "gates/verify_result.h"
#include "platform/environment.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Runs the request's gates somewhere, in order, and always returns their results: one per gate up to and
// including the first that did not pass (a crash or a hang is a failed result), never empty. Each gate is
// held to TimeoutOf(request, gate).
class GateExecutor {
 public:
  virtual ~GateExecutor() = default;
  virtual std::vector<GateResult> Run(const GateRequest& request) = 0;
};

// Re-executes `executable` in worker mode, one process for the whole request.
class WorkerProcessExecutor final : public GateExecutor {
 public:
  explicit WorkerProcessExecutor(std::string executable) : executable_(std::move(executable)) {}
  std::vector<GateResult> Run(const GateRequest& request) override;

 private:
  std::string executable_;
};

struct VerifyRequest {
  GateOptions options;                 // level, fraction, sustain time, fault
  std::string device_selector;         // --device: "", an index or a PCI address
  std::optional<BackendKind> backend;  // --backend; nullopt = from the snapshot
  std::string fake_script_path;        // hidden: the fake backend's script (forces the fake backend)
  std::optional<std::chrono::seconds> gate_timeout;  // hidden: one limit for every gate (tests)
};

// Called after each gate, for progress on stderr.
using GateProgress = std::function<void(const GateResult&)>;

VerifyReport RunVerify(const VerifyRequest& request, const Snapshot& snapshot, const Environment& env,
                       GateExecutor& executor, const GateProgress& progress = {});

}  // namespace gpudoctor
