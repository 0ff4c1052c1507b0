// rocBLAS (librocblas / rocblas.dll) as gpudoctor uses it: only rocblas_gemm_ex and what it needs, with our
// own minimal typedefs, one table of function pointers and the loader. No ROCm header is included; the enum
// values are rocblas-types.h's. hipBLASLt would add tuning knobs a correctness gate does not use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using rocblas_status = int;  // 0 = rocblas_status_success
inline constexpr rocblas_status kRocblasSuccess = 0;
struct _rocblas_handle;
using rocblas_handle = _rocblas_handle*;

inline constexpr int kRocblasOperationNone = 111;  // rocblas_operation_none
inline constexpr int kRocblasF16 = 150;            // rocblas_datatype_f16_r
inline constexpr int kRocblasF32 = 151;            // rocblas_datatype_f32_r
inline constexpr int kRocblasBf16 = 168;           // rocblas_datatype_bf16_r
inline constexpr int kRocblasGemmAlgoStandard = 0;

struct RocblasApi {
  // Required.
  rocblas_status (*CreateHandle)(rocblas_handle*) = nullptr;  // rocblas_create_handle
  rocblas_status (*DestroyHandle)(rocblas_handle) = nullptr;  // rocblas_destroy_handle
  // rocblas_gemm_ex(handle, transA, transB, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta, c, c_type,
  //                 ldc, d, d_type, ldd, compute_type, algo, solution_index, flags): column-major,
  //                 D = alpha * op(A) * op(B) + beta * C.
  rocblas_status (*GemmEx)(rocblas_handle, int, int, int, int, int, const void*, const void*, int, int,
                           const void*, int, int, const void*, const void*, int, int, void*, int, int, int,
                           int, int32_t, uint32_t) = nullptr;
  const char* (*StatusToString)(rocblas_status) = nullptr;  // rocblas_status_to_string
  // Optional.
  rocblas_status (*GetVersionString)(char*, size_t) = nullptr;  // rocblas_get_version_string
};

// librocblas.so.5, .so.4, .so.3 (ROCm 7, 6, 5), librocblas.so, rocblas.dll.
std::vector<std::string> RocblasLibraryNames();

LoadedTable<RocblasApi> LoadRocblas(const std::vector<std::string>& candidates);

std::string RocblasErrorText(const RocblasApi& api, rocblas_status rc);

}  // namespace gpudoctor
