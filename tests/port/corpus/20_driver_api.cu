// Driver API: context, memory and a module loaded from a file.
#include <cuda.h>

int driver_demo(const char* module_path) {
  if (cuInit(0) != CUDA_SUCCESS) return 1;
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  char name[128];
  cuDeviceGetName(name, sizeof(name), dev);
  CUcontext ctx;
  cuCtxCreate(&ctx, 0, dev);
  CUdeviceptr buf;
  cuMemAlloc(&buf, 1024);
  cuMemsetD8(buf, 0, 1024);
  CUmodule module;
  CUfunction fn;
  if (cuModuleLoad(&module, module_path) == CUDA_SUCCESS) {
    cuModuleGetFunction(&fn, module, "kernel");
    void* args[] = {&buf};
    cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr);
    cuCtxSynchronize();
    cuModuleUnload(module);
  }
  cuMemFree(buf);
  cuCtxDestroy(ctx);
  return 0;
}
