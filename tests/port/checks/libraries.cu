// cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER, cuDNN, NVRTC and cuComplex.
#include <cublas_v2.h>
// CHECK: #include <hipblas/hipblas.h>
#include <curand.h>
// CHECK: #include <hiprand/hiprand.h>
#include <curand_kernel.h>
// CHECK: #include <hiprand/hiprand_kernel.h>
#include <cufft.h>
// CHECK: #include <hipfft/hipfft.h>
#include <cusparse.h>
// CHECK: #include <hipsparse/hipsparse.h>
#include <cusolverDn.h>
// CHECK: #include <hipsolver/hipsolver.h>
#include <cudnn.h>
// CHECK: #include <miopen/miopen.h>
#include <nvrtc.h>
// CHECK: #include <hip/hiprtc.h>
#include <cuComplex.h>
// CHECK: #include <hip/hip_complex.h>

void libs(float* a, float* c, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  // CHECK: hipblasCreate(&h);
  float one = 1.0f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &one, c, n);
  // CHECK: hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, a, n, &one, c, n);
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  // CHECK: hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_DEFAULT);
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  // CHECK: hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
  cusparseHandle_t sp;
  cusparseCreate(&sp);
  // CHECK: hipsparseCreate(&sp);
  cusolverDnHandle_t dn;
  cusolverDnCreate(&dn);
  // CHECK: hipsolverDnCreate(&dn);
  cudnnHandle_t dnn;
  cudnnCreate(&dnn);
  // CHECK: miopenCreate(&dnn);
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, "", "k.cu", 0, nullptr, nullptr);
  // CHECK: hiprtcCreateProgram(&prog, "", "k.cu", 0, nullptr, nullptr);
  cuFloatComplex z = cuCaddf(make_cuFloatComplex(1, 2), make_cuFloatComplex(3, 4));
  // CHECK: hipFloatComplex z = hipCaddf(make_hipFloatComplex(1, 2), make_hipFloatComplex(3, 4));
}
__global__ void rng(curandState* s) {
  curand_init(1234, threadIdx.x, 0, &s[threadIdx.x]);
  // CHECK: hiprand_init(1234, threadIdx.x, 0, &s[threadIdx.x]);
}
