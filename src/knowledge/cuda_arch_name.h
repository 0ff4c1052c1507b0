// The one parser of CUDA architecture names ("sm_89", "sm_120", "sm_90a", "compute_90"): the probes,
// the rules and `explain` all turn such names into a compute capability through it.
#pragma once

#include <optional>
#include <string_view>

#include "knowledge/version.h"

namespace gpudoctor {

struct CudaArchName {
  Version cc;             // "sm_89" -> 8.9, "sm_120" -> 12.0
  bool specific = false;  // an "a" or "f" target (sm_90a, sm_100f): code for its own cc only
};

// nullopt for names without a number after the last '_'.
std::optional<CudaArchName> ParseCudaArchName(std::string_view name);

}  // namespace gpudoctor
