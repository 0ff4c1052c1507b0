// The one parser of CUDA architecture names (issue 15 item 6: it existed three times, in rules,
// explain and the knowledge enrichment, with different handling of "sm_90a").
#include "knowledge/cuda_arch_name.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(CudaArchName, ParsesTheComputeCapabilityOfEachForm) {
  struct Case {
    const char* name;
    const char* cc;
    bool specific;
  };
  for (const Case& c :
       {Case{"sm_89", "8.9", false}, Case{"sm_120", "12.0", false}, Case{"sm_90a", "9.0", true},
        Case{"sm_100f", "10.0", true}, Case{"compute_75", "7.5", false}}) {
    auto got = ParseCudaArchName(c.name);
    ASSERT_TRUE(got.has_value()) << c.name;
    EXPECT_EQ(got->cc.ToString(), c.cc) << c.name;
    EXPECT_EQ(got->specific, c.specific) << c.name;
  }
}

TEST(CudaArchName, RefusesNamesWithoutANumber) {
  for (const char* name : {"sm", "sm_", "sm_x", "sm_9", "gfx1100", ""})
    EXPECT_FALSE(ParseCudaArchName(name)) << name;
}

TEST(CudaArchName, RefusesGarbage) {
  for (const char* name : {"foo_86", "kind3_86", "sm_86x", "sm_1000", "sm_-86", "sm_ 86", "sm_86af", "SM_86",
                           "sm86", "_86", "compute_", "lto_9"})
    EXPECT_FALSE(ParseCudaArchName(name)) << name;
  auto lto = ParseCudaArchName("lto_90");
  ASSERT_TRUE(lto.has_value());
  EXPECT_EQ(lto->cc.ToString(), "9.0");
}

// The one reading of a compute capability, from a name or from deviceQuery's "Major.Minor" (explain's log
// facts and its machine facts each had their own before).
TEST(CudaArchName, ComputeCapabilityOfNamesAndNumbers) {
  struct Case {
    const char* text;
    const char* cc;
  };
  for (const Case& c :
       {Case{"sm_86", "8.6"}, Case{"sm_90a", "9.0"}, Case{"sm_100f", "10.0"}, Case{"sm_120", "12.0"},
        Case{"compute_86", "8.6"}, Case{"8.6", "8.6"}, Case{"12.0", "12.0"}}) {
    auto got = ComputeCapabilityOf(c.text);
    ASSERT_TRUE(got.has_value()) << c.text;
    EXPECT_EQ(got->ToString(), c.cc) << c.text;
  }
  for (const char* text : {"", "86", "8.6.1", "gfx1100", "sm_x", "8.", "compute capability 8.6"})
    EXPECT_FALSE(ComputeCapabilityOf(text)) << text;
}

}  // namespace
}  // namespace gpudoctor
