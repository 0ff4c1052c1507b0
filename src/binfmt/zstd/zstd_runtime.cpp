// The zstd decoder of builds without libzstd at build time (the mingw-w64 Windows build): the
// library is looked up when a compressed bundle is met; without it those bundles stay unread.
#include <memory>

#include "binfmt/zstd_decoder.h"
#include "platform/dynamic_library.h"
#include "platform/symbol_binder.h"

namespace gpudoctor {

ZstdDecoder ZstdDecoder::Load() {
  LibraryLoadReport report;
  auto lib = OpenFirst({"libzstd.so.1", "libzstd.dll", "zstd.dll", "libzstd.1.dylib"}, report);
  if (!lib.ok())
    return Unavailable("no zstd library found (tried " + std::to_string(report.tried.size()) +
                       " names; install zstd or put libzstd.dll beside gpudoctor)");
  auto shared = std::make_shared<DynamicLibrary>(std::move(*lib));
  ZstdApi api;
  SymbolBindReport symbols;
  SymbolBinder bind(*shared, symbols);
  bind.Required(api.create_dstream, {"ZSTD_createDStream"});
  bind.Required(api.free_dstream, {"ZSTD_freeDStream"});
  bind.Required(api.decompress_stream, {"ZSTD_decompressStream"});
  bind.Required(api.is_error, {"ZSTD_isError"});
  bind.Required(api.get_error_name, {"ZSTD_getErrorName"});
  bind.Optional(api.set_parameter, {"ZSTD_DCtx_setParameter"});
  if (!api.complete()) return Unavailable(report.loaded_path + " lacks zstd functions: " + symbols.Summary());
  std::string origin = report.loaded_path.empty() ? shared->RequestedName() : report.loaded_path;
  return ZstdDecoder(api, origin, std::shared_ptr<const void>(shared, shared.get()));
}

}  // namespace gpudoctor
