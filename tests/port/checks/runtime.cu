// Runtime API, types, enums and macros; the header; a launch kept as <<<>>>.
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  float* d = nullptr;
  cudaStream_t stream;
  // CHECK: hipStream_t stream;
  cudaError_t err = cudaMalloc(&d, 256 * sizeof(float));
  // CHECK: hipError_t err = hipMalloc(&d, 256 * sizeof(float));
  if (err != cudaSuccess) printf("cudaMalloc failed: %s\n", cudaGetErrorString(err));
  // CHECK: if (err != hipSuccess) printf("cudaMalloc failed: %s\n", hipGetErrorString(err));
  cudaStreamCreate(&stream);
  cudaMemsetAsync(d, 0, 256 * sizeof(float), stream);
  // CHECK: hipMemsetAsync(d, 0, 256 * sizeof(float), stream);
  scale<<<1, 256, 0, stream>>>(d, 2.0f, 256);
  // CHECK: scale<<<1, 256, 0, stream>>>(d, 2.0f, 256);
  cudaMemcpy(d, d, 4, cudaMemcpyDeviceToDevice);
  // CHECK: hipMemcpy(d, d, 4, hipMemcpyDeviceToDevice);
  cudaDeviceProp prop;
  // CHECK: hipDeviceProp_t prop;
  unsigned flags = cudaHostAllocDefault;
  // CHECK: unsigned flags = hipHostMallocDefault;
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  cudaFree(d);
  // CHECK: hipFree(d);
  return flags + prop.major;
}
// CONVERTED: headers=1 runtime=8 types=3 enums=2 macros=1
