// `gpudoctor setup`: the snapshot and the knowledge base as check takes them, the plan from check's own
// findings (src/setup/), printed; --apply carries it out through RunProcess and runs check --live and
// verify --level quick on the result.
#include "cli/setup_command.h"

#include <algorithm>
#include <filesystem>

#include "cli/output.h"
#include "gates/device_choice.h"
#include "knowledge/knowledge_loader.h"
#include "platform/process.h"
#include "rules/rule_context.h"
#include "rules/shell.h"
#include "setup/setup_apply.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"

namespace gpudoctor {
namespace {

// `name` found in a folder of PATH (name.exe too), "" when none.
std::string FindOnPath(const Environment& env, const std::string& name) {
  auto path = env.Get("PATH");
  if (!path) path = env.Get("Path");
  if (!path) return "";
  const char sep = path->find(';') != std::string::npos ? ';' : ':';
  size_t start = 0;
  while (start <= path->size()) {
    size_t end = path->find(sep, start);
    if (end == std::string::npos) end = path->size();
    const std::string dir = path->substr(start, end - start);
    for (const std::string& file : {name, name + ".exe"}) {
      std::error_code ec;
      const std::filesystem::path p = std::filesystem::path(dir) / file;
      if (!dir.empty() && std::filesystem::is_regular_file(p, ec)) return p.string();
    }
    start = end + 1;
  }
  return "";
}

// --device's GPU: a number of `gpudoctor info`'s list (the snapshot's order) or a PCI address.
Result<Gpu> OneGpu(const Snapshot& snap, const std::string& selector) {
  std::string listed;
  for (size_t i = 0; i < snap.gpus.size(); ++i) {
    const Gpu& g = snap.gpus[i];
    if (selector == std::to_string(i) || selector == g.pci_address ||
        (g.pci_address.starts_with("0000:") && selector == g.pci_address.substr(5)))
      return g;
    listed += (listed.empty() ? "" : ", ") + std::to_string(i) + " " + g.pci_address +
              (g.architecture.empty() ? "" : " (" + g.architecture + ")");
  }
  return UserError("--device " + selector + ": no such GPU here",
                   listed.empty() ? "no GPU was found on this machine"
                                  : "give a number or PCI address of `gpudoctor info`'s list: " + listed);
}

// The variables that make the runtime see `gpu` alone when the machine has other GPUs of its vendor: its
// number among them in PCI order (HIP_VISIBLE_DEVICES, ROCm's enumeration order; CUDA_VISIBLE_DEVICES with
// CUDA_DEVICE_ORDER=PCI_BUS_ID, since CUDA numbers the fastest first by default).
std::vector<VariableStep> VisibleDeviceVariables(const Snapshot& snap, const Gpu& gpu) {
  std::vector<std::string> same_vendor;
  for (const Gpu& g : snap.gpus)
    if (g.vendor == gpu.vendor) same_vendor.push_back(g.pci_address);
  if (same_vendor.size() < 2) return {};
  std::sort(same_vendor.begin(), same_vendor.end());
  const auto at = std::find(same_vendor.begin(), same_vendor.end(), gpu.pci_address);
  const std::string index = std::to_string(at - same_vendor.begin());
  if (gpu.vendor == GpuVendor::kNvidia)
    return {{"setup.device", "CUDA_DEVICE_ORDER", "PCI_BUS_ID", false},
            {"setup.device", "CUDA_VISIBLE_DEVICES", index, false}};
  if (gpu.vendor == GpuVendor::kAmd) return {{"setup.device", "HIP_VISIBLE_DEVICES", index, false}};
  return {};
}

// The post-check: check --live on the new environment, then verify --level quick.
int PostCheck(const CliContext& ctx, const std::string& environment) {
  auto self = CurrentExecutablePath();
  if (!self.ok()) return ReportError(ctx.err, self.error());
  int worst = kExitOk;
  const std::vector<std::vector<std::string>> runs = {{*self, "check", "--live", "--python-env", environment},
                                                      {*self, "verify", "--level", "quick"}};
  for (const auto& argv : runs) {
    WriteAll(ctx.err,
             "setup: running " + argv[1] + (argv[1] == "check" ? " --live" : " --level quick") + "\n");
    ProcessRequest request;
    request.argv = argv;
    request.timeout = std::chrono::minutes(5);
    auto r = RunProcess(request);
    if (!r.ok()) return ReportError(ctx.err, r.error());
    WriteAll(ctx.out, r->stdout_text);
    const int code = r->exit_code.value_or(kExitToolFailed);
    worst = std::max(worst, code);
  }
  WriteAll(ctx.out, worst == kExitOk ? "setup: verdict: the environment works on this GPU\n"
                                     : "setup: verdict: check or verify found problems (exit " +
                                           std::to_string(worst) + "), shown above\n");
  return worst;
}

// What --apply did: the steps skipped as done before, then the failure (with what was done and how to
// undo it) or the snippets written. False when a step failed.
bool ReportOutcome(const CliContext& ctx, const ApplyOutcome& outcome) {
  for (const std::string& s : outcome.resumed) WriteAll(ctx.out, "done before, skipped: " + s + "\n");
  if (!outcome.ok()) {
    std::string text = "setup: step failed: " + outcome.failed_step + "\n" + outcome.error + "\n";
    text += "done: " + (outcome.done.empty() ? std::string("nothing") : JoinList(outcome.done, "; ")) + "\n";
    for (const std::string& u : outcome.undo) text += "undo: " + u + "\n";
    text += "Run the same command again to resume at the failed step.\n";
    WriteAll(ctx.err, text);
    return false;
  }
  for (const std::string& s : outcome.snippets) WriteAll(ctx.out, "wrote " + s + "\n");
  return true;
}

}  // namespace

std::string SetupCommand::Description() const {
  return "Plan the Python environment this machine's GPU needs, from the same findings `gpudoctor check` "
         "gives: which Python, which installer (uv when it is on PATH, else pip in a venv; conda only with "
         "--installer conda), which index and "
         "which pinned torch, torchvision and torchaudio, the variables the fix needs (an override only "
         "where "
         "the knowledge base says the GPU needs one) and what a driver or system step an administrator must "
         "do first (named, never run). For a CUDA wheel (or torch from PyPI itself: its Linux build's "
         "CUDA; on Windows PyPI's torch is CPU-only) the plan checks the NVIDIA driver against the "
         "oldest driver that CUDA version loads on (Linux and Windows numbers differ) and names the driver "
         "upgrade, with your distribution's commands, when it is due. The plan is printed; nothing changes "
         "without --apply.\n\n"
         "--apply creates the environment (DIR, default ./.venv; with --installer conda, ./.conda made by "
         "`conda create`, the wheels installed by its own pip), installs step by step, writes activation "
         "snippets (gpudoctor-activate.sh for bash and zsh, .fish, .ps1) with the variables, then runs "
         "`check --live` and `verify --level quick` on it. A failed step stops with the error, what was "
         "done and how to undo it; running the same command again resumes.\n\n"
         "--repair plans the fix of the environment check judged (or --env DIR) in place: the wrong wheel "
         "for the GPU, a mismatched torchvision, a CPU build.\n\n"
         "Exit codes: 0 planned, or applied and verified; 1 applied, but check warns or verify failed a "
         "gate; "
         "2 a step failed; 3 bad flags or an environment setup refuses.\n\n"
         "Examples:\n"
         "  gpudoctor setup                          the plan for this machine\n"
         "  gpudoctor setup --json                   the plan as JSON (schema gpudoctor.setup/1)\n"
         "  gpudoctor setup --apply ~/venvs/gpu      make it in ~/venvs/gpu\n"
         "  gpudoctor setup --repair                 fix the environment check judged, in place\n"
         "  gpudoctor setup --installer conda        the plan in a conda environment (pip inside it)\n"
         "  gpudoctor setup --installer conda --apply   make it with the conda on PATH\n"
         "  gpudoctor setup --sysroot ./machine      the plan for a machine recorded with `gather`";
}

void SetupCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("DIR", &dir_, "The environment to create (default ./.venv).", false);
  flags.Bool("--json", &json_, "Print the plan as JSON (schema gpudoctor.setup/1, docs/setup.md).");
  flags.Bool("--apply", &apply_, "Carry the plan out, then run check --live and verify --level quick.");
  flags.Bool("--repair", &repair_,
             "Plan the fix of an existing environment in place (the one check judged, or --env DIR).");
  flags.String("--env", &env_, "DIR", "Install into this existing virtual environment instead of a new one.");
  flags.String("--device", &device_, "N|PCI",
               "Plan for this GPU alone: its number in `gpudoctor info`'s list or its PCI address (default: "
               "check's choice, the first discrete GPU).");
  flags.Choice("--installer", &installer_, {"auto", "pip", "uv", "conda"},
               "Installer (default auto: uv when it is on PATH, else pip in a venv). conda plans a conda "
               "environment (default ./.conda) with pip inside it, since PyTorch's conda channel is "
               "deprecated; --apply needs conda on PATH.");
  flags.String(
      "--local-index", &local_index_, "DIR",
      "Install from a folder of wheels (pip --no-index --find-links DIR) instead of the plan's index.");
  flags.Bool(
      "--allow-foreign-env", &allow_foreign_,
      "Install into --env DIR even when it is not a venv (a system Python) or another tool manages it.");
  flags.Bool("--no-post-check", &no_post_check_, "After --apply, skip check --live and verify.");
  flags.Choice("--shell", &shell_, {"auto", "bash", "powershell", "cmd"},
               "Shell to write the plan's commands for (default auto, as check).");
  flags.String("--db", &db_, "DIR",
               "Lay the *.toml files of DIR over the built-in knowledge base (as check).");
  source_.Define(flags);
  flags.Excludes("--json", "--apply");
}

int SetupCommand::Run(const CliContext& ctx) {
  if (!env_.empty() && !dir_.empty())
    return ReportError(ctx.err,
                       UserError("give either DIR (a new environment) or --env DIR (an existing one)"));
  // --device's spelling before any probe; which GPU it names is matched against the snapshot below.
  if (auto device = CheckDeviceSelector(device_); !device) return ReportError(ctx.err, device.error());
  auto db = db_.empty() ? LoadEmbeddedKnowledge() : LoadKnowledgeFromDir(db_);
  if (!db.ok()) return ReportError(ctx.err, db.error().With("loading the knowledge base"));
  auto snap = source_.Acquire(ctx);
  if (!snap.ok()) return ReportError(ctx.err, snap.error());
  std::vector<VariableStep> device_variables;
  if (!device_.empty()) {
    auto chosen = OneGpu(*snap, device_);
    if (!chosen.ok()) return ReportError(ctx.err, chosen.error());
    device_variables = VisibleDeviceVariables(*snap, *chosen);
    snap->gpus = {*chosen};
  }
  const bool conda = installer_ == "conda";
  const std::string uv = installer_ == "pip" || conda ? "" : FindOnPath(ctx.env, "uv");
  if (installer_ == "uv" && uv.empty())
    return ReportError(ctx.err, UserError("--installer uv: no uv on PATH",
                                          "install it (https://docs.astral.sh/uv/) or use --installer pip"));
  PlanRequest request;
  request.mode = repair_ ? PlanMode::kRepair : PlanMode::kNewEnvironment;
  request.environment = env_.empty() ? dir_ : env_;
  request.shell = shell_ == "auto" ? DetectShell(snap->os.family, ctx.env) : *ShellFromString(shell_);
  request.installer = conda ? "conda" : uv.empty() ? "pip" : "uv";
  SetupPlan plan = PlanSetup(*snap, *db, request);
  // --device on a machine with other GPUs of the vendor: the environment sees the chosen one alone.
  for (VariableStep& v : device_variables)
    if (std::none_of(plan.variables.begin(), plan.variables.end(),
                     [&v](const VariableStep& p) { return p.name == v.name; }))
      plan.variables.push_back(std::move(v));
  if (json_) {
    WriteAll(ctx.out, RenderPlanJson(plan));
    return kExitOk;
  }
  WriteAll(ctx.out, RenderPlanText(plan));
  // Nothing to change in an existing environment: --apply still proves it works.
  if (plan.Empty()) return apply_ && !env_.empty() ? PostCheckIfUseful(ctx, *snap, env_) : kExitOk;
  const std::string conda_exe = conda && apply_ ? FindOnPath(ctx.env, "conda") : "";
  if (conda && apply_ && conda_exe.empty())
    return ReportError(ctx.err,
                       UserError("--apply --installer conda: no conda on PATH, so setup cannot create the "
                                 "conda environment",
                                 "install Miniforge (https://conda-forge.org/download/) or Miniconda and "
                                 "open a shell where `conda` runs, or apply with --installer pip"));
  if (!apply_) {
    WriteAll(ctx.out,
             "\nNothing was changed. `gpudoctor setup --apply` carries out the steps setup can do.\n");
    return kExitOk;
  }
  WriteAll(ctx.out, "\n");
  return ApplySteps(ctx, plan, *snap, uv, conda_exe);
}

// After --apply, check --live and verify prove the environment, unless there is nothing here to prove.
int SetupCommand::PostCheckIfUseful(const CliContext& ctx, const Snapshot& snap,
                                    const std::string& environment) {
  if (no_post_check_) return kExitOk;
  if (!source_.sysroot.empty() || !source_.from.empty()) {
    WriteAll(ctx.out,
             "post-check skipped: the plan is of a recorded machine (--sysroot or --from), and check "
             "--live and verify would judge this one\n");
    return kExitOk;
  }
  if (snap.gpus.empty()) {
    WriteAll(ctx.out,
             "post-check skipped: no GPU found on this machine for check --live and verify to prove\n");
    return kExitOk;
  }
  return PostCheck(ctx, environment);
}

// --apply: the plan's steps carried out with the installer chosen (uv or conda where found), then the
// post-check of the environment made.
int SetupCommand::ApplySteps(const CliContext& ctx, const SetupPlan& plan, const Snapshot& snap,
                             const std::string& uv, const std::string& conda_exe) {
  ApplyOptions options;
  options.installer = !conda_exe.empty() ? Installer::kConda : uv.empty() ? Installer::kPip : Installer::kUv;
  options.uv = uv;
  options.conda = conda_exe;
  options.local_index = local_index_;
  options.existing = !env_.empty() || repair_;
  options.allow_foreign = allow_foreign_;
  options.progress = [&ctx](const std::string& line) { WriteAll(ctx.err, "setup: " + line + "\n"); };
  auto outcome = ApplyPlan(plan, options, RunProcess);
  if (!outcome.ok()) return ReportError(ctx.err, outcome.error());
  if (!ReportOutcome(ctx, *outcome)) return kExitErrors;
  if (!plan.manual.empty())
    WriteAll(ctx.out, "Still to do by hand (setup never runs these): step 1 above.\n");
  return PostCheckIfUseful(ctx, snap, plan.environment);
}

}  // namespace gpudoctor
