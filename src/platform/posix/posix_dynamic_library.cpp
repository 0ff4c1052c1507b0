// POSIX: vendor libraries through dlopen; the loaded file is named via dladdr/dlinfo.
#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

#include <cstdlib>

#include "platform/dynamic_library.h"
#include "platform/loader_search_path.h"

namespace gpudoctor {

DynamicLibrary::DynamicLibrary(DynamicLibrary&& o) noexcept
    : handle_(o.handle_), requested_(std::move(o.requested_)) {
  o.handle_ = nullptr;
}
DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& o) noexcept {
  if (this != &o) {
    if (handle_) ::dlclose(handle_);
    handle_ = o.handle_;
    requested_ = std::move(o.requested_);
    o.handle_ = nullptr;
  }
  return *this;
}
DynamicLibrary::~DynamicLibrary() {
  if (handle_) ::dlclose(handle_);
}

Result<DynamicLibrary> DynamicLibrary::Open(const std::string& name_or_path) {
  // An empty element of LD_LIBRARY_PATH is the current folder to the loader: never load from there.
  const char* search_path = std::getenv("LD_LIBRARY_PATH");
  auto name = NameForSystemLoader(name_or_path, search_path ? search_path : "", [](const std::string& p) {
    struct stat st = {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  });
  if (!name.ok()) return name.error();
  ::dlerror();
  // RTLD_NODELETE: a vendor GPU runtime stays mapped once loaded. Unloading one is fragile (its
  // threads and atexit handlers outlive dlclose), and LeakSanitizer reported libamdhip64 5.2's
  // start-up allocations as leaks of an unknown module after dlclose.
  void* h = ::dlopen(name->c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!h) {
    const char* err = ::dlerror();
    return EnvError(err ? err : ("cannot load " + name_or_path));
  }
  return DynamicLibrary(h, name_or_path);
}

void* DynamicLibrary::Symbol(const char* name) const {
  return handle_ ? ::dlsym(handle_, name) : nullptr;
}

std::string DynamicLibrary::LoadedPath() const {
  if (!handle_) return {};
  link_map* map = nullptr;
  if (::dlinfo(handle_, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0])
    return map->l_name;
  return requested_;
}

}  // namespace gpudoctor
