// Lookups of PyTorch wheels shared by the rules and `explain`, so both name the same wheel.
#pragma once

#include <string_view>

#include "knowledge/knowledge_db.h"

namespace gpudoctor {

// The newest ROCm wheel of the newest torch release carrying code objects for `gfx`; nullptr when none.
const TorchWheel* NewestRocmWheelWithGfx(const KnowledgeDb& db, std::string_view gfx);

}  // namespace gpudoctor
