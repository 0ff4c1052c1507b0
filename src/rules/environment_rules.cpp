// Layer 4, environment: variables that quietly break GPU use — visible-devices settings that hide every
// GPU, an HSA_OVERRIDE_GFX_VERSION that libhsakmt rejects or that names another family, an override
// on Windows (ignored) or over mixed GPUs, and LD_LIBRARY_PATH or ROCM_PATH pointing at a ROCm other
// than the one the framework was built with, or naming the current folder (an empty element).
#include <algorithm>

#include "core/strings.h"
#include "rules/rule_context.h"

namespace gpudoctor {
namespace {

constexpr const char* kVisibleDevicesDoc =
    "https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html";

size_t CountVendor(const RuleContext& ctx, GpuVendor v) {
  return static_cast<size_t>(
      std::count_if(ctx.gpus.begin(), ctx.gpus.end(), [&](const GpuView& g) { return g.vendor == v; }));
}

// Why a visible-devices value leaves no GPU, or "" when it leaves some.
std::string HidesAll(const std::string& value, size_t gpus) {
  std::string_view v = Trim(value);
  if (v.empty()) return "it is empty";
  if (StartsWith(v, "-1")) return "-1 means no device";
  bool all_out_of_range = gpus > 0;
  for (auto part : Split(v, ',')) {
    auto n = ParseU64(Trim(part));
    if (!n) return "";  // UUIDs and the like: cannot tell
    if (*n < gpus) all_out_of_range = false;
  }
  if (all_out_of_range) return "every index is >= the " + std::to_string(gpus) + " GPU(s) present";
  return "";
}

void VisibleDevices(const RuleContext& ctx, std::vector<Finding>& out) {
  const size_t amd = CountVendor(ctx, GpuVendor::kAmd), nvidia = CountVendor(ctx, GpuVendor::kNvidia);
  struct Var {
    const char* name;
    size_t gpus;
  };
  // HIP honours CUDA_VISIBLE_DEVICES too.
  const Var vars[] = {{"HIP_VISIBLE_DEVICES", amd},
                      {"ROCR_VISIBLE_DEVICES", amd},
                      {"GPU_DEVICE_ORDINAL", amd},
                      {"CUDA_VISIBLE_DEVICES", nvidia > 0 ? nvidia : amd}};
  for (const auto& var : vars) {
    auto value = ctx.Env(var.name);
    if (!value || var.gpus == 0) continue;
    std::string why = HidesAll(*value, var.gpus);
    if (why.empty()) continue;
    Finding f = MakeFinding("environment.devices_hidden", Layer::kEnvironment, Severity::kError, var.name,
                            std::string(var.name) + " hides every GPU");
    f.evidence.push_back(std::string("required a list of GPU indices, found ") + var.name + "=\"" + *value +
                         "\" (" + why + ")");
    f.fix_summary =
        "unset it (and remove it from shell start-up files, the job script or the container spec)";
    f.fix.push_back(FixAction::UnsetEnv(var.name));
    f.link = kVisibleDevicesDoc;
    out.push_back(std::move(f));
  }
}

void AddOverrideFix(const RuleContext& ctx, const GpuView& g, const std::string& var, Finding& f) {
  const OverrideRule* rule = ctx.db.FindOverrideRule(g.gfx);
  if (rule) {
    f.fix_summary =
        "use the value known for " + g.gfx + " (or unset it once the framework carries " + g.gfx + ")";
    f.fix.push_back(FixAction::SetEnv(var, rule->value));
  } else {
    f.fix_summary = "unset it: " + g.gfx + " has no same-family target to borrow";
    f.fix.push_back(FixAction::UnsetEnv(var));
  }
}

// One HSA_OVERRIDE_GFX_VERSION value (the global one or a per-node one) against the GPU: invalid (every
// GPU disappears), known to give wrong results on it, or of another family.
void JudgeOverrideValue(const RuleContext& ctx, const GpuView* g, const std::string& name,
                        const std::string& value, std::vector<Finding>& out) {
  auto chosen = GfxNameFromOverride(value);
  if (!chosen) {
    const OverridePitfall* pit = ctx.db.FindPitfall("invalid-value");
    Finding f = MakeFinding("environment.override_invalid", Layer::kEnvironment, Severity::kError, name,
                            name + "=\"" + value + "\" is rejected by ROCm: every GPU disappears");
    f.evidence.push_back("required major.minor.stepping in decimal (major <= 63), found \"" + value + "\"");
    if (g) {
      AddOverrideFix(ctx, *g, name, f);
    } else {
      f.fix.push_back(FixAction::UnsetEnv(name));
    }
    if (pit) Cite(f, pit->provenance);
    out.push_back(std::move(f));
    return;
  }
  if (!g || *chosen == g->gfx) return;
  const GpuTarget* target = ctx.db.FindGfxTarget(*chosen);
  const OverridePitfall* listed = nullptr;
  for (const auto& p : ctx.db.override_pitfalls) {
    if (p.when == PitfallWhen::kListed && Contains(p.gfx, g->gfx) && Contains(p.values, value)) listed = &p;
  }
  bool cross = !target || target->generic.empty() || target->generic != g->target->generic;
  if (listed && !cross) {
    // Same family, yet known to go wrong on this GPU (gfx1033: wrong training results).
    Finding f = MakeFinding("environment.override_known_bad", Layer::kEnvironment, listed->severity, name,
                            name + "=" + value + " on " + g->gfx + " is known to give wrong results");
    f.evidence.push_back("required no override on " + g->gfx + " (overrides.toml: " + listed->id +
                         "), found " + name + "=" + value);
    f.evidence.push_back(listed->problem);
    f.fix_summary = listed->fix;
    f.fix.push_back(FixAction::UnsetEnv(name));
    Cite(f, listed->provenance);
    out.push_back(std::move(f));
    return;
  }
  if (listed || cross) {
    const OverridePitfall* pit = listed ? listed : ctx.db.FindPitfall("cross-family");
    Finding f = MakeFinding("environment.override_cross_family", Layer::kEnvironment, Severity::kError, name,
                            name + "=" + value + " runs " + *chosen + " code on " + g->gfx +
                                ", another instruction set: expect faults, hangs or wrong results");
    f.evidence.push_back("required a target of " +
                         (g->target->generic.empty() ? g->gfx : g->target->generic) + ", found " + *chosen +
                         (target && !target->generic.empty() ? " (" + target->generic + ")" : ""));
    if (pit) f.evidence.push_back(pit->problem);
    AddOverrideFix(ctx, *g, name, f);
    if (pit) Cite(f, pit->provenance);
    out.push_back(std::move(f));
  }
}

// A global override applies to every GPU: fine when all share one target, said when they differ, with the
// per-node form for the GPU the override is meant for.
void MixedGpusOverride(const RuleContext& ctx, const GpuView* g,
                       const std::vector<std::pair<std::string, std::string>>& set,
                       std::vector<Finding>& out) {
  bool global = std::any_of(set.begin(), set.end(),
                            [](const auto& p) { return p.first == "HSA_OVERRIDE_GFX_VERSION"; });
  std::vector<const GpuView*> amd;
  for (const auto& v : ctx.gpus)
    if (v.vendor == GpuVendor::kAmd) amd.push_back(&v);
  bool mixed =
      std::any_of(amd.begin(), amd.end(), [&](const GpuView* v) { return v->gfx != amd.front()->gfx; });
  if (global && mixed) {
    const OverridePitfall* pit = ctx.db.FindPitfall("mixed-gpus");
    Finding f = MakeFinding("environment.override_mixed_gpus", Layer::kEnvironment, Severity::kWarning,
                            "HSA_OVERRIDE_GFX_VERSION",
                            "HSA_OVERRIDE_GFX_VERSION applies to every AMD GPU, and they differ");
    for (const auto* v : amd) f.evidence.push_back("found " + v->label);
    if (pit) f.evidence.push_back(pit->problem);
    f.fix_summary = pit ? pit->fix : "override one node only, or hide the other GPU";
    // The per-node form for the GPU the override is meant for: libhsakmt's node id counts the CPU
    // nodes, so on a one-socket machine the first GPU is _1 (overrides.toml, pitfall mixed-gpus).
    auto value = ctx.Env("HSA_OVERRIDE_GFX_VERSION");
    if (g && g->gpu && g->gpu->kfd_node && value) {
      const std::string per_node = "HSA_OVERRIDE_GFX_VERSION_" + std::to_string(*g->gpu->kfd_node);
      f.evidence.push_back(per_node + " names " + g->gfx + " alone (KFD node " +
                           std::to_string(*g->gpu->kfd_node) + "; CPU nodes are counted)");
      f.fix.push_back(FixAction::UnsetEnv("HSA_OVERRIDE_GFX_VERSION"));
      f.fix.push_back(FixAction::SetEnv(per_node, *value));
    }
    if (pit) Cite(f, pit->provenance);
    out.push_back(std::move(f));
  }
}

void Overrides(const RuleContext& ctx, std::vector<Finding>& out) {
  std::vector<std::pair<std::string, std::string>> set;  // HSA_OVERRIDE_GFX_VERSION and its _<node> forms
  for (const auto& [name, value] : ctx.snap.environment)
    if (StartsWith(name, "HSA_OVERRIDE_GFX_VERSION")) set.emplace_back(name, value);
  if (set.empty()) return;
  if (ctx.platform == Platform::kWindows) {
    const OverridePitfall* pit = ctx.db.FindPitfall("windows-ignored");
    Finding f = MakeFinding("environment.override_windows", Layer::kEnvironment, Severity::kInfo,
                            set.front().first, set.front().first + " has no effect on Windows");
    f.evidence.push_back(pit ? pit->problem : "the Windows HIP runtime lives in the driver and ignores it");
    f.fix_summary = pit ? pit->fix : "use a build that carries the GPU's target";
    f.fix.push_back(FixAction::UnsetEnv(set.front().first));
    if (pit) Cite(f, pit->provenance);
    out.push_back(std::move(f));
    return;
  }
  const GpuView* g = PrimaryAmd(ctx);
  for (const auto& [name, value] : set) JudgeOverrideValue(ctx, g, name, value, out);
  MixedGpusOverride(ctx, g, set, out);
}

// The ROCm version a library folder belongs to: from a rocm-X.Y.Z folder name, else from the
// runtime tree that contains it.
std::optional<Version> RocmOfFolder(const RuleContext& ctx, const std::string& folder) {
  size_t pos = folder.find("/rocm-");
  if (pos != std::string::npos) {
    std::string rest = folder.substr(pos + 6);
    rest = rest.substr(0, rest.find('/'));
    if (auto v = Version::Parse(rest.substr(0, rest.find('-')))) return v;
  }
  for (const auto& r : ctx.snap.runtimes) {
    if (r.kind != "rocm" || !(folder == r.path || StartsWith(folder, r.path + "/"))) continue;
    if (auto v = Version::Parse(std::string_view(r.version).substr(0, r.version.find('-')))) return v;
  }
  return std::nullopt;
}

std::string Series(const Version& v) {
  return std::to_string(v.major()) + "." + std::to_string(v.minor());
}

void LibraryPaths(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform == Platform::kWindows) return;
  auto ld = ctx.Env("LD_LIBRARY_PATH");
  std::vector<std::pair<std::string, Version>> rocm_dirs;
  if (ld) {
    for (auto part : Split(*ld, ':')) {
      std::string dir(Trim(part));
      if (dir.find("rocm") == std::string::npos) continue;
      if (auto v = RocmOfFolder(ctx, dir)) rocm_dirs.emplace_back(dir, *v);
    }
  }
  // The framework's own ROCm against the one LD_LIBRARY_PATH puts first.
  if (ctx.torch && ctx.torch->build == TorchBuild::kRocm && ctx.torch->rocm && !rocm_dirs.empty()) {
    const auto& [dir, v] = rocm_dirs.front();
    if (Series(v) != Series(*ctx.torch->rocm)) {
      Finding f = MakeFinding("environment.ld_library_path_shadow", Layer::kEnvironment, Severity::kWarning,
                              "LD_LIBRARY_PATH",
                              "LD_LIBRARY_PATH loads ROCm " + v.ToString() + " libraries ahead of the ROCm " +
                                  Series(*ctx.torch->rocm) + " ones PyTorch was built with");
      f.evidence.push_back("required ROCm " + Series(*ctx.torch->rocm) + " (torch " +
                           ctx.torch->env->torch->version + "), found " + dir + " (ROCm " + v.ToString() +
                           ") first in LD_LIBRARY_PATH");
      std::string kept;
      for (auto part : Split(*ld, ':')) {
        std::string p(Trim(part));
        if (p.empty() || p.find("rocm") != std::string::npos) continue;
        kept += (kept.empty() ? "" : ":") + p;
      }
      f.fix_summary = "drop the ROCm folders from LD_LIBRARY_PATH for PyTorch (torch/lib brings its own)";
      f.fix.push_back(kept.empty() ? FixAction::UnsetEnv("LD_LIBRARY_PATH")
                                   : FixAction::SetEnv("LD_LIBRARY_PATH", kept));
      f.link = "https://github.com/ROCm/TheRock/issues/3225";
      out.push_back(std::move(f));
    }
  }
  // ROCM_PATH naming one tree while LD_LIBRARY_PATH names another.
  auto rocm_path = ctx.Env("ROCM_PATH");
  if (rocm_path && !rocm_dirs.empty()) {
    auto root = RocmOfFolder(ctx, *rocm_path);
    for (const auto& [dir, v] : rocm_dirs) {
      if (!root || v == *root) continue;
      Finding f = MakeFinding("environment.rocm_paths_disagree", Layer::kEnvironment, Severity::kWarning,
                              "ROCM_PATH", "ROCM_PATH and LD_LIBRARY_PATH name different ROCm versions");
      f.evidence.push_back("found ROCM_PATH=" + *rocm_path + " (ROCm " + root->ToString() + ") and " + dir +
                           " (ROCm " + v.ToString() + ") in LD_LIBRARY_PATH");
      f.fix_summary = "point both at one ROCm";
      f.fix.push_back(FixAction::SetEnv("LD_LIBRARY_PATH", *rocm_path + "/lib"));
      f.link = "https://github.com/ROCm/TheRock/issues/3225";
      out.push_back(std::move(f));
      break;
    }
  }
}

// An empty element of LD_LIBRARY_PATH ("/opt/x:", ":/opt/x", "a::b") or a relative one (".", "lib") is the
// current folder to the system loader: a program started in a folder holding a libcuda.so.1 of someone
// else's runs its code (issue 35, attempt 126; gpudoctor itself refuses to load from there).
void CurrentFolderInLibraryPath(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform == Platform::kWindows) return;
  auto ld = ctx.Env("LD_LIBRARY_PATH");
  if (!ld || ld->empty()) return;
  std::string kept, relative;
  for (auto part : Split(*ld, ':')) {
    const std::string dir(part);
    if (!dir.empty() && dir[0] == '/') {
      kept += (kept.empty() ? "" : ":") + dir;
    } else if (relative.empty()) {
      relative = dir.empty() ? "an empty element" : "the relative element \"" + dir + "\"";
    }
  }
  if (relative.empty()) return;
  Finding f =
      MakeFinding("environment.ld_library_path_current_folder", Layer::kEnvironment, Severity::kWarning,
                  "LD_LIBRARY_PATH", "LD_LIBRARY_PATH makes programs load libraries from the current folder");
  f.evidence.push_back("required absolute folders only, found LD_LIBRARY_PATH=\"" + *ld + "\" with " +
                       relative + ", which the loader reads as the current folder");
  f.fix_summary = kept.empty() ? "unset LD_LIBRARY_PATH (and remove it from shell start-up files)"
                               : "keep its absolute folders only (no leading, trailing or doubled ':')";
  f.fix.push_back(kept.empty() ? FixAction::UnsetEnv("LD_LIBRARY_PATH")
                               : FixAction::SetEnv("LD_LIBRARY_PATH", kept));
  f.link = "https://man7.org/linux/man-pages/man8/ld.so.8.html";
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> EnvironmentRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  VisibleDevices(ctx, out);
  Overrides(ctx, out);
  LibraryPaths(ctx, out);
  CurrentFolderInLibraryPath(ctx, out);
  if (out.empty()) {
    Finding f = MakeFinding("environment.ok", Layer::kEnvironment, Severity::kOk, "",
                            "No variable hides a GPU or points at the wrong libraries");
    std::string names;
    for (const auto& [name, value] : ctx.snap.environment) {
      if (name == "VIRTUAL_ENV" || name == "CONDA_PREFIX") continue;
      names += (names.empty() ? "" : ", ") + name + "=" + value;
    }
    f.evidence.push_back("checked: " +
                         (names.empty() ? std::string("none of the GPU variables is set") : names));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpudoctor
