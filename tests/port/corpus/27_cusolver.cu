// cuSOLVER: an LU factorisation's workspace query and the factorisation.
#include <cusolverDn.h>
#include <cuda_runtime.h>

int lu(float* A, int n, int* pivots, int* info) {
  cusolverDnHandle_t handle;
  cusolverDnCreate(&handle);
  int lwork = 0;
  cusolverDnSgetrf_bufferSize(handle, n, n, A, n, &lwork);
  float* work = nullptr;
  cudaMalloc(&work, lwork * sizeof(float));
  cusolverDnSgetrf(handle, n, n, A, n, work, pivots, info);
  cudaFree(work);
  cusolverDnDestroy(handle);
  return 0;
}
