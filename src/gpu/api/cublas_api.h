// cuBLAS (libcublas / cublas64_*.dll) as gpudoctor uses it: only cublasGemmEx and what it needs, with our own
// minimal typedefs, one table of function pointers and the loader that fills it at run time. No CUDA header
// is included. The classic API is enough for a correctness gate and a GEMM rate; cuBLASLt's descriptor API
// would add tuning knobs nothing here uses.
#pragma once

#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using cublasStatus_t = int;  // 0 = CUBLAS_STATUS_SUCCESS
inline constexpr cublasStatus_t kCublasSuccess = 0;
struct cublasContext;
using cublasHandle_t = cublasContext*;

// cublasOperation_t
inline constexpr int kCublasOpN = 0;
// cudaDataType_t (library_types.h)
inline constexpr int kCudaR32F = 0;
inline constexpr int kCudaR16F = 2;
inline constexpr int kCudaR16BF = 14;
// cublasComputeType_t
inline constexpr int kCublasCompute32F = 68;
inline constexpr int kCublasCompute32FFastTf32 = 77;
// cublasGemmAlgo_t
inline constexpr int kCublasGemmDefault = -1;
// cublasMath_t: CUBLAS_PEDANTIC_MATH keeps fp32 GEMMs in fp32 even where TF32 is allowed by default.
inline constexpr int kCublasDefaultMath = 0;
inline constexpr int kCublasPedanticMath = 2;

struct CublasApi {
  // Required.
  cublasStatus_t (*Create)(cublasHandle_t*) = nullptr;           // cublasCreate_v2
  cublasStatus_t (*Destroy)(cublasHandle_t) = nullptr;           // cublasDestroy_v2
  cublasStatus_t (*GetVersion)(cublasHandle_t, int*) = nullptr;  // cublasGetVersion_v2
  cublasStatus_t (*SetMathMode)(cublasHandle_t, int) = nullptr;  // cublasSetMathMode
  // cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
  //              computeType, algo): column-major, C = alpha * op(A) * op(B) + beta * C.
  cublasStatus_t (*GemmEx)(cublasHandle_t, int, int, int, int, int, const void*, const void*, int, int,
                           const void*, int, int, const void*, void*, int, int, int, int) = nullptr;
  // Optional (CUDA 11.4+).
  const char* (*GetStatusName)(cublasStatus_t) = nullptr;  // cublasGetStatusName
};

// libcublas.so.13, .so.12, .so.11, libcublas.so, cublas64_13.dll, cublas64_12.dll, cublas64_11.dll.
std::vector<std::string> CublasLibraryNames();

LoadedTable<CublasApi> LoadCublas(const std::vector<std::string>& candidates);

// "CUBLAS_STATUS_NOT_SUPPORTED (15)".
std::string CublasErrorText(const CublasApi& api, cublasStatus_t rc);

}  // namespace gpudoctor
