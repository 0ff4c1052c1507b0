// Inline PTX: reading the lane id and the SM id with asm.
#include <cuda_runtime.h>

__device__ unsigned int lane_id() {
  unsigned int id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__global__ void where(unsigned int* out) { out[threadIdx.x] = lane_id(); }
