// The worker process (see worker_main.h): builds the backend the request names, runs its gates in order on
// that one backend, prints each result as it finishes and stops after the first gate that does not pass.
// Anything that goes wrong before a gate runs is still a JSON result, so the parent always has a reason to
// show. A watchdog thread (worker_watchdog.h) holds each gate to its time limit: when a gate hangs it prints
// the timeout as that gate's result and ends the process, so the parent can go on with the next gates in a
// fresh worker (the parent's own limit on the whole process stays as the backstop).
#include "gates/worker_main.h"

#include <chrono>
#include <exception>
#include <fstream>
#include <sstream>

#include "gates/gate_context.h"
#include "gates/worker_protocol.h"
#include "gates/worker_watchdog.h"
#include "gpu/backend_inputs.h"

namespace gpudoctor {
namespace {

void Print(std::FILE* out, const GateResult& r) {
  std::string line = GateResultToJson(r) + "\n";
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

Result<std::string> ReadScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return UserError("cannot read the fake backend's script " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Result<WorkerBackend> MakeWorkerBackend(BackendKind kind, const Environment& env,
                                        const std::map<std::string, std::string>& arch_by_pci,
                                        const std::string& fake_script_path) {
  WorkerBackend out;
  out.fs = MakeRootedFileSystem("/");
  BackendInputs inputs;
  inputs.fs = out.fs.get();
  inputs.env = env;
  inputs.site_packages = FindSitePackages(*out.fs, env);
  inputs.arch_by_pci = arch_by_pci;
  if (kind == BackendKind::kFake) {
    auto script = ReadScript(fake_script_path);
    if (!script) return script.error();
    inputs.fake_script = *script;
  }
  auto backend = MakeBackend(kind, inputs);
  if (!backend) return backend.error();
  out.backend = std::move(backend).value();
  return out;
}

int RunWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                  std::FILE* err) {
  if (args.size() < 2 || args[0] != kWorkerModeArg || args[1] != kWorkerVerifyGate) {
    std::fprintf(err, "gpudoctor worker: usage: __worker verify-gate GATE [options]\n");
    return 3;
  }
  auto request = ParseWorkerArguments(std::vector<std::string>(args.begin() + 2, args.end()));
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  const char* first_gate = SpecOf(request->gates.front()).name;
  auto backend = MakeWorkerBackend(request->backend, env, request->arch_by_pci, request->fake_script_path);
  if (!backend) {
    Print(out, FailedGate(first_gate, backend.error()));
    return 0;
  }
  GateContext ctx{*backend->backend, request->options, err};
  WorkerWatchdog watchdog(out);
  for (GateId gate : request->gates) {
    std::chrono::seconds limit = TimeoutOf(*request, gate);
    watchdog.Start(limit, GateResultToJson(TimedOutGate(gate, static_cast<long>(limit.count()), true)));
    GateResult result;
    try {
      result = RunGate(gate, ctx);
    } catch (const std::exception& e) {
      result =
          FailedGate(SpecOf(gate).name, InternalError(std::string("gate raised an exception: ") + e.what()));
    }
    bool passed = result.status == GateStatus::kPass;
    watchdog.Report(GateResultToJson(result));
    if (!passed) break;  // the GPU context may be unusable now; the parent goes on in a fresh worker
  }
  return 0;
}

}  // namespace gpudoctor
