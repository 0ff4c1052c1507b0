// libFuzzer target: the installed-distribution readers (probe/common/dist_metadata.h) on arbitrary
// bytes: METADATA / PKG-INFO headers (with their exact torch pin), dist-info and egg-info folder names, PEP
// 503 normalisation. Seeds: fuzz/seeds/dist_metadata_fuzz (METADATA heads as pip writes them).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/common/dist_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto m = ParseDistMetadata(text)) {
    // A parsed header has both fields, bounded, without line breaks.
    if (m->name.empty() || m->version.empty() || m->name.size() > 200 || m->version.size() > 100)
      __builtin_trap();
    if (m->name.find('\n') != std::string::npos || m->version.find('\n') != std::string::npos)
      __builtin_trap();
    // An exact torch pin is one plausible version: bounded, a digit first, no range or wildcard.
    const std::string& pin = m->torch_pin;
    if (!pin.empty() && (pin.size() > 100 || pin.front() < '0' || pin.front() > '9' ||
                         pin.find_first_of(",*;() \n") != std::string::npos))
      __builtin_trap();
  }
  if (auto f = ParseDistFolderName(text)) {
    if (f->name.empty() || f->version.empty() || f->version.front() < '0' || f->version.front() > '9')
      __builtin_trap();
  }
  std::string norm = NormalizeDistName(text);
  if (norm.size() > text.size()) __builtin_trap();
  if (NormalizeDistName(norm) != norm) __builtin_trap();  // normalising twice changes nothing
  return 0;
}
