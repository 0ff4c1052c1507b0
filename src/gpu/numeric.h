// The 16-bit floating-point formats GEMMs run in (IEEE binary16 and bfloat16), converted on the CPU with
// round-to-nearest-even, so references, inputs and the fake backend agree bit for bit with the GPU's view.
#pragma once

#include <cstdint>

namespace gpudoctor {

uint16_t FloatToHalfBits(float f);
float HalfBitsToFloat(uint16_t h);
uint16_t FloatToBf16Bits(float f);
float Bf16BitsToFloat(uint16_t b);

}  // namespace gpudoctor
