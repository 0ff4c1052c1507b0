// The gates' kernel source (see kernels.h). Every kernel walks its array with a grid-stride loop, so any
// launch shape covers any size.
#include "gates/kernels.h"

namespace gpudoctor {

const std::string& GateKernelSource() {
  static const std::string kSource = R"GDKERNEL(
typedef unsigned int gd_u32;
typedef unsigned long long gd_u64;

__device__ inline gd_u64 gd_index() { return (gd_u64)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ inline gd_u64 gd_stride() { return (gd_u64)gridDim.x * blockDim.x; }
__device__ inline gd_u32 gd_address_word(gd_u64 i) { return (gd_u32)(i ^ (i >> 32)) * 2654435761u; }
__device__ inline gd_u32 gd_expected(gd_u64 i, gd_u32 pattern, gd_u32 mode) {
  return mode == 1u ? (gd_address_word(i) ^ pattern) : pattern;
}
__device__ inline void gd_report(gd_u64* result, gd_u64 i, gd_u64 errors) {
  if (errors) {
    atomicAdd(&result[0], errors);
    atomicMin(&result[1], i);
  }
}

extern "C" __global__ void gd_triad(const float* a, const float* b, float* c, float s, gd_u64 n) {
  for (gd_u64 i = gd_index(); i < n; i += gd_stride()) {
    float v = a[i] + s * b[i];
#ifdef GD_PLANT_WRONG
    if (i == n / 2) v += 1.0f;
#endif
    c[i] = v;
  }
}

extern "C" __global__ void gd_mem_fill(gd_u32* p, gd_u64 n, gd_u32 pattern, gd_u32 mode) {
  for (gd_u64 i = gd_index(); i < n; i += gd_stride()) p[i] = gd_expected(i, pattern, mode);
}

extern "C" __global__ void gd_mem_check(const gd_u32* p, gd_u64 n, gd_u32 pattern, gd_u32 mode, gd_u64* result) {
  gd_u64 errors = 0, first = ~0ull;
  for (gd_u64 i = gd_index(); i < n; i += gd_stride()) {
    if (p[i] != gd_expected(i, pattern, mode)) {
      if (!errors) first = i;
      ++errors;
    }
  }
  gd_report(result, first, errors);
}

// Moving inversions: every word must still hold `pattern`; it is then inverted in place.
extern "C" __global__ void gd_mem_check_invert(gd_u32* p, gd_u64 n, gd_u32 pattern, gd_u64* result) {
  gd_u64 errors = 0, first = ~0ull;
  for (gd_u64 i = gd_index(); i < n; i += gd_stride()) {
    gd_u32 v = p[i];
    if (v != pattern) {
      if (!errors) first = i;
      ++errors;
    }
    p[i] = ~pattern;
  }
  gd_report(result, first, errors);
}

// Never ends while *flag stays 0: used only by the planted kernel-hang fault.
extern "C" __global__ void gd_spin(volatile gd_u32* flag) {
  while (*flag == 0u) {
  }
}
)GDKERNEL";
  return kSource;
}

}  // namespace gpudoctor
