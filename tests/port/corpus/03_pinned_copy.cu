// Runtime API: pinned host memory and asynchronous copies.
#include <cuda_runtime.h>

int copy_round_trip(size_t bytes) {
  void *host = nullptr, *dev = nullptr;
  if (cudaMallocHost(&host, bytes) != cudaSuccess) return 1;
  cudaMalloc(&dev, bytes);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaFree(dev);
  cudaFreeHost(host);
  return 0;
}

int register_existing(void* buffer, size_t bytes) {
  cudaHostRegister(buffer, bytes, cudaHostRegisterDefault);
  void* dev = nullptr;
  cudaHostGetDevicePointer(&dev, buffer, 0);
  cudaHostUnregister(buffer);
  return dev != nullptr;
}
