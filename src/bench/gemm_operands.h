// The GEMM benchmark's inputs, defined by a function of (seed, index) so the GPU writes them itself
// (gd_bench_fill_operand, bench_kernels.h) and the CPU recomputes any element it needs for the sampled
// reference, bit for bit, without either side holding a copy of gigabytes of operands.
//   value(seed, i) = (k - 2^23) / 2^23 with k the top 24 bits of splitmix64's finalizer of
//                    seed + i * 0x9e3779b97f4a7c15: uniform in [-1, 1), exact in fp32,
// stored as fp32, or rounded to nearest even into fp16 / bf16.
#pragma once

#include <cstdint>

#include "gpu/backend.h"

namespace gpudoctor {

float OperandValue(uint64_t seed, uint64_t index);
// The element as the GEMM sees it after rounding to `type` (fp32 values are already exact).
float OperandAs(GemmType type, uint64_t seed, uint64_t index);
// The fill kernel's type code: 0 fp32, 1 fp16, 2 bf16.
uint32_t OperandTypeCode(GemmType type);

}  // namespace gpudoctor
