// GPU packages that the environment around them undoes (addon_parts.h): a CPU package whose files
// overwrite the GPU package's (onnxruntime beside onnxruntime-gpu: only CPUExecutionProvider remains), and
// a GPU package built for another CUDA major than the CUDA libraries the environment holds (onnxruntime-gpu
// 1.17 from PyPI, CUDA 11.8, beside a cu124 torch and the nvidia-*-cu12 wheels: its CUDA provider cannot
// load libcublasLt.so.11 and sessions run on the CPU).
#include <algorithm>

#include "core/strings.h"
#include "platform/filesystem.h"
#include "rules/addon_parts.h"
#include "rules/pinned_fixes.h"
#include "rules/pip_commands.h"

namespace gpudoctor {
namespace {

// "libcudart.so.12" and "libcudart.so.12.4.127" -> 12; "cudart64_12.dll" -> 12, "cudart64_110.dll" -> 11.
std::optional<uint32_t> CudartMajor(std::string_view file) {
  std::string_view digits;
  if (StartsWith(file, "libcudart.so.")) digits = file.substr(13);
  if (StartsWith(file, "cudart64_") && EndsWith(file, ".dll")) digits = file.substr(9, file.size() - 13);
  size_t n = 0;
  while (n < digits.size() && digits[n] >= '0' && digits[n] <= '9') ++n;
  if (n == 0 || n > 3) return std::nullopt;
  auto value = ParseU64(digits.substr(0, n));
  if (!value) return std::nullopt;
  return static_cast<uint32_t>(n == 3 ? *value / 10 : *value);  // Windows: 110 is CUDA 11.0
}

const FrameworkInstall* FindDistribution(const PythonEnv& env, const std::vector<std::string>& names) {
  for (const FrameworkInstall& fw : env.frameworks) {
    const std::string name = NormalizeDistName(fw.name);
    if (std::find(names.begin(), names.end(), name) != names.end()) return &fw;
  }
  return nullptr;
}

// "onnxruntime-gpu>=1.19,<1.27": the newest release range built for `cuda_major`; "" when none is recorded.
std::string SpecForCuda(const RuleContext& ctx, const AddonLibrary& addon, uint32_t cuda_major) {
  const AddonCudaBuild* b = ctx.db.NewestAddonCudaBuild(addon.name, cuda_major);
  if (b == nullptr) return "";
  return addon.distributions.front() + ">=" + b->from.ToString() +
         (b->until ? ",<" + b->until->ToString() : "");
}

// The GPU package's release to install again: the one for the environment's CUDA when the installed
// release is built for another, else the installed release itself.
std::string ReinstallSpec(const RuleContext& ctx, const PythonEnv& env, const InstalledAddon& gpu) {
  auto version = Version::ParseLeading(gpu.fw->version);
  auto cuda = EnvironmentCuda(env);
  const AddonCudaBuild* build = version ? ctx.db.AddonCudaBuildOf(gpu.addon->name, *version) : nullptr;
  if (build && cuda && build->cuda.major() != cuda->major) {
    if (std::string spec = SpecForCuda(ctx, *gpu.addon, cuda->major); !spec.empty()) return spec;
  }
  return gpu.addon->distributions.front() + "==" + gpu.fw->version;
}

void Shadowed(const RuleContext& ctx, const PythonEnv& env, const InstalledAddon& gpu,
              const FrameworkInstall& cpu, std::vector<Finding>& out) {
  const std::string gpu_name = gpu.fw->name + " " + gpu.fw->version;
  Finding f = MakeFinding("addon.cpu_package_shadows_gpu", Layer::kFramework, Severity::kError,
                          AddonSubject(*gpu.fw, env),
                          cpu.name + " " + cpu.version + " is installed beside " + gpu_name +
                              ": the CPU package's files replace the GPU package's");
  f.evidence.push_back("found " + cpu.name + " " + cpu.version + " (" + cpu.source + ") and " + gpu_name +
                       " (" + gpu.fw->source + ") in " + env.site_packages);
  f.evidence.push_back(
      "both install the same module folder and the one installed last wins: with the CPU "
      "package's files only the CPU execution provider is offered");
  f.fix_summary = "uninstall both, then install " + gpu.fw->name + " alone (it runs on the CPU as well)";
  f.fix.push_back(
      FixAction::PerShell(ForEnvironment(PipCommand("uninstall -y " + cpu.name + " " + gpu.fw->name), &env)));
  f.fix.push_back(FixAction::PerShell(
      ForEnvironment(PipCommand("install \"" + ReinstallSpec(ctx, env, gpu) + "\""), &env)));
  ApplyProjectPins(&env, {{NormalizeDistName(cpu.name), "", "", "", ""}},
                   "no " + cpu.name + " beside " + gpu.fw->name, f);
  Cite(f, gpu.addon->provenance);
  out.push_back(std::move(f));
}

std::string CudaText(const AddonCudaBuild& b) {
  return "CUDA " + b.cuda.ToString() + (b.cudnn ? ", cuDNN " + b.cudnn->ToString() : "");
}

}  // namespace

std::optional<EnvCuda> EnvironmentCuda(const PythonEnv& env) {
  EnvCuda out;
  if (env.torch && !env.torch->cuda.empty()) {
    if (auto v = Version::Parse(env.torch->cuda)) {
      out.major = v->major();
      out.evidence.push_back("torch " + env.torch->version + " (CUDA " + env.torch->cuda + ")");
    }
  }
  for (const GpuLibraryFolder& folder : env.gpu_libraries) {
    if (!StartsWith(folder.provider, "nvidia/")) continue;
    for (const std::string& file : folder.runtimes) {
      auto major = CudartMajor(file);
      if (!major) continue;
      if (out.major == 0) out.major = *major;
      out.evidence.push_back(JoinPath(folder.path, file) + " (CUDA " + std::to_string(*major) + ")");
    }
  }
  if (out.major == 0) return std::nullopt;
  return out;
}

void ShadowedGpuPackages(const RuleContext& ctx, const PythonEnv& env, std::vector<Finding>& out) {
  for (const InstalledAddon& a : InstalledAddons(ctx, env)) {
    if (a.addon->shadowed_by.empty()) continue;
    if (const FrameworkInstall* cpu = FindDistribution(env, a.addon->shadowed_by))
      Shadowed(ctx, env, a, *cpu, out);
  }
}

void CudaBuildMismatch(const RuleContext& ctx, const PythonEnv& env, std::vector<Finding>& out) {
  auto cuda = EnvironmentCuda(env);
  if (!cuda) return;
  for (const InstalledAddon& a : InstalledAddons(ctx, env)) {
    auto version = Version::ParseLeading(a.fw->version);
    const AddonCudaBuild* build = version ? ctx.db.AddonCudaBuildOf(a.addon->name, *version) : nullptr;
    if (build == nullptr || build->cuda.major() == cuda->major) continue;
    const std::string major = std::to_string(cuda->major);
    Finding f = MakeFinding(
        "addon.cuda_build_mismatch", Layer::kFramework, Severity::kWarning, AddonSubject(*a.fw, env),
        a.fw->name + " " + a.fw->version + " is built for CUDA " + build->cuda.ToString() +
            ", but this environment's CUDA libraries are CUDA " + major);
    f.evidence.push_back("required the CUDA " + std::to_string(build->cuda.major()) + " libraries of " +
                         a.fw->name + " " + a.fw->version + " as published on PyPI (" + CudaText(*build) +
                         "), found CUDA " + major + ": " + JoinList(cuda->evidence));
    f.evidence.push_back("its CUDA provider cannot load its CUDA " + std::to_string(build->cuda.major()) +
                         " libraries and sessions fall back to the CPU");
    if (std::string spec = SpecForCuda(ctx, *a.addon, cuda->major); !spec.empty()) {
      f.fix_summary = "install the " + a.fw->name + " built for CUDA " + major + " (" + spec + ")";
      f.fix.push_back(FixAction::PerShell(ForEnvironment(PipCommand("install \"" + spec + "\""), &env)));
      ApplyProjectPins(&env, {{NormalizeDistName(a.fw->name), spec, "", "", ""}},
                       "the CUDA " + major + " build (" + spec + ")", f);
    } else {
      f.fix_summary =
          "no " + a.fw->name + " release for CUDA " + major + " is recorded: see its install page";
    }
    Cite(f, build->provenance);
    out.push_back(std::move(f));
  }
}

}  // namespace gpudoctor
