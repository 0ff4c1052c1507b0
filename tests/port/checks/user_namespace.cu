// Names of the user's own namespaces and the file's own declarations are never renamed.
#include <cuda_runtime.h>

namespace mylib {
int cudaMalloc(void** p, unsigned long n);  // FINDING: user_name
}  // namespace mylib

struct Buffers {
  int cudaFree;  // FINDING: user_name
};

void use(Buffers& b, void** p) {
  mylib::cudaMalloc(p, 16);
  // CHECK: mylib::cudaMalloc(p, 16);
  b.cudaFree = 1;
  // CHECK: b.cudaFree = 1;
  ::cudaDeviceSynchronize();
  // CHECK: ::hipDeviceSynchronize();
  cudaMalloc(p, 16);
  // CHECK: cudaMalloc(p, 16);
}
