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

// The entries of the central directory, in its order. An Error when the bytes are not a zip archive
// or its directory lies outside them.
Result<std::vector<ZipEntry>> ReadZipDirectory(const ByteSource& zip);

// The bytes of one entry: a window of `zip` when stored (nothing read yet), else inflated into memory
// (at most `max_size` bytes) and checked against the entry's CRC-32. `zip` must outlive the result.
Result<std::unique_ptr<ByteSource>> OpenZipEntry(const ByteSource& zip, const ZipEntry& entry,
                                                 uint64_t max_size);

}  // namespace gpudoctor
