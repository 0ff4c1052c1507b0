// Warp intrinsics: an inclusive scan with __shfl_up_sync and a broadcast with __shfl_sync.
#include <cuda_runtime.h>

__device__ int warp_inclusive_scan(int v) {
  const int lane = threadIdx.x & (warpSize - 1);
  for (int d = 1; d < warpSize; d *= 2) {
    int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__global__ void scan(const int* in, int* out, int* totals) {
  int v = warp_inclusive_scan(in[blockIdx.x * blockDim.x + threadIdx.x]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  int total = __shfl_sync(0xffffffff, v, warpSize - 1);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}
