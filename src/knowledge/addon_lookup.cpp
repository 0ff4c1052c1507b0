// The add-on lookups of KnowledgeDb (knowledge_db.h): an add-on by one of its distributions, the GPU
// floors of a release, the release built for a torch, the CUDA build of a release.
#include <algorithm>

#include "core/strings.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {

const AddonLibrary* KnowledgeDb::FindAddon(std::string_view distribution) const {
  const std::string name = NormalizeDistName(distribution);
  for (const AddonLibrary& a : addon_libraries) {
    if (std::find(a.distributions.begin(), a.distributions.end(), name) != a.distributions.end()) return &a;
  }
  return nullptr;
}

std::vector<const AddonGpuFloor*> KnowledgeDb::AddonGpuFloorsFor(
    std::string_view addon, const std::optional<Version>& version) const {
  std::vector<const AddonGpuFloor*> out;
  for (const AddonGpuFloor& f : addon_gpu_floors) {
    if (f.addon != addon) continue;
    if (f.from && (!version || *version < *f.from)) continue;
    out.push_back(&f);
  }
  return out;
}

const AddonTorchBuild* KnowledgeDb::AddonBuildForTorch(std::string_view addon, const Version& torch) const {
  const AddonTorchBuild* found = nullptr;
  for (const AddonTorchBuild& b : addon_torch_builds) {
    if (b.addon == addon && b.torch == torch) found = &b;
  }
  return found;
}

const AddonCudaBuild* KnowledgeDb::AddonCudaBuildOf(std::string_view addon, const Version& version) const {
  for (const AddonCudaBuild& c : addon_cuda_builds) {
    if (c.addon == addon && !(version < c.from) && (!c.until || version < *c.until)) return &c;
  }
  return nullptr;
}

const AddonCudaBuild* KnowledgeDb::NewestAddonCudaBuild(std::string_view addon, uint32_t cuda_major) const {
  const AddonCudaBuild* best = nullptr;
  for (const AddonCudaBuild& c : addon_cuda_builds) {
    if (c.addon != addon || c.cuda.major() != cuda_major) continue;
    if (best == nullptr || best->from < c.from) best = &c;
  }
  return best;
}

}  // namespace gpudoctor
