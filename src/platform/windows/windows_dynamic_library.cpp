// Windows: vendor libraries through LoadLibraryExW, never from the current folder or PATH (a DLL
// planted there must not be loaded). A bare name is looked for in System32 alone (where the drivers
// put nvcuda.dll, nvml.dll and amdhip64_N.dll), not even beside gpudoctor.exe, which may sit in a
// Downloads folder. A full path loads that file, and its dependencies come from its own folder and
// System32. A relative path is refused: it would be resolved against the current folder.
// Critical-error dialogs are off for the call.
#include <windows.h>

#include <cctype>
#include <cstring>

#include "platform/dynamic_library.h"
#include "platform/windows/windows_text.h"

namespace gpudoctor {
namespace {

HMODULE AsModule(void* handle) {
  return static_cast<HMODULE>(handle);
}

bool HasDirectory(const std::string& name) {
  return name.find_first_of("/\\:") != std::string::npos;
}

// "C:\x", "C:/x", "\\server\share\x", "\\?\C:\x": a path that does not depend on the current folder.
bool IsAbsolute(const std::string& path) {
  if (path.size() >= 3 && std::isalpha(static_cast<unsigned char>(path[0])) && path[1] == ':' &&
      (path[2] == '\\' || path[2] == '/'))
    return true;
  return path.size() >= 2 && (path[0] == '\\' || path[0] == '/') && (path[1] == '\\' || path[1] == '/');
}

}  // namespace

DynamicLibrary::DynamicLibrary(DynamicLibrary&& o) noexcept
    : handle_(o.handle_), requested_(std::move(o.requested_)) {
  o.handle_ = nullptr;
}
DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& o) noexcept {
  if (this != &o) {
    if (handle_) ::FreeLibrary(AsModule(handle_));
    handle_ = o.handle_;
    requested_ = std::move(o.requested_);
    o.handle_ = nullptr;
  }
  return *this;
}
DynamicLibrary::~DynamicLibrary() {
  if (handle_) ::FreeLibrary(AsModule(handle_));
}

Result<DynamicLibrary> DynamicLibrary::Open(const std::string& name_or_path) {
  std::wstring wide = Utf8ToWide(name_or_path);
  DWORD flags = LOAD_LIBRARY_SEARCH_SYSTEM32;
  if (HasDirectory(name_or_path)) {
    if (!IsAbsolute(name_or_path))
      return EnvError(
          "cannot load " + name_or_path + ": a relative path would be resolved against the current folder",
          "give the full path of the library");
    // LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR needs a fully qualified path.
    DWORD size = ::GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
    if (size > 0) {
      std::wstring full(size, L'\0');
      DWORD n = ::GetFullPathNameW(wide.c_str(), size, full.data(), nullptr);
      if (n > 0 && n < size) {
        full.resize(n);
        wide = std::move(full);
      }
    }
    flags = LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32;
  }
  DWORD old_mode = 0;
  ::SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
  HMODULE module = ::LoadLibraryExW(wide.c_str(), nullptr, flags);
  DWORD error = ::GetLastError();
  ::SetThreadErrorMode(old_mode, nullptr);
  if (!module) return EnvError("cannot load " + name_or_path + ": " + WindowsErrorText(error));
  return DynamicLibrary(module, name_or_path);
}

void* DynamicLibrary::Symbol(const char* name) const {
  if (!handle_) return nullptr;
  FARPROC proc = ::GetProcAddress(AsModule(handle_), name);
  void* out = nullptr;
  static_assert(sizeof out == sizeof proc);
  std::memcpy(&out, &proc, sizeof out);  // function pointer to the table's void*
  return out;
}

std::string DynamicLibrary::LoadedPath() const {
  if (!handle_) return {};
  std::wstring buffer(MAX_PATH, L'\0');
  while (true) {
    DWORD n = ::GetModuleFileNameW(AsModule(handle_), buffer.data(), static_cast<DWORD>(buffer.size()));
    if (n == 0) return requested_;
    if (n < buffer.size()) return WideToUtf8(std::wstring_view(buffer.data(), n));
    buffer.resize(buffer.size() * 2);
  }
}

}  // namespace gpudoctor
