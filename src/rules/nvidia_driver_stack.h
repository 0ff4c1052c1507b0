// The NVIDIA driver stack on Linux as the disk shows it (nvidia_driver_stack.cpp): the loaded module
// against the installed libraries, and why no module is loaded for a GPU that needs one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rule_context.h"

namespace gpudoctor {

// runtime.nvidia_cdi_spec_stale: a CDI specification (/etc/cdi, /var/run/cdi) names another driver release
// than the loaded one, so containers given the GPU through CDI get the old driver's files.
void NvidiaCdiSpecStale(const RuleContext& ctx, std::vector<Finding>& out);

// runtime.nvidia_library_mismatch: the loaded kernel module and the installed libcuda / NVML differ.
void NvidiaLibraryMismatch(const RuleContext& ctx, std::vector<Finding>& out);

// For a GPU with no driver bound: runtime.nvidia_module_not_built (no module for the running kernel, one for
// another) or runtime.nvidia_module_refused (built, not loaded, Secure Boot on); nullopt when the disk says
// neither (the driver is simply not installed).
std::optional<Finding> NvidiaModuleNotLoaded(const RuleContext& ctx, const std::string& subject);

}  // namespace gpudoctor
