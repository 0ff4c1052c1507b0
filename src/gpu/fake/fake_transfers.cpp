// The scripted fake backend's benchmark half: "pinned" host memory as plain host buffers, the asynchronous
// copies done at once (the fake has no stream to queue on), and the driver launch as the same emulation
// behind the call the latency benchmark times. Each answers the script like the other operations.
#include <cstring>

#include "core/strings.h"
#include "gpu/fake/fake_backend.h"

namespace gpudoctor {

Result<void*> FakeBackend::AllocatePinnedHost(uint64_t bytes) {
  if (!device_) return InternalError("no fake device open");
  if (auto s = Scripted("allocate_pinned"); !s) return s.error();
  if (bytes == 0) return EnvError("fakeHostAlloc(0): nothing to allocate");
  auto block = std::make_unique<uint8_t[]>(bytes);
  void* p = block.get();
  pinned_[p] = std::move(block);
  return p;
}

Status FakeBackend::FreePinnedHost(void* p) {
  return pinned_.erase(p) ? Status(Ok{}) : Status(EnvError("fakeHostFree: not a pinned allocation"));
}

Status FakeBackend::CopyToDeviceAsync(DevicePtr dst, const void* src, uint64_t bytes) {
  if (auto s = Scripted("copy_to_device_async"); !s) return s;
  uint8_t* to = HostView(dst, bytes);
  if (!to) return EnvError("fakeMemcpyAsync(host to device): invalid device range");
  std::memcpy(to, src, bytes);
  if (Corrupts("copy_to_device_async") && bytes > 0) to[bytes / 2] ^= 0x10;
  return Ok{};
}

Status FakeBackend::CopyToHostAsync(void* dst, DevicePtr src, uint64_t bytes) {
  if (auto s = Scripted("copy_to_host_async"); !s) return s;
  uint8_t* from = HostView(src, bytes);
  if (!from) return EnvError("fakeMemcpyAsync(device to host): invalid device range");
  std::memcpy(dst, from, bytes);
  if (Corrupts("copy_to_host_async") && bytes > 0) static_cast<uint8_t*>(dst)[bytes / 2] ^= 0x10;
  return Ok{};
}

Status FakeBackend::CopyOnDevice(DevicePtr dst, DevicePtr src, uint64_t bytes) {
  if (auto s = Scripted("copy_on_device"); !s) return s;
  uint8_t* to = HostView(dst, bytes);
  uint8_t* from = HostView(src, bytes);
  if (!to || !from) return EnvError("fakeMemcpyAsync(device to device): invalid device range");
  std::memmove(to, from, bytes);
  if (Corrupts("copy_on_device") && bytes > 0) to[bytes / 2] ^= 0x10;
  return Ok{};
}

Result<DriverLaunch> FakeBackend::PrepareDriverLaunch(FunctionId fn, Dim3 grid, Dim3,
                                                      const KernelArgs& args) {
  if (auto s = Scripted("driver_launch"); !s) return s.error();
  auto it = functions_.find(fn);
  if (it == functions_.end()) return InternalError("unknown function id");
  std::string name = it->second;
  return DriverLaunch([this, name, grid, args]() { return EmulateKernel(name, grid, args).ok() ? 0 : 1; });
}

}  // namespace gpudoctor
