// HipBackend's library half: GEMM through rocBLAS (rocblas_gemm_ex) and telemetry through ROCm SMI, each
// loaded on first use. ROCm SMI reports no clock-event reasons in a stable form across releases, so AMD
// readings carry temperature, power and ECC counts; clocks stay empty (n/a) for now.
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

Status HipBackend::LoadRocmSmi() {
  if (smi_index_) return Ok{};
  if (!smi_) {
    smi_ = LoadSearched<RocmSmiApi>(
        in_, RocmSmiLibrarySpec(),
        [](const std::vector<std::string>& c) { return gpudoctor::LoadRocmSmi(c); }, smi_record_);
  }
  if (smi_->status != LoadStatus::kLoaded)
    return EnvError("ROCm SMI (librocm_smi64) is " + std::string(LoadStatusName(smi_record_.status)) + ": " +
                        smi_record_.detail,
                    "install ROCm's rocm-smi-lib");
  const RocmSmiApi& s = smi_->api;
  if (!smi_initialized_) {
    if (rsmi_status_t rc = s.Init(0); rc != kRsmiSuccess)
      return EnvError("rsmi_init failed: " + RocmSmiErrorText(s, rc));
    smi_initialized_ = true;
  }
  uint32_t count = 0;
  if (rsmi_status_t rc = s.NumMonitorDevices(&count); rc != kRsmiSuccess)
    return EnvError("rsmi_num_monitor_devices failed: " + RocmSmiErrorText(s, rc));
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t bdf = 0;
    if (s.DevPciIdGet(i, &bdf) == kRsmiSuccess && FormatRsmiPciId(bdf) == device_pci_) {
      smi_index_ = i;
      return Ok{};
    }
  }
  return EnvError("ROCm SMI does not list the GPU at " + device_pci_);
}

Result<Telemetry> HipBackend::ReadTelemetry() {
  if (auto s = RequireDevice(); !s) return s.error();
  if (auto s = LoadRocmSmi(); !s) return s.error();
  const RocmSmiApi& s = smi_->api;
  uint32_t dv = *smi_index_;
  Telemetry t;
  int64_t milli_c = 0;
  if (s.DevTempMetricGet &&
      (s.DevTempMetricGet(dv, kRsmiTempTypeJunction, kRsmiTempCurrent, &milli_c) == kRsmiSuccess ||
       s.DevTempMetricGet(dv, kRsmiTempTypeEdge, kRsmiTempCurrent, &milli_c) == kRsmiSuccess))
    t.temperature_c = static_cast<uint32_t>(milli_c / 1000);
  uint64_t micro_w = 0;
  if (s.DevPowerAveGet && s.DevPowerAveGet(dv, 0, &micro_w) == kRsmiSuccess)
    t.power_mw = static_cast<uint32_t>(micro_w / 1000);
  uint64_t counts[kRsmiErrorCountBufferWords] = {};
  if (s.DevEccCountGet && s.DevEccCountGet(dv, kRsmiGpuBlockUmc, counts) == kRsmiSuccess) {
    t.ecc_corrected = counts[0];
    t.ecc_uncorrected = counts[1];
  }
  return t;
}

}  // namespace gpudoctor
