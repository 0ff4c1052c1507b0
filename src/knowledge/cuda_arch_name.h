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

// "sm_", "compute_" (PTX) or "lto_" (LTO IR), then two or three digits, then at most one "a" or "f";
// nullopt for anything else ("gfx1100", "sm_9", "sm_1000", "foo_86", "sm_86x").
std::optional<CudaArchName> ParseCudaArchName(std::string_view name);

// The compute capability a name or a number stands for: an architecture name as above, or "8.6" as
// deviceQuery and the CUDA logs print it; nullopt for anything else ("86", "gfx1100", "8.6.1").
std::optional<Version> ComputeCapabilityOf(std::string_view text);

}  // namespace gpudoctor
