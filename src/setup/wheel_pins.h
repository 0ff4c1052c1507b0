// The versions a plan pins: the torch release the knowledge base records on a download.pytorch.org
// variant for this GPU (a CUDA wheel whose cubins run on its compute capability, WheelSupportsCc; a ROCm
// wheel listing its gfx target), and the torchvision and torchaudio series built for that release
// (torch_companions.toml). Without a record, nothing is pinned and the index's newest is what pip takes.
#pragma once

#include <string>
#include <vector>

#include "rules/rule_context.h"
#include "setup/setup_plan.h"

namespace gpudoctor {

// The variant of a download.pytorch.org index URL ("https://download.pytorch.org/whl/cu126" -> "cu126"),
// "" for any other URL.
std::string PytorchIndexVariant(const std::string& index_url);

// The newest recorded wheel of `variant` that carries the GPU's code: what the pins come from (nullptr
// when none is recorded).
const TorchWheel* PinnedWheel(const RuleContext& ctx, const std::string& variant);

// Pins torch, torchvision and torchaudio where `step` names them bare; returns the Python versions the
// pinned wheel is built for (empty when unknown).
std::vector<std::string> PinTorchRelease(const RuleContext& ctx, PackageStep& step);

}  // namespace gpudoctor
