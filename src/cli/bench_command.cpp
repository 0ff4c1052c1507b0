// `gpudoctor bench`: parses the flags into a BenchRequest, probes the machine (PCI view, links), loads the
// knowledge base, runs the groups through worker processes (bench/bench_runner.h) with progress on stderr,
// and renders the report. No GPU logic lives here.
#include "cli/bench_command.h"

#include <algorithm>

#include "bench/bench_json.h"
#include "bench/bench_report.h"
#include "bench/bench_runner.h"
#include "cli/flag_values.h"
#include "cli/output.h"
#include "core/strings.h"
#include "gates/device_choice.h"
#include "knowledge/knowledge_loader.h"
#include "platform/process.h"
#include "probe/probe_inputs.h"
#include "topo/machine_pass.h"

namespace gpudoctor {

std::string BenchCommand::Description() const {
  return "Measure how fast this GPU really is, and set each figure beside the card's peak from the knowledge "
         "base: device memory bandwidth with BabelStream's five kernels, host<->device copies from pinned "
         "and "
         "pageable memory and copies within the device, GEMM in fp32, TF32, fp16 and bf16 through the vendor "
         "BLAS, and kernel launch latency (submit, against a bare driver call, and launch + synchronize), "
         "each "
         "over a sweep of sizes. Every benchmark checks its own results and says FAILED when they are wrong, "
         "whatever the figure. A figure far below the peak is LOW, and the likely causes are checked: PCIe "
         "link trained below its maximum, power limit below the default, throttling, clocks, temperature, "
         "other processes on the GPU. Each group runs in a child process with a time limit: a crash or a "
         "hang "
         "fails that benchmark, not the tool. Progress goes to stderr. Details: docs/bench.md; JSON schema: "
         "docs/bench-json.md.\n\n"
         "Exit codes: 0 every benchmark ran, checked right and none is low; 1 a benchmark failed or is low; "
         "2 "
         "no usable GPU or runtime; 3 gpudoctor itself failed (bad flags).\n\n"
         "Examples:\n"
         "  gpudoctor bench --quick                   about 15 s on a big GPU\n"
         "  gpudoctor bench                           the standard run, under a minute\n"
         "  gpudoctor bench --only memory,gemm        some groups only\n"
         "  gpudoctor bench --device 0000:17:00.0 --json > bench.json\n"
         "  gpudoctor bench --quick --csv > bench.csv  one row per sweep point";
}

void BenchCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--quick", &quick_, "The quick level (under 15 s on an H200): fewer sizes and repetitions.");
  flags.String("--only", &only_, "GROUPS",
               "Comma-separated groups to run: memory, transfer, gemm, latency (default: all).");
  flags.String("--device", &device_, "N|PCI", "The GPU: the runtime's index or a PCI address (default: 0).");
  flags.Choice("--backend", &backend_, {"auto", "cuda", "hip"},
               "The GPU runtime to use (default: from the GPUs found).");
  flags.Bool("--json", &json_, "Print the report as JSON (schema: docs/bench-json.md).");
  flags.Bool("--csv", &csv_, "Print the sweeps as CSV, one row per point.");
  flags.String("--db", &db_, "DIR",
               "Read the knowledge base (the peaks) from DIR instead of the built-in one.");
  flags.Choice("--inject", &inject_, {"none", "wrong-result"}, "Plant a fault (tests of gpudoctor itself).");
  flags.String("--fake-script", &fake_script_, "FILE",
               "Use the scripted fake backend (tests of gpudoctor itself).");
  flags.String("--bench-timeout", &limit_, "S",
               "One time limit for every benchmark (tests of gpudoctor itself).");
  flags.Excludes("--json", "--csv");
  flags.Hide("--inject");
  flags.Hide("--fake-script");
  flags.Hide("--bench-timeout");
}

int BenchCommand::Run(const CliContext& ctx) {
  BenchRequest request;
  request.options.level = quick_ ? BenchLevel::kQuick : BenchLevel::kStandard;
  request.options.plant_wrong = inject_ == "wrong-result";
  request.device_selector = device_;
  if (auto s = CheckDeviceSelector(device_); !s) return ReportError(ctx.err, s.error());
  if (backend_ != "auto") request.backend = BackendKindFromString(backend_);
  if (!only_.empty()) {
    auto known = BenchGroupNames();
    for (auto part : Split(only_, ',')) {
      std::string name(Trim(part));
      if (std::find(known.begin(), known.end(), name) == known.end())
        return ReportError(ctx.err, UserError("--only " + only_ + ": unknown group \"" + name + "\"",
                                              "the groups are memory, transfer, gemm and latency"));
      if (std::find(request.groups.begin(), request.groups.end(), name) == request.groups.end())
        request.groups.push_back(name);
    }
  }
  auto limit = SecondsFlag("--bench-timeout", limit_);
  if (!limit) return ReportError(ctx.err, limit.error());
  request.limit = *limit;
  if (!fake_script_.empty()) request.fake_script_path = fake_script_;

  auto db = db_.empty() ? LoadEmbeddedKnowledge() : LoadKnowledgeFromDir(db_);
  if (!db) return ReportError(ctx.err, db.error().With("loading the knowledge base"));
  auto self = CurrentExecutablePath();
  if (!self)
    return ReportError(ctx.err, self.error().With("finding gpudoctor's own executable for the worker"));
  ProbeInputs inputs = MakeLiveInputs(ctx.env);
  Snapshot snapshot = ProbeMachine(inputs);

  WorkerProcessExecutor device_executor(*self);
  BenchProcessExecutor executor(*self);
  BenchProgress progress = [&ctx](const std::string& line) { WriteAll(ctx.err, line + "\n"); };
  BenchReport report = RunBench(request, snapshot, *db, device_executor, executor, progress);
  for (const auto& b : report.benchmarks)
    if (b.check == BenchCheck::kFailed)
      WriteAll(ctx.err,
               "gpudoctor bench: FAILED: " + b.spec.id + ": wrong results: " + b.check_detail + "\n");
  bool color = ctx.stdout_is_tty && !ctx.env.Has("NO_COLOR");
  std::string text = json_  ? BenchReportToJson(report)
                     : csv_ ? RenderBenchCsv(report)
                            : RenderBenchText(report, color);
  WriteAll(ctx.out, text);
  if (!json_ && !csv_) return report.exit_code;
  WriteAll(ctx.err, BenchVerdictLine(report) + "\n");
  return report.exit_code;
}

}  // namespace gpudoctor
