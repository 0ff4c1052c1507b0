// cuFFT: a forward and inverse complex 1D transform in place.
#include <cufft.h>
#include <cuda_runtime.h>

int fft_round_trip(cufftComplex* data, int n) {
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 1;
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cufftExecC2C(plan, data, data, CUFFT_INVERSE);
  cudaDeviceSynchronize();
  cufftDestroy(plan);
  return 0;
}
