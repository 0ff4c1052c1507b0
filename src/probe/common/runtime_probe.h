// Probe: GPU runtimes and toolkits installed (ROCm trees and versions, HIP runtime libraries, CUDA toolkits,
// libcuda).
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills its part of the snapshot; appends to snapshot.looked_at what it examined
// and to snapshot.warnings one line per unreadable or malformed input. Never throws.
void ProbeRuntimes(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
