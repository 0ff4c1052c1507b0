// CudaBackend's library half: GEMM through cuBLAS (cublasGemmEx), loaded on first use so that a gate that
// needs none never maps it. Telemetry is telemetry/'s (gpu_sampler.h).
#include <utility>
#include <vector>

#include "gpu/cuda/cuda_backend.h"

namespace gpudoctor {
namespace {

std::string CublasVersionText(int v) {  // 130001 -> "13.0.1" (major * 10000 + minor * 100 + patch)
  return std::to_string(v / 10000) + "." + std::to_string((v / 100) % 100) + "." + std::to_string(v % 100);
}

int CudaDataType(GemmType t) {
  switch (t) {
    case GemmType::kF32:
      return kCudaR32F;
    case GemmType::kF16:
      return kCudaR16F;
    case GemmType::kBF16:
      return kCudaR16BF;
  }
  return kCudaR32F;
}

}  // namespace

Status CudaBackend::LoadCublas() {
  if (cublas_handle_) return Ok{};
  if (!cublas_) {
    cublas_ = LoadSearched<CublasApi>(
        in_, CublasLibrarySpec(), [](const std::vector<std::string>& c) { return gpudoctor::LoadCublas(c); },
        cublas_record_);
  }
  if (cublas_->status != LoadStatus::kLoaded)
    return EnvError("cuBLAS (libcublas) is " + std::string(LoadStatusName(cublas_record_.status)) + ": " +
                        cublas_record_.detail,
                    "install cuBLAS (pip install nvidia-cublas, or the CUDA toolkit)");
  cublasStatus_t rc = cublas_->api.Create(&cublas_handle_);
  if (rc != kCublasSuccess) {
    cublas_handle_ = nullptr;
    return EnvError("cublasCreate_v2 failed: " + CublasErrorText(cublas_->api, rc));
  }
  int v = 0;
  if (cublas_->api.GetVersion(cublas_handle_, &v) == kCublasSuccess)
    cublas_record_.version = CublasVersionText(v);
  return Ok{};
}

Status CudaBackend::Gemm(const GemmRequest& r) {
  if (auto s = RequireDevice(); !s) return s;
  if (auto s = LoadCublas(); !s) return s;
  const CublasApi& b = cublas_->api;
  // Pedantic math keeps a plain fp32 GEMM in fp32 whatever NVIDIA_TF32_OVERRIDE or the library default says.
  int math = (r.type == GemmType::kF32 && !r.tf32) ? kCublasPedanticMath : kCublasDefaultMath;
  if (cublasStatus_t rc = b.SetMathMode(cublas_handle_, math); rc != kCublasSuccess)
    return EnvError("cublasSetMathMode failed: " + CublasErrorText(b, rc));
  const float alpha = 1.0f, beta = 0.0f;
  int type = CudaDataType(r.type);
  int compute = (r.type == GemmType::kF32 && r.tf32) ? kCublasCompute32FFastTf32 : kCublasCompute32F;
  cublasStatus_t rc =
      b.GemmEx(cublas_handle_, kCublasOpN, kCublasOpN, r.m, r.n, r.k, &alpha,
               reinterpret_cast<const void*>(r.a), type, r.m, reinterpret_cast<const void*>(r.b), type, r.k,
               &beta, reinterpret_cast<void*>(r.c), type, r.m, compute, kCublasGemmDefault);
  if (rc != kCublasSuccess)
    return EnvError(std::string("cublasGemmEx (") + ToString(r.type) + (r.tf32 ? ", tf32" : "") +
                    ") failed: " + CublasErrorText(b, rc));
  return Ok{};
}

}  // namespace gpudoctor
