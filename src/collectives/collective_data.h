// The data every collective benchmark sends and the values each rank must receive, so that every result is
// checked (nccl-tests -c). Element i of rank r's send buffer is the integer ((r % 97) + 1) + (i % 13): every
// sum over up to 100 000 ranks stays below 2^24, so float32 adds it exactly in any order and a received value
// is either exactly right or wrong. Broadcast's root is rank 0. Pure functions, tested on the CPU against an
// emulation of each collective.
#pragma once

#include <cstdint>
#include <vector>

#include "collectives/collective_types.h"

namespace gpudoctor {

float CollectiveInput(int rank, uint64_t index);

// Rank `rank`'s send buffer (counts.send elements).
std::vector<float> CollectiveSendBuffer(CollectiveOp op, int rank, int ranks, const CollectiveCounts& counts);
// What rank `rank` must hold in its receive buffer (counts.recv elements) after `op`.
float CollectiveExpected(CollectiveOp op, int rank, int ranks, const CollectiveCounts& counts,
                         uint64_t index);
// Elements of `received` that differ from CollectiveExpected (all of them past a size mismatch).
uint64_t CountWrongElements(CollectiveOp op, int rank, int ranks, const CollectiveCounts& counts,
                            const std::vector<float>& received);

}  // namespace gpudoctor
