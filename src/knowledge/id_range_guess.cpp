// The id-range fallback of id_range_guess.h: nearest listed neighbours, agreement, a bounded gap.
#include "knowledge/id_range_guess.h"

#include <vector>

namespace gpudoctor {
namespace {

struct Listed {
  uint32_t id = 0;
  std::string architecture;
  std::optional<Version> cc;
  std::string chip;
};

std::optional<IdRangeGuess> Between(const std::vector<Listed>& listed, uint32_t device_id) {
  const Listed* below = nullptr;
  const Listed* above = nullptr;
  for (const Listed& l : listed) {
    if (l.id == device_id) return std::nullopt;  // listed: not a guess
    if (l.id < device_id && (!below || l.id > below->id)) below = &l;
    if (l.id > device_id && (!above || l.id < above->id)) above = &l;
  }
  if (!below || !above) return std::nullopt;
  if (device_id - below->id > kMaxIdGap || above->id - device_id > kMaxIdGap) return std::nullopt;
  if (below->architecture != above->architecture) return std::nullopt;
  IdRangeGuess g;
  g.architecture = below->architecture;
  g.cc = below->cc;
  if (below->chip == above->chip) g.chip = below->chip;
  g.below = below->id;
  g.above = above->id;
  return g;
}

}  // namespace

std::optional<IdRangeGuess> GuessNvidiaByIdRange(const KnowledgeDb& db, uint32_t device_id) {
  std::vector<Listed> listed;
  listed.reserve(db.nvidia_gpus.size());
  for (const NvidiaGpuModel& g : db.nvidia_gpus) listed.push_back({g.device_id, SmName(g.cc), g.cc, g.chip});
  return Between(listed, device_id);
}

std::optional<IdRangeGuess> GuessAmdByIdRange(const KnowledgeDb& db, uint32_t device_id) {
  std::vector<Listed> listed;
  listed.reserve(db.amd_devices.size());
  for (const AmdPciDevice& d : db.amd_devices) listed.push_back({d.device_id, d.gfx, std::nullopt, d.chip});
  return Between(listed, device_id);
}

}  // namespace gpudoctor
