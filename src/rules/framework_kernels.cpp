// Whether the installed PyTorch holds code for this GPU. The code read from torch's own libraries
// (libtorch_cuda.so's cubins and PTX, libtorch_hip.so's gfx targets, the rocBLAS/hipBLASLt kernel
// folders) decides when it was read; otherwise the knowledge base's record of that wheel does
// (WheelSupportsCc, WheelHasGfx), or for AMD's own wheel families the targets the family names
// (framework_amd_family.cpp). A build none of them describes is "unverified".
#include "core/strings.h"
#include "rules/framework_parts.h"
#include "rules/target_fix_ranking.h"

namespace gpudoctor {
namespace {

constexpr const char* kNvidiaCompatibility =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility";
constexpr const char* kRocblasMissing = "https://github.com/ROCm/rocBLAS/issues/1339";

void Unverified(const RuleContext& ctx, std::vector<Finding>& out, const std::string& why,
                const AmdWheelFamily* family = nullptr) {
  const TorchView& t = *ctx.torch;
  Finding f = MakeFinding("framework.torch_unverified", Layer::kFramework, Severity::kInfo, Installed(t),
                          family ? "PyTorch " + t.env->torch->version + " is from " + family->name +
                                       ": which GPUs it carries code for is unchecked"
                                 : "PyTorch " + t.env->torch->version +
                                       " is not a build gpudoctor knows: its GPU code is unchecked");
  f.evidence.push_back("required a torch_wheel record for " + t.env->torch->version +
                       (family ? ", a device package naming its GPU targets" : "") +
                       " or GPU code read from torch/lib, found neither" + why);
  if (family) f.link = family->link;
  out.push_back(std::move(f));
}

std::string WheelArchs(const TorchWheel& w) {
  std::string archs;
  for (const auto& a : w.cuda_archs)
    archs += (archs.empty() ? "" : " ") + SmName(a.cc) + (a.ptx ? "+PTX" : "");
  return archs;
}

std::string WheelGfx(const TorchWheel& w) {
  std::string list;
  for (const auto& x : w.gfx) list += (list.empty() ? "" : " ") + x;
  return list;
}

// Where the verdict's targets come from, for the evidence line: the libraries read ("libtorch_hip.so"),
// else the wheel variant whose record was used ("rocm6.2").
std::string CodeOrigin(const TorchView& t, bool from_code) {
  return from_code ? t.code_files : t.variant;
}

}  // namespace

void NvidiaKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  if (!g.cc) return;
  const bool from_code = t.HasCudaCode();
  if (!from_code && !t.wheel) return Unverified(ctx, out, "");
  const CcSupport support = from_code ? CodeSupportsCc(t, *g.cc) : WheelSupportsCc(*t.wheel, *g.cc);
  const std::string archs = from_code ? CodeList(t) : WheelArchs(*t.wheel);
  const std::string link = t.wheel ? FirstSource(t.wheel->provenance) : kNvidiaCompatibility;
  if (support == CcSupport::kExactCubin || support == CcSupport::kCompatibleCubin) {
    Finding f = MakeFinding("framework.torch_ok", Layer::kFramework, Severity::kOk, Installed(t),
                            "PyTorch " + t.env->torch->version + " has kernels for " + SmName(*g.cc));
    f.evidence.push_back("required code for " + SmName(*g.cc) + ", found " + ToString(support) + " in " +
                         CodeOrigin(t, from_code) + " (" + archs + ")");
    f.link = link;
    out.push_back(std::move(f));
    return;
  }
  const bool ptx = support == CcSupport::kPtxJit;
  Finding f = MakeFinding(ptx ? "framework.torch_ptx_only" : "framework.torch_no_kernels", Layer::kFramework,
                          ptx ? Severity::kWarning : Severity::kError, Installed(t),
                          ptx ? "PyTorch " + t.env->torch->version + " has only PTX for " + SmName(*g.cc) +
                                    ": the driver compiles every kernel at first use"
                              : "PyTorch " + t.env->torch->version + " has no kernels for " + SmName(*g.cc) +
                                    " (\"no kernel image is available for execution on the device\")");
  f.evidence.push_back("required a cubin for " + SmName(*g.cc) + ", found " + CodeOrigin(t, from_code) +
                       " built for " + archs);
  if (ptx)
    f.evidence.push_back(
        "PTX is compiled by the driver when a kernel first runs: minutes at start, cached after");
  std::optional<Version> series;
  if (t.version)
    series = Version::Parse(std::to_string(t.version->major()) + "." + std::to_string(t.version->minor()));
  const bool windows = ctx.platform == Platform::kWindows;
  const TorchWheel* fix = series ? BestCudaWheel(ctx.db, *g.cc, ctx.nvidia_driver, series, windows) : nullptr;
  if (!fix) fix = BestCudaWheel(ctx.db, *g.cc, ctx.nvidia_driver, std::nullopt, windows);
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
  f.link = link;
  out.push_back(std::move(f));
}

namespace {

// rocBLAS / hipBLASLt kernels for the target the GPU runs as (its own, or the override's sibling).
// Returns false (and adds a finding) when they are missing.
bool CheckTensile(const RuleContext& ctx, const GpuView& g, const std::string& runs_as, Finding& ok_finding,
                  std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  if (t.tensile_folders.empty()) return true;
  std::string list;
  for (const auto& x : t.tensile_gfx) list += (list.empty() ? "" : " ") + x;
  if (Contains(t.tensile_gfx, runs_as)) {
    ok_finding.evidence.push_back("required " + t.tensile_folders + " kernel files for " + runs_as +
                                  ", found " + list);
    return true;
  }
  Finding f = MakeFinding(
      "framework.rocblas_kernels_missing", Layer::kFramework, Severity::kError, Installed(t),
      "The " + t.tensile_folders + " kernels beside PyTorch " + t.env->torch->version + " have no " +
          runs_as + " files: matrix multiplies fail (\"rocBLAS error: Cannot read TensileLibrary.dat\")");
  f.evidence.push_back("required TensileLibrary files for " + runs_as + " (" + g.label + "), found " +
                       (list.empty() ? "none" : list));
  auto routes = RoutesFor(ctx, g);
  if (!routes.empty()) {
    f.fix_summary = "install a build whose kernels include " + runs_as + ": " + routes.front().route->name;
    AddReinstall(ctx, routes.front(), f);
  }
  f.link = kRocblasMissing;
  out.push_back(std::move(f));
  return false;
}

}  // namespace

namespace {

// Where the GPU targets of an AMD torch come from: the code read from its libraries, the knowledge base's
// record of its wheel, or its AMD wheel family (framework_amd_family.cpp).
struct AmdCode {
  bool from_code = false;
  const TorchWheel* wheel = nullptr;
  std::optional<AmdWheelFamily> family;
  bool Has(const TorchView& t, const std::string& gfx) const {
    if (from_code) return CodeHasGfx(t, gfx, "");
    return wheel ? WheelHasGfx(*wheel, gfx) : Contains(family->gfx, gfx);
  }
  std::string List(const TorchView& t) const {
    if (from_code) return CodeList(t);
    if (wheel) return WheelGfx(*wheel);
    std::string list;
    for (const auto& x : family->gfx) list += (list.empty() ? "" : " ") + x;
    return list;
  }
  std::string Where(const TorchView& t) const {
    return from_code || wheel ? CodeOrigin(t, from_code) : family->name + " (" + family->origin + ")";
  }
  std::string Link() const { return wheel ? FirstSource(wheel->provenance) : family ? family->link : ""; }
};

// No code for the GPU: an override that runs a sibling's code (Linux), else a build that carries it.
void NoAmdKernels(const RuleContext& ctx, const GpuView& g, const AmdCode& code, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  Finding f = MakeFinding("framework.torch_no_kernels", Layer::kFramework, Severity::kError, Installed(t),
                          "PyTorch " + t.env->torch->version + " has no " + g.gfx +
                              " code (\"hipErrorNoBinaryForGpu: Unable to find code object\")");
  f.evidence.push_back("required " + g.gfx + " in " + code.Where(t) + ", found " + code.List(t));
  const OverrideRule* rule = ctx.db.FindOverrideRule(g.gfx);
  auto sibling = rule ? GfxNameFromOverride(rule->value) : std::nullopt;
  const bool tensile_ok = !sibling || t.tensile_folders.empty() || Contains(t.tensile_gfx, *sibling);
  const bool override_runs = rule && sibling && code.Has(t, *sibling) && tensile_ok;
  if (override_runs && ctx.platform == Platform::kLinux)
    f.evidence.push_back(
        "HSA_OVERRIDE_GFX_VERSION=" + rule->value + " runs the " + *sibling + " code on it (same family" +
        (t.tensile_folders.empty() ? std::string(")")
                                   : ", and " + t.tensile_folders + " has " + *sibling + ")"));
  // Ranked by data: a build made for the GPU, the override with its caveat, a nightly (target_fix_ranking.h).
  ApplyRankedFixes(RankFixesForMissingTarget(ctx, g, override_runs), f);
  if (f.fix.empty()) {
    auto routes = RoutesFor(ctx, g);  // none the ranking names: the best there is (a legacy build)
    if (!routes.empty()) {
      f.fix_summary = "replace it with " + routes.front().route->name + "; " + kTorchPitfall;
      AddReinstall(ctx, routes.front(), f);
    }
  }
  if (f.link.empty()) f.link = code.Link();
  out.push_back(std::move(f));
}

}  // namespace

void AmdKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const TorchView& t = *ctx.torch;
  if (g.gfx.empty()) return;
  AmdCode code{t.HasAmdCode(), t.wheel, std::nullopt};
  if (!code.from_code && !code.wheel) {
    code.family = FindAmdWheelFamily(ctx, t);
    if (!code.family)
      return Unverified(ctx, out, " (TheRock and AMD's own wheels are not recorded per build)");
    if (code.family->gfx.empty())
      return Unverified(ctx, out, " (" + code.family->origin + ")", &*code.family);
  }
  const std::string generic = g.target ? g.target->generic : "";
  if (code.Has(t, g.gfx) || (code.from_code && CodeHasGfx(t, g.gfx, generic))) {
    Finding f = MakeFinding("framework.torch_ok", Layer::kFramework, Severity::kOk, Installed(t),
                            "PyTorch " + t.env->torch->version + " has kernels for " + g.gfx);
    f.evidence.push_back("required " + g.gfx + (code.Has(t, g.gfx) ? "" : " or " + generic) + " in " +
                         code.Where(t) + ", found " + code.List(t));
    f.link = code.Link();
    if (CheckTensile(ctx, g, g.gfx, f, out)) out.push_back(std::move(f));
    return;
  }
  // Through a valid same-family override the wheel's sibling code runs (runtime.override_* says more).
  std::optional<std::string> via;
  if (ctx.override_value && ctx.platform != Platform::kWindows) {
    auto chosen = GfxNameFromOverride(*ctx.override_value);
    const GpuTarget* target = chosen ? ctx.db.FindGfxTarget(*chosen) : nullptr;
    if (target && g.target && !target->generic.empty() && target->generic == g.target->generic &&
        code.Has(t, *chosen))
      via = *chosen;
  }
  if (!via) return NoAmdKernels(ctx, g, code, out);
  Finding f = MakeFinding("framework.torch_via_override", Layer::kFramework, Severity::kOk, Installed(t),
                          "PyTorch " + t.env->torch->version + " runs on " + g.gfx + " through its " + *via +
                              " code (HSA_OVERRIDE_GFX_VERSION=" + *ctx.override_value + ")");
  f.evidence.push_back("required " + g.gfx + " or an overridden sibling in " + code.Where(t) + ", found " +
                       *via + " (" + code.List(t) + ")");
  f.link = code.Link();
  if (CheckTensile(ctx, g, *via, f, out)) out.push_back(std::move(f));
}

}  // namespace gpudoctor
