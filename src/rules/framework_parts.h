// The framework layer's parts, one file each, called by FrameworkRules (framework_rules.cpp):
// the GPU code in torch against the GPU (framework_kernels.cpp), torchvision / torchaudio against
// torch (framework_companions.cpp) and what `check --live` saw (framework_live.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rule_context.h"

namespace gpudoctor {

// The advice every reinstall carries.
extern const char* const kTorchPitfall;

// "torch 2.7.1+cu128 in /home/u/.venv/lib/python3.12/site-packages"
std::string Installed(const TorchView& t);
// Uninstall torch, torchvision and torchaudio, then install `choice` (with the environment's python).
// Appended to f's fix; the route becomes f's source when it has none; a project pin that would undo it
// is named in f's evidence and edited first.
void AddReinstall(const RuleContext& ctx, const RouteChoice& choice, Finding& f);

// An AMD wheel family the knowledge base records as a family, not build by build
// (framework_amd_family.cpp), with the GPU targets the installed build carries.
struct AmdWheelFamily {
  std::string name;              // "AMD's PyTorch wheels for Windows (ROCm 7.2, repo.radeon.com)"
  std::vector<std::string> gfx;  // "gfx1100", ...; empty when nothing installed names them
  std::string origin;            // where the targets come from ("the device packages installed: ...")
  std::string link;
};
// The family of an AMD build gpudoctor has no torch_wheel record of: "+rocmsdk<date>" (AMD's ROCm 7.2
// Windows wheels) or "+rocmX.Y.Z" beside the ROCm SDK wheels (rocm-sdk-*, amd-torch-device-*). nullopt
// for any other build.
std::optional<AmdWheelFamily> FindAmdWheelFamily(const RuleContext& ctx, const TorchView& t);

void NvidiaKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out);
void AmdKernels(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out);
void CompanionRules(const RuleContext& ctx, std::vector<Finding>& out);
void LiveRules(const RuleContext& ctx, std::vector<Finding>& out);

}  // namespace gpudoctor
