// NCCL (libnccl.so.2) and RCCL (librccl.so.1), which export the same C API, as gpudoctor's collective
// benchmarks use them: our own mirror of the few types (nccl.h: ncclUniqueId is 128 opaque bytes, the
// communicator an opaque pointer, streams the runtime's), one table of function pointers, and its loader.
// No NCCL header is included.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

// ---- Types mirrored from nccl.h. ----
using ncclResult_t = int;  // 0 = ncclSuccess
inline constexpr ncclResult_t kNcclSuccess = 0;
struct ncclComm;
using ncclComm_t = ncclComm*;
using ncclDataType_t = int;
using ncclRedOp_t = int;
inline constexpr ncclDataType_t kNcclFloat32 = 7;  // ncclFloat32 (= ncclFloat)
inline constexpr ncclRedOp_t kNcclSum = 0;         // ncclSum
inline constexpr size_t kNcclUniqueIdBytes = 128;  // NCCL_UNIQUE_ID_BYTES
struct ncclUniqueId {
  char internal[kNcclUniqueIdBytes];
};
static_assert(sizeof(ncclUniqueId) == 128, "ncclUniqueId is 128 bytes (NCCL_UNIQUE_ID_BYTES)");
// cudaStream_t / hipStream_t: nullptr is the legacy default stream, which is what the benchmarks use.
using ncclStream_t = void*;

struct NcclApi {
  // Required.
  ncclResult_t (*GetVersion)(int*) = nullptr;            // ncclGetVersion: 22703 = 2.27.3
  ncclResult_t (*GetUniqueId)(ncclUniqueId*) = nullptr;  // ncclGetUniqueId
  ncclResult_t (*CommInitRank)(ncclComm_t*, int, ncclUniqueId, int) = nullptr;  // ncclCommInitRank
  ncclResult_t (*CommDestroy)(ncclComm_t) = nullptr;                            // ncclCommDestroy
  const char* (*GetErrorString)(ncclResult_t) = nullptr;                        // ncclGetErrorString
  ncclResult_t (*AllReduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                            ncclStream_t) = nullptr;  // ncclAllReduce
  ncclResult_t (*AllGather)(const void*, void*, size_t, ncclDataType_t, ncclComm_t,
                            ncclStream_t) = nullptr;  // ncclAllGather (count per rank)
  ncclResult_t (*ReduceScatter)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                                ncclStream_t) = nullptr;  // ncclReduceScatter (count per rank)
  ncclResult_t (*Broadcast)(const void*, void*, size_t, ncclDataType_t, int, ncclComm_t,
                            ncclStream_t) = nullptr;  // ncclBroadcast
  ncclResult_t (*GroupStart)() = nullptr;             // ncclGroupStart
  ncclResult_t (*GroupEnd)() = nullptr;               // ncclGroupEnd
  // Optional: all-to-all is grouped send/recv (NCCL 2.7 and later); without them it is skipped.
  ncclResult_t (*Send)(const void*, size_t, ncclDataType_t, int, ncclComm_t, ncclStream_t) = nullptr;
  ncclResult_t (*Recv)(void*, size_t, ncclDataType_t, int, ncclComm_t, ncclStream_t) = nullptr;
  ncclResult_t (*CommGetAsyncError)(ncclComm_t, ncclResult_t*) = nullptr;  // ncclCommGetAsyncError
};

// The names tried: NCCL's, then RCCL's (both spellings on both systems; RCCL has no Windows build).
std::vector<std::string> NcclLibraryNames();
std::vector<std::string> RcclLibraryNames();

LoadedTable<NcclApi> LoadNccl(const std::vector<std::string>& candidates);

// "unhandled cuda error (1)": the library's own text when ncclGetErrorString is bound.
std::string NcclErrorText(const NcclApi& api, ncclResult_t rc);
// 22703 -> "2.27.3"; 2708 (before 2.9) -> "2.7.8".
std::string NcclVersionText(int code);

}  // namespace gpudoctor
