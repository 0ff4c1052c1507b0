// See torch_wheel_lookup.h.
#include "knowledge/torch_wheel_lookup.h"

namespace gpudoctor {

const TorchRelease* NewestTorchRelease(const KnowledgeDb& db) {
  const TorchRelease* newest = nullptr;
  for (const TorchRelease& r : db.torch_releases)
    if (newest == nullptr || r.version > newest->version) newest = &r;
  return newest;
}

const TorchWheel* NewestRocmWheelWithGfx(const KnowledgeDb& db, std::string_view gfx) {
  const TorchWheel* best = nullptr;
  for (const auto& w : db.torch_wheels) {
    if (!w.rocm || !WheelHasGfx(w, gfx)) continue;
    if (!best || w.torch > best->torch || (w.torch == best->torch && *w.rocm > *best->rocm)) best = &w;
  }
  return best;
}

const TorchWheel* BestCudaWheel(const KnowledgeDb& db, const Version& cc,
                                const std::optional<Version>& driver,
                                const std::optional<Version>& torch_series, bool windows) {
  const TorchWheel* best = nullptr;
  auto best_cuda = [](const TorchWheel* b) { return b ? b->cuda : std::optional<Version>(Version()); };
  for (const auto& w : db.torch_wheels) {
    if (!w.cuda) continue;
    if (torch_series && !torch_series->HasPrefix(w.torch)) continue;
    CcSupport support = WheelSupportsCc(w, cc);
    if (support != CcSupport::kExactCubin && support != CcSupport::kCompatibleCubin) continue;
    if (driver) {
      auto floors = db.CudaDriverFloor(*w.cuda);
      if (floors && floors->minor_compat) {
        const Version& floor =
            windows ? floors->minor_compat->windows_driver : floors->minor_compat->linux_driver;
        if (*driver < floor) continue;
      }
    }
    // A known driver: the newest CUDA it runs. Unknown: the lowest floor (the widest range of drivers).
    bool better_cuda = driver ? *w.cuda > *best_cuda(best) : *w.cuda < *best_cuda(best);
    if (!best || w.torch > best->torch || (w.torch == best->torch && better_cuda)) best = &w;
  }
  return best;
}

}  // namespace gpudoctor
