// RunVerify and the worker-process executor (see verify_runner.h).
#include "gates/verify_runner.h"

#include <algorithm>
#include <map>

#include "gates/device_choice.h"
#include "gates/device_match.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

GateResult Skipped(GateId id, std::string why) {
  GateResult r;
  r.gate = SpecOf(id).name;
  r.status = GateStatus::kSkip;
  r.summary = std::move(why);
  return r;
}

// Keeps every library line seen, the latest answer per library name winning over "not-tried".
void MergeLibraries(std::vector<BackendLibrary>& into, const std::vector<BackendLibrary>& from) {
  for (const auto& lib : from) {
    auto it =
        std::find_if(into.begin(), into.end(), [&](const BackendLibrary& l) { return l.name == lib.name; });
    if (it == into.end())
      into.push_back(lib);
    else if (lib.status != LoadStatus::kNotTried)
      *it = lib;
  }
}

}  // namespace

std::vector<GateResult> WorkerProcessExecutor::Run(const GateRequest& request) {
  // The worker holds each gate to its limit itself; this limit on the whole process is the backstop for a
  // worker that cannot even do that (stuck while exiting, say).
  std::chrono::seconds timeout{30};
  for (GateId g : request.gates) timeout += TimeoutOf(request, g);
  auto result = RunWorkerProcess(executable_, ToWorkerRequest(request), timeout);
  if (!result) {
    GateResult r;
    r.gate = SpecOf(request.gates.front()).name;
    r.status = GateStatus::kFail;
    r.summary = "could not start the worker: " + result.error().message;
    return {r};
  }
  return InterpretWorker(request.gates, *result, static_cast<long>(timeout.count()));
}

namespace {

// Collects the gates' results into the report as they come, with the status of each.
class GateRecorder {
 public:
  GateRecorder(VerifyReport& report, const GateProgress& progress) : report_(report), progress_(progress) {}

  void Record(GateResult r) {
    if (auto id = GateIdFromName(r.gate)) status_[*id] = r.status;
    MergeLibraries(report_.libraries, r.libraries);
    for (const auto& f : r.findings) report_.findings.push_back(r.gate + ": " + f);
    if (progress_) progress_(r);
    report_.gates.push_back(std::move(r));
  }
  bool Passed(GateId id) const {
    auto it = status_.find(id);
    return it != status_.end() && it->second == GateStatus::kPass;
  }
  // "" when every gate `spec` depends on passed, else why it is skipped.
  std::string Blocked(const GateSpec& spec) const {
    for (GateId dep : spec.depends_on) {
      if (Passed(dep)) continue;
      auto it = status_.find(dep);
      return std::string("skipped: needs ") + SpecOf(dep).name + " (" +
             (it == status_.end() ? "not run" : (it->second == GateStatus::kFail ? "failed" : "skipped")) +
             ")";
    }
    return {};
  }

 private:
  VerifyReport& report_;
  const GateProgress& progress_;
  std::map<GateId, GateStatus> status_;
};

// No candidate's runtime loaded: the first failure, naming every candidate's, and every other gate skipped.
void RecordNoRuntime(const DeviceChoice& choice, const Snapshot& snapshot, VerifyReport& report,
                     GateRecorder& recorder) {
  GateResult rt = choice.attempts.front().runtime;
  std::string failures;  // "cuda: ...; hip: ..."
  for (const auto& a : choice.attempts) {
    failures += std::string(failures.empty() ? "" : "; ") + ToString(a.kind) + ": " + a.runtime.summary;
    if (&a != &choice.attempts.front()) MergeLibraries(rt.libraries, a.runtime.libraries);
  }
  if (choice.attempts.size() > 1) rt.summary = "no usable GPU runtime (" + failures + ")";
  report.advice = NoRuntimeAdvice(snapshot);
  if (rt.hint.empty()) rt.hint = report.advice;
  recorder.Record(rt);
  for (const auto& spec : AllGates())
    if (spec.id != GateId::kRuntime) recorder.Record(Skipped(spec.id, "skipped: no GPU runtime"));
  report.exit_code = 2;
}

// The chosen backend's runtime and devices gates, the bus matched against the runtime, `--device` applied.
void RecordChoice(const DeviceChoice& choice, const Snapshot& snapshot, const Environment& env,
                  VerifyReport& report, GateRecorder& recorder) {
  const BackendAttempt& chosen = *choice.Chosen();
  report.backend = ToString(chosen.kind);
  report.runtime_version = chosen.runtime.runtime_version;
  recorder.Record(chosen.runtime);
  for (const auto& a : choice.attempts)  // what else was tried
    if (a.runtime.status != GateStatus::kPass) MergeLibraries(report.libraries, a.runtime.libraries);
  GateResult devices = *chosen.devices;
  report.devices = devices.devices;
  if (devices.status == GateStatus::kPass) {
    for (auto& f : MatchBusToRuntime(snapshot, chosen.kind, devices.devices, env))
      devices.findings.push_back(f);
    if (!choice.device) {
      devices.status = GateStatus::kFail;
      devices.summary = choice.device.error().message;
    } else {
      report.device = devices.devices[static_cast<size_t>(*choice.device)];
    }
  }
  if (devices.devices.empty()) report.advice = NoRuntimeAdvice(snapshot);
  recorder.Record(devices);
}

// The gates after runtime and devices, in order; a gate runs only when everything it depends on passed.
// Consecutive gates that can run go to one worker (one GPU context for all of them); it stops after the
// first that does not pass, and the loop goes on from there in a fresh worker.
void RunRemainingGates(const GateRequest& base, GateExecutor& executor, GateRecorder& recorder) {
  const auto& all = AllGates();
  size_t i = 0;
  while (i < all.size()) {
    const GateSpec& spec = all[i];
    if (spec.id == GateId::kRuntime || spec.id == GateId::kDevices) {
      ++i;
      continue;
    }
    if (std::string blocked = recorder.Blocked(spec); !blocked.empty()) {
      recorder.Record(Skipped(spec.id, blocked));
      ++i;
      continue;
    }
    GateRequest w = base;
    w.gates = {spec.id};
    for (size_t j = i + 1; j < all.size(); ++j) {
      bool runnable = std::all_of(all[j].depends_on.begin(), all[j].depends_on.end(), [&](GateId dep) {
        return recorder.Passed(dep) || std::find(w.gates.begin(), w.gates.end(), dep) != w.gates.end();
      });
      if (!runnable) break;
      w.gates.push_back(all[j].id);
    }
    auto results = executor.Run(w);
    if (results.empty()) {  // an executor that broke its contract: never loop on it
      GateResult r;
      r.status = GateStatus::kFail;
      r.summary = "internal error: the gate's executor returned nothing";
      results.push_back(r);
    }
    size_t answered = std::min(results.size(), w.gates.size());
    for (size_t k = 0; k < answered; ++k) {
      results[k].gate = SpecOf(w.gates[k]).name;  // the order is the contract, whatever the name said
      recorder.Record(std::move(results[k]));
    }
    i += answered;
  }
}

}  // namespace

VerifyReport RunVerify(const VerifyRequest& request, const Snapshot& snapshot, const Environment& env,
                       GateExecutor& executor, const GateProgress& progress) {
  auto start = Clock::now();
  VerifyReport report;
  report.tool_version = GPUDOCTOR_VERSION;
  report.level = request.options.level;
  report.inject = ToString(request.options.inject);
  GateRecorder recorder(report, progress);
  auto finish = [&]() {
    report.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return report;
  };

  GateRequest base;
  base.options = request.options;
  base.target.fake_script_path = request.fake_script_path;
  base.target.arch_by_pci = ArchHints(snapshot);
  base.target.limit = request.gate_timeout;

  // 1-2. Runtime and devices, per candidate backend (device_choice.h).
  auto order = CandidateBackends(request.backend, !request.fake_script_path.empty(), snapshot);
  DeviceChoice choice = ChooseDevice(order, base, request.device_selector, executor);
  if (!choice.Chosen()) {
    RecordNoRuntime(choice, snapshot, report, recorder);
    return finish();
  }
  RecordChoice(choice, snapshot, env, report, recorder);

  // 3... The rest, on the chosen backend and device.
  base.target.backend = choice.Chosen()->kind;
  if (choice.device)  // the device crosses to the workers as its PCI address, not the runtime's index
    base.target.device = choice.Chosen()->devices->devices[static_cast<size_t>(*choice.device)].pci_address;
  RunRemainingGates(base, executor, recorder);

  bool failed = std::any_of(report.gates.begin(), report.gates.end(),
                            [](const GateResult& g) { return g.status == GateStatus::kFail; });
  bool unusable = !recorder.Passed(GateId::kRuntime) || !recorder.Passed(GateId::kDevices);
  report.exit_code = unusable ? 2 : failed ? 1 : 0;
  return finish();
}

}  // namespace gpudoctor
