// Issue 32: without --hip-version, port writes the names of the HIP that has them, and says which release
// added a struct field older ones lack (a warning: the code is right for HIP 6.0 and newer).
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_bf16.h>

__global__ void scale(__nv_bfloat16* x, float k) { x[0] = __float2bfloat16(k); }
// CHECK: __global__ void scale(__hip_bfloat16* x, float k) { x[0] = __float2bfloat16(k); }

size_t SharedLimit(const cudaDeviceProp& prop) {
  return prop.sharedMemPerBlockOptin;  // FINDING: newer_hip
  // CHECK: return prop.sharedMemPerBlockOptin;
}
