// The fill and expected values of the collective benchmarks (see collective_data.h).
#include "collectives/collective_data.h"

namespace gpudoctor {
namespace {

// The sum over ranks of the rank part of CollectiveInput.
double RankSum(int ranks) {
  double s = 0;
  for (int r = 0; r < ranks; ++r) s += (r % 97) + 1;
  return s;
}

}  // namespace

float CollectiveInput(int rank, uint64_t index) {
  return static_cast<float>((rank % 97) + 1 + static_cast<int>(index % 13));
}

std::vector<float> CollectiveSendBuffer(CollectiveOp op, int rank, int ranks,
                                        const CollectiveCounts& counts) {
  (void)op;
  (void)ranks;
  std::vector<float> out(counts.send);
  for (uint64_t i = 0; i < counts.send; ++i) out[i] = CollectiveInput(rank, i);
  return out;
}

float CollectiveExpected(CollectiveOp op, int rank, int ranks, const CollectiveCounts& c, uint64_t i) {
  uint64_t n = static_cast<uint64_t>(ranks);
  switch (op) {
    case CollectiveOp::kAllReduce:
      return static_cast<float>(RankSum(ranks) + static_cast<double>(n * (i % 13)));
    case CollectiveOp::kReduceScatter: {
      uint64_t j = static_cast<uint64_t>(rank) * c.param + i;
      return static_cast<float>(RankSum(ranks) + static_cast<double>(n * (j % 13)));
    }
    case CollectiveOp::kAllGather:
      return CollectiveInput(static_cast<int>(i / c.param), i % c.param);
    case CollectiveOp::kBroadcast:
      return CollectiveInput(0, i);
    case CollectiveOp::kAllToAll:
      // Chunk s of the receive buffer came from rank s, which sent its chunk `rank`.
      return CollectiveInput(static_cast<int>(i / c.param),
                             static_cast<uint64_t>(rank) * c.param + i % c.param);
  }
  return 0;
}

uint64_t CountWrongElements(CollectiveOp op, int rank, int ranks, const CollectiveCounts& c,
                            const std::vector<float>& received) {
  if (received.size() != c.recv) return c.recv;
  uint64_t wrong = 0;
  float reduce_base = 0;
  bool sums = op == CollectiveOp::kAllReduce || op == CollectiveOp::kReduceScatter;
  if (sums) reduce_base = static_cast<float>(RankSum(ranks));
  for (uint64_t i = 0; i < c.recv; ++i) {
    float want;
    if (op == CollectiveOp::kAllReduce) {
      want = reduce_base + static_cast<float>(static_cast<uint64_t>(ranks) * (i % 13));
    } else if (op == CollectiveOp::kReduceScatter) {
      uint64_t j = static_cast<uint64_t>(rank) * c.param + i;
      want = reduce_base + static_cast<float>(static_cast<uint64_t>(ranks) * (j % 13));
    } else {
      want = CollectiveExpected(op, rank, ranks, c, i);
    }
    if (received[i] != want) ++wrong;
  }
  return wrong;
}

}  // namespace gpudoctor
