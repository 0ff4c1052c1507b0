// ZstdDecoder::DecompressPrefix: whole frames and prefixes come back byte for byte, also when the output is
// larger than the first buffer the decoder allocates and the input arrives in several pieces; a window limit
// refuses the frames over it. The frames are
// written here by hand from zstd's format (RFC 8878): raw blocks, so the expected bytes are known exactly.
#include <gtest/gtest.h>

#include "binfmt/zstd_decoder.h"
#include "binfmt_fixtures.h"

namespace gpudoctor {
namespace {

using testing::PutLe;

std::vector<uint8_t> Pattern(size_t size) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>((i * 7 + i / 251) % 256);
  return bytes;
}

// One zstd frame holding `content` in raw blocks of at most 128 KiB, its size in the header.
std::vector<uint8_t> RawFrame(const std::vector<uint8_t>& content) {
  std::vector<uint8_t> frame;
  PutLe(frame, 0xFD2FB528u, 4);  // magic
  frame.push_back(0xA0);         // single segment, 4-byte content size, no checksum
  PutLe(frame, content.size(), 4);
  constexpr size_t kMaxBlock = 128 * 1024;
  size_t at = 0;
  do {
    size_t n = std::min(kMaxBlock, content.size() - at);
    bool last = at + n == content.size();
    PutLe(frame, (n << 3) | (last ? 1u : 0u), 3);  // raw block: type 0
    frame.insert(frame.end(), content.begin() + static_cast<std::ptrdiff_t>(at),
                 content.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  } while (at < content.size());
  return frame;
}

class BinfmtZstd : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!zstd_.available()) GTEST_SKIP() << "no zstd in this build: " << zstd_.origin();
  }
  ZstdDecoder zstd_ = ZstdDecoder::Load();
};

TEST_F(BinfmtZstd, AWholeFrameLargerThanTheFirstBufferComesBackIntact) {
  const auto content = Pattern(300'000);  // over 64 KiB, the first buffer, and over one 16 KiB input piece
  const auto frame = RawFrame(content);
  MemoryByteSource source(frame, "frame");
  auto out = zstd_.DecompressPrefix(source, 4u << 20);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->size(), content.size());
  EXPECT_TRUE(*out == content);
}

TEST_F(BinfmtZstd, APrefixStopsAtTheBytesAskedFor) {
  const auto content = Pattern(300'000);
  const auto frame = RawFrame(content);
  MemoryByteSource source(frame, "frame");
  for (size_t want : {size_t{1}, size_t{65'536}, size_t{65'537}, size_t{200'000}, size_t{299'999}}) {
    auto out = zstd_.DecompressPrefix(source, want);
    ASSERT_TRUE(out.ok()) << want << ": " << out.error().message;
    ASSERT_EQ(out->size(), want);
    EXPECT_TRUE(std::equal(out->begin(), out->end(), content.begin())) << want;
  }
}

TEST_F(BinfmtZstd, ATruncatedFrameGivesWhatItHeldAndAnEmptyOneIsAnError) {
  const auto content = Pattern(300'000);
  auto frame = RawFrame(content);
  frame.resize(frame.size() - 20'000);  // the last block (37,856 bytes) loses its end
  MemoryByteSource truncated(frame, "truncated");
  auto out = zstd_.DecompressPrefix(truncated, 4u << 20);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_GE(out->size(), 2u * 128 * 1024);  // the two whole blocks at least
  EXPECT_LT(out->size(), content.size());
  EXPECT_TRUE(std::equal(out->begin(), out->end(), content.begin()));

  std::vector<uint8_t> nothing;
  MemoryByteSource empty(nothing, "empty");
  auto none = zstd_.DecompressPrefix(empty, 1024);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("empty: the zstd frame is empty or truncated"), std::string::npos);
}

TEST_F(BinfmtZstd, AWindowLimitRefusesLargerFramesAndKeepsSmallerOnes) {
  const auto content = Pattern(300'000);  // a single-segment frame: its window is its 300,000 bytes
  const auto frame = RawFrame(content);
  MemoryByteSource source(frame, "frame");
  auto refused = zstd_.WithWindowLimit(17).DecompressPrefix(source, 1024);  // 128 KiB < 300,000
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("frame: zstd says"), std::string::npos) << refused.error().message;
  auto read = zstd_.WithWindowLimit(19).DecompressPrefix(source, 1024);  // 512 KiB
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_TRUE(std::equal(read->begin(), read->end(), content.begin()));
  EXPECT_TRUE(zstd_.DecompressPrefix(source, 1024).ok());  // the original keeps zstd's own limit
}

TEST_F(BinfmtZstd, BytesThatAreNoFrameAreNamedInTheError) {
  std::vector<uint8_t> junk(100, 0x42);
  MemoryByteSource source(junk, "junk");
  auto out = zstd_.DecompressPrefix(source, 1024);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("junk: zstd says"), std::string::npos) << out.error().message;
}

}  // namespace
}  // namespace gpudoctor
