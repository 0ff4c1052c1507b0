// libFuzzer target for the compiled knowledge base's decoder (knowledge/toml_tree_codec.h): the input is a
// blob as the build embeds it (the seeds are the build's own data/*.tree files, fuzz/targets.txt), damaged
// any way; decoding must never crash, hang or read outside it. A blob that decodes must encode back to
// bytes that decode to the same encoding (the codec round-trips whatever it accepts).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "knowledge/toml_tree_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpudoctor::TomlParse decoded = gpudoctor::DecodeTomlTree({reinterpret_cast<const char*>(data), size});
  if (!decoded.root) {
    if (decoded.error.empty()) __builtin_trap();  // a refusal always says why
    return 0;
  }
  const std::string encoded = gpudoctor::EncodeTomlTree(*decoded.root);
  gpudoctor::TomlParse again = gpudoctor::DecodeTomlTree(encoded);
  if (!again.root || gpudoctor::EncodeTomlTree(*again.root) != encoded) __builtin_trap();
  return 0;
}
