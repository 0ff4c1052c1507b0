// AMD's own PyTorch wheel families, which download.pytorch.org's records (data/pytorch_wheels.toml) do not
// hold build by build: the ROCm 7.2 Windows wheels from repo.radeon.com ("2.9.1+rocmsdk20260116", built
// for the GPUs of the route amd-windows-rocm7.2), and the multi-arch wheels (stable.repo.amd.com whl-next,
// repo.amd.com whl-multi-arch, TheRock's indexes: "2.14.0+rocm10.1.0") whose GPU code comes in per-GPU
// packages of the ROCm SDK wheels: rocm-sdk-device-gfx1100, amd-torch-device-gfx1100, or a family's
// rocm-sdk-libraries-gfx110X-all. The targets are read from those package names.
#include <algorithm>

#include "core/strings.h"
#include "rules/framework_parts.h"

namespace gpudoctor {
namespace {

constexpr const char* kRocmSdkPackages = "https://github.com/ROCm/TheRock/blob/main/RELEASES.md";

// "rocm-sdk-device-gfx1100" / "amd-torch-device-gfx1100" -> "gfx1100"; "rocm-sdk-libraries-gfx110X-all"
// -> the TheRock family's targets; nothing for rocm-sdk-core and the like.
void TargetsOfPackage(const KnowledgeDb& db, const std::string& name, std::vector<std::string>& gfx) {
  std::string lower = ToLower(name);
  for (const char* prefix : {"rocm-sdk-device-", "amd-torch-device-"}) {
    if (StartsWith(lower, prefix) && StartsWith(lower.substr(std::string(prefix).size()), "gfx")) {
      std::string target = lower.substr(std::string(prefix).size());
      if (!Contains(gfx, target)) gfx.push_back(target);
      return;
    }
  }
  if (!StartsWith(lower, "rocm-sdk-libraries-")) return;
  std::string family = lower.substr(std::string("rocm-sdk-libraries-").size());
  for (const TheRockFamily& f : db.therock_families) {
    if (ToLower(f.name) != family) continue;
    for (const auto& target : f.gfx)
      if (!Contains(gfx, target)) gfx.push_back(target);
  }
}

std::optional<AmdWheelFamily> Rocm72Windows(const RuleContext& ctx) {
  const TorchRoute* route = ctx.db.FindRoute("amd-windows-rocm7.2");
  if (!route) return std::nullopt;
  return AmdWheelFamily{route->name, route->gfx, "the targets of the route " + route->id,
                        FirstSource(route->provenance)};
}

}  // namespace

std::optional<AmdWheelFamily> FindAmdWheelFamily(const RuleContext& ctx, const TorchView& t) {
  if (StartsWith(t.variant, "rocmsdk")) return Rocm72Windows(ctx);
  if (!StartsWith(t.variant, "rocm")) return std::nullopt;
  std::vector<std::string> gfx, packages;
  bool sdk = false;
  for (const auto& fw : t.env->frameworks) {
    std::string lower = ToLower(fw.name);
    if (fw.family != "rocm-sdk" && !StartsWith(lower, "amd-torch-device-")) continue;
    sdk = true;
    size_t before = gfx.size();
    TargetsOfPackage(ctx.db, fw.name, gfx);
    if (gfx.size() > before) packages.push_back(fw.name);
  }
  if (!sdk) return std::nullopt;  // a pytorch.org ROCm build the knowledge base does not record
  std::sort(gfx.begin(), gfx.end());
  const TorchRoute* route =
      ctx.db.FindRoute(ctx.platform == Platform::kWindows ? "amd-windows-wheels" : "amd-rocm-stable-linux");
  std::string name = "AMD's multi-arch ROCm wheels (the ROCm SDK wheels with per-GPU device packages)";
  std::string origin = packages.empty() ? "no device package installed" : "the device packages installed: ";
  for (size_t i = 0; i < packages.size(); ++i) origin += (i ? ", " : "") + packages[i];
  return AmdWheelFamily{name, gfx, origin, route ? FirstSource(route->provenance) : kRocmSdkPackages};
}

}  // namespace gpudoctor
