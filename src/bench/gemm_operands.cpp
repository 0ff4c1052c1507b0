// The GEMM operand generator on the CPU (see gemm_operands.h); the kernel in bench_kernels.cpp is its twin.
#include "bench/gemm_operands.h"

#include "gpu/numeric.h"

namespace gpudoctor {
namespace {

uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

float OperandValue(uint64_t seed, uint64_t index) {
  uint64_t h = Mix(seed + index * 0x9e3779b97f4a7c15ull);
  int k = static_cast<int>(h >> 40) - 8388608;
  return static_cast<float>(k) * (1.0f / 8388608.0f);
}

float OperandAs(GemmType type, uint64_t seed, uint64_t index) {
  float v = OperandValue(seed, index);
  switch (type) {
    case GemmType::kF32:
      return v;
    case GemmType::kF16:
      return HalfBitsToFloat(FloatToHalfBits(v));
    case GemmType::kBF16:
      return Bf16BitsToFloat(FloatToBf16Bits(v));
  }
  return v;
}

uint32_t OperandTypeCode(GemmType type) {
  return type == GemmType::kF32 ? 0u : type == GemmType::kF16 ? 1u : 2u;
}

}  // namespace gpudoctor
