// The Windows GPU probe: the display adapters from the PnP registry (Enum\PCI instances of the display
// class, each linked to its driver key under Control\Class\{4d36e968-...}) and from DXGI, matched by
// PCI ids. Fills snapshot.windows.adapters and one PciDevice per hardware adapter, so the common
// merge and the knowledge base treat them like Linux's.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

void ProbeWindowsAdapters(const ProbeContext& ctx, Snapshot& snapshot);

// After MergeGpus: memory, integrated flag and the driver's name from snapshot.windows.adapters onto
// snapshot.gpus (by PCI address), and the NVIDIA driver release when NVML did not give one.
void ApplyWindowsAdapters(Snapshot& snapshot);

}  // namespace gpudoctor
