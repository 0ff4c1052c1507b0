// RUN: --hip-version 5.2
// An API HIP 5.2 lacks is translated and reported; one it has is not.
#include <cuda_runtime.h>

void graph(cudaGraph_t g, cudaGraphExec_t* e, cudaStream_t s, void** p) {
  cudaMallocAsync(p, 64, s);
  // CHECK: hipMallocAsync(p, 64, s);
  cudaGraphInstantiateWithParams(e, g, nullptr);  // FINDING: newer_hip
  // CHECK: hipGraphInstantiateWithParams(e, g, nullptr);
}
