// Issue 32's hazards and older-HIP translations where the check files (tests/port/checks) cannot say enough:
// the lines a __CUDA_ARCH__ guard hides named in its message, and what --hip-version 5.2 writes or refuses.
#include <gtest/gtest.h>

#include <string>

#include "port/port_map.h"
#include "port/translator.h"

namespace gpudoctor {
namespace {

Translation Port(const std::string& cuda, const char* hip_version = nullptr) {
  auto map = EmbeddedPortMap();
  EXPECT_TRUE(map.ok());
  PortOptions options;
  if (hip_version != nullptr) options.hip_version = Version::Parse(hip_version);
  return TranslateCuda(cuda, **map, options).value();
}

const PortFinding* FindingOn(const Translation& t, PortFindingKind kind, uint32_t line) {
  for (const PortFinding& f : t.report.findings)
    if (f.kind == kind && f.line == line) return &f;
  return nullptr;
}

TEST(PortCudaArch, MessageNamesTheLinesTheGuardHides) {
  const std::string cuda =
      "__device__ float f(float x) {\n"  // 1
      "#if __CUDA_ARCH__ >= 800\n"       // 2
      "  x *= 2.0f;\n"                   // 3
      "  x += 1.0f;\n"                   // 4
      "#else\n"                          // 5
      "  x = 0.0f;\n"                    // 6
      "#endif\n"                         // 7
      "#ifndef __CUDA_ARCH__\n"          // 8
      "  x = host_only(x);\n"            // 9
      "#endif\n"                         // 10
      "#if !defined(__CUDA_ARCH__)\n"    // 11
      "#ifdef NESTED\n"                  // 12
      "  x = 3.0f;\n"                    // 13
      "#endif\n"                         // 14
      "#endif\n"                         // 15
      "  return x * __CUDA_ARCH__;\n"    // 16
      "}\n";
  Translation t = Port(cuda);
  const PortFinding* ge = FindingOn(t, PortFindingKind::kCudaArch, 2);
  ASSERT_NE(ge, nullptr);
  EXPECT_NE(
      ge->message.find("lines 3-4, the device code under this #if, never reach the GPU compile, and the "
                       "#else branch from line 5 is compiled for the GPU instead"),
      std::string::npos)
      << ge->message;
  const PortFinding* host = FindingOn(t, PortFindingKind::kCudaArch, 8);
  ASSERT_NE(host, nullptr);
  EXPECT_NE(host->message.find("line 9, meant for the host pass only, go to the GPU compile too"),
            std::string::npos)
      << host->message;
  const PortFinding* nested = FindingOn(t, PortFindingKind::kCudaArch, 11);
  ASSERT_NE(nested, nullptr);
  EXPECT_NE(nested->message.find("lines 12-14, meant for the host pass only"), std::string::npos)
      << nested->message;
  const PortFinding* use = FindingOn(t, PortFindingKind::kCudaArch, 16);
  ASSERT_NE(use, nullptr);
  EXPECT_NE(use->message.find("in the GPU pass too: a test of it is false there"), std::string::npos)
      << use->message;
}

TEST(PortOlderHip, MetaGroupMembersBecomeTheirExpressionOnlyForAPlainTile) {
  const std::string cuda =
      "#include <cooperative_groups.h>\n"
      "namespace cg = cooperative_groups;\n"
      "__global__ void k(int* out, cg::thread_block_tile<8>* p) {\n"
      "  auto t = cg::tiled_partition<8>(cg::this_thread_block());\n"
      "  out[t.meta_group_rank()] = p->meta_group_size();\n"
      "}\n";
  Translation old = Port(cuda, "5.2");
  EXPECT_NE(old.text.find("out[((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / "
                          "t.size())] = p->meta_group_size();"),
            std::string::npos)
      << old.text;
  const PortFinding* rank = FindingOn(old, PortFindingKind::kOlderHip, 5);
  ASSERT_NE(rank, nullptr);
  EXPECT_EQ(rank->severity, Severity::kWarning);
  const PortFinding* left = FindingOn(old, PortFindingKind::kCooperativeGroups, 5);
  ASSERT_NE(left, nullptr);
  EXPECT_EQ(left->name, "meta_group_size");
  EXPECT_EQ(left->severity, Severity::kError);

  Translation now = Port(cuda, "6.2");
  EXPECT_NE(now.text.find("out[t.meta_group_rank()] = p->meta_group_size();"), std::string::npos) << now.text;
  EXPECT_EQ(FindingOn(now, PortFindingKind::kOlderHip, 5), nullptr);
}

TEST(PortOlderHip, StructFieldIsRenamedOnlyForTheReleaseThatLacksIt) {
  const std::string cuda = "size_t f(const cudaDeviceProp& p) {\n  return p.sharedMemPerBlockOptin;\n}\n";
  EXPECT_NE(Port(cuda, "5.2").text.find("return p.sharedMemPerBlock;"), std::string::npos);
  Translation none = Port(cuda);
  EXPECT_NE(none.text.find("return p.sharedMemPerBlockOptin;"), std::string::npos);
  const PortFinding* warn = FindingOn(none, PortFindingKind::kNewerHip, 2);
  ASSERT_NE(warn, nullptr);
  EXPECT_EQ(warn->severity, Severity::kWarning);
  Translation six = Port(cuda, "6.0");
  EXPECT_NE(six.text.find("return p.sharedMemPerBlockOptin;"), std::string::npos);
  EXPECT_TRUE(six.report.findings.empty());
  // A field of the user's own struct with another name is never touched.
  EXPECT_NE(Port("int g(S s) { return s.sharedMemPerBlock; }\n", "5.2").text.find("s.sharedMemPerBlock;"),
            std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
