// `gpudoctor tune`: picks the Python environment, runs the framework child with progress on stderr,
// and prints the knob table (text or JSON); `--apply FILE` writes the recommended lines to a new file.
#include "cli/tune_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>

#include "cli/flag_values.h"
#include "cli/output.h"
#include "cli/private_folder.h"
#include "core/strings.h"
#include "platform/identity.h"
#include "tune/tune_advice.h"
#include "tune/tune_json.h"
#include "tune/tune_perf_level.h"
#include "tune/tune_report.h"
#include "tune/tune_runner.h"

namespace gpudoctor {
namespace {

// The environment to tune: the one named by --python-env, else the active one with torch, else the
// first with torch. Each must have an interpreter to run.
const PythonEnv* PickEnv(const Snapshot& snap, bool named) {
  const PythonEnv* pick = nullptr;
  for (const auto& env : snap.python_envs) {
    if (env.interpreter.empty()) continue;
    bool by_flag = std::find(env.found_by.begin(), env.found_by.end(), "--python-env") != env.found_by.end();
    if (named) {
      if (by_flag) return &env;
      continue;
    }
    if (!env.torch) continue;
    if (env.active) return &env;
    if (!pick) pick = &env;
  }
  return pick;
}

// The env file for `shell`: its variable lines, and the Python lines as comments of that shell.
std::string EnvFileText(const TuneAdvice& advice, const std::string& device, Shell shell) {
  const std::string comment = shell == Shell::kCmd ? "REM " : "# ";
  std::string how = shell == Shell::kPowerShell ? "dot-source it in PowerShell (`. .\\FILE.ps1`)"
                    : shell == Shell::kCmd      ? "run it in cmd (`call FILE.bat`)"
                                                : "source it in bash or zsh (`. FILE`)";
  std::string text =
      comment + "Written by `gpudoctor tune` for device " + device + "; " + how + " before training.\n";
  auto env = TuneEnvLines(advice, shell);
  if (env.empty()) text += comment + "No environment variable helped on this machine.\n";
  for (const auto& line : env) text += line + "\n";
  if (!advice.python_lines.empty()) {
    text += comment + "In the training script (Python, not shell):\n";
    for (const auto& line : advice.python_lines) text += comment + "  " + line + "\n";
  }
  return text;
}

}  // namespace

std::string TuneCommand::Description() const {
  return "Run timed PyTorch training steps in your own Python environment (the one `check` finds, or "
         "--python-env DIR) and measure what each knob of the usual advice does on this machine: automatic "
         "mixed precision (fp16 with a GradScaler, bf16 where the GPU has it), channels_last, "
         "cudnn.benchmark (MIOpen find on ROCm), and the largest batch that fits (doubling, then bisection, "
         "recovering from each out-of-memory error). The knobs are timed at a quarter of the recommended "
         "batch, where the GPU rather than Python is the bottleneck (only the runs the table judges: each "
         "precision, then channels_last and cudnn.benchmark at the one chosen); the recommended settings are "
         "those of the measured run they quote, and batch 32 at fp32 (the guides' generic advice) is timed "
         "beside them. When both mixed precisions beat fp32 and the large batch is faster, the other one is "
         "timed at the large batch too and the faster kept (bf16 unless fp16 is measurably faster). When "
         "the largest batch is memory-bound (the search stopped on out-of-memory, not on its cap) and the "
         "large batch was faster than the knob batch, activation checkpointing (torch.utils.checkpoint "
         "around "
         "each residual block or encoder layer; your model only when it is an nn.Sequential) is timed at a "
         "larger batch that fits with it, against the large batch without it (both eager when torch.compile "
         "was chosen; left out by --quick). After "
         "those runs: the DataLoader workers that keep the GPU fed (a synthetic JPEG pipeline "
         "decoded on the CPU, pin_memory on and off; left out by --quick), and the allocator's "
         "expandable_segments (PYTORCH_CUDA_ALLOC_CONF, PYTORCH_HIP_ALLOC_CONF on ROCm; a second child run "
         "with the variable set that times one model's large-batch run again (the one that compiles "
         "fastest), left out by "
         "--quick). "
         "On top of the settings chosen, each at the knob batch against the settings chosen before it: TF32 "
         "(fp32 runs on NVIDIA compute capability 8.0+), the fused optimizer step (SGD fused=True), the "
         "transformer's attention backend (flash, efficient, math), and torch.compile (--compile; its "
         "compile time is reported apart, with the steps after which it pays back; --quick leaves it out). "
         "Then the library knobs, each in a child of its own with its variables set, timing the fastest "
         "eager knob run again while the run stays within its 5 minutes: TunableOp "
         "(PYTORCH_TUNABLEOP_ENABLED=1; the GEMMs it tuned are kept in a file the row names), the cuBLASLt "
         "workspace (CUBLASLT_WORKSPACE_SIZE=32768, CUDA), hipBLASLt "
         "(TORCH_BLAS_PREFER_HIPBLASLT=1, ROCm) and MIOPEN_FIND_MODE=NORMAL (ROCm); left out by --quick. "
         "A knob the GPU, torch or backend cannot use is listed with the reason. "
         "Models: ResNet-50 from torchvision (built without "
         "weights; skipped when torchvision is missing) and a transformer block of torch.nn, or your own "
         "(--model MODULE:FUNCTION, --model-file PATH[:FUNCTION]: a function returning the model, a batch "
         "maker and a loss; its code raising is reported with the traceback). Synthetic data "
         "only, nothing is downloaded, nothing on the machine is changed unless --apply asks.\n\n"
         "The benchmark runs as a child process with a time limit; a crash, a hang or a wrong result of it "
         "is reported with its evidence. Progress goes to stderr. Details and the JSON schema: "
         "docs/tune.md.\n\n"
         "Exit codes: 0 measured, 1 some measurements failed or look wrong, 2 no usable GPU or the child "
         "crashed or hung, 3 bad flags.\n\n"
         "Examples:\n"
         "  gpudoctor tune --quick                      under a minute on a GPU\n"
         "  gpudoctor tune --python-env ~/venv --json   the PyTorch in ~/venv, as JSON\n"
         "  gpudoctor tune --apply tune.env             also write the recommended settings to tune.env\n"
         "  gpudoctor tune --model-file train.py:build  your own model (docs/tune.md, \"Your own model\")";
}

void TuneCommand::DefineFlags(FlagSet& flags) {
  snapshot_.DefinePythonEnvs(flags);
  flags.Bool("--quick", &quick_,
             "A smaller transformer, few steps, and a batch search that stops once the recommended batch is "
             "decided; no torch.compile, activation checkpointing, DataLoader or allocator runs: under a "
             "minute on a "
             "GPU.");
  flags.Bool("--json", &json_, "Print the result as JSON (schema: docs/tune.md).");
  flags.String("--device", &device_, "N",
               "The GPU to measure, as torch numbers it (default 0). `cpu` measures the CPU at tiny sizes: a "
               "test aid for machines without a GPU, not advice.");
  flags.String("--timeout", &timeout_, "S",
               "Seconds the framework child may run (default 600, 120 with --quick).");
  flags.String(
      "--apply", &apply_, "FILE",
      "Write the recommended environment lines for --shell's shell (export for bash/zsh, $env: for "
      "PowerShell, set for cmd; the Python lines as comments) to FILE, a new file; `-` prints them instead. "
      "An existing FILE is never replaced; both that and a folder that cannot be written are refused "
      "before anything is measured.");
  flags.StringList("--model", &models_, "NAME|MODULE:FUNCTION",
                   "Measure only this model: resnet50, transformer, or your own: MODULE:FUNCTION, a function "
                   "(importable with the working directory on the path) returning (model, make_batch, "
                   "loss_fn) or a dict of them, make_batch(batch_size, device) -> (inputs, targets) "
                   "(repeatable; one model of your own).");
  flags.String("--model-file", &model_file_, "PATH[:FUNCTION]",
               "Your own model from a Python file: FUNCTION (default build) as for --model MODULE:FUNCTION.");
  flags.Choice("--shell", &shell_, {"auto", "bash", "powershell", "cmd"},
               "The shell the environment lines are written for (default: this machine's).");
  flags.String("--max-batch", &max_batch_, "N",
               "Cap of the largest-batch search (default 4096 images, 1024 sequences).");
  flags.Bool("--exact-search", &exact_, "Bisect the largest batch down to one sample (slower).");
  flags.String(
      "--compile", &compile_, "MODES",
      "torch.compile modes to time, comma-separated: default, reduce-overhead, max-autotune (minutes "
      "per model), or none (default: default, which on an H100 measured within 1% of reduce-overhead for "
      "both models at a fraction of the time; --quick leaves compiling out).");
  flags.Bool("--perf-level", &perf_level_,
             "With --apply: also set the AMD GPU's power_dpm_force_performance_level to high (root only), "
             "recording the previous value so that --restore puts it back.");
  flags.Bool("--restore", &restore_,
             "Put back the performance level an earlier --apply --perf-level changed, and stop.");
  flags.String("--root", &root_, "DIR", "Where /sys and the state file are (tests only).");
  flags.Hide("--root");
  flags.Excludes("--restore", "--apply");
}

int TuneCommand::Restore(const CliContext& ctx) {
  if (root_ == "/" && !CurrentUserIdentity().is_admin)
    return ReportError(ctx.err,
                       UserError("--restore writes /sys: run it as root", "sudo gpudoctor tune --restore"));
  auto change = RestorePerfLevel(root_);
  if (!change) return ReportError(ctx.err, change.error());
  WriteAll(ctx.out,
           "tune: " + change->path + ": " + change->previous + " -> " + change->now + " (restored)\n");
  return kExitOk;
}

int TuneCommand::ApplyPerfLevel(const CliContext& ctx, const Snapshot& snap) {
  if (root_ == "/" && !CurrentUserIdentity().is_admin)
    return ReportError(ctx.err,
                       UserError("--perf-level writes /sys: run it as root", "sudo gpudoctor tune ..."));
  // torch numbers the GPUs it sees: the AMD GPUs in PCI order, as the visible-devices variables pick them.
  std::vector<std::string> amd;
  for (const auto& g : snap.gpus)
    if (g.vendor == GpuVendor::kAmd && !g.pci_address.empty()) amd.push_back(g.pci_address);
  auto index = ParseU64(device_);
  if (!index)
    return ReportError(ctx.err, UserError("--perf-level: --device " + device_ + " is not a GPU number"));
  auto pci = VisibleAmdGpu(amd, *index, ctx.env);
  if (!pci) return ReportError(ctx.err, pci.error());
  auto change = gpudoctor::ApplyPerfLevel(root_, *pci, "high");
  if (!change) return ReportError(ctx.err, change.error());
  WriteAll(ctx.err, "tune: " + change->path + ": " + change->previous + " -> " + change->now +
                        " (`gpudoctor tune --restore` puts it back)\n");
  return kExitOk;
}

namespace {

// --model-file PATH or PATH:FUNCTION as the child's MODULE:FUNCTION form: a colon after the file's last
// separator names the function (a Windows drive's colon does not); the file must exist.
Result<std::string> UserModelFromFile(const std::string& model_file) {
  const size_t sep = model_file.find_last_of("/\\");
  const size_t colon = model_file.rfind(':');
  const bool has_function =
      colon != std::string::npos && (sep == std::string::npos || colon > sep) && colon > 0;
  const std::string path = has_function ? model_file.substr(0, colon) : model_file;
  const std::string function = has_function ? model_file.substr(colon + 1) : "build";
  std::error_code ec;
  if (path.empty() || function.empty() || !std::filesystem::is_regular_file(path, ec))
    return UserError("--model-file " + model_file + ": no such Python file",
                     "e.g. --model-file train.py:build");
  return std::filesystem::absolute(path, ec).string() + ":" + function;
}

// The models to time: the built-in ones --model names, and the user's own (--model MODULE:FUNCTION or
// --model-file), timed as model "user"; one model of the user's own per run.
Result<std::vector<std::string>> ReadModels(const std::vector<std::string>& named,
                                            const std::string& model_file, std::string& user_model) {
  std::vector<std::string> models;
  for (const auto& m : named) {
    if (m == "resnet50" || m == "transformer") {
      models.push_back(m);
    } else if (m.find(':') != std::string::npos && m.front() != ':' && m.back() != ':') {
      if (!user_model.empty()) return UserError("--model " + m + ": one model of your own per run");
      user_model = m;
    } else {
      return UserError("--model " + m + ": unknown model",
                       "use resnet50, transformer, or MODULE:FUNCTION for your own");
    }
  }
  if (!model_file.empty()) {
    if (!user_model.empty())
      return UserError("--model-file: one model of your own per run (--model " + user_model + " is one)");
    auto from_file = UserModelFromFile(model_file);
    if (!from_file) return from_file.error();
    user_model = *from_file;
  }
  if (!user_model.empty()) models.push_back("user");
  return models;
}

// --compile's modes, comma-separated, each checked; "none": no compiled run ("").
Result<std::string> ReadCompileModes(const std::string& compile) {
  if (compile == "none") return std::string();
  for (const auto& mode : Split(compile, ','))
    if (mode != "default" && mode != "reduce-overhead" && mode != "max-autotune")
      return UserError("--compile " + compile + ": unknown mode \"" + std::string(mode) + "\"",
                       "give default, reduce-overhead, max-autotune (comma-separated) or none");
  return compile;
}

// --apply FILE is checked before minutes of work: it must not exist (it is never replaced) and its folder
// must take a new file (issue 35, attempt 98: a folder that cannot be written failed only after the
// measurement).
Status CheckApplyTarget(const std::string& apply) {
  if (apply.empty() || apply == "-") return Ok{};
  std::error_code ec;
  if (std::filesystem::exists(apply, ec))
    return UserError("--apply " + apply + ": the file exists; it is never replaced",
                     "choose another file name, or remove it first");
  return CheckCanCreate(apply);
}

}  // namespace

// Every flag read into the run's options before anything starts, so a bad value stops the command first.
Result<TuneOptions> TuneCommand::ReadOptions() const {
  TuneOptions options;
  auto models = ReadModels(models_, model_file_, options.user_model);
  if (!models) return models.error();
  options.models = *models;
  if (device_ != "cpu" && !ParseU64(device_))
    return UserError("--device " + device_ + ": not a GPU number", "e.g. --device 0");
  options.device = device_;
  options.size = device_ == "cpu" ? "tiny" : (quick_ ? "quick" : "full");
  options.exact_search = exact_;
  options.allocator = !quick_;      // a second child run: more than --quick's minute allows
  options.library_knobs = !quick_;  // a child per library knob, likewise
  // The full run keeps to its 5 minutes (issue 33): the library knobs' children start only while they fit in
  // 285 s of children, leaving the rest for torch's start-up in the first child's wall time and the report.
  if (!quick_) options.budget = std::chrono::seconds(285);
  auto cap = WholeFlag("--max-batch", max_batch_, 1, 1000000);
  if (!cap) return cap.error();
  if (*cap) options.max_batch = static_cast<uint32_t>(**cap);
  auto compile = ReadCompileModes(compile_);
  if (!compile) return compile.error();
  options.compile_modes = *compile;
  // torch.compile's runs compile each model two or three times: the full run's limit has room for it.
  options.timeout = std::chrono::seconds(quick_ ? 120 : 600);
  auto timeout = SecondsFlag("--timeout", timeout_);
  if (!timeout) return timeout.error();
  if (*timeout) options.timeout = **timeout;
  return options;
}

// --apply: the recommended lines written to a new file (or stderr for "-"), then --perf-level's change.
int TuneCommand::WriteApply(const CliContext& ctx, const TuneAdvice& advice, Shell shell,
                            const Snapshot& snap) {
  const std::string text = EnvFileText(advice, device_, shell);
  if (apply_ == "-") {
    WriteAll(ctx.err, text);
  } else if (auto s = WriteFileAtomically(apply_, text, /*overwrite=*/false); !s) {
    return ReportError(ctx.err, s.error());
  } else {
    WriteAll(ctx.err, "tune: wrote " + apply_ + "\n");
  }
  return perf_level_ ? ApplyPerfLevel(ctx, snap) : kExitOk;
}

int TuneCommand::Run(const CliContext& ctx) {
  if (restore_) return Restore(ctx);
  if (perf_level_ && apply_.empty())
    return ReportError(ctx.err, UserError("--perf-level changes the machine only with --apply FILE"));
  auto read = ReadOptions();
  if (!read) return ReportError(ctx.err, read.error());
  TuneOptions options = *read;
  if (Status target = CheckApplyTarget(apply_); !target.ok()) return ReportError(ctx.err, target.error());
  auto snap = snapshot_.Acquire(ctx);
  if (!snap) return ReportError(ctx.err, snap.error());
  const PythonEnv* env = PickEnv(*snap, !snapshot_.python_envs.empty());
  if (!env) {
    WriteAll(ctx.err, snapshot_.python_envs.empty()
                          ? "gpudoctor tune: no Python environment with torch and an interpreter was found; "
                            "name one with --python-env DIR\n"
                          : "gpudoctor tune: no Python interpreter found in " +
                                snapshot_.python_envs.front() + " (give the venv or conda prefix)\n");
    return kExitErrors;
  }
  options.interpreter = env->interpreter;

  if (!json_ || ctx.stderr_is_tty)
    WriteAll(ctx.err, "tune: " + env->interpreter + ", device " + device_ + " (this takes up to " +
                          std::to_string(options.timeout.count() / 1000) + " s)\n");
  std::optional<std::filesystem::path> tunableop_folder;
  if (options.library_knobs && device_ != "cpu") tunableop_folder = NewPrivateFolder("gpudoctor-tunableop-");
  if (tunableop_folder) options.tunableop_file = (*tunableop_folder / "tunableop_results.csv").string();
  TuneRun run = RunTune(options, [&](const TuneProgress& p) {
    WriteAll(ctx.err,
             "tune: " + std::to_string(p.done) + "/" + std::to_string(p.total) + " " + p.item + "\n");
  });
  std::error_code rm_ec;
  if (tunableop_folder)
    std::filesystem::remove(*tunableop_folder, rm_ec);  // only when nothing was kept in it
  TuneAdvice advice = AdviseRun(run);
  TuneReportContext rctx;
  rctx.python_env = env->path;
  rctx.device = device_;
  rctx.quick = quick_;
  rctx.shell = shell_ == "auto" ? DetectShell(snap->os.family, ctx.env) : *ShellFromString(shell_);

  const int code = TuneExitCode(run);
  if (!apply_.empty() && run.status == "ok")
    if (int c = WriteApply(ctx, advice, rctx.shell, *snap); c != kExitOk) return c;
  if (json_) {
    TuneResult result{env->path, device_, quick_, std::move(run), std::move(advice)};
    WriteAll(ctx.out, TuneResultToJson(result));
  } else {
    WriteAll(ctx.out, RenderTuneText(run, advice, rctx));
  }
  return code;
}

}  // namespace gpudoctor
