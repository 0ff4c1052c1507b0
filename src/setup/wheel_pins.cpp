// Pinning a plan's torch, torchvision and torchaudio to the release recorded for the GPU (see wheel_pins.h).
#include "setup/wheel_pins.h"

#include "rules/pip_commands.h"
#include "setup/pip_line.h"

namespace gpudoctor {
namespace {

const char kPytorchIndex[] = "https://download.pytorch.org/whl/";

bool CarriesGpuCode(const TorchWheel& w, const GpuView* gpu) {
  if (!gpu) return true;
  if (gpu->vendor == GpuVendor::kNvidia && w.cuda && gpu->cc) {
    CcSupport s = WheelSupportsCc(w, *gpu->cc);
    return s == CcSupport::kExactCubin || s == CcSupport::kCompatibleCubin;
  }
  if (gpu->vendor == GpuVendor::kAmd && w.rocm) return Contains(w.gfx, gpu->gfx);
  return true;
}

std::string SeriesPin(const std::vector<Version>& series) {
  return series.empty() ? std::string() : "==" + series.front().ToString() + ".*";
}

}  // namespace

std::string PytorchIndexVariant(const std::string& index_url) {
  if (!index_url.starts_with(kPytorchIndex)) return "";
  std::string variant = index_url.substr(sizeof(kPytorchIndex) - 1);
  while (!variant.empty() && variant.back() == '/') variant.pop_back();
  return IsPytorchIndexVariant(variant) ? variant : "";
}

const TorchWheel* PinnedWheel(const RuleContext& ctx, const std::string& variant) {
  const GpuView* gpu = ctx.gpus.empty() ? nullptr : &ctx.gpus.front();
  const TorchWheel* best = nullptr;
  for (const TorchWheel& w : ctx.db.torch_wheels) {
    if (w.variant != variant || !CarriesGpuCode(w, gpu)) continue;
    if (!best || w.torch > best->torch) best = &w;
  }
  return best;
}

std::vector<std::string> PinTorchRelease(const RuleContext& ctx, PackageStep& step) {
  if (step.variant.empty()) return {};
  const TorchWheel* wheel = PinnedWheel(ctx, step.variant);
  if (!wheel) return {};
  const TorchCompanion* companion = ctx.db.FindTorchCompanion(wheel->torch);
  for (std::string& r : step.requirements) {
    if (r != RequirementName(r)) continue;  // extras, a version or a marker: as check wrote it
    if (r == "torch") {
      // A series as the knowledge base records it ("2.14") is every patch release of it: "==2.14" would
      // refuse 2.14.1.
      r += "==" + wheel->torch.ToString() + (wheel->torch.parts().size() < 3 ? ".*" : "");
    } else if (r == "torchvision" && companion) {
      r += SeriesPin(companion->torchvision);
    } else if (r == "torchaudio" && companion) {
      r += SeriesPin(companion->torchaudio);
    }
  }
  return wheel->python;
}

}  // namespace gpudoctor
