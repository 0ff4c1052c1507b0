// The collective benchmarks as data: the operations, the size sweep, what one rank measured, the bandwidth
// formulas, and the aggregated report. Sizes, algbw and busbw follow nccl-tests exactly
// (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md and src/<op>.cu GetBw):
//   size   = the larger of the send and receive buffers of one rank, in bytes (all-gather: the gathered
//            receive buffer; reduce-scatter: the send buffer; all-to-all: the send buffer of n chunks)
//   time   = the mean over ranks of each rank's wall time per iteration (common.cu: Allreduce(average))
//   algbw  = size / time                                 (GB/s, 1 GB = 1e9 bytes)
//   busbw  = algbw * factor, with factor
//            all-reduce      2(n-1)/n   (all_reduce.cu)
//            all-gather      (n-1)/n    (all_gather.cu)
//            reduce-scatter  (n-1)/n    (reduce_scatter.cu)
//            broadcast       1          (broadcast.cu)
//            all-to-all      (n-1)/n    (alltoall.cu)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

enum class CollectiveOp { kAllReduce, kAllGather, kReduceScatter, kBroadcast, kAllToAll };
inline constexpr CollectiveOp kAllCollectiveOps[] = {CollectiveOp::kAllReduce, CollectiveOp::kAllGather,
                                                     CollectiveOp::kReduceScatter, CollectiveOp::kBroadcast,
                                                     CollectiveOp::kAllToAll};
const char* ToString(
    CollectiveOp op);  // "all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all"
std::optional<CollectiveOp> CollectiveOpFromString(std::string_view s);  // also accepts '-' for '_'
// "all_reduce,broadcast" -> the ops; "all" -> every op. An error names the unknown word.
Result<std::vector<CollectiveOp>> ParseCollectiveOps(std::string_view list);

// The busbw factor of nccl-tests for `op` on `ranks` ranks (see above).
double BusBandwidthFactor(CollectiveOp op, int ranks);
// algbw in GB/s of `size_bytes` moved in `seconds` (0 when seconds <= 0).
double AlgorithmBandwidthGBs(uint64_t size_bytes, double seconds);

// The float32 elements of one rank's buffers for a benchmark size (see collective_data.h for their values).
struct CollectiveCounts {
  uint64_t send = 0;   // elements in the send buffer
  uint64_t recv = 0;   // elements in the receive buffer
  uint64_t param = 0;  // the count passed to the call (per rank for all-gather / reduce-scatter / per peer
                       // for all-to-all)
};
// nullopt when `size_bytes` is too small to give every rank one element (nccl-tests would run it empty).
std::optional<CollectiveCounts> CountsFor(CollectiveOp op, uint64_t size_bytes, int ranks);

// min, min*f, min*f^2, ... up to and including max (every size a whole number of float32 elements).
std::vector<uint64_t> SizeSweep(uint64_t min_bytes, uint64_t max_bytes, uint64_t factor);

struct CollectiveOptions {
  std::vector<CollectiveOp> ops = {std::begin(kAllCollectiveOps), std::end(kAllCollectiveOps)};
  uint64_t min_bytes = 8;
  uint64_t max_bytes = 1ull << 30;
  uint64_t factor = 2;
  int iters = 20;  // timed iterations per size (nccl-tests -n)
  int warmup = 5;  // untimed iterations per size (nccl-tests -w)
};

// One rank's measurement of one op at one size.
struct RankMeasurement {
  CollectiveOp op = CollectiveOp::kAllReduce;
  uint64_t size_bytes = 0;
  double time_us = 0;    // wall time per iteration on this rank
  uint64_t wrong = 0;    // elements that differ from the expected values
  uint64_t checked = 0;  // elements compared
  std::string error;     // why it did not run ("" when it did)
};

// What one rank (one worker) reports.
struct RankReport {
  int rank = 0;
  std::string host;
  int device = -1;
  std::string device_name;
  std::string pci_address;
  std::string library;  // "NCCL 2.27.3 (/venv/.../libnccl.so.2)"
  std::vector<RankMeasurement> results;
  std::string error;  // set when the rank could not run at all
};

std::string RankReportToJson(const RankReport& r);
Result<RankReport> RankReportFromJson(std::string_view text);

// One row of the aggregated table: one op at one size over all ranks.
struct CollectiveRow {
  CollectiveOp op = CollectiveOp::kAllReduce;
  uint64_t size_bytes = 0;
  uint64_t count = 0;  // elements per call (CountsFor().param)
  double time_us = 0;  // mean over the ranks
  double algbw_gbs = 0;
  double busbw_gbs = 0;
  uint64_t wrong = 0;  // summed over the ranks
  uint64_t checked = 0;
  int ranks_reporting = 0;
  std::string error;  // the first rank's error, when any rank could not run it
};

// Aggregates the ranks' measurements: rows in op order, then size order. Rows every rank skipped are left
// out.
std::vector<CollectiveRow> AggregateRanks(const std::vector<RankReport>& ranks, int world_size);

}  // namespace gpudoctor
