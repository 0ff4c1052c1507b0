// A CUDA API HIP lacks is kept as written and reported with what to do.
#include <cuda_runtime.h>

void flush() {
  cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,  // FINDING: unsupported
                                     cudaFlushGPUDirectRDMAWritesToOwner);  // FINDING: unsupported
  // CHECK: cudaDeviceFlushGPUDirectRDMAWrites(
}
