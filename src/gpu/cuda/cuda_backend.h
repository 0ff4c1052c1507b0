// The CUDA implementation of Backend: the driver API (libcuda) for devices, memory, modules and launches,
// NVRTC for kernels compiled at run time and cuBLAS for GEMM, each loaded through the library search only
// when first needed (telemetry is telemetry/'s). Pinned memory, asynchronous copies and the bare driver
// launch live in cuda_transfers.cpp, peer-to-peer in cuda_peers.cpp.
#pragma once

#include <map>
#include <optional>

#include "gpu/api/cublas_api.h"
#include "gpu/api/cuda_driver_api.h"
#include "gpu/api/nvrtc_api.h"
#include "gpu/backend.h"
#include "gpu/backend_inputs.h"

namespace gpudoctor {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(BackendInputs in) : in_(std::move(in)) {}
  ~CudaBackend() override;
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  BackendKind Kind() const override { return BackendKind::kCuda; }
  std::string DisplayName() const override { return "CUDA"; }
  Status LoadRuntime() override;
  std::vector<BackendLibrary> Libraries() const override;
  std::string RuntimeVersion() const override { return version_; }

  Result<std::vector<DeviceInfo>> Devices() override;
  Status OpenDevice(int index) override;
  Result<DeviceMemory> MemoryInfo() override;

  Result<DevicePtr> Allocate(uint64_t bytes) override;
  Status Free(DevicePtr p) override;
  Status CopyToDevice(DevicePtr dst, const void* src, uint64_t bytes) override;
  Status CopyToHost(void* dst, DevicePtr src, uint64_t bytes) override;
  Status Memset32(DevicePtr dst, uint32_t value, uint64_t count) override;

  Result<void*> AllocatePinnedHost(uint64_t bytes) override;
  Status FreePinnedHost(void* p) override;
  Status CopyToDeviceAsync(DevicePtr dst, const void* src, uint64_t bytes) override;
  Status CopyToHostAsync(void* dst, DevicePtr src, uint64_t bytes) override;
  Status CopyOnDevice(DevicePtr dst, DevicePtr src, uint64_t bytes) override;

  Result<ModuleId> CompileModule(const std::string& source, const std::string& program_name,
                                 const std::vector<std::string>& defines) override;
  Result<FunctionId> GetFunction(ModuleId module, const std::string& name) override;
  Status Launch(FunctionId fn, Dim3 grid, Dim3 block, const KernelArgs& args) override;
  Result<DriverLaunch> PrepareDriverLaunch(FunctionId fn, Dim3 grid, Dim3 block,
                                           const KernelArgs& args) override;
  Status Synchronize() override;

  Result<EventId> CreateEvent() override;
  Status RecordEvent(EventId e) override;
  Result<float> ElapsedMs(EventId start, EventId end) override;
  Status DestroyEvent(EventId e) override;

  Result<bool> CanAccessPeer(int device, int peer) override;
  Status EnablePeerAccess(int peer) override;
  Status CopyPeer(DevicePtr dst, int dst_device, DevicePtr src, int src_device, uint64_t bytes) override;

  Status Gemm(const GemmRequest& request) override;

 private:
  Status Check(CUresult rc, const char* call) const;
  // An error naming the driver export a call needs when this libcuda lacks it.
  Status Need(const void* fn, const char* symbol) const;
  Status RequireDevice() const;
  // The primary context of ordinal `index`, retained on first use and released with the backend.
  Result<CUcontext> ContextOf(int index);
  Result<std::vector<char>> CompileWithNvrtc(const std::string& source, const std::string& program_name,
                                             const std::vector<std::string>& defines);
  Status LoadCublas();

  BackendInputs in_;
  LoadedTable<CudaDriverApi> driver_;
  std::optional<LoadedTable<NvrtcApi>> nvrtc_;
  std::optional<LoadedTable<CublasApi>> cublas_;
  BackendLibrary driver_record_{"runtime", "libcuda", LoadStatus::kNotTried, "", "", "", "", ""};
  BackendLibrary nvrtc_record_{"compiler", "nvrtc", LoadStatus::kNotTried, "", "", "", "", ""};
  BackendLibrary cublas_record_{"blas", "cublas", LoadStatus::kNotTried, "", "", "", "", ""};
  std::string version_;
  bool initialized_ = false;
  std::optional<CUdevice> device_;
  std::optional<std::vector<DeviceInfo>> opened_devices_;  // Devices() as OpenDevice first read it
  std::string device_arch_;
  std::string device_pci_;
  CUcontext context_ = nullptr;                     // the open device's, current on this thread
  std::map<CUdevice, CUcontext> primary_contexts_;  // every one retained (peer copies need both sides')
  cublasHandle_t cublas_handle_ = nullptr;
  uint64_t next_id_ = 1;
  std::map<ModuleId, CUmodule> modules_;
  std::map<FunctionId, CUfunction> functions_;
  std::map<EventId, CUevent> events_;
};

}  // namespace gpudoctor
