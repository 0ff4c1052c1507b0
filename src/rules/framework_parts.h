// The framework layer's parts, one file each, called by FrameworkRules (framework_rules.cpp):
// the GPU code in torch against the GPU (framework_kernels.cpp), torchvision / torchaudio against
// torch (framework_companions.cpp) and what `check --live` saw (framework_live.cpp).
#pragma once

#include <string>
#include <vector>

#include "rules/rule_context.h"

namespace gpudoctor {

// The advice every reinstall carries.
extern const char* const kTorchPitfall;

// "torch 2.7.1+cu128 in /home/u/.venv/lib/python3.12/site-packages"
std::string Installed(const TorchView& t);
// Uninstall torch, torchvision and torchaudio, then install `choice` (with the environment's python).
void AddReinstall(const RuleContext& ctx, const RouteChoice& choice, Finding& f);

void NvidiaKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out);
void AmdKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out);
void CompanionRules(const RuleContext& ctx, std::vector<Finding>& out);
void LiveRules(const RuleContext& ctx, std::vector<Finding>& out);

}  // namespace gpudoctor
