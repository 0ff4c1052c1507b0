// Streaming decompression of the first bytes of a zstd frame (enough for a bundle's entry table),
// so a hostile size field or a decompression bomb costs at most the bytes the caller asked for.
#include "binfmt/zstd_decoder.h"

#include <algorithm>

namespace gpudoctor {

namespace {

constexpr uint64_t kInputChunk = 16 * 1024;

}  // namespace

ZstdDecoder::ZstdDecoder(ZstdApi api, std::string origin, std::shared_ptr<const void> keep_alive)
    : api_(api), origin_(std::move(origin)), keep_alive_(std::move(keep_alive)) {}

ZstdDecoder ZstdDecoder::Unavailable(std::string why) {
  return ZstdDecoder(ZstdApi{}, std::move(why));
}

Result<std::vector<uint8_t>> ZstdDecoder::DecompressPrefix(const ByteSource& compressed,
                                                           size_t max_out) const {
  if (!available()) return EnvError("zstd is not available: " + origin_);
  std::unique_ptr<void, size_t (*)(void*)> stream(api_.create_dstream(), api_.free_dstream);
  if (!stream) return EnvError("ZSTD_createDStream failed (out of memory?)");

  std::vector<uint8_t> out(max_out);
  ZstdOutBuffer out_buffer{out.data(), out.size(), 0};
  std::vector<uint8_t> chunk;
  uint64_t read_at = 0;
  while (out_buffer.pos < out_buffer.size) {
    if (read_at >= compressed.Size()) {
      out.resize(out_buffer.pos);
      if (out.empty()) return UserError(compressed.Name() + ": the zstd frame is empty or truncated");
      return out;  // a truncated frame still gives what it held
    }
    auto piece = compressed.Read(read_at, std::min(kInputChunk, compressed.Size() - read_at));
    if (!piece.ok()) return piece.error();
    chunk = std::move(*piece);
    read_at += chunk.size();
    ZstdInBuffer in_buffer{chunk.data(), chunk.size(), 0};
    while (in_buffer.pos < in_buffer.size && out_buffer.pos < out_buffer.size) {
      size_t rc = api_.decompress_stream(stream.get(), &out_buffer, &in_buffer);
      if (api_.is_error(rc))
        return UserError(compressed.Name() + ": zstd says \"" + api_.get_error_name(rc) +
                         "\" at compressed offset " + std::to_string(read_at - chunk.size() + in_buffer.pos));
      if (rc == 0) {  // end of the frame
        out.resize(out_buffer.pos);
        return out;
      }
    }
  }
  out.resize(out_buffer.pos);
  return out;
}

}  // namespace gpudoctor
