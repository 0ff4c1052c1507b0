// Layer 3, add-ons: the packages that bring GPU code of their own on top of torch, ONNX Runtime or JAX
// (data/addon_libraries.toml), judged in every environment from what the probe read: an add-on whose
// wheel pins another torch than the installed one (xformers 0.0.28.post3 needs torch 2.5.1), a GPU package
// undone by its CPU twin or built for another CUDA (addon_gpu_packages.cpp), an add-on without its GPU build
// on a GPU machine (a CPU-only bitsandbytes, jax without a GPU plugin), and an add-on whose kernels need a
// newer NVIDIA GPU than any on the machine (flash-attn 2 on a GTX 1080).
#include <algorithm>
#include <set>

#include "core/strings.h"
#include "platform/filesystem.h"
#include "rules/addon_parts.h"
#include "rules/pinned_fixes.h"
#include "rules/pip_commands.h"

namespace gpudoctor {
namespace {

// The CUDA major of a GPU build when the environment has none: CUDA 12 builds run on every driver since
// 525 and on every GPU the add-ons support; CUDA 13 needs driver 580 and drops GPUs before Turing.
constexpr uint32_t kDefaultCudaMajor = 12;

// A pip requirement as one argument: quoted when it holds an extra or a version clause.
std::string Arg(const std::string& requirement) {
  return requirement.find_first_of("[]<>=,!*;") == std::string::npos ? requirement
                                                                     : "\"" + requirement + "\"";
}

// Install the release of the add-on built for `torch`, keeping the installed torch.
void AddPinFix(const RuleContext& ctx, const PythonEnv& env, const InstalledAddon& a, const Version& torch,
               Finding& f) {
  const TorchView t = MakeTorchView(env, ctx.db);
  const bool index = a.addon->torch_index && IsPytorchIndexVariant(t.variant);
  const std::string& dist = a.fw->name;
  if (const AddonTorchBuild* b = ctx.db.AddonBuildForTorch(a.addon->name, torch)) {
    f.fix_summary = "install " + dist + " " + b->version + ", the release built for torch " +
                    torch.ToString() + (index ? ", from torch's own index (" + t.variant + ")" : "") +
                    "; --no-deps keeps this torch";
    f.fix.push_back(FixAction::PerShell(
        ForEnvironment(PipCommand("install --no-deps " + Arg(dist + "==" + b->version) +
                                  (index ? " --index-url " + PytorchIndexUrl(t.variant) : "")),
                       &env)));
    ApplyProjectPins(&env,
                     {{NormalizeDistName(dist), dist + "==" + b->version,
                       index ? PytorchIndexUrl(t.variant) : "", "", b->version}},
                     "the " + dist + " " + b->version + " built for torch " + torch.ToString(), f);
    Cite(f, b->provenance);
    return;
  }
  f.fix_summary = "install the " + dist + " release built for torch " + torch.ToString() +
                  ": with torch==" + torch.ToString() +
                  " required beside it pip picks that release and keeps the installed torch";
  f.fix.push_back(FixAction::PerShell(
      ForEnvironment(PipCommand("install " + Arg(dist) + " " + Arg("torch==" + torch.ToString()) +
                                (index ? " --extra-index-url " + PytorchIndexUrl(t.variant) : "")),
                     &env)));
  ApplyProjectPins(&env, {{NormalizeDistName(dist), dist, index ? PytorchIndexUrl(t.variant) : "", "", ""}},
                   "the " + dist + " release built for torch " + torch.ToString(), f);
  Cite(f, a.addon->provenance);
}

void TorchPin(const RuleContext& ctx, const PythonEnv& env, const InstalledAddon& a,
              std::vector<Finding>& out) {
  if (!a.addon->pins_torch || a.fw->torch_pin.empty() || !env.torch) return;
  auto installed = Version::ParseLeading(env.torch->version);
  auto pin = Version::ParseLeading(a.fw->torch_pin);
  if (!installed || !pin || *installed == *pin) return;
  Finding f =
      MakeFinding("addon.torch_pin_mismatch", Layer::kFramework, Severity::kError, AddonSubject(*a.fw, env),
                  a.fw->name + " " + a.fw->version + " was built for torch " + a.fw->torch_pin +
                      ", not for the installed torch " + env.torch->version);
  f.evidence.push_back("required torch==" + a.fw->torch_pin + " (Requires-Dist in " + a.fw->source +
                       "), found torch " + env.torch->version + " (" +
                       JoinPath(env.torch->location, "version.py") + ")");
  f.evidence.push_back(
      "its compiled operators are linked against that torch release: with another they fail to "
      "load, and reinstalling it as it is would replace this torch with that one");
  AddPinFix(ctx, env, a, *installed, f);
  out.push_back(std::move(f));
}

// The machine's NVIDIA GPUs when it has no other GPU and each one's compute capability is known.
std::vector<const GpuView*> NvidiaOnly(const RuleContext& ctx) {
  std::vector<const GpuView*> out;
  for (const GpuView& g : ctx.gpus) {
    if (g.vendor != GpuVendor::kNvidia || !g.cc) return {};
    out.push_back(&g);
  }
  return out;
}

// The floor the newest of `gpus` is below, the worst first (warning over info, then the higher floor).
const AddonGpuFloor* FloorMissed(const RuleContext& ctx, const InstalledAddon& a, const Version& newest) {
  const AddonGpuFloor* worst = nullptr;
  for (const AddonGpuFloor* floor :
       ctx.db.AddonGpuFloorsFor(a.addon->name, Version::ParseLeading(a.fw->version))) {
    if (!(newest < floor->cc)) continue;
    if (!worst || floor->severity > worst->severity ||
        (floor->severity == worst->severity && worst->cc < floor->cc))
      worst = floor;
  }
  return worst;
}

void GpuFloor(const RuleContext& ctx, const PythonEnv& env, const InstalledAddon& a,
              const std::vector<const GpuView*>& gpus, std::vector<Finding>& out) {
  Version newest = *gpus.front()->cc;
  std::vector<std::string> labels;
  for (const GpuView* g : gpus) {
    newest = std::max(newest, *g->cc);
    const std::string gpu = g->gpu ? g->gpu->pci_address + " " + g->gpu->name : g->label;
    labels.push_back(gpu + " (compute capability " + g->cc->ToString() + ")");
  }
  const AddonGpuFloor* floor = FloorMissed(ctx, a, newest);
  if (floor == nullptr) return;
  const std::string name = a.fw->name + " " + a.fw->version;
  const std::string need = "compute capability " + floor->cc.ToString() + " or newer";
  Finding f = MakeFinding(
      "addon.gpu_too_old", Layer::kFramework, floor->severity, AddonSubject(*a.fw, env),
      floor->part.empty()
          ? name + " cannot run on this machine's GPUs: it needs " + need
          : name + ": " + floor->part + " cannot run on this machine's GPUs (" + need + " needed)");
  f.evidence.push_back(
      "required " + need +
      (floor->from ? " (" + a.fw->name + " " + floor->from->ToString() + " and later)" : "") + ", found " +
      JoinList(labels));
  f.evidence.push_back(floor->fallback);
  if (floor->part.empty()) {
    f.fix_summary =
        "uninstall it, so that applications which use it when present fall back; or use a GPU with " + need;
    f.fix.push_back(FixAction::PerShell(ForEnvironment(PipCommand("uninstall -y " + a.fw->name), &env)));
    ApplyProjectPins(&env, {{NormalizeDistName(a.fw->name), "", "", "", ""}}, "no " + a.fw->name + " here",
                     f);
  }
  Cite(f, floor->provenance);
  out.push_back(std::move(f));
}

bool MatchesAny(const std::string& text, const std::vector<std::string>& patterns) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return WildcardMatch(text, p); });
}

bool HasGpuBuild(const PythonEnv& env, const AddonLibrary& addon,
                 const std::vector<const FrameworkInstall*>& mine) {
  for (const GpuLibraryFolder& folder : env.gpu_libraries)
    if (MatchesAny(folder.provider, addon.gpu_folders)) return true;
  for (const FrameworkInstall& fw : env.frameworks)
    if (MatchesAny(NormalizeDistName(fw.name), addon.gpu_plugins)) return true;
  for (const FrameworkInstall* fw : mine) {
    const size_t plus = fw->version.find('+');
    const std::string tag = plus == std::string::npos ? "" : fw->version.substr(plus + 1);
    for (const std::string& t : addon.gpu_version_tags)
      if (StartsWith(tag, t)) return true;
  }
  return false;
}

// The pip requirement of the add-on's GPU build for this machine's GPUs, "" when there is none here.
std::string GpuRequirement(const RuleContext& ctx, const PythonEnv& env, const AddonLibrary& addon) {
  if (std::find(addon.gpu_platforms.begin(), addon.gpu_platforms.end(), ctx.platform) ==
      addon.gpu_platforms.end())
    return "";
  if (ctx.HasVendor(GpuVendor::kNvidia) && !addon.install_cuda.empty()) {
    auto cuda = EnvironmentCuda(env);
    std::string req = addon.install_cuda;
    if (size_t at = req.find("{cuda}"); at != std::string::npos)
      req.replace(at, 6, std::to_string(cuda ? cuda->major : kDefaultCudaMajor));
    return req;
  }
  if (ctx.HasVendor(GpuVendor::kAmd) && ctx.platform == Platform::kLinux) return addon.install_rocm;
  return "";
}

// "a, b or c"
std::string OneOf(const std::vector<std::string>& items) {
  if (items.size() < 2) return JoinList(items);
  return JoinList(std::vector<std::string>(items.begin(), items.end() - 1)) + " or " + items.back();
}

// What proves a GPU build of `addon`, for the evidence line: its GPU library files in its folder (the
// first of gpu_folders); a GPU plugin; without files, the GPU library folders; a +cuda / +rocm build.
std::string GpuProof(const AddonLibrary& addon) {
  std::vector<std::string> what;
  if (!addon.gpu_files.empty()) {
    const std::string in = addon.gpu_folders.empty() ? "" : " in " + addon.gpu_folders.front() + "/";
    what.push_back(OneOf(addon.gpu_files) + in);
  }
  if (!addon.gpu_plugins.empty()) what.push_back("a GPU plugin (" + OneOf(addon.gpu_plugins) + ")");
  if (addon.gpu_files.empty() && !addon.gpu_folders.empty())
    what.push_back("a " + OneOf(addon.gpu_folders) + " folder");
  for (const std::string& tag : addon.gpu_version_tags) what.push_back("a +" + tag + " build");
  return OneOf(what);
}

void NoGpuBuild(const RuleContext& ctx, const PythonEnv& env, const std::vector<InstalledAddon>& installed,
                std::vector<Finding>& out) {
  for (const AddonLibrary& addon : ctx.db.addon_libraries) {
    if (!addon.cpu_only) continue;
    std::vector<const FrameworkInstall*> mine;
    std::vector<std::string> found;
    for (const InstalledAddon& a : installed) {
      if (a.addon != &addon) continue;
      mine.push_back(a.fw);
      found.push_back(a.fw->name + " " + a.fw->version + " (" + a.fw->source + ")");
    }
    const std::string requirement = GpuRequirement(ctx, env, addon);
    if (mine.empty() || requirement.empty() || HasGpuBuild(env, addon, mine)) continue;
    const std::string vendor = ctx.HasVendor(GpuVendor::kNvidia) ? "an NVIDIA GPU" : "an AMD GPU";
    Finding f = MakeFinding("addon.no_gpu_build", Layer::kFramework, *addon.cpu_only,
                            AddonSubject(*mine.front(), env),
                            mine.front()->name + " " + mine.front()->version +
                                " has no GPU build: it runs on the CPU only, on a machine with " + vendor);
    f.evidence.push_back("required " + GpuProof(addon) + ", found none in " + env.site_packages);
    f.evidence.push_back("found " + JoinList(found));
    f.fix_summary = "install its GPU build from PyPI (" + requirement + ") into this environment";
    f.fix.push_back(FixAction::PerShell(ForEnvironment(PipCommand("install -U " + Arg(requirement)), &env)));
    std::vector<FixInstall> installs;  // the requirement brings each of its distributions (jax, jaxlib)
    for (const FrameworkInstall* fw : mine)
      installs.push_back({NormalizeDistName(fw->name), requirement, "", "", ""});
    ApplyProjectPins(&env, installs, "the GPU build (" + requirement + ")", f);
    Cite(f, addon.provenance);
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<InstalledAddon> InstalledAddons(const RuleContext& ctx, const PythonEnv& env) {
  std::vector<InstalledAddon> out;
  for (const FrameworkInstall& fw : env.frameworks) {
    if (const AddonLibrary* addon = ctx.db.FindAddon(fw.name)) out.push_back({&fw, addon});
  }
  return out;
}

std::string AddonSubject(const FrameworkInstall& fw, const PythonEnv& env) {
  return fw.name + " " + fw.version + " in " + env.site_packages;
}

std::vector<Finding> AddonRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  const std::vector<const GpuView*> nvidia = NvidiaOnly(ctx);
  for (const PythonEnv& env : ctx.snap.python_envs) {
    const std::vector<InstalledAddon> installed = InstalledAddons(ctx, env);
    if (installed.empty()) continue;
    for (const InstalledAddon& a : installed) TorchPin(ctx, env, a, out);
    ShadowedGpuPackages(ctx, env, out);
    CudaBuildMismatch(ctx, env, out);
    if (!ctx.gpus.empty()) NoGpuBuild(ctx, env, installed, out);
    std::set<const AddonLibrary*> floors_done;  // jax and jaxlib, or two triton builds, are one add-on
    for (const InstalledAddon& a : installed) {
      if (!nvidia.empty() && floors_done.insert(a.addon).second) GpuFloor(ctx, env, a, nvidia, out);
    }
  }
  return out;
}

}  // namespace gpudoctor
