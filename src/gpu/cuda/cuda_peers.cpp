// CudaBackend's peer-to-peer half over the driver API: whether one GPU can map another's memory
// (cuDeviceCanAccessPeer), turning that on from the open device's context (cuCtxEnablePeerAccess) and the
// driver's peer copy between two primary contexts (cuMemcpyPeer, staged through the host where direct access
// is off). Every primary context touched stays retained until the backend goes. The exports are optional in
// the table: a driver without them fails only these calls, naming the export.
#include "gpu/cuda/cuda_backend.h"

namespace gpudoctor {

Result<CUcontext> CudaBackend::ContextOf(int index) {
  if (!initialized_) return InternalError("CUDA runtime not loaded");
  CUdevice dev = 0;
  if (auto s = Check(driver_.api.DeviceGet(&dev, index), "cuDeviceGet"); !s) return s.error();
  if (auto it = primary_contexts_.find(dev); it != primary_contexts_.end()) return it->second;
  CUcontext ctx = nullptr;
  if (auto s = Check(driver_.api.DevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain"); !s)
    return s.error();
  primary_contexts_[dev] = ctx;
  return ctx;
}

Result<bool> CudaBackend::CanAccessPeer(int device, int peer) {
  if (!initialized_) return InternalError("CUDA runtime not loaded");
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.DeviceCanAccessPeer), "cuDeviceCanAccessPeer");
      !s)
    return s.error();
  if (device == peer) return true;
  CUdevice a = 0, b = 0;
  if (auto s = Check(driver_.api.DeviceGet(&a, device), "cuDeviceGet"); !s) return s.error();
  if (auto s = Check(driver_.api.DeviceGet(&b, peer), "cuDeviceGet"); !s) return s.error();
  int can = 0;
  if (auto s = Check(driver_.api.DeviceCanAccessPeer(&can, a, b), "cuDeviceCanAccessPeer"); !s)
    return s.error();
  return can != 0;
}

Status CudaBackend::EnablePeerAccess(int peer) {
  if (auto s = RequireDevice(); !s) return s;
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.CtxEnablePeerAccess), "cuCtxEnablePeerAccess");
      !s)
    return s;
  auto peer_context = ContextOf(peer);
  if (!peer_context) return peer_context.error();
  if (*peer_context == context_) return Ok{};
  // Called in the open device's context (current since OpenDevice): that one gains access to the peer's.
  CUresult rc = driver_.api.CtxEnablePeerAccess(*peer_context, 0);
  if (rc == kCudaErrorPeerAccessAlreadyEnabled) return Ok{};
  return Check(rc, "cuCtxEnablePeerAccess");
}

Status CudaBackend::CopyPeer(DevicePtr dst, int dst_device, DevicePtr src, int src_device, uint64_t bytes) {
  if (auto s = Need(reinterpret_cast<const void*>(driver_.api.MemcpyPeer), "cuMemcpyPeer"); !s) return s;
  auto dst_context = ContextOf(dst_device);
  if (!dst_context) return dst_context.error();
  auto src_context = ContextOf(src_device);
  if (!src_context) return src_context.error();
  return Check(driver_.api.MemcpyPeer(dst, *dst_context, src, *src_context, bytes), "cuMemcpyPeer");
}

}  // namespace gpudoctor
