// Warp intrinsics: votes and ballots.
#include <cuda_runtime.h>

__global__ void count_positive(const int* x, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool positive = i < n && x[i] > 0;
  unsigned int ballot = __ballot_sync(0xffffffff, positive);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(ballot));
  if (__all_sync(0xffffffff, positive)) count[1] = 1;
  if (__any_sync(0xffffffff, !positive)) count[2] = 1;
}
