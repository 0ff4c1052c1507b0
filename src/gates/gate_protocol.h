// verify's gates as a job of the worker layer (`gpudoctor __worker verify-gate --items NAME[,NAME...]`): the
// request's gates, options and limit in and out of the one WorkerRequest (worker/worker_request.h), each
// gate's GateResult as a result line of worker/worker_protocol.h, and a worker that dies or hangs turned
// into a failed gate with its reason. A worker given several gates runs them in order on one GPU context
// and stops after the first that does not pass, so one context serves many gates (each context costs a few
// hundred milliseconds) while a crash or a hang still fails only the gate it happened in. Pure functions,
// tested without any process.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "gates/gate_types.h"
#include "platform/process.h"
#include "worker/worker_request.h"

namespace gpudoctor {

inline constexpr const char* kWorkerVerifyGate = "verify-gate";

struct GateRequest {
  std::vector<GateId> gates = {GateId::kRuntime};  // run in this order; at least one
  // Backend, device, fake script, hints; its limit is one for every gate (tests), else GateTimeout's.
  WorkerTarget target;
  GateOptions options;
};

// The time limit of one gate of the request.
std::chrono::seconds TimeoutOf(const GateRequest& request, GateId gate);

// The result a gate gets when it ran past its limit: `by_watchdog` when the worker stopped itself, else the
// parent killed it.
GateResult TimedOutGate(GateId gate, long timeout_seconds, bool by_watchdog);

// The request in the worker layer's form and back; a user error on an unknown gate, level or fault.
WorkerRequest ToWorkerRequest(const GateRequest& request);
Result<GateRequest> GateRequestFromWorker(const WorkerRequest& request);

// One gate's result line (worker/worker_protocol.h) and back.
std::string GateResultToJson(const GateResult& result);
Result<GateResult> GateResultFromJson(const std::string& text);

// Turns a finished worker process into the gates' results, in the request's order: each gate it answered,
// then, when it ended before answering every gate, the first unanswered one failed with how the worker
// ended ("worker was killed by signal 11 (segmentation fault) during gate kernel", "timed out after 20 s").
// The result is never empty and stops at the first gate that did not pass. `timeout_seconds` is the limit the
// whole process ran under.
std::vector<GateResult> InterpretWorker(const std::vector<GateId>& gates, const ProcessResult& process,
                                        long timeout_seconds);

}  // namespace gpudoctor
