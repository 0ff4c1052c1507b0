// Templates: a kernel templated on type and block size, and a functor.
#include <cuda_runtime.h>

template <typename T>
struct Saxpy {
  T a;
  __device__ T operator()(T x, T y) const { return a * x + y; }
};

template <typename T, int Block, typename Op>
__global__ void transform(const T* x, T* y, int n, Op op) {
  int i = blockIdx.x * Block + threadIdx.x;
  if (i < n) y[i] = op(x[i], y[i]);
}

template <typename T>
cudaError_t saxpy(const T* x, T* y, int n, T a, cudaStream_t s) {
  constexpr int kBlock = 128;
  transform<T, kBlock><<<(n + kBlock - 1) / kBlock, kBlock, 0, s>>>(x, y, n, Saxpy<T>{a});
  return cudaGetLastError();
}

template cudaError_t saxpy<float>(const float*, float*, int, float, cudaStream_t);
template cudaError_t saxpy<double>(const double*, double*, int, double, cudaStream_t);
