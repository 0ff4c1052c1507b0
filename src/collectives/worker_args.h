// The contract between `gpudoctor collectives` and its workers: `gpudoctor __worker collective-rank ...` runs
// one rank on one GPU and prints its RankReport as one JSON line; `gpudoctor __worker p2p-matrix ...`
// measures the peer-to-peer matrix of every GPU the process sees and prints a P2pMatrix. The request travels
// as arguments (the NCCL unique id as 256 hex digits, made by the parent or by MPI rank 0), the answer on
// stdout. Pure functions, tested without any process.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "collectives/collective_types.h"
#include "core/result.h"
#include "gpu/backend.h"

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

// argv after the executable: "__worker", kind, "--backend", "cuda", ...
std::vector<std::string> CollectiveWorkerArguments(const CollectiveWorkerRequest& request);
// Parses what follows "__worker"; a user error on anything unexpected.
Result<CollectiveWorkerRequest> ParseCollectiveWorkerArguments(const std::vector<std::string>& args);

bool IsCollectiveWorkerKind(const std::string& kind);

std::string HexEncode(const void* data, size_t size);
// False when `hex` is not exactly 2 * size hex digits.
bool HexDecode(const std::string& hex, void* out, size_t size);

// "8", "8B", "64K", "256M", "1G" (K, M, G: powers of 1024, as nccl-tests reads -b / -e); nullopt on garbage.
std::optional<uint64_t> ParseByteSize(const std::string& text);

}  // namespace gpudoctor
