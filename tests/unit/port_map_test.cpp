// The CUDA -> HIP table (data/port): it loads, holds every family the issue names, and its loader rejects
// malformed entries with file:line.
#include <gtest/gtest.h>

#include "port/port_map.h"

namespace gpudoctor {
namespace {

TEST(PortMap, EmbeddedTableHasEveryFamily) {
  auto map = EmbeddedPortMap();
  ASSERT_TRUE(map.ok()) << map.error().message;
  for (const char* name : {"runtime", "driver", "cublas", "curand", "cufft", "cusparse", "cusolver", "cudnn",
                           "nccl", "cub", "thrust", "headers", "types", "enums", "macros", "warp"}) {
    const PortFamily* f = (*map)->Family(name);
    ASSERT_NE(f, nullptr) << name;
    EXPECT_GT(f->entries, 0u) << name;
    EXPECT_EQ(f->source.rfind("https://", 0), 0u) << name;
  }
  EXPECT_GT((*map)->names.size(), 5000u);
  const PortEntry& malloc = (*map)->names.at("cudaMalloc");
  EXPECT_EQ(malloc.hip, "hipMalloc");
  EXPECT_EQ(malloc.family, "runtime");
  ASSERT_TRUE(malloc.since.has_value());
  EXPECT_EQ(malloc.since->ToString(), "1.5");
  EXPECT_EQ((*map)->headers.at("cuda_runtime.h").hip, "hip/hip_runtime.h");
  EXPECT_EQ((*map)->qualified.at("thrust::cuda").hip, "thrust::hip");
  EXPECT_FALSE((*map)->cooperative_groups_missing.empty());
  EXPECT_FALSE((*map)->build_flags.empty());
}

TEST(PortMap, MalformedEntriesAreNamedWithFileAndLine) {
  const std::string text =
      "[family]\nname = \"x\"\ntitle = \"X\"\nsource = \"https://example.org\"\nchecked = 2026-12-03\n"
      "map = [\n"
      "  { cuda = \"a\", hip = \"b\" },\n"
      "  { cuda = \"a\", hip = \"c\" },\n"
      "  { cuda = \"d\" },\n"
      "  { cuda = \"e\", hip = \"f\", since = \"six\" },\n"
      "  { cuda = \"g\", hip = \"h\", colour = \"red\" },\n"
      "  { cuda = \"i\", hip = \"j\", older = \"k\" },\n"
      "]\n";
  auto map = LoadPortMap({{"data/port/x.toml", text}});
  ASSERT_FALSE(map.ok());
  const std::string& m = map.error().message;
  EXPECT_NE(m.find("data/port/x.toml:8: 'a' is mapped twice"), std::string::npos) << m;
  EXPECT_NE(m.find("data/port/x.toml:9: 'd': give either hip"), std::string::npos) << m;
  EXPECT_NE(m.find("'since' is not a version: six"), std::string::npos) << m;
  EXPECT_NE(m.find("unknown field 'colour'"), std::string::npos) << m;
  EXPECT_NE(m.find("data/port/x.toml:12: 'older' needs 'since'"), std::string::npos) << m;
}

TEST(PortMap, FactsNeedTheirSource) {
  auto map = LoadPortMap({{"data/port/y.toml", "[family]\nname = \"y\"\ntitle = \"Y\"\nmap = []\n"}});
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().message.find("'source' is missing"), std::string::npos);
  EXPECT_NE(map.error().message.find("'checked'"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
