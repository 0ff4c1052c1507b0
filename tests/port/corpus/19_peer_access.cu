// Several GPUs: peer access and peer copies.
#include <cuda_runtime.h>

int peer_copy(void* dst, int dst_dev, const void* src, int src_dev, size_t bytes) {
  int can = 0;
  cudaDeviceCanAccessPeer(&can, dst_dev, src_dev);
  if (can) {
    cudaSetDevice(dst_dev);
    cudaDeviceEnablePeerAccess(src_dev, 0);
  }
  cudaMemcpyPeer(dst, dst_dev, src, src_dev, bytes);
  cudaDeviceSynchronize();
  if (can) cudaDeviceDisablePeerAccess(src_dev);
  return can;
}
