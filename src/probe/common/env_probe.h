// Probe: the environment variables that matter for GPU frameworks (visible devices, HSA overrides, ROCM_PATH,
// CUDA_PATH, LD_LIBRARY_PATH, PYTORCH_*ALLOC_CONF).
#pragma once

#include <string_view>

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The value recorded for variables kept by name only (NCCL_*, RCCL_*).
inline constexpr const char* kEnvValueNotRecorded = "(set; value not recorded)";

// True for the variables the snapshot reports (by value or by name only).
bool IsReportedVariable(std::string_view name);
// True for the variables the snapshot reports by name only (NCCL_*, RCCL_*).
bool IsReportedByNameOnly(std::string_view name);

// Fills its part of the snapshot; appends to snapshot.looked_at what it examined
// and to snapshot.warnings one line per unreadable or malformed input. Never throws.
void ProbeEnvironmentVariables(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
