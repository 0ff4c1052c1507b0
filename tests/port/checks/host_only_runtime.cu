// A .cu file that only calls the runtime from host code and includes no CUDA header: nvcc includes its runtime
// before every .cu file, hipcc does not, so the HIP runtime include is added (issue 32, item 5: the real corpus).
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #include <stdio.h>
#include <stdio.h>

inline cudaError_t check(cudaError_t result) {
  // CHECK: inline hipError_t check(hipError_t result) {
  if (result != cudaSuccess) fprintf(stderr, "%s\n", cudaGetErrorString(result));
  return result;
}

int main() {
  float* d = nullptr;
  check(cudaMalloc(&d, 64));
  // CHECK: check(hipMalloc(&d, 64));
  check(cudaFree(d));
  return 0;
}
