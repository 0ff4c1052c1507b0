// `gpudoctor verify`: parses the flags into a VerifyRequest, probes the machine for the PCI view, runs the
// gates through worker processes (gates/verify_runner.h) and renders the report. No GPU logic lives here.
#include "cli/verify_command.h"

#include "cli/flag_values.h"
#include "cli/output.h"
#include "core/strings.h"
#include "gates/device_choice.h"
#include "gates/verify_json.h"
#include "gates/verify_report.h"
#include "gates/verify_runner.h"
#include "platform/process.h"
#include "probe/probe_inputs.h"
#include "topo/machine_pass.h"

namespace gpudoctor {

std::string VerifyCommand::Description() const {
  return "Run staged quality gates on the GPU, each in a child process with a time limit, so a crash or a "
         "hang "
         "becomes a failed gate with its reason instead of taking gpudoctor down. In order: the runtime "
         "loads; "
         "the devices enumerate and match the PCI bus; a context opens; most of the free memory can be "
         "allocated; host<->device copies come back intact; a kernel compiled at run time computes the right "
         "result; GEMM in fp32, TF32, fp16 and bf16 agrees with a CPU reference; a memory test passes over a "
         "share of VRAM; a sustained load runs without throttling or errors. A gate whose dependencies did "
         "not "
         "pass is skipped. Details and the JSON schema: docs/verify.md, docs/verify-json.md.\n\n"
         "Exit codes: 0 every gate that ran passed, 1 a gate failed, 2 no usable GPU or runtime, 3 gpudoctor "
         "itself failed.\n\n"
         "Examples:\n"
         "  gpudoctor verify                          quick gates (under 10 s) on the first GPU\n"
         "  gpudoctor verify --level standard         about a minute: bigger sizes, a 20 s load\n"
         "  gpudoctor verify --level long --device 0000:17:00.0\n"
         "  gpudoctor verify --json > verify.json     the report as JSON";
}

void VerifyCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--json", &json_, "Print the report as JSON (schema: docs/verify-json.md).");
  flags.Choice("--level", &level_, {"quick", "standard", "long"},
               "quick (< 10 s), standard (< 1 min) or long (minutes), as DCGM's run levels.");
  flags.String("--device", &device_, "N|PCI",
               "The GPU to test: the runtime's index or a PCI address (default: 0).");
  flags.Choice("--backend", &backend_, {"auto", "cuda", "hip"},
               "The GPU runtime to use (default: from the GPUs found).");
  flags.String("--memtest-fraction", &memtest_fraction_, "F",
               "Share of VRAM the memory test covers, 0 < F <= 0.95 (default by level: 0.1, 0.5, 0.9).");
  flags.String("--sustain-seconds", &sustain_seconds_, "S",
               "Length of the sustained load (default by level: 1, 20, 180 s).");
  flags.Choice("--inject", &inject_,
               {"none", "kernel-hang", "wrong-result", "oversize-alloc", "worker-crash"},
               "Plant a fault (tests of gpudoctor itself).");
  flags.String("--fake-script", &fake_script_, "FILE",
               "Use the scripted fake backend (tests of gpudoctor itself).");
  flags.String("--gate-timeout", &gate_timeout_, "S",
               "One time limit for every gate (tests of gpudoctor itself).");
  flags.Hide("--inject");
  flags.Hide("--fake-script");
  flags.Hide("--gate-timeout");
}

int VerifyCommand::Run(const CliContext& ctx) {
  VerifyRequest request;
  request.options.level = VerifyLevelFromString(level_).value_or(VerifyLevel::kQuick);
  request.options.inject = InjectedFaultFromString(inject_).value_or(InjectedFault::kNone);
  request.device_selector = device_;
  if (auto s = CheckDeviceSelector(device_); !s) return ReportError(ctx.err, s.error());
  if (backend_ != "auto") request.backend = BackendKindFromString(backend_);
  auto fraction = NumberFlag("--memtest-fraction", memtest_fraction_, 0, 0.95);
  if (!fraction) return ReportError(ctx.err, fraction.error());
  request.options.memtest_fraction = fraction->value_or(0);
  auto sustain = NumberFlag("--sustain-seconds", sustain_seconds_, 0, 86400);
  if (!sustain) return ReportError(ctx.err, sustain.error());
  request.options.sustain_seconds = sustain->value_or(0);
  auto gate_timeout = SecondsFlag("--gate-timeout", gate_timeout_);
  if (!gate_timeout) return ReportError(ctx.err, gate_timeout.error());
  request.gate_timeout = *gate_timeout;
  if (!fake_script_.empty()) request.fake_script_path = fake_script_;

  auto self = CurrentExecutablePath();
  if (!self)
    return ReportError(ctx.err, self.error().With("finding gpudoctor's own executable for the worker"));
  ProbeInputs inputs = MakeLiveInputs(ctx.env);
  Snapshot snapshot = ProbeMachine(inputs);

  WorkerProcessExecutor executor(*self);
  GateProgress progress = [&ctx](const GateResult& r) {
    if (ctx.stderr_is_tty) WriteAll(ctx.err, RenderGateProgress(r));
  };
  VerifyReport report = RunVerify(request, snapshot, ctx.env, executor, progress);
  bool color = ctx.stdout_is_tty && !ctx.env.Has("NO_COLOR");
  WriteAll(ctx.out, json_ ? VerifyReportToJson(report) : RenderVerifyText(report, color));
  return report.exit_code;
}

}  // namespace gpudoctor
