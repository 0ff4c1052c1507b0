// Damaged copies of the real fixtures: truncated at a sample of lengths and with flipped bits, every
// reader answers with an Error or a warning, never a crash or a read outside the bytes it was given.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "binfmt/gpu_targets.h"
#include "binfmt/section_table.h"
#include "binfmt_fixtures.h"

namespace gpudoctor {
namespace {

using testing::LoadBinaryFixture;

const char* const kBinaryFixtures[] = {
    "cuda_sm75_sm90_ptx90.so",      "cuda_sm80_sm90a_ptx100f_zstd.so",       "cuda_sm86_ptx86_lz4.so",
    "hip_gfx900_gfx1030_gfx90a.so", "hip_gfx1100_gfx906_msvc.dll",           "fatbins_mingw.dll",
    "hip_ccob_v2_v3_pair.bin",      "hip_gfx900_gfx1030_gfx90a_ccob_v3.bin",
};

// Reads `bytes` from a copy of exactly that size, so any read past the end is the reader's bug
// (and an AddressSanitizer report in the asan build).
Result<GpuCodeTargets> ReadCopy(const std::vector<uint8_t>& bytes, size_t length, const ZstdDecoder& zstd) {
  std::vector<uint8_t> copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
  MemoryByteSource source(copy, "damaged");
  return ReadGpuTargets(source, zstd);
}

bool SameTargets(const GpuCodeTargets& a, const GpuCodeTargets& b) {
  return a.cuda_cubins == b.cuda_cubins && a.cuda_ptx == b.cuda_ptx && a.amd == b.amd;
}

std::vector<size_t> SampleLengths(size_t size) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n < std::min<size_t>(size, 512); ++n) lengths.push_back(n);
  size_t step = std::max<size_t>(1, size / 1500);
  for (size_t n = 512; n < size; n += step) lengths.push_back(n);
  for (size_t back = 1; back <= 64 && back < size; ++back) lengths.push_back(size - back);
  return lengths;
}

TEST(BinfmtRobustness, EveryTruncationIsAnErrorOrAWarning) {
  ZstdDecoder zstd = ZstdDecoder::Load();
  for (const char* name : kBinaryFixtures) {
    auto bytes = LoadBinaryFixture(name);
    ASSERT_FALSE(bytes.empty()) << name;
    auto full = ReadCopy(bytes, bytes.size(), zstd);
    ASSERT_TRUE(full.ok()) << name;
    for (size_t length : SampleLengths(bytes.size())) {
      auto cut = ReadCopy(bytes, length, zstd);
      if (!cut.ok()) continue;
      // Cutting only padding may leave everything readable; otherwise the damage must be told.
      EXPECT_TRUE(!cut->warnings.empty() || SameTargets(*cut, *full))
          << name << " cut to " << length << " bytes read silently as incomplete";
    }
  }
}

TEST(BinfmtRobustness, FlippedBitsNeverCrash) {
  ZstdDecoder zstd = ZstdDecoder::Load();
  std::mt19937 random(20261202);  // fixed: the same damage on every run
  for (const char* name : kBinaryFixtures) {
    auto bytes = LoadBinaryFixture(name);
    ASSERT_FALSE(bytes.empty()) << name;
    std::uniform_int_distribution<size_t> position(0, bytes.size() * 8 - 1);
    for (int round = 0; round < 1500; ++round) {
      auto copy = bytes;
      for (int flips = 1 + round % 3; flips > 0; --flips) {
        size_t bit = position(random);
        copy[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      }
      auto result = ReadCopy(copy, copy.size(), zstd);
      if (result.ok()) {
        EXPECT_LT(result->amd.size() + result->cuda_cubins.size(), 1000u) << name;
      }
    }
  }
}

TEST(BinfmtRobustness, HeaderFieldsSetToExtremesAreRefused) {
  ZstdDecoder zstd = ZstdDecoder::Load();
  for (const char* name : kBinaryFixtures) {
    auto bytes = LoadBinaryFixture(name);
    // Every 8-byte field of the first 512 bytes set to all ones, one at a time.
    for (size_t at = 0; at + 8 <= std::min<size_t>(bytes.size(), 512); at += 4) {
      auto copy = bytes;
      std::fill(copy.begin() + static_cast<std::ptrdiff_t>(at),
                copy.begin() + static_cast<std::ptrdiff_t>(at + 8), 0xff);
      (void)ReadCopy(copy, copy.size(), zstd);
    }
  }
}

}  // namespace
}  // namespace gpudoctor
