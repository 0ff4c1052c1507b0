// The CUDA fat binary reader: the targets read from each nvcc-built fixture equal the -gencode list
// it was built with (tests/fixtures/binaries/build.sh), compressed images are listed by header.
#include <gtest/gtest.h>

#include "binfmt/cuda_fatbin.h"
#include "binfmt/gpu_targets.h"
#include "binfmt/section_table.h"
#include "binfmt_fixtures.h"

namespace gpudoctor {
namespace {

using testing::LoadBinaryFixture;
using testing::PutLe;
using Names = std::vector<std::string>;

GpuCodeTargets TargetsOf(const std::string& fixture) {
  auto bytes = LoadBinaryFixture(fixture);
  MemoryByteSource source(bytes, fixture);
  auto targets = ReadGpuTargets(source, ZstdDecoder::Unavailable("not needed for CUDA"));
  EXPECT_TRUE(targets.ok()) << targets.error().message;
  return targets.ok() ? *targets : GpuCodeTargets{};
}

CudaFatbinReport FatbinOf(const std::vector<uint8_t>& bytes) {
  MemoryByteSource file(bytes, "lib.so");
  auto table = ReadSectionTable(file);
  EXPECT_TRUE(table.ok());
  const BinarySection* s = table->Find(".nv_fatbin");
  EXPECT_NE(s, nullptr);
  WindowByteSource section(file, s->offset, s->size, ".nv_fatbin");
  auto report = ReadCudaFatbins(section);
  EXPECT_TRUE(report.ok()) << report.error().message;
  return report.ok() ? *report : CudaFatbinReport{};
}

TEST(BinfmtFatbin, CubinsAndPtxOfAnNvccLibrary) {
  // -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 -gencode
  // arch=compute_90,code=compute_90
  GpuCodeTargets t = TargetsOf("cuda_sm75_sm90_ptx90.so");
  EXPECT_EQ(t.cuda_cubins, (Names{"sm_75", "sm_90"}));
  EXPECT_EQ(t.cuda_ptx, (Names{"compute_90"}));
  EXPECT_TRUE(t.amd.empty());
  EXPECT_TRUE(t.warnings.empty());
  EXPECT_EQ(t.cuda_images, 3u);
  EXPECT_EQ(t.cuda_compressed_images, 1u);  // CUDA 13 compresses PTX by default
  EXPECT_EQ(t.gpu_sections, (Names{".nv_fatbin (7528 bytes)", ".nvFatBinSegment (24 bytes)"}));
}

TEST(BinfmtFatbin, ArchAndFamilySpecificTargetsAllCompressed) {
  // -Xfatbin -compress-all, sm_80, sm_90a, compute_100f
  GpuCodeTargets t = TargetsOf("cuda_sm80_sm90a_ptx100f_zstd.so");
  EXPECT_EQ(t.cuda_cubins, (Names{"sm_80", "sm_90a"}));
  EXPECT_EQ(t.cuda_ptx, (Names{"compute_100f"}));
  EXPECT_EQ(t.cuda_compressed_images, 3u);
  EXPECT_TRUE(t.warnings.empty());
}

TEST(BinfmtFatbin, EntryHeadersCarryCompressionAndVersions) {
  CudaFatbinReport zstd = FatbinOf(LoadBinaryFixture("cuda_sm80_sm90a_ptx100f_zstd.so"));
  ASSERT_EQ(zstd.entries.size(), 3u);
  EXPECT_EQ(zstd.containers, 1u);
  for (const auto& e : zstd.entries) {
    EXPECT_EQ(e.compression, CudaCompression::kZstd) << e.Name();
    EXPECT_GT(e.uncompressed_size, e.payload_size / 2) << e.Name();
    EXPECT_TRUE(e.flags & kCudaFlag64Bit);
  }
  CudaFatbinReport lz4 = FatbinOf(LoadBinaryFixture("cuda_sm86_ptx86_lz4.so"));
  ASSERT_EQ(lz4.entries.size(), 2u);
  for (const auto& e : lz4.entries) EXPECT_EQ(e.compression, CudaCompression::kLz4) << e.Name();
  CudaFatbinReport plain = FatbinOf(LoadBinaryFixture("cuda_sm75_sm90_ptx90.so"));
  ASSERT_EQ(plain.entries.size(), 3u);
  const CudaFatbinEntry& ptx = plain.entries[1];
  EXPECT_EQ(ptx.kind, CudaImageKind::kPtx);
  EXPECT_EQ(ptx.version_major, 9);  // PTX ISA 9.0 from CUDA 13.0
  EXPECT_EQ(ptx.version_minor, 0);
  EXPECT_EQ(plain.entries[0].compression, CudaCompression::kNone);
}

TEST(BinfmtFatbin, LzFourCompressedLibrary) {
  GpuCodeTargets t = TargetsOf("cuda_sm86_ptx86_lz4.so");
  EXPECT_EQ(t.cuda_cubins, (Names{"sm_86"}));
  EXPECT_EQ(t.cuda_ptx, (Names{"compute_86"}));
}

// A container with one hand-made entry of the given kind, arch and flags.
std::vector<uint8_t> OneEntryFatbin(uint16_t kind, uint32_t arch, uint64_t flags) {
  std::vector<uint8_t> entry;
  PutLe(entry, kind, 2);
  PutLe(entry, 0x0101, 2);
  PutLe(entry, 64, 4);
  PutLe(entry, 8, 8);  // payload
  PutLe(entry, 0, 4);
  PutLe(entry, 0, 4);
  PutLe(entry, 0x10008, 4);
  PutLe(entry, arch, 4);
  PutLe(entry, 0, 8);
  PutLe(entry, flags, 8);
  entry.resize(64 + 8, 0);
  std::vector<uint8_t> out;
  PutLe(out, kCudaFatbinMagic, 4);
  PutLe(out, 1, 2);
  PutLe(out, 16, 2);
  PutLe(out, entry.size(), 8);
  testing::Append(out, entry);
  return out;
}

TEST(BinfmtFatbin, ContainersBackToBackAndPaddedAreAllRead) {
  auto bytes = OneEntryFatbin(2, 120, 0x11);
  auto second = OneEntryFatbin(8, 100, 0x18011);
  bytes.resize(bytes.size() + 8, 0);  // zero padding to the next aligned container
  testing::Append(bytes, second);
  MemoryByteSource source(bytes, "fatbin");
  auto t = ReadGpuTargets(source, ZstdDecoder::Unavailable("-"));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->container, "CUDA fat binary");
  EXPECT_EQ(t->cuda_cubins, (Names{"sm_120"}));
  EXPECT_EQ(t->cuda_other, (Names{"lto_100"}));
  EXPECT_TRUE(t->warnings.empty());
}

TEST(BinfmtFatbin, GarbageAfterTheLastContainerIsAWarning) {
  auto bytes = OneEntryFatbin(1, 89, 0x11);
  bytes.push_back(0xff);
  MemoryByteSource source(bytes, "fatbin");
  auto report = ReadCudaFatbins(source);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->entries.size(), 1u);
  EXPECT_EQ(report->entries[0].Name(), "compute_89");
  ASSERT_EQ(report->warnings.size(), 1u);
  EXPECT_NE(report->warnings[0].find("unrecognised bytes"), std::string::npos);
}

TEST(BinfmtFatbin, AHostileEntryHeaderSizeStopsTheWalkWithAWarning) {
  auto bytes = OneEntryFatbin(2, 90, 0x11);
  bytes[16 + 4] = 0xff;  // entry header size 0xff..
  bytes[16 + 5] = 0xff;
  MemoryByteSource source(bytes, "fatbin");
  auto report = ReadCudaFatbins(source);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->entries.empty());
  EXPECT_FALSE(report->warnings.empty());
}

TEST(BinfmtFatbin, ArchNamesSortByNumber) {
  Names names = {"sm_90", "sm_100f", "sm_75", "sm_90a", "sm_90", "sm_120"};
  SortArchNames(names);
  EXPECT_EQ(names, (Names{"sm_75", "sm_90", "sm_90a", "sm_100f", "sm_120"}));
}

}  // namespace
}  // namespace gpudoctor
