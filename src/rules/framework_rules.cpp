// Layer 3, framework: the PyTorch found in the snapshot (torch/version.py and the GPU code read from
// its libraries) against the GPU — a CPU-only build on a GPU machine, a CUDA build on an AMD machine
// and the reverse, whether its code runs on this GPU (framework_kernels.cpp), whether torchvision and
// torchaudio belong to it (framework_companions.cpp), and what `check --live` saw (framework_live.cpp).
#include "core/strings.h"
#include "rules/framework_parts.h"
#include "rules/pinned_fixes.h"

namespace gpudoctor {

const char* const kTorchPitfall =
    "install torch, torchvision and torchaudio together from one index: installing torchvision or torchaudio "
    "alone from PyPI pulls a CPU (or other) torch back in";

std::string Installed(const TorchView& t) {
  return "torch " + t.env->torch->version + " in " + t.env->site_packages;
}

namespace {

ShellCommands Uninstall() {
  return {"python3 -m pip uninstall -y torch torchvision torchaudio",
          "py -m pip uninstall -y torch torchvision torchaudio",
          "py -m pip uninstall -y torch torchvision torchaudio"};
}

}  // namespace

// Replace the installed build with `choice`'s.
void AddReinstall(const RuleContext& ctx, const RouteChoice& choice, Finding& f) {
  const PythonEnv* env = ctx.torch ? ctx.torch->env : nullptr;
  f.fix.push_back(FixAction::PerShell(ForEnvironment(Uninstall(), env)));
  f.fix.push_back(FixAction::PerShell(ForEnvironment(choice.install, env)));
  if (f.link.empty()) Cite(f, choice.route->provenance);
  // The three come from one index: a project pinning any of them puts the old build back.
  const std::string index = IndexUrlOf(choice.install.bash);
  std::vector<FixInstall> installs;
  for (const char* p : {"torch", "torchvision", "torchaudio"})
    installs.push_back({p, p, index, choice.variant, ""});
  const std::string from = !choice.variant.empty() ? "the " + choice.variant + " index"
                           : !index.empty()        ? index
                                                   : choice.route->name;
  ApplyProjectPins(env, installs, "torch, torchvision and torchaudio from " + from, f);
}

namespace {

const GpuView* PrimaryGpu(const RuleContext& ctx) {
  return ctx.gpus.empty() ? nullptr : &ctx.gpus.front();
}

const char* BuildName(TorchBuild b) {
  switch (b) {
    case TorchBuild::kCuda:
      return "a CUDA build";
    case TorchBuild::kRocm:
      return "a ROCm build";
    case TorchBuild::kCpu:
      return "a CPU-only build";
    case TorchBuild::kUnknown:
      break;
  }
  return "an unknown build";
}

void NoTorch(const RuleContext& ctx, std::vector<Finding>& out) {
  const GpuView* g = PrimaryGpu(ctx);
  Finding f = MakeFinding("framework.no_torch", Layer::kFramework, Severity::kInfo, "", "No PyTorch found");
  std::string where;
  for (const auto& env : ctx.snap.python_envs) where += (where.empty() ? "" : ", ") + env.site_packages;
  f.evidence.push_back(
      "looked for torch/version.py in the active environment, the pythons on PATH, ./.venv, ~/.venv, conda, "
      "pyenv, ~/.local and the system site-packages" +
      (where.empty() ? std::string() : " (" + where + ")"));
  bool wsl_nvidia = false;
  for (const auto& r : ctx.snap.runtimes)
    wsl_nvidia |= r.kind == "libcuda" && StartsWith(r.path, "/usr/lib/wsl/lib/");
  const TorchRoute* cuda_route = ctx.db.FindRoute("pytorch-cuda");
  if (!g && ctx.platform == Platform::kWsl && wsl_nvidia && cuda_route) {
    // The GPU is unknown here: the newest release's CUDA build that the oldest drivers still run.
    const TorchWheel* pick = nullptr;
    for (const auto& w : ctx.db.torch_wheels) {
      if (!w.cuda) continue;
      if (!pick || w.torch > pick->torch || (w.torch == pick->torch && *w.cuda < *pick->cuda)) pick = &w;
    }
    if (pick) {
      f.title += ": the CUDA build fits WSL2 with the Windows NVIDIA driver";
      f.fix_summary =
          "install the " + pick->variant + " build (check the GPU with nvidia-smi first); " + kTorchPitfall;
      f.fix.push_back(FixAction::PerShell(FillPlaceholders(cuda_route->install, pick->variant, "", "", "")));
      Cite(f, cuda_route->provenance);
    }
  }
  if (g) {
    auto routes = RoutesFor(ctx, *g);
    if (!routes.empty()) {
      f.title += ": install it for " + g->label.substr(g->label.find(' ') + 1);
      f.fix_summary = "install from " + routes.front().route->name + "; " + kTorchPitfall;
      f.fix.push_back(FixAction::PerShell(routes.front().install));
      Cite(f, routes.front().route->provenance);
    }
  }
  out.push_back(std::move(f));
}

// A CPU torch that torch-directml runs on: the GPU is reached through DirectML, not torch.cuda, and
// torch-directml pins this torch, so replacing it in place would break what works; the GPU's own
// PyTorch belongs in a separate environment.
void DirectmlTorch(const RuleContext& ctx, const GpuView& g, const FrameworkInstall& dml,
                   std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  Finding f = MakeFinding(
      "framework.torch_directml", Layer::kFramework, Severity::kInfo, Installed(t),
      "PyTorch " + t.env->torch->version + " is the CPU build torch-directml runs on: the " +
          (g.vendor == GpuVendor::kAmd ? "AMD" : "NVIDIA") + " GPU is reached through DirectML only");
  f.evidence.push_back("found torch-directml " + dml.version + " beside torch " + t.env->torch->version +
                       " (torch.version.cuda None, torch.version.hip None): torch.cuda sees no GPU, DirectML "
                       "runs on torch_directml.device()");
  f.evidence.push_back("torch-directml pins this torch: replacing it in this environment breaks DirectML");
  auto routes = RoutesFor(ctx, g);
  if (!routes.empty()) {
    f.fix_summary = "keep this environment for DirectML; for " + g.label.substr(g.label.find(' ') + 1) +
                    " itself install " + routes.front().route->name + " into a separate environment";
    Cite(f, routes.front().route->provenance);
  }
  out.push_back(std::move(f));
}

void WrongBuild(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  bool cpu = t.build == TorchBuild::kCpu;
  for (const auto& fw : t.env->frameworks) {
    if (cpu && fw.family == "torch-directml") return DirectmlTorch(ctx, g, fw, out);
  }
  Finding f = MakeFinding(cpu ? "framework.torch_cpu_only" : "framework.torch_wrong_vendor",
                          Layer::kFramework, Severity::kError, Installed(*ctx.torch),
                          std::string("PyTorch is ") + BuildName(t.build) + ": it cannot use the " +
                              (g.vendor == GpuVendor::kAmd ? "AMD" : "NVIDIA") + " GPU");
  f.evidence.push_back(std::string("required ") +
                       (g.vendor == GpuVendor::kAmd ? "a ROCm build" : "a CUDA build") + " for " + g.label +
                       ", found " + t.env->torch->version + " (torch.version.cuda " +
                       (t.env->torch->cuda.empty() ? "None" : t.env->torch->cuda) + ", torch.version.hip " +
                       (t.env->torch->hip.empty() ? "None" : t.env->torch->hip) + ")");
  auto routes = RoutesFor(ctx, g);
  if (!routes.empty()) {
    f.fix_summary = "replace it with " + routes.front().route->name + "; " + kTorchPitfall;
    AddReinstall(ctx, routes.front(), f);
  }
  out.push_back(std::move(f));
}

void TorchRules(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.torch) {
    NoTorch(ctx, out);
    return;
  }
  const GpuView* g = PrimaryGpu(ctx);
  if (!g) {
    Finding f =
        MakeFinding("framework.torch_found", Layer::kFramework, Severity::kOk, Installed(*ctx.torch),
                    "PyTorch " + ctx.torch->env->torch->version + " found; there is no GPU for it to use");
    f.evidence.push_back(std::string("found ") + BuildName(ctx.torch->build));
    out.push_back(std::move(f));
    return;
  }
  const TorchBuild want = g->vendor == GpuVendor::kAmd ? TorchBuild::kRocm : TorchBuild::kCuda;
  if (ctx.torch->build != want && ctx.torch->build != TorchBuild::kUnknown) {
    // A CUDA build on a machine that also has an NVIDIA GPU is fine: judge it against that GPU.
    for (const auto& other : ctx.gpus) {
      if (other.vendor == GpuVendor::kNvidia && ctx.torch->build == TorchBuild::kCuda) {
        NvidiaKernels(ctx, other, out);
        return;
      }
      if (other.vendor == GpuVendor::kAmd && ctx.torch->build == TorchBuild::kRocm) {
        AmdKernels(ctx, other, out);
        return;
      }
    }
    WrongBuild(ctx, *g, out);
    return;
  }
  if (g->vendor == GpuVendor::kNvidia) {
    NvidiaKernels(ctx, *g, out);
  } else {
    AmdKernels(ctx, *g, out);
  }
}

}  // namespace

std::vector<Finding> FrameworkRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  TorchRules(ctx, out);
  CompanionRules(ctx, out);
  LiveRules(ctx, out);
  return out;
}

}  // namespace gpudoctor
