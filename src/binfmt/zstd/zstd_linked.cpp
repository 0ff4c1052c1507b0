// The zstd decoder of builds that link libzstd (found by src/CMakeLists.txt): zstd.h's streaming
// functions behind the ZstdApi table.
#include <zstd.h>

#include "binfmt/zstd_decoder.h"

namespace gpudoctor {

ZstdDecoder ZstdDecoder::Load() {
  ZstdApi api;
  api.create_dstream = []() -> void* { return ZSTD_createDStream(); };
  api.free_dstream = [](void* s) -> size_t { return ZSTD_freeDStream(static_cast<ZSTD_DStream*>(s)); };
  api.decompress_stream = [](void* s, ZstdOutBuffer* out, ZstdInBuffer* in) -> size_t {
    ZSTD_outBuffer o{out->dst, out->size, out->pos};
    ZSTD_inBuffer i{in->src, in->size, in->pos};
    size_t rc = ZSTD_decompressStream(static_cast<ZSTD_DStream*>(s), &o, &i);
    out->pos = o.pos;
    in->pos = i.pos;
    return rc;
  };
  api.is_error = [](size_t rc) -> unsigned { return ZSTD_isError(rc); };
  api.get_error_name = [](size_t rc) -> const char* { return ZSTD_getErrorName(rc); };
  api.set_parameter = [](void* s, int parameter, int value) -> size_t {
    return ZSTD_DCtx_setParameter(static_cast<ZSTD_DCtx*>(s), static_cast<ZSTD_dParameter>(parameter), value);
  };
  static_assert(ZSTD_d_windowLogMax == 100, "zstd_decoder.cpp's kWindowLogMaxParameter");
  return ZstdDecoder(api, std::string("libzstd ") + ZSTD_versionString() + " (linked)");
}

}  // namespace gpudoctor
