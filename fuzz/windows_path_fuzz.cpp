// libFuzzer target: Windows path arithmetic (core/windows_path.h) and the recorded tree's mapping of it
// (RecordedWindowsPath) on arbitrary text: normalizing is idempotent and never leaves a '/', a path and its
// normal form share one key, parents shorten until the root, and a mapped path stays inside the tree.
// Seeds: fuzz/seeds/windows_path_fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/windows_path.h"
#include "platform/filesystem.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string norm = NormalizeWindowsPath(text);
  if (NormalizeWindowsPath(norm) != norm) __builtin_trap();
  if (norm.find('/') != std::string::npos) __builtin_trap();
  if (WindowsPathKey(norm) != WindowsPathKey(text)) __builtin_trap();
  const bool absolute = IsWindowsAbsolutePath(text);
  if (absolute && !IsWindowsAbsolutePath(norm)) __builtin_trap();
  size_t steps = 0;
  for (std::string p = norm; !p.empty(); p = WindowsParentPath(p)) {
    if (++steps > size + 2) __builtin_trap();  // every parent is shorter: the walk ends
    std::string up = WindowsParentPath(p);
    if (absolute && !up.empty() && !WindowsPathIsUnder(p, up)) __builtin_trap();
  }
  (void)WindowsBaseName(text);
  (void)JoinWindowsPath(text, text);
  const std::string mapped = RecordedWindowsPath(text);
  if (mapped != text && (mapped.empty() || mapped.front() != '/')) __builtin_trap();
  return 0;
}
