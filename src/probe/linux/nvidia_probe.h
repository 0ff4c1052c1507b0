// Linux probe: NVIDIA driver version (/proc), and through NVML and the CUDA driver API (dlopen, live only;
// recorded answers under a sysroot) names, UUIDs, memory, compute capability.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills its part of the snapshot; appends to snapshot.looked_at what it examined
// and to snapshot.warnings one line per unreadable or malformed input. Never throws.
void ProbeNvidia(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
