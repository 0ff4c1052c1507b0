// HipBackend's benchmark half: page-locked host memory (hipHostMalloc), copies queued on the null stream that
// launches and events use (hipMemcpyAsync) and the bare runtime launch the latency benchmark measures its
// own launch path against. The exports are optional in the table: a runtime without one fails only the call
// that needs it, naming the export.
#include <memory>

#include "core/strings.h"
#include "gpu/hip/hip_backend.h"

namespace gpudoctor {

Status HipBackend::Need(const void* fn, const char* symbol) const {
  if (fn) return Ok{};
  return EnvError("the HIP runtime at " + hip_.load.loaded_path + " lacks " + symbol,
                  "update ROCm's HIP runtime");
}

Result<void*> HipBackend::AllocatePinnedHost(uint64_t bytes) {
  if (auto s = RequireDevice(); !s) return s.error();
  if (auto s = Need(reinterpret_cast<const void*>(hip_.api.HostMalloc), "hipHostMalloc"); !s)
    return s.error();
  void* p = nullptr;
  if (auto s = Check(hip_.api.HostMalloc(&p, bytes, kHipHostMallocDefault),
                     "hipHostMalloc(" + FormatBytes(bytes) + ")");
      !s)
    return s.error();
  return p;
}

Status HipBackend::FreePinnedHost(void* p) {
  if (auto s = Need(reinterpret_cast<const void*>(hip_.api.HostFree), "hipHostFree"); !s) return s;
  return Check(hip_.api.HostFree(p), "hipHostFree");
}

Status HipBackend::AsyncCopy(void* dst, const void* src, uint64_t bytes, int kind, const char* what) {
  if (auto s = Need(reinterpret_cast<const void*>(hip_.api.MemcpyAsync), "hipMemcpyAsync"); !s) return s;
  return Check(hip_.api.MemcpyAsync(dst, src, bytes, kind, nullptr),
               std::string("hipMemcpyAsync(") + what + ")");
}

Status HipBackend::CopyToDeviceAsync(DevicePtr dst, const void* src, uint64_t bytes) {
  return AsyncCopy(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)), src, bytes, kHipMemcpyHostToDevice,
                   "host to device");
}

Status HipBackend::CopyToHostAsync(void* dst, DevicePtr src, uint64_t bytes) {
  return AsyncCopy(dst, reinterpret_cast<const void*>(static_cast<uintptr_t>(src)), bytes,
                   kHipMemcpyDeviceToHost, "device to host");
}

Status HipBackend::CopyOnDevice(DevicePtr dst, DevicePtr src, uint64_t bytes) {
  return AsyncCopy(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)),
                   reinterpret_cast<const void*>(static_cast<uintptr_t>(src)), bytes,
                   kHipMemcpyDeviceToDevice, "device to device");
}

Result<DriverLaunch> HipBackend::PrepareDriverLaunch(FunctionId fn, Dim3 grid, Dim3 block,
                                                     const KernelArgs& args) {
  auto it = functions_.find(fn);
  if (it == functions_.end()) return InternalError("unknown function id");
  // The argument values and the pointers to them live as long as the launch object.
  auto held = std::make_shared<const KernelArgs>(args);
  auto params = std::make_shared<std::vector<void*>>(held->Pointers());
  hipFunction_t f = it->second;
  auto launch = hip_.api.ModuleLaunchKernel;
  void** raw = params->empty() ? nullptr : params->data();
  return DriverLaunch([held, params, f, launch, grid, block, raw]() {
    return launch(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, nullptr, raw, nullptr);
  });
}

}  // namespace gpudoctor
