// Layer 3, framework: the PyTorch found in the snapshot (read from torch/version.py) against the GPU —
// a CPU-only build on a GPU machine, a CUDA build on an AMD machine and the reverse, and whether the
// wheel carries code for this GPU (knowledge-base wheel records: WheelSupportsCc, WheelHasGfx).
#include "core/strings.h"
#include "rules/rule_context.h"

namespace gpudoctor {
namespace {

constexpr const char* kTorchPitfall =
    "install torch, torchvision and torchaudio together from one index: installing torchvision or torchaudio "
    "alone from PyPI pulls a CPU (or other) torch back in";

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

ShellCommands Uninstall() {
  return {"python3 -m pip uninstall -y torch torchvision torchaudio",
          "py -m pip uninstall -y torch torchvision torchaudio",
          "py -m pip uninstall -y torch torchvision torchaudio"};
}

// Replace the installed build with `choice`'s.
void AddReinstall(const RuleContext& ctx, const RouteChoice& choice, Finding& f) {
  const PythonEnv* env = ctx.torch ? ctx.torch->env : nullptr;
  f.fix.push_back(FixAction::PerShell(ForEnvironment(Uninstall(), env)));
  f.fix.push_back(FixAction::PerShell(ForEnvironment(choice.install, env)));
  if (f.link.empty()) f.link = FirstSource(choice.route->provenance);
}

std::string Installed(const RuleContext& ctx) {
  return "torch " + ctx.torch->env->torch->version + " in " + ctx.torch->env->site_packages;
}

void NoTorch(const RuleContext& ctx, std::vector<Finding>& out) {
  const GpuView* g = PrimaryGpu(ctx);
  Finding f = MakeFinding("framework.no_torch", Layer::kFramework, Severity::kInfo, "", "No PyTorch found");
  std::string where;
  for (const auto& env : ctx.snap.python_envs) where += (where.empty() ? "" : ", ") + env.site_packages;
  f.evidence.push_back(
      "looked for torch/version.py in the active environment, ~/.venv, ~/.local and the system "
      "site-packages" +
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
      f.link = FirstSource(cuda_route->provenance);
    }
  }
  if (g) {
    auto routes = RoutesFor(ctx, *g);
    if (!routes.empty()) {
      f.title += ": install it for " + g->label.substr(g->label.find(' ') + 1);
      f.fix_summary = "install from " + routes.front().route->name + "; " + kTorchPitfall;
      f.fix.push_back(FixAction::PerShell(routes.front().install));
      f.link = FirstSource(routes.front().route->provenance);
    }
  }
  out.push_back(std::move(f));
}

void WrongBuild(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  bool cpu = t.build == TorchBuild::kCpu;
  Finding f = MakeFinding(cpu ? "framework.torch_cpu_only" : "framework.torch_wrong_vendor",
                          Layer::kFramework, Severity::kError, Installed(ctx),
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

void NvidiaKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  if (!g.cc) return;
  if (!t.wheel) {
    Finding f = MakeFinding(
        "framework.torch_unverified", Layer::kFramework, Severity::kInfo, Installed(ctx),
        "PyTorch " + t.env->torch->version + " is not a build gpudoctor knows: its GPU code is unchecked");
    f.evidence.push_back("required a torch_wheel record for " + t.env->torch->version + ", found none");
    out.push_back(std::move(f));
    return;
  }
  CcSupport support = WheelSupportsCc(*t.wheel, *g.cc);
  std::string archs;
  for (const auto& a : t.wheel->cuda_archs)
    archs += (archs.empty() ? "" : " ") + SmName(a.cc) + (a.ptx ? "+PTX" : "");
  if (support == CcSupport::kExactCubin || support == CcSupport::kCompatibleCubin) {
    Finding f = MakeFinding("framework.torch_ok", Layer::kFramework, Severity::kOk, Installed(ctx),
                            "PyTorch " + t.env->torch->version + " has kernels for " + SmName(*g.cc));
    f.evidence.push_back("required code for " + SmName(*g.cc) + ", found " + ToString(support) + " in " +
                         t.variant + " (" + archs + ")");
    f.link = FirstSource(t.wheel->provenance);
    out.push_back(std::move(f));
    return;
  }
  const bool ptx = support == CcSupport::kPtxJit;
  Finding f = MakeFinding(ptx ? "framework.torch_ptx_only" : "framework.torch_no_kernels", Layer::kFramework,
                          ptx ? Severity::kWarning : Severity::kError, Installed(ctx),
                          ptx ? "PyTorch " + t.env->torch->version + " has only PTX for " + SmName(*g.cc) +
                                    ": the driver compiles every kernel at first use"
                              : "PyTorch " + t.env->torch->version + " has no kernels for " + SmName(*g.cc) +
                                    " (\"no kernel image is available for execution on the device\")");
  f.evidence.push_back("required a cubin for " + SmName(*g.cc) + ", found " + t.variant + " built for " +
                       archs);
  auto series = Version::Parse(std::to_string(t.version->major()) + "." + std::to_string(t.version->minor()));
  const TorchWheel* fix =
      BestCudaWheel(ctx.db, *g.cc, ctx.nvidia_driver, series, ctx.platform == Platform::kWindows);
  if (!fix)
    fix = BestCudaWheel(ctx.db, *g.cc, ctx.nvidia_driver, std::nullopt, ctx.platform == Platform::kWindows);
  const TorchRoute* route = ctx.db.FindRoute("pytorch-cuda");
  if (fix && route) {
    RouteChoice c;
    c.route = route;
    c.variant = fix->variant;
    c.wheel = fix;
    c.install = FillPlaceholders(route->install, fix->variant, "", "", "");
    f.fix_summary = "use the " + fix->variant + " build (torch " + fix->torch.ToString() + ") that carries " +
                    SmName(*g.cc) + "; " + kTorchPitfall;
    AddReinstall(ctx, c, f);
  }
  f.link = FirstSource(t.wheel->provenance);
  out.push_back(std::move(f));
}

void AmdKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  if (g.gfx.empty()) return;
  if (!t.wheel) {
    Finding f = MakeFinding(
        "framework.torch_unverified", Layer::kFramework, Severity::kInfo, Installed(ctx),
        "PyTorch " + t.env->torch->version + " is not a build gpudoctor knows: its GPU code is unchecked");
    f.evidence.push_back("required a torch_wheel record for " + t.env->torch->version +
                         ", found none (TheRock and AMD's own wheels are not recorded per build)");
    out.push_back(std::move(f));
    return;
  }
  std::string list;
  for (const auto& x : t.wheel->gfx) list += (list.empty() ? "" : " ") + x;
  if (WheelHasGfx(*t.wheel, g.gfx)) {
    Finding f = MakeFinding("framework.torch_ok", Layer::kFramework, Severity::kOk, Installed(ctx),
                            "PyTorch " + t.env->torch->version + " has kernels for " + g.gfx);
    f.evidence.push_back("required " + g.gfx + " in " + t.variant + ", found " + list);
    f.link = FirstSource(t.wheel->provenance);
    out.push_back(std::move(f));
    return;
  }
  // Through a valid same-family override the wheel's sibling code runs (runtime.override_* says more).
  std::optional<std::string> via;
  if (ctx.override_value && ctx.platform != Platform::kWindows) {
    auto chosen = GfxNameFromOverride(*ctx.override_value);
    const GpuTarget* target = chosen ? ctx.db.FindGfxTarget(*chosen) : nullptr;
    if (target && g.target && !target->generic.empty() && target->generic == g.target->generic &&
        WheelHasGfx(*t.wheel, *chosen))
      via = *chosen;
  }
  if (via) {
    Finding f = MakeFinding("framework.torch_via_override", Layer::kFramework, Severity::kOk, Installed(ctx),
                            "PyTorch " + t.env->torch->version + " runs on " + g.gfx + " through its " +
                                *via + " code (HSA_OVERRIDE_GFX_VERSION=" + *ctx.override_value + ")");
    f.evidence.push_back("required " + g.gfx + " or an overridden sibling in " + t.variant + ", found " +
                         *via + " (" + list + ")");
    f.link = FirstSource(t.wheel->provenance);
    out.push_back(std::move(f));
    return;
  }
  Finding f = MakeFinding("framework.torch_no_kernels", Layer::kFramework, Severity::kError, Installed(ctx),
                          "PyTorch " + t.env->torch->version + " has no " + g.gfx +
                              " code (\"hipErrorNoBinaryForGpu: Unable to find code object\")");
  f.evidence.push_back("required " + g.gfx + " in " + t.variant + ", found " + list);
  const OverrideRule* rule = ctx.db.FindOverrideRule(g.gfx);
  auto sibling = rule ? GfxNameFromOverride(rule->value) : std::nullopt;
  if (rule && sibling && WheelHasGfx(*t.wheel, *sibling) && ctx.platform == Platform::kLinux) {
    f.fix_summary = "run its " + *sibling + " code with HSA_OVERRIDE_GFX_VERSION=" + rule->value +
                    ", or install a build carrying " + g.gfx;
    f.fix.push_back(FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", rule->value));
    f.link = FirstSource(rule->provenance);
  } else {
    auto routes = RoutesFor(ctx, g);
    if (!routes.empty()) {
      f.fix_summary = "replace it with " + routes.front().route->name + "; " + kTorchPitfall;
      AddReinstall(ctx, routes.front(), f);
    }
  }
  if (f.link.empty()) f.link = FirstSource(t.wheel->provenance);
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> FrameworkRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  if (!ctx.torch) {
    NoTorch(ctx, out);
    return out;
  }
  const GpuView* g = PrimaryGpu(ctx);
  if (!g) {
    Finding f =
        MakeFinding("framework.torch_found", Layer::kFramework, Severity::kOk, Installed(ctx),
                    "PyTorch " + ctx.torch->env->torch->version + " found; there is no GPU for it to use");
    f.evidence.push_back(std::string("found ") + BuildName(ctx.torch->build));
    out.push_back(std::move(f));
    return out;
  }
  const TorchBuild want = g->vendor == GpuVendor::kAmd ? TorchBuild::kRocm : TorchBuild::kCuda;
  if (ctx.torch->build != want && ctx.torch->build != TorchBuild::kUnknown) {
    // A CUDA build on a machine that also has an NVIDIA GPU is fine: judge it against that GPU.
    for (const auto& other : ctx.gpus) {
      if (other.vendor == GpuVendor::kNvidia && ctx.torch->build == TorchBuild::kCuda) {
        NvidiaKernels(ctx, other, out);
        return out;
      }
      if (other.vendor == GpuVendor::kAmd && ctx.torch->build == TorchBuild::kRocm) {
        AmdKernels(ctx, other, out);
        return out;
      }
    }
    WrongBuild(ctx, *g, out);
    return out;
  }
  if (g->vendor == GpuVendor::kNvidia) {
    NvidiaKernels(ctx, *g, out);
  } else {
    AmdKernels(ctx, *g, out);
  }
  return out;
}

}  // namespace gpudoctor
