// libFuzzer target: the small Python environment files (probe/common/python_text_files.h) on arbitrary
// bytes: a venv's pyvenv.cfg, conda's environments.txt (POSIX or Windows prefixes), version strings
// ("3.12.1.final.0") and the Windows names that carry one ("Python311", "python313._pth").
// Seeds: fuzz/seeds/python_config_fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/windows_path.h"
#include "probe/common/python_text_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  PyvenvConfig cfg = ParsePyvenvConfig(text);
  if (!cfg.python_version.empty() && cfg.python_version.find('.') == std::string::npos) __builtin_trap();
  if (cfg.home.size() > size) __builtin_trap();
  for (const auto& prefix : ParseCondaEnvironments(text)) {
    if (prefix.empty() || (prefix.front() != '/' && !IsWindowsAbsolutePath(prefix))) __builtin_trap();
  }
  if (auto v = PythonVersionFromWindowsName(text)) {
    if (v->size() < 3 || v->size() > 5 || (*v)[0] != '3' || (*v)[1] != '.') __builtin_trap();
  }
  if (auto mm = PythonMajorMinor(text)) {
    if (mm->size() > 7 || mm->find('.') == std::string::npos) __builtin_trap();
  }
  return 0;
}
