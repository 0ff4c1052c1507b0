// Issue 32: with --hip-version older than a HIP name, what that release has instead (older_hip), and an error
// where it has nothing: hip/hip_bfloat16.h's hip_bfloat16 for bf16, sharedMemPerBlock for the opt-in limit.
// RUN: --hip-version 5.2
#include <cuda_bf16.h>  // FINDING: older_hip
// CHECK: #include <hip/hip_bfloat16.h>
#include <cuda_fp8.h>  // FINDING: unsupported
// CHECK: #include <cuda_fp8.h>

__global__ void scale(__nv_bfloat16* x, float k, int n) {  // FINDING: older_hip
  // CHECK: __global__ void scale(hip_bfloat16* x, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __float2bfloat16(__bfloat162float(x[i]) * k);  // FINDING: older_hip older_hip
  // CHECK: if (i < n) x[i] = hip_bfloat16(static_cast<float>(x[i]) * k);
  if (i == 0) x[1] = __float2bfloat16_rn(k);  // FINDING: older_hip
  // CHECK: if (i == 0) x[1] = hip_bfloat16(k);
}

__device__ float pair_sum(__nv_bfloat162 v) { return 0.0f; }  // FINDING: newer_hip
__device__ float eight(__nv_fp8_e4m3 v) { return 0.0f; }  // FINDING: unsupported

__global__ void whole_warp(float* out) {
  out[threadIdx.x] = static_cast<float>(__popcll(__activemask()));  // FINDING: older_hip
  // CHECK: out[threadIdx.x] = static_cast<float>(__popcll(__ballot(1)));
}

size_t SharedLimit() {
  struct cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  size_t limit = prop.sharedMemPerBlockOptin;  // FINDING: older_hip
  // CHECK: size_t limit = prop.sharedMemPerBlock;
  return limit;
}
// CONVERTED: bf16=5 headers=1 implicit=1 runtime=2 types=1 warp=1
