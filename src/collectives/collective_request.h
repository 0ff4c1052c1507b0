// collectives as jobs of the worker layer: `gpudoctor __worker collective-rank ...` runs one rank on one GPU
// and prints its RankReport as one JSON line; `gpudoctor __worker p2p-matrix ...` measures the peer-to-peer
// matrix of every GPU the process sees and prints a P2pMatrix. The request travels in the one WorkerRequest
// (worker/worker_request.h), the NCCL unique id (made by the parent or by MPI rank 0) as a setting of 256
// hex digits. Pure functions, tested without any process.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "collectives/collective_types.h"
#include "core/result.h"
#include "gpu/backend.h"
#include "worker/worker_request.h"

namespace gpudoctor {

inline constexpr const char* kWorkerCollectiveRank = "collective-rank";
inline constexpr const char* kWorkerP2pMatrix = "p2p-matrix";

struct CollectiveWorkerRequest {
  std::string kind = kWorkerCollectiveRank;  // or kWorkerP2pMatrix
  BackendKind backend = BackendKind::kCuda;
  int rank = 0;
  int ranks = 1;
  int device = 0;
  std::string unique_id_hex;  // 256 hex digits (ncclUniqueId)
  CollectiveOptions options;
  uint64_t p2p_bytes = 64ull << 20;
};

// The request in the worker layer's form and back; a user error on anything unexpected.
WorkerRequest ToWorkerRequest(const CollectiveWorkerRequest& request);
Result<CollectiveWorkerRequest> CollectiveRequestFromWorker(const WorkerRequest& request);

std::string HexEncode(const void* data, size_t size);
// False when `hex` is not exactly 2 * size hex digits.
bool HexDecode(const std::string& hex, void* out, size_t size);

// "8", "8B", "64K", "256M", "1G" (K, M, G: powers of 1024, as nccl-tests reads -b / -e); nullopt on garbage.
std::optional<uint64_t> ParseByteSize(const std::string& text);

}  // namespace gpudoctor
