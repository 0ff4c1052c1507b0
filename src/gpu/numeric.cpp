// fp16 / bf16 conversions (see numeric.h). NaN stays NaN, overflow becomes infinity, subnormals are kept.
#include "gpu/numeric.h"

#include <cmath>
#include <cstring>

namespace gpudoctor {
namespace {

uint32_t Bits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float FromBits(uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace

uint16_t FloatToBf16Bits(float f) {
  uint32_t u = Bits(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);  // keep it a quiet NaN
  uint32_t rounding = 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

float Bf16BitsToFloat(uint16_t b) {
  return FromBits(static_cast<uint32_t>(b) << 16);
}

uint16_t FloatToHalfBits(float f) {
  uint32_t u = Bits(f);
  uint32_t sign = (u >> 16) & 0x8000;
  uint32_t abs = u & 0x7fffffff;
  if (abs > 0x7f800000) return static_cast<uint16_t>(sign | 0x7e00);   // NaN
  if (abs >= 0x477ff000) return static_cast<uint16_t>(sign | 0x7c00);  // rounds to >= 65520: infinity
  if (abs < 0x38800000) {                                              // below 2^-14: subnormal or zero
    // Scale into the subnormal range with the FPU, which rounds to nearest even: 2^-24 is one unit.
    float scaled = FromBits(abs) * 16777216.0f;  // * 2^24
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  uint32_t mantissa_rounding = 0xfff + ((abs >> 13) & 1);
  abs += mantissa_rounding;
  uint32_t exponent = (abs >> 23) - 127 + 15;
  return static_cast<uint16_t>(sign | (exponent << 10) | ((abs >> 13) & 0x3ff));
}

float HalfBitsToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  if (exponent == 0) {
    float v = static_cast<float>(mantissa) / 16777216.0f;  // mantissa * 2^-24
    return sign ? -v : v;
  }
  if (exponent == 31) return FromBits(sign | 0x7f800000 | (mantissa << 13));
  return FromBits(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

}  // namespace gpudoctor
