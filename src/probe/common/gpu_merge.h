// Builds the merged GPU list (snapshot.gpus): one entry per PCI GPU, enriched
// with its KFD node (gfx target, CUs, VRAM) or NVML device (compute capability,
// memory), matched by PCI address. A KFD or NVML device with no PCI match still
// gets an entry, since the report must not lose a GPU. Names and families that
// only the knowledge base knows are added afterwards (knowledge_enrich.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/snapshot.h"

namespace gpudoctor {

std::vector<Gpu> MergeGpus(const Snapshot& snapshot);

// "sm_90" for (9, 0), "sm_120" for (12, 0).
std::string NvidiaArchitectureName(uint32_t major, uint32_t minor);

}  // namespace gpudoctor
