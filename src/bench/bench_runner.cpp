// RunBench and the worker-process executor (see bench_runner.h).
#include "bench/bench_runner.h"

#include <algorithm>
#include <cstdio>

#include "bench/bench_causes.h"
#include "bench/bench_spec.h"
#include "bench/benchmark.h"
#include "core/strings.h"
#include "gates/device_choice.h"
#include "gates/device_match.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

std::string ProgressFigure(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  return b;
}

std::string ProgressLine(const BenchResult& r) {
  std::string line = "    " + r.spec.id;
  line += std::string(line.size() < 28 ? 28 - line.size() : 1, ' ');
  if (r.run == BenchRun::kMeasured) {
    line +=
        (r.best ? ProgressFigure(*r.best) + " " + r.spec.unit : std::string("-")) + "  check " + CheckText(r);
  } else {
    line += std::string(r.run == BenchRun::kSkipped ? "skipped: " : "FAILED: ") + r.note;
  }
  char took[32];
  std::snprintf(took, sizeof took, "  (%.1f s)", r.elapsed_ms / 1000.0);
  return line + took;
}

BenchFinding NoGpuFinding(std::string title, std::string evidence, std::string fix) {
  BenchFinding f{"bench.no_gpu", Severity::kError, std::move(title), {}, std::move(fix)};
  if (!evidence.empty()) f.evidence.push_back(std::move(evidence));
  return f;
}

}  // namespace

BenchStepOutcome BenchProcessExecutor::Run(const BenchWorkerRequest& request) {
  auto groups = MakeBenchmarks();
  const Benchmark* group = FindGroup(groups, request.group);
  std::vector<BenchSpec> specs = group ? group->Specs() : std::vector<BenchSpec>{};
  // The worker holds each benchmark to its limit itself; this limit on the whole process is the backstop.
  std::chrono::seconds each = request.target.limit.value_or(group ? group->TimeLimit(request.options.level)
                                                                  : std::chrono::seconds(60));
  std::chrono::seconds timeout = std::chrono::seconds(30) + each * static_cast<long>(request.ids.size());
  auto result = RunWorkerProcess(executable_, ToWorkerRequest(request), timeout);
  if (!result) {
    BenchStepOutcome out;
    for (const auto& id : request.ids) {
      BenchResult r;
      r.spec = BenchSpec{id, request.group, id, "", "", "", true};
      for (const auto& s : specs)
        if (s.id == id) r.spec = s;
      r.run = BenchRun::kError;
      r.note = "could not start the worker: " + result.error().message;
      out.results.push_back(r);
    }
    return out;
  }
  return InterpretBenchWorker(request, *result, static_cast<long>(timeout.count()), specs);
}

std::vector<std::string> BenchGroupNames() {
  std::vector<std::string> out;
  for (const auto& g : MakeBenchmarks()) out.push_back(g->Name());
  return out;
}

int BenchExitCode(const BenchReport& report) {
  if (!report.device) return 2;
  bool bad = std::any_of(report.benchmarks.begin(), report.benchmarks.end(), [](const BenchResult& r) {
    return r.verdict == BenchVerdict::kFailed || r.verdict == BenchVerdict::kLow;
  });
  return bad ? 1 : 0;
}

namespace {

// The runtime and its device, through verify's runtime and devices gates (gates/device_choice.h); a finding
// and no device when there is none to run on.
void ChooseBenchDevice(const BenchRequest& request, const Snapshot& snapshot, GateExecutor& device_executor,
                       BenchReport& report, std::string& device, BackendKind& backend) {
  GateRequest base;
  base.target.fake_script_path = request.fake_script_path;
  base.target.arch_by_pci = ArchHints(snapshot);
  auto order = CandidateBackends(request.backend, !request.fake_script_path.empty(), snapshot);
  DeviceChoice choice = ChooseDevice(order, base, request.device_selector, device_executor);
  const BackendAttempt* chosen = choice.Chosen();
  if (!chosen || !chosen->SeesDevice()) {
    std::string failures;
    for (const auto& a : choice.attempts) {
      const GateResult& last = a.devices ? *a.devices : a.runtime;
      failures += std::string(failures.empty() ? "" : "; ") + ToString(a.kind) + ": " + last.summary;
    }
    report.findings.push_back(
        NoGpuFinding("no usable GPU runtime or device", failures, NoRuntimeAdvice(snapshot)));
    return;
  }
  report.runtime_version = chosen->runtime.runtime_version;
  if (!choice.device) {
    report.findings.push_back(
        NoGpuFinding(choice.device.error().message, "", "pick a device the runtime sees with --device"));
    return;
  }
  const DeviceInfo& d = chosen->devices->devices[static_cast<size_t>(*choice.device)];
  report.device = BenchDevice{d, ToString(chosen->kind)};
  device = d.pci_address;  // the device crosses to the workers as its PCI address, not the runtime's index
  backend = chosen->kind;
}

// One group's benchmarks in a worker; after a crash or a hang the rest go on in a fresh one.
void RunGroup(const Benchmark& group, const BenchWorkerRequest& base, BenchExecutor& executor,
              BenchReport& report, const BenchProgress& progress) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  std::vector<std::string> ids;
  for (const auto& s : group.Specs()) ids.push_back(s.id);
  say("  " + group.Name() + ": " + group.Help());
  while (!ids.empty()) {
    BenchWorkerRequest w = base;
    w.group = group.Name();
    w.ids = ids;
    BenchStepOutcome outcome = executor.Run(w);
    for (auto& t : outcome.telemetry) report.telemetry.push_back(std::move(t));
    for (auto& r : outcome.results) {
      say(ProgressLine(r));
      ids.erase(std::remove(ids.begin(), ids.end(), r.spec.id), ids.end());
      report.benchmarks.push_back(std::move(r));
    }
    std::vector<std::string> rest;
    for (const auto& id : ids) {
      bool again = std::find(outcome.rerun.begin(), outcome.rerun.end(), id) != outcome.rerun.end();
      if (again && !outcome.results.empty()) {
        rest.push_back(id);
        continue;
      }
      // Neither answered nor handed back (or an executor that answered nothing): never loop on it.
      BenchResult lost;
      for (const auto& s : group.Specs())
        if (s.id == id) lost.spec = s;
      lost.run = BenchRun::kError;
      lost.note = "the worker ended without running it";
      say(ProgressLine(lost));
      report.benchmarks.push_back(std::move(lost));
    }
    ids = rest;
  }
}

// Each result against the spec, and why a figure is low.
void JudgeAgainstPeaks(const Snapshot& snapshot, const KnowledgeDb& db, BenchReport& report) {
  BenchPeaks peaks = FindPeaks(*report.device, snapshot, db, report.telemetry);
  report.peak_model = peaks.model;
  report.peak_model_source = peaks.model_source;
  auto link_text = [](const std::optional<PcieLinkState>& l) {
    return l ? PcieLinkText(l->gen, l->width) + " (" + l->source + ")" : std::string();
  };
  report.link_now = link_text(peaks.link_now);
  report.link_max = link_text(peaks.link_max);
  for (auto& r : report.benchmarks) JudgeResult(r, peaks);
  report.findings = FindBenchCauses(report.benchmarks, report.telemetry, peaks);
}

}  // namespace

BenchReport RunBench(const BenchRequest& request, const Snapshot& snapshot, const KnowledgeDb& db,
                     GateExecutor& device_executor, BenchExecutor& executor, const BenchProgress& progress) {
  auto start = Clock::now();
  BenchReport report;
  report.tool_version = GPUDOCTOR_VERSION;
  report.level = request.options.level;
  auto finish = [&]() {
    report.duration_s = std::chrono::duration<double>(Clock::now() - start).count();
    report.exit_code = BenchExitCode(report);
    return report;
  };

  // 1. The runtime and its devices.
  BenchWorkerRequest base;
  base.options = request.options;
  ChooseBenchDevice(request, snapshot, device_executor, report, base.target.device, base.target.backend);
  if (!report.device) return finish();
  if (progress)
    progress("gpudoctor bench: " + std::string(ToString(request.options.level)) + ", " + report.device->name +
             " (" + report.device->pci_address + ", " + report.device->backend + ")");

  // 2. Each group in a worker.
  base.target.fake_script_path = request.fake_script_path;
  base.target.arch_by_pci = ArchHints(snapshot);
  base.target.limit = request.limit;
  for (const auto& group : MakeBenchmarks()) {
    if (!request.groups.empty() &&
        std::find(request.groups.begin(), request.groups.end(), group->Name()) == request.groups.end())
      continue;
    RunGroup(*group, base, executor, report, progress);
  }

  // 3. Against the spec.
  JudgeAgainstPeaks(snapshot, db, report);
  return finish();
}

}  // namespace gpudoctor
