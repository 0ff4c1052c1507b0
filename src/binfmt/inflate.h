// Raw deflate (RFC 1951) decompression for zip entries: zlib where the build found it
// (binfmt/inflate/inflate_zlib.cpp), otherwise an Error saying this build cannot (inflate_none.cpp,
// the mingw-w64 build); src/CMakeLists.txt picks one.
#pragma once

#include <cstdint>
#include <vector>

#include "binfmt/byte_source.h"
#include "core/result.h"

namespace gpudoctor {

// Inflates all of `in` (raw deflate, no zlib header); an Error when the stream is damaged, ends
// early, or would grow beyond `max_size` bytes (the size a zip directory declares: inflating stops
// one byte past it, and the Error says "`in.Name()` is larger than its directory says").
Result<std::vector<uint8_t>> InflateRaw(const ByteSource& in, uint64_t max_size);
// CRC-32 (ISO 3309, as zip stores it) of `bytes`.
uint32_t Crc32(const std::vector<uint8_t>& bytes);
// Whether InflateRaw works in this build.
bool InflateAvailable();

}  // namespace gpudoctor
