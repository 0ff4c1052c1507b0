// Warp intrinsics: a shuffle reduction written for 32-lane warps.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

__inline__ __device__ float warp_reduce(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void reduce(const float* x, float* out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  v = warp_reduce(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    v = warp_reduce(v);
    if (lane == 0) atomicAdd(out, v);
  }
}
