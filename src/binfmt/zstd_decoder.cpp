// Streaming decompression of the first bytes of a zstd frame (enough for a bundle's entry table),
// so a hostile size field or a decompression bomb costs at most the bytes the caller asked for.
#include "binfmt/zstd_decoder.h"

#include <algorithm>

namespace gpudoctor {

namespace {

constexpr uint64_t kInputChunk = 16 * 1024;
constexpr size_t kFirstOutput = 64 * 1024;
constexpr int kWindowLogMaxParameter = 100;  // ZSTD_d_windowLogMax in zstd.h's ZSTD_dParameter

}  // namespace

ZstdDecoder::ZstdDecoder(ZstdApi api, std::string origin, std::shared_ptr<const void> keep_alive)
    : api_(api), origin_(std::move(origin)), keep_alive_(std::move(keep_alive)) {}

ZstdDecoder ZstdDecoder::Unavailable(std::string why) {
  return ZstdDecoder(ZstdApi{}, std::move(why));
}

ZstdDecoder ZstdDecoder::WithWindowLimit(int window_log) const {
  ZstdDecoder limited = *this;
  limited.window_log_limit_ = window_log;
  return limited;
}

Result<std::vector<uint8_t>> ZstdDecoder::DecompressPrefix(const ByteSource& compressed,
                                                           size_t max_out) const {
  if (!available()) return EnvError("zstd is not available: " + origin_);
  std::unique_ptr<void, size_t (*)(void*)> stream(api_.create_dstream(), api_.free_dstream);
  if (!stream) return EnvError("ZSTD_createDStream failed (out of memory?)");
  if (window_log_limit_ > 0 && api_.set_parameter != nullptr) {
    size_t rc = api_.set_parameter(stream.get(), kWindowLogMaxParameter, window_log_limit_);
    if (api_.is_error(rc))
      return EnvError(std::string("zstd refused a window limit of 2^") + std::to_string(window_log_limit_) +
                      ": " + api_.get_error_name(rc));
  }

  // The output grows as the frame fills it, up to max_out: a caller that allows 4 MiB for a header that
  // turns out to be 200 bytes long allocates (and clears) 64 KiB, not 4 MiB.
  std::vector<uint8_t> out(std::min(max_out, kFirstOutput));
  ZstdOutBuffer out_buffer{out.data(), out.size(), 0};
  auto make_room = [&] {
    if (out_buffer.pos < out_buffer.size || out.size() >= max_out) return;
    out.resize(std::min(max_out, out.size() * 4));
    out_buffer.dst = out.data();
    out_buffer.size = out.size();
  };
  std::vector<uint8_t> chunk;
  uint64_t read_at = 0;
  while (out_buffer.pos < max_out) {
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
    // A call that fills the output may leave decoded bytes inside zstd, so after it comes one more call
    // (into a grown buffer) even when this chunk's input is used up.
    bool output_was_full = false;
    while (in_buffer.pos < in_buffer.size || output_was_full) {
      make_room();
      if (out_buffer.pos == out_buffer.size) break;  // max_out bytes are here
      size_t rc = api_.decompress_stream(stream.get(), &out_buffer, &in_buffer);
      if (api_.is_error(rc))
        return UserError(compressed.Name() + ": zstd says \"" + api_.get_error_name(rc) +
                         "\" at compressed offset " + std::to_string(read_at - chunk.size() + in_buffer.pos));
      if (rc == 0) {  // end of the frame
        out.resize(out_buffer.pos);
        return out;
      }
      output_was_full = out_buffer.pos == out_buffer.size;
    }
  }
  out.resize(out_buffer.pos);
  return out;
}

}  // namespace gpudoctor
