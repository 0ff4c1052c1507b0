// Issue 32, item 3: 32-lane assumptions found by what the code does, whatever its names: __CUDA_ARCH__
// guards, tiles and shared arrays of 32, lane arithmetic, results a 64-lane wavefront changes, and data masks
// told apart from lane masks.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define LANES_ALL 0xffffffffu  // FINDING: full_mask
#define LOW_WORD 0xFFFFFFFFU
const unsigned kHashMask = 0xFFFFFFFFU;
unsigned long long word_mask = 0xffffffffull;

__device__ unsigned hash_low(unsigned long long h) {
  return static_cast<unsigned>(h & LOW_WORD) ^ (static_cast<unsigned>(h >> 32) & kHashMask) ^ word_mask;
}

__global__ void arch_paths(float* x) {
#if __CUDA_ARCH__ >= 800  // FINDING: cuda_arch
  x[0] = 1.0f;
#endif
#ifdef __CUDA_ARCH__  // FINDING: cuda_arch
  x[1] = 2.0f;
#endif
}

__global__ void tiles(float* out) {
  auto block = cg::this_thread_block();
  auto g = cg::tiled_partition<32>(block);  // FINDING: warp_size
  cg::thread_block_tile<32> part = cg::tiled_partition<32>(block);  // FINDING: warp_size
  auto small = cg::tiled_partition<16>(block);
  __shared__ float partial[32];  // FINDING: warp_size
  __shared__ float tile[32][33];
  out[0] = partial[0] + tile[0][0] + g.size() + part.size() + small.size();
}

__global__ void reduce_rows(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int step = 16; step > 0; step >>= 1) v += __shfl_xor_sync(LANES_ALL, v, step);  // FINDING: wave64
  float u = __shfl_down_sync(0xffffffff, v, 16);  // FINDING: full_mask wave64
  float w = __shfl_down_sync(0xffffffff, v, 16, 32);  // FINDING: full_mask
  bool all = __ballot_sync(LANES_ALL, v > 0) == 0xffffffff;  // FINDING: wave64
  if (threadIdx.x % 32 == 31) out[blockIdx.x] = v + u + w + all;  // FINDING: warp_size wave64
}

__global__ void lane_math(const float* in, unsigned* votes, float* out) {
  int lane = threadIdx.x & 31;  // FINDING: warp_size
  int warp = threadIdx.x >> 5;  // FINDING: warp_size
  unsigned vote = __ballot_sync(__activemask(), in[threadIdx.x] > 0);  // FINDING: ballot_width
  votes[warp] = vote;
  if (__activemask() == 0xffffffff) out[lane] = 1.0f;  // FINDING: wave64
  float s = in[threadIdx.x];
  for (int offset = 16; offset >= 1; offset /= 2) s += __shfl_down_sync(__activemask(), s, offset);  // FINDING: wave64
  out[warp] = s;
}
