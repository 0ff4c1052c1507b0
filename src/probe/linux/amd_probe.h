// Linux probe: AMD KFD topology nodes, amdgpu module, /dev/kfd and render-node access.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills its part of the snapshot; appends to snapshot.looked_at what it examined
// and to snapshot.warnings one line per unreadable or malformed input. Never throws.
void ProbeAmd(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
