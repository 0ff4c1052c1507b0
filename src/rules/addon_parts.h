// The add-on checks' shared parts (AddonRules in addon_rules.cpp runs them per environment): which add-on
// of data/addon_libraries.toml an installed distribution is, the CUDA libraries an environment loads,
// and the onnxruntime-gpu checks (addon_onnxruntime.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rules/rule_context.h"

namespace gpudoctor {

// An installed distribution that belongs to an [[addon_library]].
struct InstalledAddon {
  const FrameworkInstall* fw = nullptr;
  const AddonLibrary* addon = nullptr;
};
std::vector<InstalledAddon> InstalledAddons(const RuleContext& ctx, const PythonEnv& env);

// "xformers 0.0.28.post3 in /home/u/.venv/lib/python3.12/site-packages"
std::string AddonSubject(const FrameworkInstall& fw, const PythonEnv& env);

// The CUDA major of the libraries an environment's GPU packages load: torch's CUDA build first, else the
// pip CUDA runtime (site-packages/nvidia/cuda_runtime: libcudart.so.12, cudart64_12.dll). `evidence`
// says where each came from ("torch 2.6.0+cu124 (CUDA 12.4)").
struct EnvCuda {
  uint32_t major = 0;
  std::vector<std::string> evidence;
};
std::optional<EnvCuda> EnvironmentCuda(const PythonEnv& env);

// onnxruntime (the CPU package) beside onnxruntime-gpu, and onnxruntime-gpu built for another CUDA major
// than the environment's CUDA libraries.
void ShadowedGpuPackages(const RuleContext& ctx, const PythonEnv& env, std::vector<Finding>& out);
void CudaBuildMismatch(const RuleContext& ctx, const PythonEnv& env, std::vector<Finding>& out);

}  // namespace gpudoctor
