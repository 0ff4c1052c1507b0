// libFuzzer target: the project pin files (probe/common/project_pins.h) on arbitrary bytes, each byte string
// read as every kind of file (requirements, pyproject.toml, uv.lock, poetry.lock, environment.yml) and as one
// requirement line. Every pin found names a wanted package and a line of the input.
// Seeds: fuzz/seeds/project_pins_fuzz and the recorded machines' requirements files.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/common/project_pins.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  static const std::vector<std::string> kWanted = {"torch", "torchvision", "torchaudio", "flash-attn", "jax"};
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (auto kind : {PinFileKind::kRequirements, PinFileKind::kPyproject, PinFileKind::kUvLock,
                    PinFileKind::kPoetryLock, PinFileKind::kCondaEnvironment}) {
    PinFileContents c = ParsePinFile(kind, "f", text, kWanted);
    for (const auto& p : c.pins) {
      if (p.line == 0 || p.line > lines || p.file != "f") __builtin_trap();
      if (std::find(kWanted.begin(), kWanted.end(), p.package) == kWanted.end()) __builtin_trap();
      if (p.text.size() > size) __builtin_trap();
    }
  }
  if (auto r = ParseRequirement(text)) {
    if (r->package.empty() || r->package.size() > size) __builtin_trap();
  }
  return 0;
}
