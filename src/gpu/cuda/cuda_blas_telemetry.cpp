// CudaBackend's library half: GEMM through cuBLAS (cublasGemmEx) and telemetry through NVML, each loaded on
// first use so that a gate needing neither never maps them.
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

// nvmlClocksEventReason bits and the names the report uses.
const std::pair<unsigned long long, const char*> kThrottleNames[] = {
    {kNvmlClocksEventGpuIdle, "gpu_idle"},
    {kNvmlClocksEventApplicationsClocksSetting, "applications_clocks"},
    {kNvmlClocksEventSwPowerCap, "sw_power_cap"},
    {kNvmlClocksEventHwSlowdown, "hw_slowdown"},
    {kNvmlClocksEventSyncBoost, "sync_boost"},
    {kNvmlClocksEventSwThermalSlowdown, "sw_thermal"},
    {kNvmlClocksEventHwThermalSlowdown, "hw_thermal"},
    {kNvmlClocksEventHwPowerBrakeSlowdown, "hw_power_brake"},
    {kNvmlClocksEventDisplayClockSetting, "display_clocks"},
};

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

Status CudaBackend::LoadNvml() {
  if (nvml_device_) return Ok{};
  if (!nvml_) {
    nvml_ = LoadSearched<NvmlApi>(
        in_, NvmlLibrarySpec(), [](const std::vector<std::string>& c) { return gpudoctor::LoadNvml(c); },
        nvml_record_);
  }
  if (nvml_->status != LoadStatus::kLoaded)
    return EnvError("NVML (libnvidia-ml) is " + std::string(LoadStatusName(nvml_record_.status)) + ": " +
                        nvml_record_.detail,
                    "NVML ships with the NVIDIA driver; reinstall the driver");
  const NvmlApi& n = nvml_->api;
  if (!nvml_initialized_) {
    if (nvmlReturn_t rc = n.Init(); rc != kNvmlSuccess)
      return EnvError("nvmlInit failed: " + NvmlErrorText(n, rc));
    nvml_initialized_ = true;
    char version[kNvmlDriverVersionBufferSize] = {};
    if (n.SystemGetDriverVersion(version, sizeof version) == kNvmlSuccess) nvml_record_.version = version;
  }
  if (!n.DeviceGetHandleByPciBusId) return EnvError("NVML lacks nvmlDeviceGetHandleByPciBusId_v2");
  if (nvmlReturn_t rc = n.DeviceGetHandleByPciBusId(device_pci_.c_str(), &nvml_device_); rc != kNvmlSuccess) {
    nvml_device_ = nullptr;
    return EnvError("nvmlDeviceGetHandleByPciBusId(" + device_pci_ + ") failed: " + NvmlErrorText(n, rc));
  }
  return Ok{};
}

Result<Telemetry> CudaBackend::ReadTelemetry() {
  if (auto s = RequireDevice(); !s) return s.error();
  if (auto s = LoadNvml(); !s) return s.error();
  const NvmlApi& n = nvml_->api;
  nvmlDevice_t dev = nvml_device_;
  Telemetry t;
  unsigned int v = 0;
  if (n.DeviceGetClockInfo && n.DeviceGetClockInfo(dev, kNvmlClockSm, &v) == kNvmlSuccess) t.sm_clock_mhz = v;
  if (n.DeviceGetMaxClockInfo && n.DeviceGetMaxClockInfo(dev, kNvmlClockSm, &v) == kNvmlSuccess)
    t.sm_clock_max_mhz = v;
  if (n.DeviceGetClockInfo && n.DeviceGetClockInfo(dev, kNvmlClockMem, &v) == kNvmlSuccess)
    t.memory_clock_mhz = v;
  if (n.DeviceGetTemperature && n.DeviceGetTemperature(dev, kNvmlTemperatureGpu, &v) == kNvmlSuccess)
    t.temperature_c = v;
  if (n.DeviceGetPowerUsage && n.DeviceGetPowerUsage(dev, &v) == kNvmlSuccess) t.power_mw = v;
  if (n.DeviceGetEnforcedPowerLimit && n.DeviceGetEnforcedPowerLimit(dev, &v) == kNvmlSuccess)
    t.power_limit_mw = v;
  unsigned long long reasons = 0;
  if (n.DeviceGetCurrentClocksEventReasons &&
      n.DeviceGetCurrentClocksEventReasons(dev, &reasons) == kNvmlSuccess) {
    for (const auto& [bit, name] : kThrottleNames)
      if (reasons & bit) t.throttle_reasons.emplace_back(name);
  }
  unsigned long long count = 0;
  if (n.DeviceGetTotalEccErrors &&
      n.DeviceGetTotalEccErrors(dev, kNvmlMemoryErrorCorrected, kNvmlVolatileEcc, &count) == kNvmlSuccess)
    t.ecc_corrected = count;
  if (n.DeviceGetTotalEccErrors &&
      n.DeviceGetTotalEccErrors(dev, kNvmlMemoryErrorUncorrected, kNvmlVolatileEcc, &count) == kNvmlSuccess)
    t.ecc_uncorrected = count;
  unsigned int corr = 0, unc = 0, pending = 0, failed = 0;
  if (n.DeviceGetRemappedRows &&
      n.DeviceGetRemappedRows(dev, &corr, &unc, &pending, &failed) == kNvmlSuccess) {
    t.remapped_rows_pending = pending;
    t.remapped_rows_failed = failed;
  }
  if (n.DeviceGetPowerManagementDefaultLimit &&
      n.DeviceGetPowerManagementDefaultLimit(dev, &v) == kNvmlSuccess)
    t.power_default_limit_mw = v;
  if (n.DeviceGetCurrPcieLinkGeneration && n.DeviceGetCurrPcieLinkGeneration(dev, &v) == kNvmlSuccess)
    t.pcie_gen = v;
  if (n.DeviceGetCurrPcieLinkWidth && n.DeviceGetCurrPcieLinkWidth(dev, &v) == kNvmlSuccess) t.pcie_width = v;
  if (n.DeviceGetMaxPcieLinkGeneration && n.DeviceGetMaxPcieLinkGeneration(dev, &v) == kNvmlSuccess)
    t.pcie_gen_max = v;
  if (n.DeviceGetMaxPcieLinkWidth && n.DeviceGetMaxPcieLinkWidth(dev, &v) == kNvmlSuccess)
    t.pcie_width_max = v;
  if (n.DeviceGetComputeRunningProcesses) {
    // Asked with room for 64; NVML answers "insufficient size" with the count when there are more.
    std::vector<nvmlProcessInfo_t> procs(64);
    unsigned int listed = static_cast<unsigned int>(procs.size());
    nvmlReturn_t rc = n.DeviceGetComputeRunningProcesses(dev, &listed, procs.data());
    if (rc == kNvmlSuccess) {
      std::vector<uint32_t> pids;
      for (unsigned int i = 0; i < listed && i < procs.size(); ++i) pids.push_back(procs[i].pid);
      t.compute_pids = std::move(pids);
    }
  }
  return t;
}

}  // namespace gpudoctor
