// The amdgpu kernel driver on Linux as the disk shows it (amdgpu_driver_stack.cpp): why no amdgpu is
// loaded for an AMD GPU that needs it.
#pragma once

#include <optional>
#include <string>

#include "rules/rule_context.h"

namespace gpudoctor {

// For an AMD GPU with no driver bound: runtime.amdgpu_module_missing (no amdgpu module for the running
// kernel: Ubuntu's linux-modules-extra not installed, or amdgpu-dkms not built for it) or
// runtime.amdgpu_module_refused (amdgpu-dkms's module for the running kernel, not loaded, Secure Boot
// on); nullopt when the disk says neither.
std::optional<Finding> AmdgpuModuleNotLoaded(const RuleContext& ctx, const std::string& subject);

}  // namespace gpudoctor
