// Issue 32, item 2: with a HIP that has them, meta_group_rank() and meta_group_size() are not reported.
// RUN: --hip-version 6.2
#include <cooperative_groups.h>
// CHECK: #include <hip/hip_runtime.h>
namespace cg = cooperative_groups;

__global__ void ranks(int* out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  out[tile.meta_group_rank()] = tile.meta_group_size();
}
