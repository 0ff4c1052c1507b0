// Issue 32, item 1: what hipcc needs that nvcc gave implicitly: the runtime include, the CUDA header guards
// that helper code tests, bf16 names, cache-hinted loads and stores, and the cast of a kernel to const void*.
#include <cooperative_groups.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_bf16.h>
#include <cstdio>

#ifdef __DRIVER_TYPES_H__
// CHECK: #ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
static const char* ErrorName(cudaError_t e) { return cudaGetErrorName(e); }
#endif
#if defined(__CUDA_RUNTIME_H__)
// CHECK: #if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H)
inline void Check(cudaError_t e) {
  if (e != cudaSuccess) std::printf("%s\n", ErrorName(e));
}
#endif

__global__ void stream_copy(const float4* in, float4* out, __nv_bfloat16* h, int n) {
  // CHECK: __global__ void stream_copy(const float4* in, float4* out, __hip_bfloat16* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = __ldcs(&in[i]);  // FINDING: cache_hint
    // CHECK: float4 v = (*(&in[i]));
    __stcs(&out[i], v);  // FINDING: cache_hint
    // CHECK: (*(&out[i]) = (v));
    float4 w = __ldcg(in + i);  // FINDING: cache_hint
    // CHECK: float4 w = (*(in + i));
    __stcg(out + i,  // FINDING: cache_hint
           w);
    // CHECK: (*(out + i) = (
    // CHECK: w));
    float4 x = __ldca(in + i) + __ldlu(in + i) + __ldcv(in + i);  // FINDING: cache_hint cache_hint cache_hint
    // CHECK: float4 x = (*(in + i)) + (*(in + i)) + (*(in + i));
    __stwb(out + i, x);  // FINDING: cache_hint
    // CHECK: (*(out + i) = (x));
    __stwt(out + i, x);  // FINDING: cache_hint
    // CHECK: (*(out + i) = (x));
    h[i] = __float2bfloat16(v.x + __bfloat162float(h[i]));
    // CHECK: h[i] = __float2bfloat16(v.x + __bfloat162float(h[i]));
  }
}

template <int N>
__global__ void scaled(float* x) { x[threadIdx.x] *= N; }

void Configure() {
  cudaFuncSetAttribute(stream_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  // CHECK: hipFuncSetAttribute(reinterpret_cast<const void*>(stream_copy), hipFuncAttributeMaxDynamicSharedMemorySize, 0);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, scaled<4>);
  // CHECK: hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(scaled<4>));
  cudaFuncSetCacheConfig((const void*)stream_copy, cudaFuncCachePreferL1);
  // CHECK: hipFuncSetCacheConfig((const void*)stream_copy, hipFuncCachePreferL1);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scaled<4>, 128, 0);
  // HIP's hipOccupancy* are templates over the kernel's type: the kernel goes in as it is.
  // CHECK: hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scaled<4>, 128, 0);
  struct cudaDeviceProp prop;
  // CHECK: struct hipDeviceProp_t prop;
  Check(cudaGetDeviceProperties(&prop, 0));
}
