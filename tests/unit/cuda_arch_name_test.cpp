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

}  // namespace
}  // namespace gpudoctor
