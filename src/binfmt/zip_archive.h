// A minimal reader of zip archives (a Python wheel is one): the central directory, zip64 included,
// and each entry's bytes, stored or deflated. Only what `targets --wheel-toml` needs: no writing,
// no encryption, no multi-disk archives. Every field read is checked against the archive's size.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "binfmt/byte_source.h"
#include "core/result.h"

namespace gpudoctor {

struct ZipEntry {
  std::string name;     // as stored: "torch/lib/libtorch_cuda.so"
  uint16_t method = 0;  // 0 stored, 8 deflate
  uint16_t flags = 0;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t size = 0;
  uint64_t local_header_offset = 0;
};

inline constexpr uint16_t kZipStored = 0;
inline constexpr uint16_t kZipDeflate = 8;
// No archive we read has more entries than this (a torch wheel has about 15 000).
inline constexpr uint64_t kMaxZipEntries = 1u << 20;

// The least budget an archive gets for all its deflated entries, whatever its directory declares (a
// reader may give a big archive more in proportion to its size, as the wheel reader does).
inline constexpr uint64_t kMaxZipInflatedTotal = 4ull << 30;

// What is left of one archive's inflating budget: each deflated entry opened takes its declared
// size, and one that does not fit is refused before any inflating.
class ZipInflateBudget {
 public:
  explicit ZipInflateBudget(uint64_t total = kMaxZipInflatedTotal) : total_(total), left_(total) {}
  Status Take(const std::string& what, uint64_t size);

 private:
  uint64_t total_;
  uint64_t left_;
};

// The entries of the central directory, in its order. An Error when the bytes are not a zip archive,
// its directory lies outside them, or two entries' data overlap (one stream under many names: a zip
// bomb's trick, never written by a zip tool).
Result<std::vector<ZipEntry>> ReadZipDirectory(const ByteSource& zip);

// The bytes of one entry: a window of `zip` when stored (nothing read yet), else inflated into memory
// (at most `max_size` bytes, and never past the size the directory declares: an entry that inflates
// further is an Error) and checked against the entry's CRC-32. A deflated entry's declared size is
// taken from `budget` when given. `zip` must outlive the result.
Result<std::unique_ptr<ByteSource>> OpenZipEntry(const ByteSource& zip, const ZipEntry& entry,
                                                 uint64_t max_size, ZipInflateBudget* budget = nullptr);

}  // namespace gpudoctor
