// `extern "C"__global__` with no space: nvcc reads the attribute; clang reads a string literal with a
// user-defined suffix and stops. A space is put between them (issue 32, item 5: the real corpus).
extern "C"__global__ void saxpy(int n, float a, float* x, float* y) {
  // CHECK: extern "C" __global__ void saxpy(int n, float a, float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __device__ float twice(float v) { return 2.0f * v; }
// CHECK: extern "C" __device__ float twice(float v) { return 2.0f * v; }
// CHECK-NOT: "C"  __device__
static const char* kName = "saxpy";
// CHECK: static const char* kName = "saxpy";
