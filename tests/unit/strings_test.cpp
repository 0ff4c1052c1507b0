// Tests of the strict string and number helpers used by every parser.
#include "core/strings.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(Strings, ParseU64IsStrict) {
  EXPECT_EQ(ParseU64("42"), 42u);
  EXPECT_EQ(ParseU64(" 42\n"), 42u);
  EXPECT_FALSE(ParseU64("42x"));
  EXPECT_FALSE(ParseU64(""));
  EXPECT_FALSE(ParseU64("-1"));
  EXPECT_FALSE(ParseU64("99999999999999999999999"));
}

TEST(Strings, ParseHexAcceptsPrefix) {
  EXPECT_EQ(ParseHex("0x744c"), 0x744cu);
  EXPECT_EQ(ParseHex("744C"), 0x744cu);
  EXPECT_FALSE(ParseHex("0x"));
  EXPECT_FALSE(ParseHex("zz"));
}

TEST(Strings, SplitLinesDropsCarriageReturns) {
  auto lines = SplitLines("a\r\nb\n\nc\n");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "a");
  EXPECT_EQ(lines[2], "");
  EXPECT_EQ(lines[3], "c");
}

TEST(Strings, FormatBytes) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(25769803776ull), "24.0 GiB");
}

}  // namespace
}  // namespace gpudoctor

TEST(Strings, ClipLineAndLastLinesKeepAChildsOutputShort) {
  EXPECT_EQ(gpudoctor::ClipLine("  short line \t", 20), "short line");
  EXPECT_EQ(gpudoctor::ClipLine("abcdefghij", 4), "abcd...");
  std::vector<std::string> tail = gpudoctor::LastLines("one\n\n  two  \r\nthree\n   \nfour-is-long\n", 3, 6);
  ASSERT_EQ(tail.size(), 3u);
  EXPECT_EQ(tail[0], "two");
  EXPECT_EQ(tail[1], "three");
  EXPECT_EQ(tail[2], "four-i...");
  EXPECT_TRUE(gpudoctor::LastLines("\n \n", 5, 10).empty());
}

// '*' stands for any run of characters, none included; everything else matches itself, the whole text.
TEST(Strings, WildcardMatchTakesStarsForAnyRun) {
  using gpudoctor::WildcardMatch;
  EXPECT_TRUE(WildcardMatch("libbitsandbytes_cuda124.so", "libbitsandbytes_cuda*"));
  EXPECT_TRUE(WildcardMatch("jax-cuda12-plugin", "jax-cuda*-plugin"));
  EXPECT_TRUE(WildcardMatch("jax_plugins/xla_cuda12", "jax_plugins/xla_cuda*"));
  EXPECT_TRUE(WildcardMatch("bitsandbytes", "bitsandbytes"));
  EXPECT_TRUE(WildcardMatch("", "*"));
  EXPECT_TRUE(WildcardMatch("aXbXc", "a*b*c"));
  EXPECT_TRUE(WildcardMatch("abcbc", "a*bc"));  // the first "bc" is not the end: backtrack
  EXPECT_FALSE(WildcardMatch("libbitsandbytes_cpu.so", "libbitsandbytes_cuda*"));
  EXPECT_FALSE(WildcardMatch("jax-cuda12-pjrt", "jax-cuda*-plugin"));
  EXPECT_FALSE(WildcardMatch("bitsandbytes-extra", "bitsandbytes"));
  EXPECT_FALSE(WildcardMatch("xbitsandbytes", "bitsandbytes"));
  EXPECT_FALSE(WildcardMatch("", "a*"));
}

TEST(Strings, NormalizeDistNameAsPep503) {
  EXPECT_EQ(gpudoctor::NormalizeDistName("ONNXRuntime_GPU"), "onnxruntime-gpu");
  EXPECT_EQ(gpudoctor::NormalizeDistName("flash_attn"), "flash-attn");
  EXPECT_EQ(gpudoctor::NormalizeDistName("a-_.b"), "a-b");
}
