// Strings, raw strings, character literals and comments are never translated: cudaMalloc in this comment stays.
#include <cuda_runtime.h>
#include "my_cuda_helpers.cuh"
// CHECK: #include "my_cuda_helpers.cuh"

const char* kName = "cudaMalloc";
// CHECK: const char* kName = "cudaMalloc";
const char* kRaw = R"x(cudaFree "quoted" cudaStream_t)x";
// CHECK: const char* kRaw = R"x(cudaFree "quoted" cudaStream_t)x";
const char kQuote = '"';
/* a block comment: cudaMemcpy(cudaStream_t) */ int after = 0;
// CHECK: /* a block comment: cudaMemcpy(cudaStream_t) */ int after = 0;
#define CALL(x) x /* cudaFree */
void f(void* p) { CALL(cudaFree(p)); }
// CHECK: void f(void* p) { CALL(hipFree(p)); }
const char* kMsg = "line one \
cudaFree on a continued line";
// CHECK: cudaFree on a continued line";
// CHECK-NOT: hipMalloc
