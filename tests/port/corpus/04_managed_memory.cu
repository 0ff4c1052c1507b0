// Runtime API: managed (unified) memory with prefetch and advice.
#include <cuda_runtime.h>

__global__ void increment(int* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] += 1;
}

int run_managed(int n) {
  int* x = nullptr;
  cudaMallocManaged(&x, n * sizeof(int));
  for (int i = 0; i < n; ++i) x[i] = i;
  int device = 0;
  cudaGetDevice(&device);
  cudaMemAdvise(x, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device);
  cudaMemPrefetchAsync(x, n * sizeof(int), device, 0);
  increment<<<64, 256>>>(x, n);
  cudaDeviceSynchronize();
  int last = x[n - 1];
  cudaFree(x);
  return last;
}
