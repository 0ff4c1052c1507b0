// GEMM judgement against an fp64 CPU reference (see gemm_check.h for the tolerances and why).
#include "gates/gemm_check.h"

#include <cmath>
#include <cstring>
#include <random>

#include "gpu/numeric.h"

namespace gpudoctor {

double GemmTolerance(GemmType type, bool tf32, int k) {
  switch (type) {
    case GemmType::kF32:
      return tf32 ? 5e-3 : 1e-6 * std::sqrt(static_cast<double>(k > 0 ? k : 1));
    case GemmType::kF16:
      return 2e-3;
    case GemmType::kBF16:
      return 1e-2;
  }
  return 1e-2;
}

GemmOperand RandomOperand(GemmType type, size_t count, uint64_t seed) {
  GemmOperand op;
  op.values.resize(count);
  op.bytes.resize(count * ElementBytes(type));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (size_t i = 0; i < count; ++i) {
    float v = dist(rng);
    if (type == GemmType::kF32) {
      std::memcpy(op.bytes.data() + i * 4, &v, 4);
    } else {
      uint16_t h = type == GemmType::kF16 ? FloatToHalfBits(v) : FloatToBf16Bits(v);
      v = type == GemmType::kF16 ? HalfBitsToFloat(h) : Bf16BitsToFloat(h);
      std::memcpy(op.bytes.data() + i * 2, &h, 2);
    }
    op.values[i] = v;
  }
  return op;
}

double ElementAt(GemmType type, const std::vector<uint8_t>& bytes, size_t index) {
  if (type == GemmType::kF32) {
    float f;
    std::memcpy(&f, bytes.data() + index * 4, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, bytes.data() + index * 2, 2);
  return type == GemmType::kF16 ? HalfBitsToFloat(h) : Bf16BitsToFloat(h);
}

GemmCheck JudgeGemm(GemmType type, bool tf32, int k,
                    const std::vector<std::pair<double, double>>& ref_and_got) {
  GemmCheck out;
  out.tolerance = GemmTolerance(type, tf32, k);
  out.samples = ref_and_got.size();
  double diff2 = 0, ref2 = 0;
  for (const auto& [ref, got] : ref_and_got) {
    if (!std::isfinite(got)) {
      ++out.non_finite;
      continue;
    }
    diff2 += (got - ref) * (got - ref);
    ref2 += ref * ref;
  }
  out.relative_error = ref2 > 0 ? std::sqrt(diff2 / ref2) : (diff2 > 0 ? INFINITY : 0.0);
  out.passed = out.non_finite == 0 && out.relative_error <= out.tolerance;
  return out;
}

GemmCheck CheckGemm(GemmType type, bool tf32, int m, int n, int k, const std::vector<float>& a,
                    const std::vector<float>& b, const std::vector<uint8_t>& c_bytes, size_t samples,
                    uint64_t seed) {
  size_t total = static_cast<size_t>(m) * static_cast<size_t>(n);
  bool all = samples >= total;
  size_t count = all ? total : samples;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick_i(0, m - 1), pick_j(0, n - 1);
  std::vector<std::pair<double, double>> pairs;
  pairs.reserve(count);
  for (size_t s = 0; s < count; ++s) {
    int i = all ? static_cast<int>(s % static_cast<size_t>(m)) : pick_i(rng);
    int j = all ? static_cast<int>(s / static_cast<size_t>(m)) : pick_j(rng);
    double ref = 0;
    for (int p = 0; p < k; ++p)
      ref += static_cast<double>(a[static_cast<size_t>(i) + static_cast<size_t>(p) * m]) *
             static_cast<double>(b[static_cast<size_t>(p) + static_cast<size_t>(j) * k]);
    pairs.emplace_back(ref, ElementAt(type, c_bytes, static_cast<size_t>(i) + static_cast<size_t>(j) * m));
  }
  return JudgeGemm(type, tf32, k, pairs);
}

}  // namespace gpudoctor
