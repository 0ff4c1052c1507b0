// Warp intrinsics lose their mask (HIP's forms act on the whole wavefront); 32-lane assumptions are reported.
#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff  // FINDING: full_mask
#define WARP_SIZE 32  // FINDING: warp_size

__device__ float warp_sum(float v) {
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);  // FINDING: full_mask wave64
  // CHECK: for (int off = 16; off > 0; off /= 2) v += __shfl_down(v, off);
  return v;
}

__global__ void vote(const int* x, int* out, unsigned active) {
  int lane = threadIdx.x % 32;  // FINDING: warp_size
  int warp = threadIdx.x / 32;  // FINDING: warp_size
  unsigned ballot = __ballot_sync(FULL_MASK, x[threadIdx.x] > 0);  // FINDING: ballot_width
  // CHECK: unsigned ballot = __ballot(x[threadIdx.x] > 0);
  int n = __popc(__ballot_sync(active, x[lane] > 0));  // FINDING: ballot_width mask_dropped
  // CHECK: int n = __popc(__ballot(x[lane] > 0));
  float y = __shfl_xor_sync(__activemask(), 1.0f, 1);
  // CHECK: float y = __shfl_xor(1.0f, 1);
  float z = __shfl_up_sync(active,  // FINDING: mask_dropped
                           y, 1);
  // CHECK: float z = __shfl_up(
  // CHECK: y, 1);
  float w = __shfl_sync(active  // FINDING: mask_dropped
                        | 1u, z, 0);
  // CHECK: float w = __shfl(
  // CHECK: z, 0);
  __syncwarp();
  // CHECK: __builtin_amdgcn_wave_barrier();
  out[warp] = n + ballot + (int)(y + z + w);
}
// CONVERTED: headers=1 warp=8
