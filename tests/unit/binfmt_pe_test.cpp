// The PE/COFF section table reader on real DLLs: 8-byte names as link.exe / lld-link write them and
// long names through the COFF string table as GNU ld writes them.
#include <gtest/gtest.h>

#include "binfmt/gpu_targets.h"
#include "binfmt/section_table.h"
#include "binfmt_fixtures.h"

namespace gpudoctor {
namespace {

using testing::LoadBinaryFixture;
using testing::PutLe;

TEST(BinfmtPe, LldLinkCutsHipSectionNamesToEightBytes) {
  auto bytes = LoadBinaryFixture("hip_gfx1100_gfx906_msvc.dll");
  ASSERT_FALSE(bytes.empty());
  MemoryByteSource source(bytes, "msvc.dll");
  auto table = ReadSectionTable(source);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_EQ(table->format, BinaryFormat::kPe);
  EXPECT_EQ(table->description, "PE32+ DLL, x86-64");
  const BinarySection* hip = table->Find(".hip_fat");
  ASSERT_NE(hip, nullptr);
  EXPECT_EQ(ClassifySection(hip->name), GpuSectionKind::kHipFatbin);
  EXPECT_EQ(ClassifySection(".hipFatB"), GpuSectionKind::kHipWrapper);
  EXPECT_EQ(ClassifySection(".nv_fatb"), GpuSectionKind::kCudaFatbin);
  // The raw data is padded to the file alignment; the size is the section's own length.
  EXPECT_EQ(hip->size, 10769u);
}

TEST(BinfmtPe, GnuLdKeepsLongNamesInTheStringTable) {
  auto bytes = LoadBinaryFixture("fatbins_mingw.dll");
  MemoryByteSource source(bytes, "mingw.dll");
  auto table = ReadSectionTable(source);
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_TRUE(table->warnings.empty());
  ASSERT_NE(table->Find(".nv_fatbin"), nullptr);
  ASSERT_NE(table->Find(".hip_fatbin"), nullptr);
  EXPECT_EQ(table->Find(".nv_fatbin")->size, 7528u);
}

TEST(BinfmtPe, TargetsOfBothDlls) {
  auto msvc = LoadBinaryFixture("hip_gfx1100_gfx906_msvc.dll");
  MemoryByteSource msvc_source(msvc, "msvc.dll");
  auto t1 = ReadGpuTargets(msvc_source, ZstdDecoder::Unavailable("not needed"));
  ASSERT_TRUE(t1.ok()) << t1.error().message;
  EXPECT_EQ(t1->amd, (std::vector<std::string>{"gfx1100", "gfx906:sramecc+:xnack-"}));
  EXPECT_TRUE(t1->warnings.empty());

  auto mingw = LoadBinaryFixture("fatbins_mingw.dll");
  MemoryByteSource mingw_source(mingw, "mingw.dll");
  auto t2 = ReadGpuTargets(mingw_source, ZstdDecoder::Unavailable("not needed"));
  ASSERT_TRUE(t2.ok()) << t2.error().message;
  EXPECT_EQ(t2->cuda_cubins, (std::vector<std::string>{"sm_75", "sm_90"}));
  EXPECT_EQ(t2->cuda_ptx, (std::vector<std::string>{"compute_90"}));
  EXPECT_EQ(t2->amd, (std::vector<std::string>{"gfx1030", "gfx900", "gfx90a:xnack-"}));
  EXPECT_TRUE(t2->warnings.empty());
}

TEST(BinfmtPe, AnMsDosProgramOrABrokenHeaderIsAnError) {
  std::vector<uint8_t> dos(0x40, 0);
  dos[0] = 'M';
  dos[1] = 'Z';
  dos[0x3c] = 0x40;  // e_lfanew -> just past the header, where nothing follows
  MemoryByteSource truncated(dos, "old.exe");
  EXPECT_FALSE(ReadPeSections(truncated).ok());
  dos.resize(0x40 + 24, 0);
  MemoryByteSource no_signature(dos, "old.exe");
  auto r = ReadPeSections(no_signature);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no PE signature"), std::string::npos);
}

TEST(BinfmtPe, ALongNameOutsideTheStringTableIsKeptAsWrittenWithAWarning) {
  // MZ header, PE signature, COFF header with one section and a 4-byte string table, no optional header.
  std::vector<uint8_t> pe(0x40, 0);
  pe[0] = 'M';
  pe[1] = 'Z';
  pe[0x3c] = 0x40;
  testing::PutText(pe, std::string_view("PE\0\0", 4));
  PutLe(pe, 0x8664, 2);  // machine
  PutLe(pe, 1, 2);       // one section
  PutLe(pe, 0, 4);
  PutLe(pe, 0x40 + 24 + 40, 4);  // symbol table right after the section table
  PutLe(pe, 0, 4);               // no symbols
  PutLe(pe, 0, 2);               // no optional header
  PutLe(pe, 0x2000, 2);          // DLL
  testing::PutText(pe, std::string_view("/999\0\0\0\0", 8));
  for (int i = 0; i < 8; ++i) PutLe(pe, 0, 4);
  PutLe(pe, 4, 4);  // an empty string table
  MemoryByteSource source(pe, "tiny.dll");
  auto table = ReadPeSections(source);
  ASSERT_TRUE(table.ok()) << table.error().message;
  ASSERT_EQ(table->sections.size(), 1u);
  EXPECT_EQ(table->sections[0].name, "/999");
  EXPECT_FALSE(table->sections[0].has_file_data);
  ASSERT_EQ(table->warnings.size(), 1u);
  EXPECT_NE(table->warnings[0].find("outside the string table"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
