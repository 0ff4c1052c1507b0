// The clang offload bundle reader: the AMD targets read from hipcc-built fixtures equal the
// --offload-arch list they were built with; compressed (CCOB) bundles are opened with zstd where this
// build has it, and say so where it does not; rocBLAS kernel folders are listed by file name.
#include <gtest/gtest.h>

#include "binfmt/gpu_targets.h"
#include "binfmt/kernel_libraries.h"
#include "binfmt/offload_bundle.h"
#include "binfmt_fixtures.h"
#include "platform/filesystem.h"

namespace gpudoctor {
namespace {

using testing::LoadBinaryFixture;
using testing::MakeBundle;
using testing::PutLe;
using Names = std::vector<std::string>;

const Names kBuiltFor = {"gfx1030", "gfx900", "gfx90a:xnack-"};  // --offload-arch in build.sh

TEST(BinfmtBundle, TargetsOfAHipccLibraryWithTwoBundles) {
  auto bytes = LoadBinaryFixture("hip_gfx900_gfx1030_gfx90a.so");
  ASSERT_FALSE(bytes.empty());
  MemoryByteSource source(bytes, "hip.so");
  auto t = ReadGpuTargets(source, ZstdDecoder::Unavailable("not needed"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->amd, kBuiltFor);
  EXPECT_EQ(t->hip_bundles, 2u);  // one per translation unit
  EXPECT_EQ(t->hip_compressed_bundles, 0u);
  EXPECT_TRUE(t->cuda_cubins.empty());
  EXPECT_TRUE(t->warnings.empty());
}

TEST(BinfmtBundle, EntryIdsSplitIntoKindTripleAndTargetId) {
  BundleEntryId a = ParseBundleEntryId("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-");
  EXPECT_EQ(a.kind, "hipv4");
  EXPECT_EQ(a.triple, "amdgcn-amd-amdhsa");
  EXPECT_EQ(a.target_id, "gfx90a:xnack-");
  EXPECT_EQ(a.processor, "gfx90a");
  EXPECT_EQ(a.features, (Names{"xnack-"}));
  EXPECT_TRUE(a.IsAmdGpu());

  BundleEntryId b = ParseBundleEntryId("hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
  EXPECT_EQ(b.processor, "gfx942");
  EXPECT_EQ(b.features, (Names{"sramecc+", "xnack-"}));

  BundleEntryId old = ParseBundleEntryId("hip-amdgcn-amd-amdhsa-gfx906");
  EXPECT_EQ(old.kind, "hip");
  EXPECT_EQ(old.target_id, "gfx906");

  BundleEntryId host = ParseBundleEntryId("host-x86_64-unknown-linux-gnu-");
  EXPECT_TRUE(host.IsHost());
  EXPECT_EQ(host.triple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(host.target_id, "");
  EXPECT_EQ(ParseBundleEntryId("host-x86_64-unknown-linux").triple, "x86_64-unknown-linux");

  BundleEntryId nv = ParseBundleEntryId("hipv4-nvptx64-nvidia-cuda--sm_80");
  EXPECT_EQ(nv.triple, "nvptx64-nvidia-cuda");
  EXPECT_EQ(nv.target_id, "sm_80");
  EXPECT_FALSE(nv.IsAmdGpu());
}

TEST(BinfmtBundle, CompressedBundleHeaders) {
  auto v3 = LoadBinaryFixture("hip_gfx900_gfx1030_gfx90a_ccob_v3.bin");
  auto h = ParseCompressedBundleHeader(v3);
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->version, 3);
  EXPECT_EQ(h->MethodName(), "zstd");
  EXPECT_EQ(h->total_size, v3.size());
  EXPECT_EQ(h->header_size, 32u);
  EXPECT_GT(h->uncompressed_size, v3.size());

  std::vector<uint8_t> v9 = {'C', 'C', 'O', 'B', 9, 0, 1, 0};
  EXPECT_FALSE(ParseCompressedBundleHeader(v9).ok());
}

TEST(BinfmtBundle, CompressedBundlesAreReadWithZstd) {
  ZstdDecoder zstd = ZstdDecoder::Load();
  if (!zstd.available()) GTEST_SKIP() << "no zstd in this build: " << zstd.origin();
  for (const char* name : {"hip_gfx900_gfx1030_gfx90a_ccob_v3.bin", "hip_ccob_v2_v3_pair.bin"}) {
    auto bytes = LoadBinaryFixture(name);
    MemoryByteSource source(bytes, name);
    auto t = ReadGpuTargets(source, zstd);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->amd, kBuiltFor) << name;
    EXPECT_EQ(t->hip_unread_bundles, 0u) << name;
    EXPECT_TRUE(t->warnings.empty()) << name << ": " << (t->warnings.empty() ? "" : t->warnings[0]);
  }
  auto pair = LoadBinaryFixture("hip_ccob_v2_v3_pair.bin");
  MemoryByteSource pair_source(pair, "pair");
  auto report = ReadOffloadBundles(pair_source, zstd);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->bundles.size(), 2u);
  EXPECT_EQ(report->bundles[0].compressed->version, 2);
  EXPECT_EQ(report->bundles[1].compressed->version, 3);
  EXPECT_EQ(report->bundles[1].offset, 4096u);
  EXPECT_EQ(report->bundles[1].entries.size(), 4u);  // host + three GPUs
}

TEST(BinfmtBundle, VersionOneHasNoSizeAndIsStillFound) {
  ZstdDecoder zstd = ZstdDecoder::Load();
  if (!zstd.available()) GTEST_SKIP() << "no zstd in this build: " << zstd.origin();
  auto v3 = LoadBinaryFixture("hip_gfx900_gfx1030_gfx90a_ccob_v3.bin");
  std::vector<uint8_t> v1;
  testing::PutText(v1, "CCOB");
  PutLe(v1, 1, 2);
  PutLe(v1, 1, 2);
  PutLe(v1, 20000, 4);  // uncompressed size
  PutLe(v1, 0, 8);      // hash
  testing::Append(v1, v3, 32);
  MemoryByteSource source(v1, "v1");
  auto t = ReadGpuTargets(source, zstd);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->amd, kBuiltFor);
}

TEST(BinfmtBundle, WithoutZstdCompressedBundlesAreReportedUnread) {
  auto bytes = LoadBinaryFixture("hip_ccob_v2_v3_pair.bin");
  MemoryByteSource source(bytes, "pair");
  auto t = ReadGpuTargets(source, ZstdDecoder::Unavailable("this build has no zstd"));
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->amd.empty());
  EXPECT_EQ(t->hip_bundles, 2u);  // both found through their total sizes
  EXPECT_EQ(t->hip_unread_bundles, 2u);
  ASSERT_FALSE(t->warnings.empty());
  EXPECT_NE(t->warnings[0].find("targets not readable without zstd (this build has no zstd)"),
            std::string::npos);
}

TEST(BinfmtBundle, ZlibBundlesAreNamedButNotOpened) {
  auto bytes = LoadBinaryFixture("hip_gfx900_gfx1030_gfx90a_ccob_v3.bin");
  bytes[6] = 0;  // method: zlib
  MemoryByteSource source(bytes, "zlib");
  auto t = ReadGpuTargets(source, ZstdDecoder::Load());
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->amd.empty());
  ASSERT_FALSE(t->warnings.empty());
  EXPECT_NE(t->warnings[0].find("zlib-compressed bundle"), std::string::npos);
}

TEST(BinfmtBundle, NonAmdEntriesAreWarnedAboutAndPaddingIsSkipped) {
  auto bytes = MakeBundle({"host-x86_64-unknown-linux-gnu-", "hipv4-amdgcn-amd-amdhsa--gfx1100"});
  bytes.resize(4096, 0);
  auto second = MakeBundle({"hipv4-nvptx64-nvidia-cuda--sm_80", "hipv4-amdgcn-amd-amdhsa--gfx1201"});
  testing::Append(bytes, second);
  MemoryByteSource source(bytes, "bundles");
  auto t = ReadGpuTargets(source, ZstdDecoder::Unavailable("-"));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->amd, (Names{"gfx1100", "gfx1201"}));
  ASSERT_EQ(t->warnings.size(), 1u);
  EXPECT_NE(t->warnings[0].find("hipv4-nvptx64-nvidia-cuda--sm_80"), std::string::npos);
}

TEST(BinfmtBundle, AnEntryPastTheEndOfItsBundleIsAWarning) {
  auto bytes = MakeBundle({"hipv4-amdgcn-amd-amdhsa--gfx1030"});
  bytes[40] = 0xff;  // the entry's size
  MemoryByteSource source(bytes, "bundle");
  auto report = ReadOffloadBundles(source, ZstdDecoder::Unavailable("-"));
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->bundles.size(), 1u);
  ASSERT_FALSE(report->warnings.empty());
  EXPECT_NE(report->warnings[0].find("outside its bundle"), std::string::npos);
}

TEST(BinfmtBundle, KernelLibraryFolderThroughASysroot) {
  auto fs = MakeRootedFileSystem(testing::BinaryFixturePath("kernel_sysroot"));
  auto listed = ListKernelLibraryTargets(*fs, "/opt/rocm/lib/rocblas/library");
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  EXPECT_EQ(listed->gfx, (Names{"gfx1030", "gfx1100", "gfx906", "gfx90a", "gfx942"}));
  EXPECT_EQ(listed->files_matched, 6u);
  EXPECT_FALSE(ListKernelLibraryTargets(*fs, "/opt/rocm/lib/hipblaslt/library").ok());

  EXPECT_EQ(KernelFileTarget("TensileLibrary_lazy_gfx90a.dat"), "gfx90a");
  EXPECT_EQ(KernelFileTarget("Kernels.so-000-gfx90a-xnack+.hsaco"), "gfx90a");
  EXPECT_EQ(KernelFileTarget("TensileLibrary_lazy_gfx.dat"), "");
  EXPECT_EQ(KernelFileTarget("TensileLibrary_gfx1030.txt"), "");
}

}  // namespace
}  // namespace gpudoctor
