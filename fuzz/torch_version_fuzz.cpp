// libFuzzer target: the torch/version.py parser and the pythonX.Y folder-name parser on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/common/python_probe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto v = ParseTorchVersionFile(text)) {
    if (v->version.empty() || v->version.size() > 256) __builtin_trap();  // a found version is never empty
    if (v->cuda.size() > 256 || v->hip.size() > 256 || v->git_version.size() > 256) __builtin_trap();
  }
  if (auto p = PythonVersionFromFolder(text)) {
    if (p->find('.') == std::string::npos) __builtin_trap();
  }
  return 0;
}
