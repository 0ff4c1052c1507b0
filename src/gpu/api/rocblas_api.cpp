// The rocBLAS loader: which files to try and which exports fill the table (see rocblas_api.h).
#include "gpu/api/rocblas_api.h"

namespace gpudoctor {

std::vector<std::string> RocblasLibraryNames() {
  return {"librocblas.so.5", "librocblas.so.4", "librocblas.so.3", "librocblas.so", "rocblas.dll"};
}

LoadedTable<RocblasApi> LoadRocblas(const std::vector<std::string>& candidates) {
  return LoadTable<RocblasApi>(candidates, [](SymbolBinder& b, RocblasApi& t) {
    b.Required(t.CreateHandle, {"rocblas_create_handle"});
    b.Required(t.DestroyHandle, {"rocblas_destroy_handle"});
    b.Required(t.GemmEx, {"rocblas_gemm_ex"});
    b.Required(t.StatusToString, {"rocblas_status_to_string"});
    b.Optional(t.GetVersionString, {"rocblas_get_version_string"});
  });
}

std::string RocblasErrorText(const RocblasApi& api, rocblas_status rc) {
  const char* text = api.StatusToString ? api.StatusToString(rc) : nullptr;
  std::string out = text && text[0] ? text : "rocBLAS status";
  return out + " (" + std::to_string(rc) + ")";
}

}  // namespace gpudoctor
