// CudaBackend's benchmark half: page-locked host memory (cuMemAllocHost), copies queued on the legacy
// default stream that launches and events use (cuMemcpy*Async), and the bare driver launch the latency
// benchmark measures its own launch path against. Every export here is optional in the table: a driver
// without one fails only the call that needs it, naming the export.
#include <memory>

#include "core/strings.h"
#include "gpu/cuda/cuda_backend.h"

namespace gpudoctor {

Status CudaBackend::Need(const void* fn, const char* symbol) const {
  if (fn) return Ok{};
  return EnvError(std::string("libcuda at ") + driver_.load.loaded_path + " lacks " + symbol,
                  "update the NVIDIA driver");
}

Result<void*> CudaBackend::AllocatePinnedHost(uint64_t bytes) {
  if (auto s = RequireDevice(); !s) return s.error();
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.MemAllocHost), "cuMemAllocHost_v2"); !s)
    return s.error();
  void* p = nullptr;
  std::string call = "cuMemAllocHost_v2(" + FormatBytes(bytes) + ")";
  if (auto s = Check(driver_.api.MemAllocHost(&p, bytes), call.c_str()); !s) return s.error();
  return p;
}

Status CudaBackend::FreePinnedHost(void* p) {
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.MemFreeHost), "cuMemFreeHost"); !s) return s;
  return Check(driver_.api.MemFreeHost(p), "cuMemFreeHost");
}

Status CudaBackend::CopyToDeviceAsync(DevicePtr dst, const void* src, uint64_t bytes) {
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.MemcpyHtoDAsync), "cuMemcpyHtoDAsync_v2"); !s)
    return s;
  return Check(driver_.api.MemcpyHtoDAsync(dst, src, bytes, nullptr), "cuMemcpyHtoDAsync_v2");
}

Status CudaBackend::CopyToHostAsync(void* dst, DevicePtr src, uint64_t bytes) {
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.MemcpyDtoHAsync), "cuMemcpyDtoHAsync_v2"); !s)
    return s;
  return Check(driver_.api.MemcpyDtoHAsync(dst, src, bytes, nullptr), "cuMemcpyDtoHAsync_v2");
}

Status CudaBackend::CopyOnDevice(DevicePtr dst, DevicePtr src, uint64_t bytes) {
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.MemcpyDtoDAsync), "cuMemcpyDtoDAsync_v2"); !s)
    return s;
  return Check(driver_.api.MemcpyDtoDAsync(dst, src, bytes, nullptr), "cuMemcpyDtoDAsync_v2");
}

Result<DriverLaunch> CudaBackend::PrepareDriverLaunch(FunctionId fn, Dim3 grid, Dim3 block,
                                                      const KernelArgs& args) {
  auto it = functions_.find(fn);
  if (it == functions_.end()) return InternalError("unknown function id");
  // The argument values and the pointers to them live as long as the launch object.
  auto held = std::make_shared<const KernelArgs>(args);
  auto params = std::make_shared<std::vector<void*>>(held->Pointers());
  CUfunction f = it->second;
  auto launch = driver_.api.LaunchKernel;
  void** raw = params->empty() ? nullptr : params->data();
  return DriverLaunch([held, params, f, launch, grid, block, raw]() {
    return launch(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr, raw, nullptr);
  });
}

}  // namespace gpudoctor
