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
  // A launch written over several lines keeps its lines (found by fuzz/port_fuzz.cpp: the line breaks inside
  // <<< ... >>> were dropped and every later line moved up).
  tick<<<
      2, 32>>>(
  );
  // CHECK: hipLaunchKernelGGL(tick,
  // CHECK: 2, 32, 0, 0
  // CHECK: );
  // An empty configuration argument is not a launch the rewrite understands: it is kept as written.
  tick<<<, 1>>>();  // FINDING: launch_kept
  // CHECK: tick<<<, 1>>>();
}
