// libFuzzer target: the CDI specification reader (probe/linux/cdi_specs.h) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/linux/cdi_specs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string v = CdiSpecDriverVersion(text);
  if (v.size() > 32) __builtin_trap();                                         // a version is short
  if (!v.empty() && text.find(v) == std::string_view::npos) __builtin_trap();  // and read from the text
  if (!v.empty() && (v.front() == '.' || v.back() == '.')) __builtin_trap();
  return 0;
}
