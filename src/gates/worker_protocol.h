// The contract between `gpudoctor verify` and its worker (`gpudoctor __worker verify-gate NAME ...`): the
// request travels as command-line arguments, the answer as one JSON object on stdout (logs go to stderr),
// and a worker that dies or hangs is turned into a failed gate with its reason. Pure functions, tested
// without any process.
#pragma once

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
  GateId gate = GateId::kRuntime;
  BackendKind backend = BackendKind::kCuda;
  GateOptions options;
  std::string fake_script_path;                    // the fake backend's script file
  std::map<std::string, std::string> arch_by_pci;  // architecture hints from the probe (HIP)
};

// The worker's arguments after the executable path: "__worker verify-gate NAME --backend cuda ...".
std::vector<std::string> WorkerArguments(const WorkerRequest& request);
// Parses what follows "__worker verify-gate"; a user error on anything unexpected.
Result<WorkerRequest> ParseWorkerArguments(const std::vector<std::string>& args);

std::string GateResultToJson(const GateResult& result);
Result<GateResult> GateResultFromJson(const std::string& text);

// "segmentation fault" for 11, "" when unknown.
std::string SignalName(int signal);

// Turns a finished worker process into the gate's result: its JSON when it answered, else a failed gate
// saying how it ended ("worker killed by signal 11 (segmentation fault) during gate kernel",
// "timed out after 20 s"). `timeout_seconds` is the limit it ran under.
GateResult InterpretWorker(GateId gate, const ProcessResult& process, long timeout_seconds);

}  // namespace gpudoctor
