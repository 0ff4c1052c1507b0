// RunVerify and the worker-process executor (see verify_runner.h).
#include "gates/verify_runner.h"

#include <algorithm>
#include <map>

#include "gates/device_match.h"
#include "platform/process.h"

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
    else if (lib.status != "not-tried")
      *it = lib;
  }
}

}  // namespace

std::vector<GateResult> WorkerProcessExecutor::Run(const WorkerRequest& request) {
  // The worker holds each gate to its limit itself; this limit on the whole process is the backstop for a
  // worker that cannot even do that (stuck while exiting, say).
  std::chrono::seconds timeout{30};
  for (GateId g : request.gates) timeout += TimeoutOf(request, g);
  ProcessRequest p;
  p.argv.push_back(executable_);
  for (auto& a : WorkerArguments(request)) p.argv.push_back(std::move(a));
  p.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
  auto result = RunProcess(p);
  if (!result) {
    GateResult r;
    r.gate = SpecOf(request.gates.front()).name;
    r.status = GateStatus::kFail;
    r.summary = "could not start the worker: " + result.error().message;
    return {r};
  }
  return InterpretWorker(request.gates, *result, static_cast<long>(timeout.count()));
}

VerifyReport RunVerify(const VerifyRequest& request, const Snapshot& snapshot, const Environment& env,
                       GateExecutor& executor, const GateProgress& progress) {
  auto start = Clock::now();
  VerifyReport report;
  report.level = request.options.level;
  report.inject = ToString(request.options.inject);
  std::map<GateId, GateStatus> status;

  WorkerRequest base;
  base.options = request.options;
  base.fake_script_path = request.fake_script_path;
  base.arch_by_pci = ArchHints(snapshot);
  base.gate_timeout = request.gate_timeout;
  auto run = [&](GateId id, BackendKind backend) {
    WorkerRequest w = base;
    w.gates = {id};
    w.backend = backend;
    auto results = executor.Run(w);
    if (results.empty()) {  // an executor that broke its contract: never loop on it
      GateResult r;
      r.gate = SpecOf(id).name;
      r.status = GateStatus::kFail;
      r.summary = "internal error: the gate's executor returned nothing";
      return r;
    }
    return results.front();
  };
  auto record = [&](GateResult r) {
    if (auto id = GateIdFromName(r.gate)) status[*id] = r.status;
    MergeLibraries(report.libraries, r.libraries);
    for (const auto& f : r.findings) report.findings.push_back(r.gate + ": " + f);
    if (progress) progress(r);
    report.gates.push_back(std::move(r));
  };

  // 1-2. Runtime and devices, per candidate backend: the first that sees a device wins; else the first
  // whose runtime loads (to say "found, no device"); else the first candidate's failure.
  std::vector<BackendKind> order;
  if (!request.fake_script_path.empty())
    order = {BackendKind::kFake};
  else if (request.backend)
    order = {*request.backend};
  else
    order = BackendOrder(snapshot);
  std::optional<std::pair<GateResult, GateResult>> chosen;
  std::optional<std::pair<GateResult, GateResult>> loaded_no_device;
  std::optional<GateResult> first_failure;
  std::string failures;  // "CUDA: ...; HIP: ..."
  BackendKind chosen_kind = order.front();
  for (BackendKind kind : order) {
    GateResult rt = run(GateId::kRuntime, kind);
    if (rt.status != GateStatus::kPass) {
      failures += std::string(failures.empty() ? "" : "; ") + ToString(kind) + ": " + rt.summary;
      if (!first_failure)
        first_failure = rt;
      else
        MergeLibraries(first_failure->libraries, rt.libraries);
      continue;
    }
    GateResult dv = run(GateId::kDevices, kind);
    if (dv.status == GateStatus::kPass && !dv.devices.empty()) {
      chosen = {rt, dv};
      chosen_kind = kind;
      break;
    }
    if (!loaded_no_device) {
      loaded_no_device = {rt, dv};
      chosen_kind = kind;
    }
  }
  if (!chosen && loaded_no_device) chosen = loaded_no_device;
  if (!chosen) {
    GateResult rt = *first_failure;
    if (order.size() > 1) rt.summary = "no usable GPU runtime (" + failures + ")";
    report.advice = NoRuntimeAdvice(snapshot);
    if (rt.hint.empty()) rt.hint = report.advice;
    record(rt);
    for (const auto& spec : AllGates())
      if (spec.id != GateId::kRuntime) record(Skipped(spec.id, "skipped: no GPU runtime"));
    report.exit_code = 2;
    report.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return report;
  }
  report.backend = ToString(chosen_kind);
  report.runtime_version = chosen->first.runtime_version;
  record(chosen->first);
  if (first_failure) MergeLibraries(report.libraries, first_failure->libraries);  // what else was tried
  GateResult devices = chosen->second;
  report.devices = devices.devices;
  if (devices.status == GateStatus::kPass) {
    for (auto& f : MatchBusToRuntime(snapshot, chosen_kind, devices.devices, env))
      devices.findings.push_back(f);
    auto selected = SelectDevice(devices.devices, request.device_selector);
    if (!selected) {
      devices.status = GateStatus::kFail;
      devices.summary = selected.error().message;
    } else {
      report.device = devices.devices[static_cast<size_t>(*selected)];
      base.options.device_index = *selected;
    }
  }
  if (devices.devices.empty()) report.advice = NoRuntimeAdvice(snapshot);
  record(devices);

  // 3... The rest in order; a gate runs only when everything it depends on passed. Consecutive gates that can
  // run go to one worker (one GPU context for all of them); it stops after the first that does not pass,
  // and the loop goes on from there in a fresh worker.
  const auto& all = AllGates();
  auto passed = [&](GateId id) {
    auto it = status.find(id);
    return it != status.end() && it->second == GateStatus::kPass;
  };
  size_t i = 0;
  while (i < all.size()) {
    const GateSpec& spec = all[i];
    if (spec.id == GateId::kRuntime || spec.id == GateId::kDevices) {
      ++i;
      continue;
    }
    std::string blocked;
    for (GateId dep : spec.depends_on) {
      if (passed(dep)) continue;
      auto it = status.find(dep);
      blocked = std::string("skipped: needs ") + SpecOf(dep).name + " (" +
                (it == status.end() ? "not run" : (it->second == GateStatus::kFail ? "failed" : "skipped")) +
                ")";
      break;
    }
    if (!blocked.empty()) {
      record(Skipped(spec.id, blocked));
      ++i;
      continue;
    }
    WorkerRequest w = base;
    w.backend = chosen_kind;
    w.gates = {spec.id};
    for (size_t j = i + 1; j < all.size(); ++j) {
      bool runnable = std::all_of(all[j].depends_on.begin(), all[j].depends_on.end(), [&](GateId dep) {
        return passed(dep) || std::find(w.gates.begin(), w.gates.end(), dep) != w.gates.end();
      });
      if (!runnable) break;
      w.gates.push_back(all[j].id);
    }
    auto results = executor.Run(w);
    if (results.empty()) results.push_back(run(spec.id, chosen_kind));
    size_t answered = std::min(results.size(), w.gates.size());
    for (size_t k = 0; k < answered; ++k) {
      results[k].gate = SpecOf(w.gates[k]).name;  // the order is the contract, whatever the name said
      record(std::move(results[k]));
    }
    i += answered;
  }

  bool failed = std::any_of(report.gates.begin(), report.gates.end(),
                            [](const GateResult& g) { return g.status == GateStatus::kFail; });
  bool unusable =
      status[GateId::kRuntime] != GateStatus::kPass || status[GateId::kDevices] != GateStatus::kPass;
  report.exit_code = unusable ? 2 : failed ? 1 : 0;
  report.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return report;
}

}  // namespace gpudoctor
