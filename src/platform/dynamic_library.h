// Vendor libraries are opened at run time only (dlopen / LoadLibraryEx), so the
// binary starts on any machine. One RAII handle type serves every vendor table.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

class DynamicLibrary {
 public:
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  DynamicLibrary(DynamicLibrary&&) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&&) noexcept;
  ~DynamicLibrary();

  // `name_or_path` is a file name searched the platform's safe way (never the
  // current directory on Windows) or a full path.
  static Result<DynamicLibrary> Open(const std::string& name_or_path);

  void* Symbol(const char* name) const;
  // The file the loader actually mapped, where the platform can tell.
  std::string LoadedPath() const;
  const std::string& RequestedName() const { return requested_; }

 private:
  DynamicLibrary(void* handle, std::string requested) : handle_(handle), requested_(std::move(requested)) {}
  void* handle_ = nullptr;
  std::string requested_;
};

// What a loader tried and what came of it, for the report.
struct LibraryLoadReport {
  std::vector<std::string> tried;  // names/paths in the order tried
  std::string loaded_path;         // empty when none loaded
  std::string last_error;          // dlerror()/GetLastError text of the last failure
  std::vector<std::string> missing_symbols;
};

// Tries each candidate in order; fills `report`.
Result<DynamicLibrary> OpenFirst(const std::vector<std::string>& candidates, LibraryLoadReport& report);

}  // namespace gpudoctor
