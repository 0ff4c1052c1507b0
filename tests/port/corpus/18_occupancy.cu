// Occupancy: choose a block size and see how many blocks fit per multiprocessor.
#include <cuda_runtime.h>

__global__ void work(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = sqrtf(x[i]);
}

int pick(float* x, int n) {
  int min_grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, work, 0, 0);
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, work, block, 0);
  work<<<(n + block - 1) / block, block>>>(x, n);
  return per_sm;
}
