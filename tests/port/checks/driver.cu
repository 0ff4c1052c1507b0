// Driver API names, types and an enum.
#include <cuda.h>
// CHECK: #include <hip/hip_runtime.h>

int init_driver() {
  CUdevice dev;
  // CHECK: hipDevice_t dev;
  CUcontext ctx;
  // CHECK: hipCtx_t ctx;
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  // CHECK: if (hipInit(0) != hipSuccess) return 1;
  cuDeviceGet(&dev, 0);
  // CHECK: hipDeviceGet(&dev, 0);
  cuCtxCreate(&ctx, 0, dev);
  // CHECK: hipCtxCreate(&ctx, 0, dev);
  return 0;
}
// CONVERTED: headers=1 driver=3 types=2 enums=1
