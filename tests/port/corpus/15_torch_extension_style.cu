// A PyTorch-extension-style kernel: a launcher called from a binding, on the caller's stream, with checks.
// (torch/extension.h is left out so the corpus builds without PyTorch; the shape is the same.)
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdexcept>
#include <string>

#define C10_CUDA_CHECK(expr)                                                   \
  do {                                                                         \
    cudaError_t e_ = (expr);                                                   \
    if (e_ != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e_));   \
  } while (0)

template <typename scalar_t>
__global__ void gelu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    float v = static_cast<float>(x[i]);
    y[i] = static_cast<scalar_t>(0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
  }
}

void gelu_forward(const float* x, float* y, int64_t n, cudaStream_t stream) {
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads < 65535 ? (n + threads - 1) / threads : 65535);
  gelu_kernel<float><<<blocks, threads, 0, stream>>>(x, y, n);
  C10_CUDA_CHECK(cudaGetLastError());
}

__global__ void half_scale(__half* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = __hmul(x[i], __float2half(2.0f));
}
