// cuBLAS: a single-precision GEMM and a dot product on a stream.
#include <cublas_v2.h>
#include <cuda_runtime.h>

int gemm(const float* A, const float* B, float* C, int n, cudaStream_t stream) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasSetStream(handle, stream);
  const float alpha = 1.0f, beta = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, A, n, B, n, &beta, C, n);
  float dot = 0.0f;
  cublasSdot(handle, n, A, 1, B, 1, &dot);
  cublasDestroy(handle);
  return dot > 0.0f;
}
