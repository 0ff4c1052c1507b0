// What `check --live` saw when it ran each environment's interpreter (PythonEnv::live): a hang, a
// crash or an import error is an error finding with the interpreter's own words as evidence; so is a
// GPU machine where torch.cuda.is_available() is False, a failing GPU step, or a 1024x1024 matmul whose
// GPU result differs from the CPU's by more than kMatmulRelativeTolerance of the result's scale.
#include <algorithm>
#include <cstdio>

#include "core/strings.h"
#include "platform/child_protocol.h"
#include "rules/framework_parts.h"

namespace gpudoctor {
namespace {

// fp32 sums of 1024 products in another order differ by about 1e-6 of the scale; TF32 (10-bit
// mantissa) by about 1e-3. Anything beyond 1e-2 is a wrong result, not rounding.
constexpr double kMatmulRelativeTolerance = 1e-2;

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string EnvName(const PythonEnv& env) {
  return env.interpreter.empty() ? env.path : env.interpreter;
}

void AddStderr(const PythonLiveRun& run, Finding& f) {
  for (const auto& line : run.stderr_tail) f.evidence.push_back("stderr: " + line);
}

std::string StageWords(const std::string& stage) {
  if (stage == "import") return "importing torch";
  if (stage == "is_available") return "asking torch.cuda.is_available()";
  if (stage == "devices") return "listing the GPUs";
  if (stage == "matmul") return "running the matmul on the GPU";
  return stage.empty() ? "starting" : stage;
}

// torch.cuda.is_available() is False: as expected on a machine without a GPU, an error on one with a GPU.
void NoGpuSeen(const RuleContext& ctx, const PythonEnv& env, const PythonLiveRun& run,
               std::vector<Finding>& out) {
  const std::string subject = EnvName(env);
  const bool gpu_machine = !ctx.gpus.empty();
  if (!gpu_machine) {
    Finding f = MakeFinding("framework.live_ok", Layer::kFramework, Severity::kOk, subject,
                            "PyTorch " + run.torch_version + " imports; no GPU here for it to use");
    f.evidence.push_back("found torch.cuda.is_available() False, torch.version.cuda " +
                         (run.cuda.empty() ? "None" : run.cuda) + ", torch.version.hip " +
                         (run.hip.empty() ? "None" : run.hip));
    out.push_back(std::move(f));
    return;
  }
  Finding f =
      MakeFinding("framework.live_no_gpu", Layer::kFramework, Severity::kError, subject,
                  "PyTorch " + run.torch_version + " sees no GPU: torch.cuda.is_available() is False");
  f.evidence.push_back("required torch.cuda.is_available() True on " + ctx.gpus.front().label +
                       ", found False (" + run.torch_file + ", torch.version.cuda " +
                       (run.cuda.empty() ? "None" : run.cuda) + ", torch.version.hip " +
                       (run.hip.empty() ? "None" : run.hip) + ")");
  AddStderr(run, f);
  f.fix_summary =
      "the other findings say why (a CPU-only build, no code for this GPU, the driver, device access)";
  out.push_back(std::move(f));
}

void Judge(const RuleContext& ctx, const PythonEnv& env, const PythonLiveRun& run,
           std::vector<Finding>& out) {
  const std::string subject = EnvName(env);
  if (run.status != "ok") {
    std::string what = run.status == "timeout"
                           ? "hung (killed after " + std::to_string(run.elapsed_ms / 1000) + " s)"
                       : run.status == "crashed" || run.status == "failed"
                           ? ReadChildEnd(false, run.exit_code, run.signal, std::chrono::milliseconds(0)).how
                       : run.status == "no-report" ? "ended without a report"
                                                   : "could not be started";
    Finding f = MakeFinding("framework.live_failed", Layer::kFramework, Severity::kError, subject,
                            "Python " + what + " while " + StageWords(run.stage));
    f.evidence.push_back("required the live check to finish and report, found " + run.status +
                         (run.error.empty() ? "" : ": " + run.error));
    AddStderr(run, f);
    f.fix_summary = "run the same by hand to see the whole output: " + EnvName(env) +
                    " -c \"import torch; print(torch.cuda.is_available())\"";
    out.push_back(std::move(f));
    return;
  }
  if (!run.error.empty()) {
    const bool import = run.stage == "import";
    Finding f = MakeFinding(import ? "framework.live_import_error" : "framework.live_gpu_error",
                            Layer::kFramework, Severity::kError, subject,
                            import ? "import torch fails: " + run.error
                                   : "PyTorch failed while " + StageWords(run.stage) + ": " + run.error);
    f.evidence.push_back("required " + StageWords(run.stage) + " to succeed, found " + run.error);
    AddStderr(run, f);
    if (import)
      f.fix_summary = "reinstall torch in this environment (the framework findings name the build to use)";
    out.push_back(std::move(f));
    return;
  }
  if (run.cuda_available == false) {
    NoGpuSeen(ctx, env, run, out);
    return;
  }
  std::string device = run.device_names.empty() ? "the GPU" : run.device_names.front();
  if (run.matmul_max_abs_error && run.matmul_max_abs_value) {
    double scale = std::max(1.0, *run.matmul_max_abs_value);
    double err = *run.matmul_max_abs_error;
    if (!(err <= kMatmulRelativeTolerance * scale)) {  // NaN fails too
      Finding f = MakeFinding("framework.live_matmul_wrong", Layer::kFramework, Severity::kError, subject,
                              "A 1024x1024 matmul on " + device + " gives wrong results");
      f.evidence.push_back("required a max abs error <= " + Number(kMatmulRelativeTolerance * scale) +
                           " against the CPU, found " + Number(err));
      f.fix_summary = "run `gpudoctor verify` to test the GPU itself; remove HSA_OVERRIDE_GFX_VERSION if set";
      out.push_back(std::move(f));
      return;
    }
  }
  Finding f = MakeFinding("framework.live_ok", Layer::kFramework, Severity::kOk, subject,
                          "PyTorch " + run.torch_version + " ran a 1024x1024 matmul on " + device);
  std::string arch;
  for (const auto& a : run.arch_list) arch += (arch.empty() ? "" : " ") + a;
  f.evidence.push_back("found " + std::to_string(run.device_count.value_or(0)) + " device(s), arch list " +
                       (arch.empty() ? "empty" : arch));
  if (run.matmul_max_abs_error)
    f.evidence.push_back("max abs error against the CPU " + Number(*run.matmul_max_abs_error) +
                         " (values up to " + Number(run.matmul_max_abs_value.value_or(0)) + ")");
  out.push_back(std::move(f));
}

}  // namespace

void LiveRules(const RuleContext& ctx, std::vector<Finding>& out) {
  for (const auto& env : ctx.snap.python_envs)
    if (env.live) Judge(ctx, env, *env.live, out);
}

}  // namespace gpudoctor
