// HipBackend's library half: GEMM through rocBLAS (rocblas_gemm_ex), loaded on first use. Telemetry is
// telemetry/'s (gpu_sampler.h).
#include "gpu/hip/hip_backend.h"

namespace gpudoctor {
namespace {

int RocblasType(GemmType t) {
  switch (t) {
    case GemmType::kF32:
      return kRocblasF32;
    case GemmType::kF16:
      return kRocblasF16;
    case GemmType::kBF16:
      return kRocblasBf16;
  }
  return kRocblasF32;
}

}  // namespace

Status HipBackend::LoadRocblas() {
  if (rocblas_handle_) return Ok{};
  if (!rocblas_) {
    rocblas_ = LoadSearched<RocblasApi>(
        in_, RocblasLibrarySpec(),
        [](const std::vector<std::string>& c) { return gpudoctor::LoadRocblas(c); }, rocblas_record_);
    if (rocblas_->status == LoadStatus::kLoaded && rocblas_->api.GetVersionString) {
      char version[64] = {};
      if (rocblas_->api.GetVersionString(version, sizeof version) == kRocblasSuccess)
        rocblas_record_.version = version;
    }
  }
  if (rocblas_->status != LoadStatus::kLoaded)
    return EnvError(
        "rocBLAS is " + std::string(LoadStatusName(rocblas_record_.status)) + ": " + rocblas_record_.detail,
        "install rocBLAS (ROCm package rocblas; PyTorch ROCm wheels carry it in torch/lib)");
  rocblas_status rc = rocblas_->api.CreateHandle(&rocblas_handle_);
  if (rc != kRocblasSuccess) {
    rocblas_handle_ = nullptr;
    return EnvError("rocblas_create_handle failed: " + RocblasErrorText(rocblas_->api, rc));
  }
  return Ok{};
}

Status HipBackend::Gemm(const GemmRequest& r) {
  if (auto s = RequireDevice(); !s) return s;
  if (r.tf32) return EnvError("rocBLAS has no TF32 mode for fp32 GEMM", "not supported on this backend");
  if (auto s = LoadRocblas(); !s) return s;
  const float alpha = 1.0f, beta = 0.0f;
  int type = RocblasType(r.type);
  const void* a = reinterpret_cast<const void*>(static_cast<uintptr_t>(r.a));
  const void* b = reinterpret_cast<const void*>(static_cast<uintptr_t>(r.b));
  void* c = reinterpret_cast<void*>(static_cast<uintptr_t>(r.c));
  rocblas_status rc = rocblas_->api.GemmEx(rocblas_handle_, kRocblasOperationNone, kRocblasOperationNone, r.m,
                                           r.n, r.k, &alpha, a, type, r.m, b, type, r.k, &beta, c, type, r.m,
                                           c, type, r.m, kRocblasF32, kRocblasGemmAlgoStandard, 0, 0);
  if (rc != kRocblasSuccess)
    return EnvError(std::string("rocblas_gemm_ex (") + ToString(r.type) +
                    ") failed: " + RocblasErrorText(rocblas_->api, rc));
  return Ok{};
}

}  // namespace gpudoctor
