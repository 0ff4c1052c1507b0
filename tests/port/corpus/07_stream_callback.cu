// Streams: a host function enqueued after the work, and stream priorities.
#include <cstdio>
#include <cuda_runtime.h>

static void CUDART_CB report(cudaStream_t stream, cudaError_t status, void* user) {
  (void)stream;
  *static_cast<int*>(user) = status == cudaSuccess ? 1 : -1;
}

int enqueue(int* flag) {
  int least = 0, greatest = 0;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t s;
  cudaStreamCreateWithPriority(&s, cudaStreamDefault, greatest);
  cudaStreamAddCallback(s, report, flag, 0);
  cudaError_t q = cudaStreamQuery(s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  return q == cudaSuccess || q == cudaErrorNotReady;
}
