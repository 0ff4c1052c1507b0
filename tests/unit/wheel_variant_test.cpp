// The one reading of a pytorch.org wheel variant's name (knowledge/wheel_variant.h), shared by the
// knowledge loader, setup's driver floor and explain's {cuda_of_index:X} (issue 34).
#include "knowledge/wheel_variant.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(WheelVariant, CudaVariantsNameTheirCuda) {
  EXPECT_EQ(CudaOfWheelVariant("cu118"), Version::Parse("11.8"));
  EXPECT_EQ(CudaOfWheelVariant("cu126"), Version::Parse("12.6"));
  EXPECT_EQ(CudaOfWheelVariant("cu130"), Version::Parse("13.0"));
  EXPECT_EQ(CudaOfWheelVariant("cu92"), Version::Parse("9.2"));
  // The text is the version as the variant writes it: 13.0, not 13.
  EXPECT_EQ(CudaOfWheelVariant("cu130")->ToString(), "13.0");
}

TEST(WheelVariant, OtherNamesNameNoCuda) {
  for (const char* other : {"cpu", "rocm6.2", "", "cu", "cu1", "cu1x8", "cu12a", "cu1234", "xcu126", "CU126"})
    EXPECT_FALSE(CudaOfWheelVariant(other).has_value()) << other;
}

}  // namespace
}  // namespace gpudoctor
