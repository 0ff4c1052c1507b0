// How a GEMM result is judged against the CPU: inputs rounded to the GEMM's type, a reference in fp64 over
// those same rounded inputs at sampled entries of C, and the relative Frobenius error
//   err = ||C_gpu - C_ref||_F / ||C_ref||_F   (over the sampled entries)
// against a tolerance that depends on the type (docs/verify.md explains each):
//   fp32 (no TF32)   1e-6 * sqrt(k)  fp32 accumulation (unit roundoff 6e-8) grows like sqrt(k) on random
//                                    data; 16x headroom, yet tight enough that a silent TF32 substitution
//                                    (about 3e-4) fails
//   tf32             5e-3            10-bit mantissas in the products: about 3e-4 typical
//   fp16             2e-3            output rounded to fp16 (2^-11 relative): about 3e-4 typical
//   bf16             1e-2            output rounded to bf16 (2^-8 relative): about 2e-3 typical
// A NaN or infinity anywhere in the sample fails.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu/backend.h"

namespace gpudoctor {

double GemmTolerance(GemmType type, bool tf32, int k);

// Host copies of an m x k or k x n operand: the raw bytes to upload and the rounded values as floats.
struct GemmOperand {
  std::vector<uint8_t> bytes;
  std::vector<float> values;
};
// Uniform in [-1, 1), rounded to `type`, column-major.
GemmOperand RandomOperand(GemmType type, size_t count, uint64_t seed);
// Element `index` of a device result downloaded as raw bytes.
double ElementAt(GemmType type, const std::vector<uint8_t>& bytes, size_t index);

struct GemmCheck {
  double relative_error = 0;
  double tolerance = 0;
  size_t samples = 0;
  size_t non_finite = 0;
  bool passed = false;
};

// The judgement alone, over (reference, result) pairs the caller computed: the relative Frobenius error of
// the finite results against GemmTolerance(type, tf32, k); any non-finite result fails. The benchmarks
// (bench/bench_gemm.cpp) compute their pairs from operands they regenerate instead of holding them.
GemmCheck JudgeGemm(GemmType type, bool tf32, int k,
                    const std::vector<std::pair<double, double>>& ref_and_got);

// Compares `c_bytes` (m x n, column-major) with fp64 dot products of the rounded inputs at `samples`
// entries picked from `seed` (all entries when m*n is smaller).
GemmCheck CheckGemm(GemmType type, bool tf32, int m, int n, int k, const std::vector<float>& a,
                    const std::vector<float>& b, const std::vector<uint8_t>& c_bytes, size_t samples,
                    uint64_t seed);

}  // namespace gpudoctor
