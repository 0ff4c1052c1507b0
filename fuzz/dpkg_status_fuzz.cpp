// libFuzzer target: the dpkg status reader (probe/linux/dpkg_status.h) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/linux/dpkg_status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const DpkgPackage& p : InstalledDpkgPackages(text)) {
    if (p.name.empty() || p.version.empty()) __builtin_trap();  // only complete paragraphs count
    if (text.find(p.name) == std::string_view::npos) __builtin_trap();
    const std::string upstream = DebianUpstreamVersion(p.version);
    if (upstream.size() > p.version.size()) __builtin_trap();  // only ever shortened
  }
  return 0;
}
