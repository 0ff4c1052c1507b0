// Builds the merged GPU list (snapshot.gpus): one entry per PCI GPU, enriched
// with its KFD node (gfx target, CUs, VRAM) or NVML device (compute capability,
// memory), matched by PCI address. A KFD or NVML device with no PCI match still
// gets an entry, since the report must not lose a GPU.
#pragma once

#include <vector>

#include "snapshot/snapshot.h"

namespace gpudoctor {

std::vector<Gpu> MergeGpus(const Snapshot& snapshot);

}  // namespace gpudoctor
