// cuRAND host API: fill a device buffer with uniform and normal numbers.
#include <curand.h>
#include <cuda_runtime.h>

int fill_random(float* dev, size_t n, unsigned long long seed) {
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 1;
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  curandGenerateUniform(gen, dev, n);
  curandGenerateNormal(gen, dev, n, 0.0f, 1.0f);
  curandDestroyGenerator(gen);
  return 0;
}
