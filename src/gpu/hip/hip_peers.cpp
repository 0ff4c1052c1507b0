// HipBackend's peer-to-peer half: whether one GPU can map another's memory (hipDeviceCanAccessPeer), turning
// that on from the open device (hipDeviceEnablePeerAccess) and the runtime's peer copy (hipMemcpyPeer, staged
// through the host where direct access is off). HIP addresses devices by ordinal; memory stays with the
// device it was allocated on whichever device is current. The exports are optional in the table: a runtime
// without them fails only these calls, naming the export.
#include "gpu/hip/hip_backend.h"

namespace gpudoctor {

Result<bool> HipBackend::CanAccessPeer(int device, int peer) {
  if (!initialized_) return InternalError("HIP runtime not loaded");
  if (auto s = Need(reinterpret_cast<const void*>(hip_.api.DeviceCanAccessPeer), "hipDeviceCanAccessPeer");
      !s)
    return s.error();
  if (device == peer) return true;
  int can = 0;
  if (auto s = Check(hip_.api.DeviceCanAccessPeer(&can, device, peer), "hipDeviceCanAccessPeer"); !s)
    return s.error();
  return can != 0;
}

Status HipBackend::EnablePeerAccess(int peer) {
  if (auto s = RequireDevice(); !s) return s;
  if (auto s =
          Need(reinterpret_cast<const void*>(hip_.api.DeviceEnablePeerAccess), "hipDeviceEnablePeerAccess");
      !s)
    return s;
  if (peer == *device_) return Ok{};
  hipError_t rc = hip_.api.DeviceEnablePeerAccess(peer, 0);
  if (rc == kHipErrorPeerAccessAlreadyEnabled) return Ok{};
  return Check(rc, "hipDeviceEnablePeerAccess(" + std::to_string(peer) + ")");
}

Status HipBackend::CopyPeer(DevicePtr dst, int dst_device, DevicePtr src, int src_device, uint64_t bytes) {
  if (!initialized_) return InternalError("HIP runtime not loaded");
  if (auto s = Need(reinterpret_cast<const void*>(hip_.api.MemcpyPeer), "hipMemcpyPeer"); !s) return s;
  return Check(
      hip_.api.MemcpyPeer(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)), dst_device,
                          reinterpret_cast<const void*>(static_cast<uintptr_t>(src)), src_device, bytes),
      "hipMemcpyPeer");
}

}  // namespace gpudoctor
