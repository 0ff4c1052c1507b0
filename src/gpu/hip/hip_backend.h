// The HIP implementation of Backend: the HIP runtime (libamdhip64) for devices, memory, modules and
// launches, hiprtc for kernels compiled at run time and rocBLAS for GEMM, each loaded through the library
// search only when first needed (telemetry is telemetry/'s). Pinned memory, asynchronous copies and the bare
// launch live in hip_transfers.cpp, peer-to-peer in hip_peers.cpp.
#pragma once

#include <map>
#include <optional>

#include "gpu/api/hip_api.h"
#include "gpu/api/hiprtc_api.h"
#include "gpu/api/rocblas_api.h"
#include "gpu/backend.h"
#include "gpu/backend_inputs.h"

namespace gpudoctor {

class HipBackend final : public Backend {
 public:
  explicit HipBackend(BackendInputs in) : in_(std::move(in)) {}
  ~HipBackend() override;
  HipBackend(const HipBackend&) = delete;
  HipBackend& operator=(const HipBackend&) = delete;

  BackendKind Kind() const override { return BackendKind::kHip; }
  std::string DisplayName() const override { return "HIP"; }
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
  Status Check(hipError_t rc, const std::string& call) const;
  // An error naming the runtime export a call needs when this libamdhip64 lacks it.
  Status Need(const void* fn, const char* symbol) const;
  Status AsyncCopy(void* dst, const void* src, uint64_t bytes, int kind, const char* what);
  Status RequireDevice() const;
  std::string ArchOf(int index, const std::string& pci) const;
  Result<std::vector<char>> CompileWithHiprtc(const std::string& source, const std::string& program_name,
                                              const std::vector<std::string>& defines);
  Status LoadRocblas();

  BackendInputs in_;
  LoadedTable<HipApi> hip_;
  std::optional<LoadedTable<HiprtcApi>> hiprtc_;
  std::optional<LoadedTable<RocblasApi>> rocblas_;
  BackendLibrary hip_record_{"runtime", "amdhip64", LoadStatus::kNotTried, "", "", "", "", ""};
  BackendLibrary hiprtc_record_{"compiler", "hiprtc", LoadStatus::kNotTried, "", "", "", "", ""};
  BackendLibrary rocblas_record_{"blas", "rocblas", LoadStatus::kNotTried, "", "", "", "", ""};
  std::string version_;
  bool initialized_ = false;
  bool no_device_ = false;  // hipInit said there is no GPU: the runtime loaded, Devices() is empty
  std::optional<int> device_;
  std::optional<std::vector<DeviceInfo>> opened_devices_;  // Devices() as OpenDevice first read it
  std::string device_arch_;
  std::string device_pci_;
  rocblas_handle rocblas_handle_ = nullptr;
  uint64_t next_id_ = 1;
  std::map<ModuleId, hipModule_t> modules_;
  std::map<FunctionId, hipFunction_t> functions_;
  std::map<EventId, hipEvent_t> events_;
};

}  // namespace gpudoctor
