// Runtime API: list the devices and their properties.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 1;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, d);
    int clock = 0;
    cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d);
    printf("%d: %s, %d SMs, %zu bytes, warp %d, clock %d kHz\n", d, prop.name, prop.multiProcessorCount,
           prop.totalGlobalMem, prop.warpSize, clock);
  }
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  printf("runtime %d driver %d\n", runtime, driver);
  return 0;
}
