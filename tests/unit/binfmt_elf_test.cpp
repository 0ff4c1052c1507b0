// The ELF section table reader on real libraries (tests/fixtures/binaries) and on hostile headers.
#include <gtest/gtest.h>

#include <algorithm>

#include "binfmt/section_table.h"
#include "binfmt_fixtures.h"

namespace gpudoctor {
namespace {

using testing::LoadBinaryFixture;
using testing::PutLe;

std::vector<std::string> GpuSectionNames(const SectionTable& table) {
  std::vector<std::string> names;
  for (const auto& s : table.sections) {
    if (ClassifySection(s.name) != GpuSectionKind::kNone) names.push_back(s.name);
  }
  return names;
}

// A 64-byte ELF header with the given class and data bytes and no section table.
std::vector<uint8_t> ElfHeader(uint8_t elf_class, uint8_t data) {
  std::vector<uint8_t> h(64, 0);
  h[0] = 0x7f;
  h[1] = 'E';
  h[2] = 'L';
  h[3] = 'F';
  h[4] = elf_class;
  h[5] = data;
  h[6] = 1;
  return h;
}

TEST(BinfmtElf, FindsTheCudaSectionsOfAnNvccLibrary) {
  auto bytes = LoadBinaryFixture("cuda_sm75_sm90_ptx90.so");
  ASSERT_FALSE(bytes.empty());
  MemoryByteSource source(bytes, "cuda.so");
  auto table = ReadSectionTable(source);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_EQ(table->format, BinaryFormat::kElf);
  EXPECT_EQ(table->description, "ELF64 little-endian shared object, x86-64");
  EXPECT_TRUE(table->warnings.empty());
  EXPECT_EQ(GpuSectionNames(*table), (std::vector<std::string>{".nv_fatbin", ".nvFatBinSegment"}));
  const BinarySection* fatbin = table->Find(".nv_fatbin");
  ASSERT_NE(fatbin, nullptr);
  EXPECT_EQ(fatbin->size, 7528u);
  // The section starts with the fat binary magic 0xBA55ED50.
  ASSERT_LE(fatbin->offset + 4, bytes.size());
  EXPECT_EQ(bytes[fatbin->offset], 0x50);
  EXPECT_EQ(bytes[fatbin->offset + 3], 0xBA);
  EXPECT_NE(table->Find(".text"), nullptr);
  EXPECT_NE(table->Find(".dynsym"), nullptr);
}

TEST(BinfmtElf, FindsTheHipSectionsOfAHipccLibrary) {
  auto bytes = LoadBinaryFixture("hip_gfx900_gfx1030_gfx90a.so");
  MemoryByteSource source(bytes, "hip.so");
  auto table = ReadSectionTable(source);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_EQ(GpuSectionNames(*table), (std::vector<std::string>{".hip_fatbin", ".hipFatBinSegment"}));
  EXPECT_EQ(ClassifySection(".hip_fatbin"), GpuSectionKind::kHipFatbin);
  EXPECT_EQ(ClassifySection("__nv_relfatbin"), GpuSectionKind::kCudaRelocatableFatbin);
  EXPECT_FALSE(HoldsDeviceCode(ClassifySection(".hipFatBinSegment")));
}

TEST(BinfmtElf, RejectsThirtyTwoBitAndBigEndianFilesWithAReason) {
  auto elf32 = ElfHeader(1, 1);
  MemoryByteSource s32(elf32, "lib32.so");
  auto r32 = ReadElfSections(s32);
  ASSERT_FALSE(r32.ok());
  EXPECT_NE(r32.error().message.find("32-bit"), std::string::npos);

  auto be = ElfHeader(2, 2);
  MemoryByteSource sbe(be, "libbe.so");
  auto rbe = ReadElfSections(sbe);
  ASSERT_FALSE(rbe.ok());
  EXPECT_NE(rbe.error().message.find("big-endian"), std::string::npos);
}

TEST(BinfmtElf, AFileWithoutSectionTableIsAWarning) {
  auto h = ElfHeader(2, 1);
  h[16] = 3;  // ET_DYN
  MemoryByteSource source(h, "stripped.so");
  auto table = ReadElfSections(source);
  ASSERT_TRUE(table.ok());
  EXPECT_TRUE(table->sections.empty());
  ASSERT_EQ(table->warnings.size(), 1u);
  EXPECT_NE(table->warnings[0].find("no section table"), std::string::npos);
}

TEST(BinfmtElf, HostileSectionCountsAndOffsetsAreRefused) {
  auto h = ElfHeader(2, 1);
  // e_shoff far past the end, e_shentsize 64, e_shnum 0xfff0.
  h[40] = 0x00;
  h[41] = 0x10;
  h[58] = 64;
  h[60] = 0xf0;
  h[61] = 0xff;
  MemoryByteSource source(h, "hostile.so");
  auto table = ReadElfSections(source);
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.error().message.find("truncated"), std::string::npos);

  h[58] = 40;  // a section header size that is not ELF64's
  auto bad_entsize = ReadElfSections(source);
  EXPECT_FALSE(bad_entsize.ok());
}

// The nvcc fixture, its section table, and where the section header of its .nv_fatbin starts (`header`, 0
// when not found): the ELF64 section table's offset (e_shoff, at byte 40) plus 64 bytes per header, counting
// section 0, which the reader leaves out (`index` counts without it).
struct FatbinFixture {
  std::vector<uint8_t> bytes;
  SectionTable table;
  size_t index = 0;
  uint64_t header = 0;
};

FatbinFixture LoadFatbinFixture() {
  FatbinFixture f;
  f.bytes = LoadBinaryFixture("cuda_sm75_sm90_ptx90.so");
  MemoryByteSource whole(f.bytes, "cuda.so");
  auto table = ReadSectionTable(whole);
  if (!table.ok()) return f;
  f.table = *table;
  while (f.index < f.table.sections.size() && f.table.sections[f.index].name != ".nv_fatbin") ++f.index;
  if (f.index == f.table.sections.size()) return f;
  uint64_t shoff = 0;
  for (int i = 7; i >= 0; --i) shoff = shoff << 8 | f.bytes[40 + i];
  f.header = shoff + (f.index + 1) * 64;
  return f;
}

TEST(BinfmtElf, ASectionReachingPastTheEndIsClippedWithAWarning) {
  const FatbinFixture f = LoadFatbinFixture();
  ASSERT_NE(f.header, 0u);
  std::vector<uint8_t> patched = f.bytes;
  uint64_t at = f.header + 32;  // sh_size
  patched.resize(std::max<size_t>(patched.size(), at + 8));
  for (int i = 0; i < 8; ++i) patched[at + i] = 0x7f;
  MemoryByteSource hostile(patched, "hostile.so");
  auto clipped = ReadSectionTable(hostile);
  ASSERT_TRUE(clipped.ok());
  ASSERT_FALSE(clipped->warnings.empty());
  EXPECT_NE(clipped->warnings[0].find("beyond the end"), std::string::npos);
  EXPECT_EQ(clipped->Find(".nv_fatbin")->size, patched.size() - f.table.sections[f.index].offset);
}

// A section whose name offset lies past the name table (issue 35, attempt #49): read unnamed, with a warning
// that says so, since its GPU code would otherwise be missed without a word.
TEST(BinfmtElf, ANameOutsideTheNameTableIsSaid) {
  const FatbinFixture f = LoadFatbinFixture();
  const uint64_t at = f.header;  // sh_name: the header's first word
  ASSERT_NE(at, 0u);
  std::vector<uint8_t> patched = f.bytes;
  ASSERT_LE(at + 4, patched.size());
  for (int i = 0; i < 4; ++i) patched[at + i] = static_cast<uint8_t>(0x7ffffff0u >> (8 * i));
  MemoryByteSource hostile(patched, "hostile.so");
  auto unnamed = ReadSectionTable(hostile);
  ASSERT_TRUE(unnamed.ok());
  EXPECT_EQ(unnamed->Find(".nv_fatbin"), nullptr);
  ASSERT_EQ(unnamed->warnings.size(), 1u);
  EXPECT_NE(unnamed->warnings[0].find("section #" + std::to_string(f.index + 1) +
                                      "'s name lies outside the section name table"),
            std::string::npos)
      << unnamed->warnings[0];
}

TEST(BinfmtElf, NeitherElfNorPeIsAUserError) {
  std::vector<uint8_t> text = {'h', 'e', 'l', 'l', 'o'};
  MemoryByteSource source(text, "notes.txt");
  auto table = ReadSectionTable(source);
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.error().kind, ErrorKind::kUser);
}

}  // namespace
}  // namespace gpudoctor
