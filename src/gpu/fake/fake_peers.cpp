// The scripted fake backend's peer-to-peer half: which pairs of fake GPUs have direct access (the script's
// "peer_access", every pair when absent), enabling it as the real runtimes do (an error for a pair without),
// and the peer copy between the host buffers that stand for each GPU's memory, checked to be memory of the
// devices named. Each answers the script like the other operations; "corrupt": "copy_peer" flips a byte.
#include <cstring>

#include "gpu/fake/fake_backend.h"

namespace gpudoctor {

std::optional<int> FakeBackend::DeviceOf(DevicePtr p, uint64_t bytes) {
  if (!HostView(p, bytes)) return std::nullopt;
  auto it = block_device_.upper_bound(p);
  --it;  // HostView found the block, so one starts at or below p
  return it->second;
}

Result<bool> FakeBackend::CanAccessPeer(int device, int peer) {
  if (!loaded_) return InternalError("fake runtime not loaded");
  if (auto s = Scripted("can_access_peer"); !s) return s.error();
  int n = static_cast<int>(devices_.size());
  if (device < 0 || device >= n || peer < 0 || peer >= n)
    return UserError("no fake device " + std::to_string(device < 0 || device >= n ? device : peer));
  if (device == peer) return true;
  return !peer_access_ || peer_access_->count({device, peer}) > 0;
}

Status FakeBackend::EnablePeerAccess(int peer) {
  if (!device_) return InternalError("no fake device open");
  if (auto s = Scripted("enable_peer_access"); !s) return s;
  auto can = CanAccessPeer(*device_, peer);
  if (!can) return can.error();
  if (!*can)
    return EnvError("fakeEnablePeerAccess(" + std::to_string(*device_) + " -> " + std::to_string(peer) +
                    ") failed: peer access is not supported between these devices");
  return Ok{};
}

Status FakeBackend::CopyPeer(DevicePtr dst, int dst_device, DevicePtr src, int src_device, uint64_t bytes) {
  if (auto s = Scripted("copy_peer"); !s) return s;
  if (DeviceOf(dst, bytes) != dst_device || DeviceOf(src, bytes) != src_device)
    return EnvError("fakeMemcpyPeer: the range is not memory of the device named");
  std::memmove(HostView(dst, bytes), HostView(src, bytes), bytes);
  if (Corrupts("copy_peer") && bytes > 0) HostView(dst, bytes)[bytes / 2] ^= 0x10;
  return Ok{};
}

}  // namespace gpudoctor
