// The cuBLAS loader: which files to try and which exports fill the table (see cublas_api.h).
#include "gpu/api/cublas_api.h"

namespace gpudoctor {

std::vector<std::string> CublasLibraryNames() {
  return {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so",
          "cublas64_13.dll", "cublas64_12.dll", "cublas64_11.dll"};
}

LoadedTable<CublasApi> LoadCublas(const std::vector<std::string>& candidates) {
  return LoadTable<CublasApi>(candidates, [](SymbolBinder& b, CublasApi& t) {
    b.Required(t.Create, {"cublasCreate_v2"});
    b.Required(t.Destroy, {"cublasDestroy_v2"});
    b.Required(t.GetVersion, {"cublasGetVersion_v2"});
    b.Required(t.SetMathMode, {"cublasSetMathMode"});
    b.Required(t.GemmEx, {"cublasGemmEx"});
    b.Optional(t.GetStatusName, {"cublasGetStatusName"});
  });
}

std::string CublasErrorText(const CublasApi& api, cublasStatus_t rc) {
  const char* name = api.GetStatusName ? api.GetStatusName(rc) : nullptr;
  std::string out = name && name[0] ? name : "cuBLAS status";
  return out + " (" + std::to_string(rc) + ")";
}

}  // namespace gpudoctor
