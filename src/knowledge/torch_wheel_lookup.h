// Lookups of PyTorch wheels shared by the rules and `explain`, so both name the same wheel.
#pragma once

#include <optional>
#include <string_view>

#include "knowledge/knowledge_db.h"

namespace gpudoctor {

// The newest torch release recorded (by version: 2.10 after 2.9); nullptr when none is.
const TorchRelease* NewestTorchRelease(const KnowledgeDb& db);

// The newest ROCm wheel of the newest torch release carrying code objects for `gfx`; nullptr when none.
const TorchWheel* NewestRocmWheelWithGfx(const KnowledgeDb& db, std::string_view gfx);

// The best CUDA wheel for a GPU: within `torch_series` when given (same release), else the newest
// release; among those, the newest CUDA whose driver floor `driver` meets (when known) and whose code
// runs on `cc` as a cubin. nullptr when none. Shared by check's rules and explain.
const TorchWheel* BestCudaWheel(const KnowledgeDb& db, const Version& cc,
                                const std::optional<Version>& driver,
                                const std::optional<Version>& torch_series, bool windows);

}  // namespace gpudoctor
