// See torch_wheel_lookup.h.
#include "knowledge/torch_wheel_lookup.h"

namespace gpudoctor {

const TorchWheel* NewestRocmWheelWithGfx(const KnowledgeDb& db, std::string_view gfx) {
  const TorchWheel* best = nullptr;
  for (const auto& w : db.torch_wheels) {
    if (!w.rocm || !WheelHasGfx(w, gfx)) continue;
    if (!best || w.torch > best->torch || (w.torch == best->torch && *w.rocm > *best->rocm)) best = &w;
  }
  return best;
}

}  // namespace gpudoctor
