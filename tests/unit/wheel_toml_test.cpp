// `targets --wheel-toml` (issue 13 item 6): the zip reader (stored and deflated entries, zip64, damage),
// and the [[torch_wheel]] entry read from small wheels built here around the real fat binaries of
// tests/fixtures/binaries, from the wheel and from an unpacked folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "binfmt/inflate.h"
#include "binfmt/zip_archive.h"
#include "binfmt_fixtures.h"
#include "probe/common/wheel_code.h"
#include "probe/common/wheel_toml.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::Append;
using testing::LoadBinaryFixture;
using testing::PutLe;
using testing::PutText;

std::vector<uint8_t> Bytes(std::string_view text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

// "__version__ = '2.7.1+cu128'\ncuda: Optional[str] = '12.8'\nhip = None\n" deflated by zlib (level 9,
// raw): fixed Huffman codes and back-references, so inflating it exercises more than stored blocks.
const std::vector<uint8_t> kVersionDeflated = {
    0x8b, 0x8f, 0x2f, 0x4b, 0x2d, 0x2a, 0xce, 0xcc, 0xcf, 0x8b, 0x8f, 0x57, 0xb0, 0x55, 0x50, 0x37,
    0xd2, 0x33, 0xd7, 0x33, 0xd4, 0x4e, 0x2e, 0x35, 0x34, 0xb2, 0x50, 0xe7, 0x4a, 0x2e, 0x4d, 0x49,
    0xb4, 0x52, 0xf0, 0x2f, 0x28, 0x01, 0x4a, 0x27, 0xe6, 0x44, 0x17, 0x97, 0x14, 0xc5, 0x82, 0xd4,
    0x18, 0x1a, 0xe9, 0x01, 0x25, 0x33, 0x32, 0x0b, 0x80, 0x1c, 0xbf, 0xfc, 0xbc, 0x54, 0x2e, 0x00};
const std::string kVersionText = "__version__ = '2.7.1+cu128'\ncuda: Optional[str] = '12.8'\nhip = None\n";

// Deflate's own "stored" blocks (BTYPE 00): a valid deflate stream of any bytes, written without zlib.
std::vector<uint8_t> DeflateStoredBlocks(const std::vector<uint8_t>& data) {
  std::vector<uint8_t> out;
  size_t at = 0;
  do {
    const size_t n = std::min<size_t>(data.size() - at, 0xffff);
    const bool last = at + n == data.size();
    PutLe(out, last ? 1 : 0, 1);
    PutLe(out, n, 2);
    PutLe(out, 0xffff ^ n, 2);
    Append(out, std::vector<uint8_t>(data.begin() + static_cast<long>(at),
                                     data.begin() + static_cast<long>(at + n)));
    at += n;
  } while (at < data.size());
  return out;
}

struct Member {
  std::string name;
  std::vector<uint8_t> data;  // uncompressed
  uint16_t method = kZipStored;
  std::vector<uint8_t> payload;  // what is stored in the archive (data when stored)
};

Member Stored(std::string name, std::vector<uint8_t> data) {
  Member m{std::move(name), data, kZipStored, data};
  return m;
}

Member Deflated(std::string name, std::vector<uint8_t> data) {
  Member m{std::move(name), data, kZipDeflate, DeflateStoredBlocks(data)};
  return m;
}

// A zip as APPNOTE.TXT lays it out; `zip64` writes the zip64 end records and saturates the 32-bit ones.
std::vector<uint8_t> MakeZip(const std::vector<Member>& members, bool zip64 = false) {
  std::vector<uint8_t> out, central;
  for (const Member& m : members) {
    const uint64_t offset = out.size();
    const uint32_t crc = Crc32(m.data);
    PutLe(out, 0x04034b50, 4);
    PutLe(out, 20, 2);
    PutLe(out, 0, 2);
    PutLe(out, m.method, 2);
    PutLe(out, 0, 4);  // time, date
    PutLe(out, crc, 4);
    PutLe(out, m.payload.size(), 4);
    PutLe(out, m.data.size(), 4);
    PutLe(out, m.name.size(), 2);
    PutLe(out, 0, 2);
    PutText(out, m.name);
    Append(out, m.payload);
    PutLe(central, 0x02014b50, 4);
    PutLe(central, 20, 2);
    PutLe(central, 20, 2);
    PutLe(central, 0, 2);
    PutLe(central, m.method, 2);
    PutLe(central, 0, 4);
    PutLe(central, crc, 4);
    PutLe(central, zip64 ? 0xffffffff : m.payload.size(), 4);
    PutLe(central, zip64 ? 0xffffffff : m.data.size(), 4);
    PutLe(central, m.name.size(), 2);
    PutLe(central, zip64 ? 28 : 0, 2);
    PutLe(central, 0, 2);
    PutLe(central, 0, 2);
    PutLe(central, 0, 2);
    PutLe(central, 0, 4);
    PutLe(central, zip64 ? 0xffffffff : offset, 4);
    PutText(central, m.name);
    if (zip64) {
      PutLe(central, 1, 2);
      PutLe(central, 24, 2);
      PutLe(central, m.data.size(), 8);
      PutLe(central, m.payload.size(), 8);
      PutLe(central, offset, 8);
    }
  }
  const uint64_t central_at = out.size();
  Append(out, central);
  if (zip64) {
    const uint64_t end64_at = out.size();
    PutLe(out, 0x06064b50, 4);
    PutLe(out, 44, 8);
    PutLe(out, 45, 2);
    PutLe(out, 45, 2);
    PutLe(out, 0, 4);
    PutLe(out, 0, 4);
    PutLe(out, members.size(), 8);
    PutLe(out, members.size(), 8);
    PutLe(out, central.size(), 8);
    PutLe(out, central_at, 8);
    PutLe(out, 0x07064b50, 4);
    PutLe(out, 0, 4);
    PutLe(out, end64_at, 8);
    PutLe(out, 1, 4);
  }
  PutLe(out, 0x06054b50, 4);
  PutLe(out, 0, 2);
  PutLe(out, 0, 2);
  PutLe(out, zip64 ? 0xffff : members.size(), 2);
  PutLe(out, zip64 ? 0xffff : members.size(), 2);
  PutLe(out, zip64 ? 0xffffffff : central.size(), 4);
  PutLe(out, zip64 ? 0xffffffff : central_at, 4);
  PutLe(out, 0, 2);
  return out;
}

std::string ReadAll(const ByteSource& s) {
  auto bytes = s.Read(0, s.Size());
  return bytes.ok() ? std::string(bytes->begin(), bytes->end()) : "<" + bytes.error().message + ">";
}

TEST(ZipArchive, ReadsStoredAndDeflatedEntries) {
  if (!InflateAvailable()) GTEST_SKIP() << "this build has no zlib (mingw-w64): deflated entries are refused";
  Member fixed{"torch/version.py", Bytes(kVersionText), kZipDeflate, kVersionDeflated};
  std::vector<uint8_t> big(200000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  for (bool zip64 : {false, true}) {
    auto zip = MakeZip({Stored("a.txt", Bytes("stored text")), fixed, Deflated("big.bin", big)}, zip64);
    MemoryByteSource source(zip, "test.whl");
    auto entries = ReadZipDirectory(source);
    ASSERT_TRUE(entries.ok()) << entries.error().message;
    ASSERT_EQ(entries->size(), 3u);
    EXPECT_EQ((*entries)[1].name, "torch/version.py");
    EXPECT_EQ((*entries)[2].size, big.size()) << "zip64 " << zip64;
    auto a = OpenZipEntry(source, (*entries)[0], 1 << 20);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(ReadAll(**a), "stored text");
    auto v = OpenZipEntry(source, (*entries)[1], 1 << 20);
    ASSERT_TRUE(v.ok()) << v.error().message;
    EXPECT_EQ(ReadAll(**v), kVersionText);
    auto b = OpenZipEntry(source, (*entries)[2], 1 << 20);
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(ReadAll(**b), std::string(big.begin(), big.end())) << "three stored deflate blocks";
    EXPECT_FALSE(OpenZipEntry(source, (*entries)[2], 1000).ok()) << "larger than allowed";
  }
}

TEST(ZipArchive, DamageIsAnErrorNeverACrash) {
  EXPECT_FALSE(ReadZipDirectory(MemoryByteSource(Bytes("not a zip at all, just text"))).ok());
  auto zip = MakeZip({Deflated("x.bin", Bytes("0123456789"))});
  // A wrong CRC: the bytes are not what the directory promised.
  std::vector<uint8_t> bad_crc = zip;
  const size_t central = zip.size() - 22 - (46 + 5);
  bad_crc[central + 16] ^= 0xff;
  MemoryByteSource crc_source(bad_crc, "crc.whl");
  auto entries = ReadZipDirectory(crc_source);
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  if (InflateAvailable()) {
    auto e = OpenZipEntry(crc_source, entries->front(), 1 << 20);
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("CRC-32"), std::string::npos) << e.error().message;
  }
  // Every truncation of a valid archive is refused or read within bounds.
  for (size_t n = 0; n < zip.size(); ++n) {
    MemoryByteSource cut(std::span<const uint8_t>(zip.data(), n), "cut.whl");
    auto d = ReadZipDirectory(cut);
    if (d.ok())
      for (const auto& x : *d) (void)OpenZipEntry(cut, x, 1 << 20);
  }
}

// Counts the bytes read from an archive, to tell how much of a stream was inflated.
class CountingByteSource final : public ByteSource {
 public:
  explicit CountingByteSource(const ByteSource& inner) : inner_(inner) {}
  uint64_t Size() const override { return inner_.Size(); }
  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override {
    read_ += out.size();
    return inner_.ReadAt(offset, out);
  }
  std::string Name() const override { return inner_.Name(); }
  uint64_t read() const { return read_; }

 private:
  const ByteSource& inner_;
  mutable uint64_t read_ = 0;
};

// Issue 35 #55: a zip bomb whose directory declares far fewer bytes than the stream holds.
TEST(ZipArchive, EntryInflatingPastItsDeclaredSizeStopsThere) {
  if (!InflateAvailable()) GTEST_SKIP() << "this build has no zlib (mingw-w64): deflated entries are refused";
  const std::vector<uint8_t> declared(1000, 0);
  const std::vector<uint8_t> held(8u << 20, 0);  // 8 MiB behind a directory that says 1000 bytes
  Member bomb{"torch/lib/libtorch_cuda.so", declared, kZipDeflate, DeflateStoredBlocks(held)};
  auto zip = MakeZip({bomb});
  MemoryByteSource source(zip, "bomb.whl");
  auto entries = ReadZipDirectory(source);
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  CountingByteSource counted(source);
  auto e = OpenZipEntry(counted, entries->front(), 8ull << 30);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("entry torch/lib/libtorch_cuda.so is larger than its directory says"),
            std::string::npos)
      << e.error().message;
  EXPECT_LT(counted.read(), held.size() / 4) << "inflating went on past the declared size";
}

// An entry inflating to exactly its declared size, an empty one included, still reads.
TEST(ZipArchive, EntryOfExactlyItsDeclaredSizeReads) {
  if (!InflateAvailable()) GTEST_SKIP() << "this build has no zlib (mingw-w64): deflated entries are refused";
  auto zip = MakeZip({Deflated("empty.bin", {}), Deflated("full.bin", std::vector<uint8_t>(70000, 'x'))});
  MemoryByteSource source(zip, "exact.whl");
  auto entries = ReadZipDirectory(source);
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  for (const ZipEntry& entry : *entries) {
    auto e = OpenZipEntry(source, entry, entry.size);
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ((*e)->Size(), entry.size);
  }
}

// Issue 35 #56: many directory entries pointing at one stream.
TEST(ZipArchive, EntriesSharingTheirDataAreRefused) {
  auto zip = MakeZip({Stored("torch/lib/libtorch_a.so", Bytes("library bytes"))});
  // A second central-directory record, a copy of the first under another name, at the same offset.
  const size_t central = zip.size() - 22 - (46 + 23);
  std::vector<uint8_t> record(zip.begin() + static_cast<long>(central), zip.end() - 22);
  record[46 + 19] = 'b';  // torch/lib/libtorch_b.so
  std::vector<uint8_t> twice(zip.begin(), zip.end() - 22);
  Append(twice, record);
  std::vector<uint8_t> end(zip.end() - 22, zip.end());
  end[8] = end[10] = 2;  // entries on this disk, entries in all
  end[12] += static_cast<uint8_t>(record.size());
  Append(twice, end);
  auto entries = ReadZipDirectory(MemoryByteSource(twice, "shared.whl"));
  ASSERT_FALSE(entries.ok()) << "read " << entries->size() << " entries";
  EXPECT_NE(entries.error().message.find("share their data"), std::string::npos) << entries.error().message;
}

// Every archive inflates at most its budget in all, however many entries it holds.
TEST(ZipArchive, ArchiveInflatesWithinItsBudget) {
  if (!InflateAvailable()) GTEST_SKIP() << "this build has no zlib (mingw-w64): deflated entries are refused";
  auto zip = MakeZip(
      {Deflated("a.bin", std::vector<uint8_t>(600, 'a')), Deflated("b.bin", std::vector<uint8_t>(600, 'b'))});
  MemoryByteSource source(zip, "two.whl");
  auto entries = ReadZipDirectory(source);
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  ZipInflateBudget budget(1000);
  EXPECT_TRUE(OpenZipEntry(source, (*entries)[0], 1 << 20, &budget).ok());
  auto second = OpenZipEntry(source, (*entries)[1], 1 << 20, &budget);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find("one archive may inflate"), std::string::npos)
      << second.error().message;
}

// A wheel holding torch's version.py, a library with GPU code, and a bundled library to be ignored.
std::vector<uint8_t> MakeWheel(const std::string& version_py, const std::string& library_name,
                               const std::string& fixture) {
  return MakeZip({
      Stored("torch/version.py", Bytes(version_py)),
      Stored("torch-2.7.1.dist-info/METADATA", Bytes("Name: torch\n")),
      Deflated("torch/lib/" + library_name, LoadBinaryFixture(fixture)),
      Stored("torch/lib/libcublasLt.so.12", LoadBinaryFixture("cuda_sm86_ptx86_lz4.so")),
  });
}

fs::path WriteTemp(const std::string& name, const std::vector<uint8_t>& bytes) {
  fs::path p = testing::ProcessTempPath("wheel_toml_" + name);
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return p;
}

TEST(WheelToml, CudaWheelGivesItsArchList) {
  if (!InflateAvailable()) GTEST_SKIP() << "deflated library entry needs zlib";
  auto whl = WriteTemp("cu128.whl", MakeWheel("__version__ = '2.7.1+cu128'\ncuda = '12.8'\nhip = None\n",
                                              "libtorch_cuda.so", "cuda_sm75_sm90_ptx90.so"));
  auto code = ReadWheelCode(whl.string());
  ASSERT_TRUE(code.ok()) << code.error().message;
  ASSERT_EQ(code->libraries.size(), 1u) << "libcublasLt is a bundled library, not torch's";
  auto text = WheelTomlText(*code, "2026-12-03");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_NE(text->find("[[torch_wheel]]\ntorch = \"2.7\"\nvariant = \"cu128\"\ncuda = \"12.8\"\n"
                       "cuda_archs = [\"7.5\", \"9.0+PTX\"]\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("source = [\"https://download.pytorch.org/whl/cu128\"]\nchecked = 2026-12-03\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("torch/lib/libtorch_cuda.so"), std::string::npos) << *text;
  fs::remove(whl);
}

TEST(WheelToml, RocmWheelAndAnUnpackedFolderGiveTheGfxList) {
  const std::string version_py = "__version__ = '2.5.1+rocm6.2'\ncuda = None\nhip = '6.2.41133-dd7f95766'\n";
  fs::path dir = testing::ProcessTempPath("wheel_toml_folder");
  fs::remove_all(dir);
  fs::create_directories(dir / "torch" / "lib");
  {
    std::ofstream(dir / "torch" / "version.py") << version_py;
    auto lib = LoadBinaryFixture("hip_gfx900_gfx1030_gfx90a.so");
    std::ofstream out(dir / "torch" / "lib" / "libtorch_hip.so", std::ios::binary);
    out.write(reinterpret_cast<const char*>(lib.data()), static_cast<std::streamsize>(lib.size()));
  }
  auto code = ReadWheelCode(dir.string());
  ASSERT_TRUE(code.ok()) << code.error().message;
  auto text = WheelTomlText(*code, "2026-12-03");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_NE(
      text->find("variant = \"rocm6.2\"\nrocm = \"6.2\"\ngfx = [\"gfx900\", \"gfx90a\", \"gfx1030\"]\n"),
      std::string::npos)
      << *text;
  // The same install given as its torch folder reads the same.
  auto again = ReadWheelCode((dir / "torch").string());
  ASSERT_TRUE(again.ok());
  const std::string other = WheelTomlText(*again, "2026-12-03").value();
  EXPECT_EQ(other.substr(other.find('\n')), text->substr(text->find('\n'))) << "all but the comment line";
  fs::remove_all(dir);
}

TEST(WheelToml, NoVersionOrNoGpuCodeIsAClearError) {
  auto cpu =
      WriteTemp("cpu.whl", MakeZip({Stored("torch/version.py", Bytes("__version__ = '2.7.1+cpu'\n"))}));
  auto code = ReadWheelCode(cpu.string());
  ASSERT_TRUE(code.ok());
  auto text = WheelTomlText(*code, "2026-12-03");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().message.find("no GPU code"), std::string::npos) << text.error().message;
  auto other = WriteTemp("other.whl", MakeZip({Stored("numpy/__init__.py", Bytes(""))}));
  auto none = ReadWheelCode(other.string());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(WheelTomlText(*none, "2026-12-03").ok());
  fs::remove(cpu);
  fs::remove(other);
}

// Issue 35 #55: a library that could not be read is named as the reason, not hidden behind "no GPU code".
TEST(WheelToml, UnreadableLibraryIsTheReasonGiven) {
  if (!InflateAvailable()) GTEST_SKIP() << "this build has no zlib (mingw-w64): deflated entries are refused";
  Member bomb{"torch/lib/libtorch_cuda.so", std::vector<uint8_t>(1000, 0), kZipDeflate,
              DeflateStoredBlocks(std::vector<uint8_t>(1u << 20, 0))};
  auto path = WriteTemp("bomb.whl", MakeZip({Stored("torch/version.py", Bytes(kVersionText)), bomb}));
  auto code = ReadWheelCode(path.string());
  ASSERT_TRUE(code.ok()) << code.error().message;
  auto text = WheelTomlText(*code, "2026-12-03");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().message.find("is larger than its directory says"), std::string::npos)
      << text.error().message;
  fs::remove(path);
}

}  // namespace
}  // namespace gpudoctor
