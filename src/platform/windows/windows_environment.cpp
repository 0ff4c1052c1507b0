// Windows: the process environment from GetEnvironmentStringsW, as UTF-8.
#include <windows.h>

#include "platform/environment.h"
#include "platform/windows/windows_text.h"

namespace gpudoctor {

Environment CaptureProcessEnvironment() {
  std::map<std::string, std::string> vars;
  wchar_t* block = ::GetEnvironmentStringsW();
  if (!block) return Environment();
  // A block of "KEY=value\0" entries ended by an empty one. Entries such as
  // "=C:=C:\dir" (per-drive current folders) start with '=' and are skipped.
  for (const wchar_t* p = block; *p; p += std::wstring_view(p).size() + 1) {
    std::string entry = WideToUtf8(p);
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  ::FreeEnvironmentStringsW(block);
  return Environment(std::move(vars));
}

}  // namespace gpudoctor
