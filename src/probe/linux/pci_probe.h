// Linux probe: every PCI display / 3D / accelerator function with ids, driver, NUMA node, PCIe link, name,
// integrated vs discrete, DRM memory.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Fills its part of the snapshot; appends to snapshot.looked_at what it examined
// and to snapshot.warnings one line per unreadable or malformed input. Never throws.
void ProbePciDevices(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
