// Tries library candidates in order and records each attempt for the report.
#include "platform/dynamic_library.h"

namespace gpudoctor {

Result<DynamicLibrary> OpenFirst(const std::vector<std::string>& candidates, LibraryLoadReport& report) {
  for (const auto& name : candidates) {
    report.tried.push_back(name);
    auto lib = DynamicLibrary::Open(name);
    if (lib.ok()) {
      report.loaded_path = lib->LoadedPath();
      return lib;
    }
    report.last_error = lib.error().message;
  }
  if (candidates.empty()) return InternalError("no library candidates given");
  return EnvError("none of the candidates could be loaded (" + candidates.front() +
                  ", ...): " + report.last_error);
}

}  // namespace gpudoctor
