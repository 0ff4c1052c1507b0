// Zstandard decompression for compressed offload bundles (CCOB), through our own minimal mirror of
// libzstd's streaming API: linked at build time where libzstd-dev exists (Linux), otherwise looked
// up at run time (libzstd.dll on Windows); without either, compressed bundles are reported unread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "binfmt/byte_source.h"
#include "core/result.h"

namespace gpudoctor {

// ZSTD_inBuffer / ZSTD_outBuffer from zstd.h (stable ABI since zstd 1.0).
struct ZstdInBuffer {
  const void* src;
  size_t size;
  size_t pos;
};
struct ZstdOutBuffer {
  void* dst;
  size_t size;
  size_t pos;
};
static_assert(sizeof(ZstdInBuffer) == 3 * sizeof(void*));
static_assert(sizeof(ZstdOutBuffer) == 3 * sizeof(void*));
static_assert(offsetof(ZstdInBuffer, pos) == 2 * sizeof(void*));
static_assert(offsetof(ZstdOutBuffer, pos) == 2 * sizeof(void*));

// The five functions used (ZSTD_createDStream, ZSTD_freeDStream, ZSTD_decompressStream,
// ZSTD_isError, ZSTD_getErrorName); a DStream is an opaque pointer here.
struct ZstdApi {
  void* (*create_dstream)() = nullptr;
  size_t (*free_dstream)(void*) = nullptr;
  size_t (*decompress_stream)(void*, ZstdOutBuffer*, ZstdInBuffer*) = nullptr;
  unsigned (*is_error)(size_t) = nullptr;
  const char* (*get_error_name)(size_t) = nullptr;
  // ZSTD_DCtx_setParameter (zstd 1.4.0 on; a DStream is a DCtx): optional, only WithWindowLimit needs it.
  size_t (*set_parameter)(void*, int, int) = nullptr;

  bool complete() const {
    return create_dstream && free_dstream && decompress_stream && is_error && get_error_name;
  }
};

class ZstdDecoder {
 public:
  // The decoder this build has: libzstd linked in (zstd_linked.cpp) or found at run time
  // (zstd_runtime.cpp); src/CMakeLists.txt compiles exactly one of the two.
  static ZstdDecoder Load();
  static ZstdDecoder Unavailable(std::string why);
  ZstdDecoder(ZstdApi api, std::string origin, std::shared_ptr<const void> keep_alive = nullptr);

  bool available() const { return api_.complete(); }
  // "libzstd (linked)", "libzstd.dll", or why there is none.
  const std::string& origin() const { return origin_; }

  // This decoder, refusing frames whose window is over 2^window_log bytes (zstd's own limit is 2^27): zstd
  // allocates the whole window before the first byte comes out, which in an ASan build costs milliseconds
  // per frame, so the fuzz target sets 2^20 and reaches its rate. Without ZSTD_DCtx_setParameter in the
  // library, the limit stays zstd's.
  ZstdDecoder WithWindowLimit(int window_log) const;

  // Decompresses the start of the zstd frame in `compressed`: stops after `max_out` bytes of output
  // or at the end of the frame, reading the compressed bytes in small pieces as needed.
  Result<std::vector<uint8_t>> DecompressPrefix(const ByteSource& compressed, size_t max_out) const;

 private:
  ZstdApi api_;
  int window_log_limit_ = 0;  // 0: zstd's default
  std::string origin_;
  std::shared_ptr<const void> keep_alive_;  // the run-time library, where one was opened
};

}  // namespace gpudoctor
