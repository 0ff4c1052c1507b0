// The NCCL/RCCL loader: which files to try and which exports fill the table (see nccl_api.h).
#include "gpu/api/nccl_api.h"

namespace gpudoctor {

std::vector<std::string> NcclLibraryNames() {
  return {"libnccl.so.2", "libnccl.so"};
}

std::vector<std::string> RcclLibraryNames() {
  return {"librccl.so.1", "librccl.so"};
}

LoadedTable<NcclApi> LoadNccl(const std::vector<std::string>& candidates) {
  return LoadTable<NcclApi>(candidates, [](SymbolBinder& b, NcclApi& t) {
    b.Required(t.GetVersion, {"ncclGetVersion"});
    b.Required(t.GetUniqueId, {"ncclGetUniqueId"});
    b.Required(t.CommInitRank, {"ncclCommInitRank"});
    b.Required(t.CommDestroy, {"ncclCommDestroy"});
    b.Required(t.GetErrorString, {"ncclGetErrorString"});
    b.Required(t.AllReduce, {"ncclAllReduce"});
    b.Required(t.AllGather, {"ncclAllGather"});
    b.Required(t.ReduceScatter, {"ncclReduceScatter"});
    b.Required(t.Broadcast, {"ncclBroadcast"});
    b.Required(t.GroupStart, {"ncclGroupStart"});
    b.Required(t.GroupEnd, {"ncclGroupEnd"});
    b.Optional(t.Send, {"ncclSend"});
    b.Optional(t.Recv, {"ncclRecv"});
    b.Optional(t.CommGetAsyncError, {"ncclCommGetAsyncError"});
  });
}

std::string NcclErrorText(const NcclApi& api, ncclResult_t rc) {
  const char* text = api.GetErrorString ? api.GetErrorString(rc) : nullptr;
  std::string out = text && text[0] ? text : "NCCL error";
  return out + " (" + std::to_string(rc) + ")";
}

std::string NcclVersionText(int code) {
  if (code <= 0) return "unknown";
  // NCCL_VERSION(X,Y,Z): X*1000 + Y*100 + Z before 2.9, X*10000 + Y*100 + Z from 2.9 on.
  int major = code >= 10000 ? code / 10000 : code / 1000;
  int minor = code >= 10000 ? (code / 100) % 100 : (code / 100) % 10;
  int patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace gpudoctor
