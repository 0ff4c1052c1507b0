// The gate worker (see gate_job.h): builds the backend the request names, runs its gates in order on that
// one backend, prints each result as it finishes and stops after the first gate that does not pass.
// Anything that goes wrong before a gate runs is still a result, so the parent always has a reason to show.
// A watchdog thread (worker/worker_watchdog.h) holds each gate to its time limit: when a gate hangs it
// prints the timeout line and ends the process, so the parent can go on with the next gates in a fresh
// worker (the parent's own limit on the whole process stays as the backstop).
#include "gates/gate_job.h"

#include <chrono>
#include <exception>

#include "gates/gate_context.h"
#include "gates/gate_fake_kernels.h"
#include "gates/gate_protocol.h"
#include "gates/worker_sampler.h"
#include "worker/worker_backend.h"
#include "worker/worker_protocol.h"
#include "worker/worker_watchdog.h"

namespace gpudoctor {
namespace {

int RunGates(const WorkerRequest& worker_request, const Environment& env, std::FILE* out, std::FILE* err) {
  auto request = GateRequestFromWorker(worker_request);
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  const char* first_gate = SpecOf(request->gates.front()).name;
  auto backend = MakeWorkerBackend(worker_request, env, GateFakeKernels());
  if (!backend) {
    PrintWorkerLine(out, GateResultToJson(FailedGate(first_gate, backend.error())));
    return 0;
  }
  GateContext ctx{*backend->backend,      request->options,
                  request->target.device, err,
                  std::nullopt,           WorkerSamplerOpener(worker_request.backend, *backend, env)};
  WorkerWatchdog watchdog(out);
  for (GateId gate : request->gates) {
    const char* name = SpecOf(gate).name;
    std::chrono::seconds limit = TimeoutOf(*request, gate);
    watchdog.Start(limit, WorkerTimeoutLine(name, static_cast<long>(limit.count())));
    watchdog.Print(WorkerBeginLine(name));
    GateResult result;
    try {
      result = RunGate(gate, ctx);
    } catch (const std::exception& e) {
      result = FailedGate(name, InternalError(std::string("gate raised an exception: ") + e.what()));
    }
    bool passed = result.status == GateStatus::kPass;
    watchdog.Report(GateResultToJson(result));
    if (!passed) break;  // the GPU context may be unusable now; the parent goes on in a fresh worker
  }
  return 0;
}

}  // namespace

WorkerJob VerifyGateJob() {
  return {kWorkerVerifyGate, RunGates};
}

}  // namespace gpudoctor
