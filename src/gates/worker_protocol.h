// The contract between `gpudoctor verify` and its worker (`gpudoctor __worker verify-gate NAME[,NAME...]`):
// the request travels as command-line arguments, the answer as one JSON object per gate and line on stdout
// (logs go to stderr), and a worker that dies or hangs is turned into a failed gate with its reason. A worker
// given several gates runs them in order on one GPU context and stops after the first that does not pass,
// so one context serves many gates (each context costs a few hundred milliseconds) while a crash or a hang
// still fails only the gate it happened in. Pure functions, tested without any process.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "gates/gate_types.h"
#include "platform/process.h"

namespace gpudoctor {

inline constexpr const char* kWorkerModeArg = "__worker";
inline constexpr const char* kWorkerVerifyGate = "verify-gate";
inline constexpr int kWorkerProtocolVersion = 1;

struct WorkerRequest {
  std::vector<GateId> gates = {GateId::kRuntime};  // run in this order; at least one
  BackendKind backend = BackendKind::kCuda;
  GateOptions options;
  std::string fake_script_path;                      // the fake backend's script file
  std::map<std::string, std::string> arch_by_pci;    // architecture hints from the probe (HIP)
  std::optional<std::chrono::seconds> gate_timeout;  // one limit for every gate (tests); else GateTimeout
};

// The time limit of one gate of the request.
std::chrono::seconds TimeoutOf(const WorkerRequest& request, GateId gate);

// The result a gate gets when it ran past its limit: `by_watchdog` when the worker stopped itself, else the
// parent killed it.
GateResult TimedOutGate(GateId gate, long timeout_seconds, bool by_watchdog);

// The worker's arguments after the executable path: "__worker verify-gate NAME --backend cuda ...".
std::vector<std::string> WorkerArguments(const WorkerRequest& request);
// Parses what follows "__worker verify-gate"; a user error on anything unexpected.
Result<WorkerRequest> ParseWorkerArguments(const std::vector<std::string>& args);

std::string GateResultToJson(const GateResult& result);
Result<GateResult> GateResultFromJson(const std::string& text);

// "segmentation fault" for 11, "" when unknown.
std::string SignalName(int signal);

// Turns a finished worker process into the gates' results, in the request's order: each gate it answered
// (one JSON line each), then, when it ended before answering every gate, the first unanswered one failed with
// how the worker ended ("worker killed by signal 11 (segmentation fault) during gate kernel", "timed out
// after 20 s"). The result is never empty and stops at the first gate that did not pass.
// `timeout_seconds` is the limit the whole process ran under.
std::vector<GateResult> InterpretWorker(const std::vector<GateId>& gates, const ProcessResult& process,
                                        long timeout_seconds);

}  // namespace gpudoctor
