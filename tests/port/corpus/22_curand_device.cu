// cuRAND device API: per-thread generator states and a Monte Carlo estimate of pi.
#include <curand_kernel.h>
#include <cuda_runtime.h>

__global__ void setup(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void estimate_pi(curandState* states, unsigned int* hits, int samples) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int inside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = curand_uniform(&local), y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++inside;
  }
  states[id] = local;
  atomicAdd(hits, inside);
}
