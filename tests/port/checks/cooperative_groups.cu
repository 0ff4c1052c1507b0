// Issue 32, item 2: cooperative-groups calls HIP lacks, rewritten where a portable form exists (reduce and
// its operators) and reported with their fix per --hip-version (meta_group_*, binary_partition).
// RUN: --hip-version 5.2
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void row_sum(const float* x, float* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  float s = cg::reduce(tile, x[threadIdx.x], cg::plus<float>());  // FINDING: cg_rewritten
  // CHECK: float s = [&](const decltype(tile)& g_, float v_) { for (unsigned o_ = g_.size() / 2; o_ > 0; o_ /= 2) { float a_ = v_, b_ = g_.shfl_xor(v_, o_); v_ = a_ + b_; } return v_; }(tile, x[threadIdx.x]);
  int m = cooperative_groups::reduce(tile, static_cast<int>(s), cg::less<int>());  // FINDING: cg_rewritten
  // CHECK: int m = [&](const decltype(tile)& g_, int v_) { for (unsigned o_ = g_.size() / 2; o_ > 0; o_ /= 2) { int a_ = v_, b_ = g_.shfl_xor(v_, o_); v_ = b_ < a_ ? b_ : a_; } return v_; }(tile, static_cast<int>(s));
  auto larger = cg::greater<float>();
  // CHECK: auto larger = [](float a_, float b_) { return a_ < b_ ? b_ : a_; };
  float r = cg::reduce(tile, s, larger);  // FINDING: cooperative_groups
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = s + m;  // FINDING: older_hip
  // CHECK: if (tile.thread_rank() == 0) out[((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / tile.size())] = s + m;
  out[1] += tile.meta_group_size();  // FINDING: older_hip
  // CHECK: out[1] += ((blockDim.x * blockDim.y * blockDim.z + tile.size() - 1) / tile.size());
  auto* tp = &tile;
  out[3] = tp->meta_group_size();  // FINDING: cooperative_groups
  // CHECK: out[3] = tp->meta_group_size();
  auto half = cg::binary_partition(tile, s > 0);  // FINDING: cooperative_groups
  auto parts = cg::labeled_partition(tile, threadIdx.x % 3);  // FINDING: cooperative_groups
  out[2] = half.size() + r + parts.size();
  float top = cg::reduce(tile, s, cg::greater<float>{});  // FINDING: cg_rewritten
  // CHECK: float top = [&](const decltype(tile)& g_, float v_) { for (unsigned o_ = g_.size() / 2; o_ > 0; o_ /= 2) { float a_ = v_, b_ = g_.shfl_xor(v_, o_); v_ = a_ < b_ ? b_ : a_; } return v_; }(tile, s);
  out[4] = top;
}
// CONVERTED: cooperative_groups=6 headers=3
