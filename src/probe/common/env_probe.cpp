// Copies into the snapshot the environment variables that change what GPU frameworks do — device
// visibility, HSA overrides, install paths, allocator settings — and nothing else. The list is one table.
#include "probe/common/env_probe.h"

#include <string_view>

#include "core/strings.h"

namespace gpudoctor {
namespace {

enum class Match {
  kExact,        // the name itself
  kDigitSuffix,  // the name followed by digits only (HSA_OVERRIDE_GFX_VERSION_1)
  kPrefix,       // any name starting with it (NCCL_)
};
enum class Keep { kValue, kNameOnly };

struct VariableRule {
  std::string_view name;
  Match match;
  Keep keep;
};

// clang-format off
constexpr VariableRule kRelevantVariables[] = {
    // Which GPUs a process sees (they remap ordinals; the PCI address stays the identity).
    {"HIP_VISIBLE_DEVICES",        Match::kExact,       Keep::kValue},
    {"ROCR_VISIBLE_DEVICES",       Match::kExact,       Keep::kValue},
    {"CUDA_VISIBLE_DEVICES",       Match::kExact,       Keep::kValue},
    {"GPU_DEVICE_ORDINAL",         Match::kExact,       Keep::kValue},
    // ROCr / HSA behaviour (knowledge-facts 5.5).
    {"HSA_OVERRIDE_GFX_VERSION",   Match::kExact,       Keep::kValue},
    {"HSA_OVERRIDE_GFX_VERSION_",  Match::kDigitSuffix, Keep::kValue},
    {"HSA_ENABLE_SDMA",            Match::kExact,       Keep::kValue},
    {"HSA_XNACK",                  Match::kExact,       Keep::kValue},
    {"HSA_ENABLE_DXG_DETECTION",   Match::kExact,       Keep::kValue},
    // Where runtimes and toolkits are looked for.
    {"ROCM_PATH",                  Match::kExact,       Keep::kValue},
    {"ROCM_HOME",                  Match::kExact,       Keep::kValue},
    {"HIP_PATH",                   Match::kExact,       Keep::kValue},
    {"CUDA_PATH",                  Match::kExact,       Keep::kValue},
    {"CUDA_HOME",                  Match::kExact,       Keep::kValue},
    {"LD_LIBRARY_PATH",            Match::kExact,       Keep::kValue},
    // PyTorch allocator, build targets and debugging.
    {"PYTORCH_ALLOC_CONF",         Match::kExact,       Keep::kValue},
    {"PYTORCH_CUDA_ALLOC_CONF",    Match::kExact,       Keep::kValue},
    {"PYTORCH_HIP_ALLOC_CONF",     Match::kExact,       Keep::kValue},
    {"PYTORCH_ROCM_ARCH",          Match::kExact,       Keep::kValue},
    {"TORCH_CUDA_ARCH_LIST",       Match::kExact,       Keep::kValue},
    {"AMD_SERIALIZE_KERNEL",       Match::kExact,       Keep::kValue},
    {"CUDA_LAUNCH_BLOCKING",       Match::kExact,       Keep::kValue},
    // Collective libraries: that they are set matters; their values stay on the machine.
    {"NCCL_",                      Match::kPrefix,      Keep::kNameOnly},
    {"RCCL_",                      Match::kPrefix,      Keep::kNameOnly},
    // Which Python environment is active.
    {"VIRTUAL_ENV",                Match::kExact,       Keep::kValue},
    {"CONDA_PREFIX",               Match::kExact,       Keep::kValue},
};
// clang-format on

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

const VariableRule* RuleFor(std::string_view var) {
  for (const auto& rule : kRelevantVariables) {
    switch (rule.match) {
      case Match::kExact:
        if (var == rule.name) return &rule;
        break;
      case Match::kDigitSuffix:
        if (StartsWith(var, rule.name) && AllDigits(var.substr(rule.name.size()))) return &rule;
        break;
      case Match::kPrefix:
        if (StartsWith(var, rule.name) && var.size() > rule.name.size()) return &rule;
        break;
    }
  }
  return nullptr;
}

}  // namespace

bool IsReportedVariable(std::string_view name) {
  return RuleFor(name) != nullptr;
}

bool IsReportedByNameOnly(std::string_view name) {
  const VariableRule* rule = RuleFor(name);
  return rule != nullptr && rule->keep == Keep::kNameOnly;
}

void ProbeEnvironmentVariables(const ProbeContext& ctx, Snapshot& snap) {
  snap.looked_at.push_back("environment variables");
  for (const auto& [name, value] : ctx.env.All()) {
    const VariableRule* rule = RuleFor(name);
    if (!rule) continue;
    snap.environment[name] = rule->keep == Keep::kValue ? value : kEnvValueNotRecorded;
  }
}

}  // namespace gpudoctor
