// Streams and events: timing a kernel and overlapping work on two streams.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void busy(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2.0f + 1.0f;
}

float time_two_streams(float* a, float* b, int n) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t start, stop, done;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  cudaEventRecord(start, s1);
  busy<<<(n + 255) / 256, 256, 0, s1>>>(a, n);
  busy<<<(n + 255) / 256, 256, 0, s2>>>(b, n);
  cudaEventRecord(done, s2);
  cudaStreamWaitEvent(s1, done, 0);
  cudaEventRecord(stop, s1);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(done);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  return ms;
}
