// InflateRaw through zlib (Debian's zlib1g-dev), reading the compressed bytes in 1 MiB pieces.
#include <zlib.h>

#include <algorithm>
#include <cstdint>

#include "binfmt/inflate.h"

namespace gpudoctor {

Result<std::vector<uint8_t>> InflateRaw(const ByteSource& in, uint64_t max_size) {
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return InternalError("zlib inflateInit2 failed");
  struct Ender {
    z_stream* z;
    ~Ender() { inflateEnd(z); }
  } ender{&z};
  const uint64_t room = max_size < UINT64_MAX ? max_size + 1 : max_size;
  std::vector<uint8_t> out;
  std::vector<uint8_t> piece;
  uint64_t offset = 0;
  constexpr uint64_t kPiece = 1u << 20;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (z.avail_in == 0) {
      if (offset >= in.Size()) return UserError(in.Name() + ": the deflate stream ends early");
      auto chunk = in.ReadUpTo(offset, kPiece);
      if (!chunk.ok()) return chunk.error();
      piece = std::move(*chunk);
      offset += piece.size();
      z.next_in = piece.data();
      z.avail_in = static_cast<uInt>(piece.size());
    }
    // Room for one byte past `max_size`: a stream that fills it is too large, and inflating stops there.
    if (out.size() - z.total_out < kPiece && out.size() < room)
      out.resize(static_cast<size_t>(std::min<uint64_t>(room, out.size() + 4 * kPiece)));
    z.next_out = out.data() + z.total_out;
    z.avail_out = static_cast<uInt>(std::min<uint64_t>(out.size() - z.total_out, 1u << 30));
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
      return UserError(in.Name() + ": damaged deflate data (" + std::string(z.msg ? z.msg : "zlib error") +
                       ")");
    if (z.total_out > max_size)
      return UserError(in.Name() + " is larger than its directory says: it inflates past " +
                       std::to_string(max_size) + " bytes");
    if (rc == Z_BUF_ERROR && z.avail_in != 0 && z.avail_out != 0)
      return UserError(in.Name() + ": damaged deflate data");
  }
  out.resize(z.total_out);
  return out;
}

uint32_t Crc32(const std::vector<uint8_t>& bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  size_t at = 0;
  while (at < bytes.size()) {
    const size_t n = std::min<size_t>(bytes.size() - at, 1u << 30);
    crc = crc32(crc, bytes.data() + at, static_cast<uInt>(n));
    at += n;
  }
  return static_cast<uint32_t>(crc);
}

bool InflateAvailable() {
  return true;
}

}  // namespace gpudoctor
