// RUN: --launch-macro
// --launch-macro rewrites launches as hipLaunchKernelGGL, padding the configuration to four arguments.
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
__global__ void tick() {}
namespace k { __global__ void inner(int* p) { *p = 1; } }

void run(float* x, int* p, cudaStream_t s) {
  fill<float, 4><<<dim3(2), dim3(64)>>>(x, 1.0f);
  // CHECK: hipLaunchKernelGGL((fill<float, 4>), dim3(2), dim3(64), 0, 0, x, 1.0f);
  tick<<<1, 1, 0, s>>>();
  // CHECK: hipLaunchKernelGGL(tick, 1, 1, 0, s);
  k::inner<<<1, 1, 128>>>(p);
  // CHECK: hipLaunchKernelGGL(k::inner, 1, 1, 128, 0, p);
}
