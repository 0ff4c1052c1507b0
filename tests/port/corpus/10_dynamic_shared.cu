// Shared memory: extern dynamic shared memory sized at launch, and the function attribute that raises it.
#include <cuda_runtime.h>

extern __shared__ float scratch[];

__global__ void block_sum(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = scratch[0];
}

void launch_block_sum(const float* x, float* out, int n) {
  int threads = 256;
  size_t shared = threads * sizeof(float);
  cudaFuncSetAttribute(block_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared);
  block_sum<<<(n + threads - 1) / threads, threads, shared>>>(x, out, n);
}
