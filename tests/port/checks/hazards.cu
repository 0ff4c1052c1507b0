// Inline PTX, texture references, cooperative-groups features HIP lacks and oversized launch bounds.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

texture<float, 1, cudaReadModeElementType> tex;  // FINDING: texture

__device__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));  // FINDING: inline_ptx
  return id;
}

__global__ void __launch_bounds__(2048) big(float* x) { x[threadIdx.x] = 0; }  // FINDING: launch_bounds
__global__ void __launch_bounds__(256) fine(float* x) { x[threadIdx.x] = 0; }

__global__ void groups(float* x) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);  // FINDING: warp_size
  float s = cg::reduce(tile, x[threadIdx.x], cg::plus<float>());  // FINDING: cg_rewritten
  x[0] = s;
}
