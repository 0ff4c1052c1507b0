// Linux probe: OS (distribution, kernel, WSL2, container), CPU, RAM, free disk of the home folder, host name.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills its part of the snapshot; appends to snapshot.looked_at what it examined
// and to snapshot.warnings one line per unreadable or malformed input. Never throws.
void ProbeOs(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
