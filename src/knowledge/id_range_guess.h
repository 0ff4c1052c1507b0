// For a PCI id the tables do not list: the architecture of the ids around it. Vendors number a
// chip's boards in one block (NVIDIA's GA106 boards are 0x2501..0x2571), so an unlisted id whose
// nearest listed neighbours below and above are close and of one architecture is almost surely of
// that architecture too. Used only when the driver itself (NVML, KFD) gave no answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "knowledge/knowledge_db.h"

namespace gpudoctor {

struct IdRangeGuess {
  std::string architecture;   // "sm_86" (NVIDIA) or "gfx1030" (AMD)
  std::optional<Version> cc;  // NVIDIA only
  std::string chip;           // "GA106" / "Navi 21" when both neighbours name the same chip, else ""
  uint32_t below = 0;         // the listed ids around the unknown one
  uint32_t above = 0;
};

// The largest distance to each neighbour for a guess; beyond it the block may belong to another chip.
inline constexpr uint32_t kMaxIdGap = 0x80;

// nullopt when the id is listed, when a neighbour is missing or too far, or when they disagree.
std::optional<IdRangeGuess> GuessNvidiaByIdRange(const KnowledgeDb& db, uint32_t device_id);
std::optional<IdRangeGuess> GuessAmdByIdRange(const KnowledgeDb& db, uint32_t device_id);

}  // namespace gpudoctor
