// Runtime API: pitched allocations and 2D copies.
#include <cuda_runtime.h>

__global__ void touch(float* img, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float* row = (float*)((char*)img + y * pitch);
    row[x] *= 0.5f;
  }
}

int process(float* host, int w, int h) {
  float* dev = nullptr;
  size_t pitch = 0;
  cudaMallocPitch((void**)&dev, &pitch, w * sizeof(float), h);
  cudaMemcpy2D(dev, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  touch<<<grid, block>>>(dev, pitch, w, h);
  cudaMemcpy2D(host, w * sizeof(float), dev, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
  cudaFree(dev);
  return 0;
}
