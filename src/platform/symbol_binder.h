// Fills a vendor library's table of function pointers the same way for every vendor: versioned names
// first, required vs optional symbols, and every miss recorded by name for the load report.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "core/load_status.h"
#include "platform/dynamic_library.h"

namespace gpudoctor {

// What binding a table found.
struct SymbolBindReport {
  std::vector<std::string> missing_required;  // no candidate name found for a required function
  std::vector<std::string> missing_optional;  // likewise for an optional one
  // The exported name bound where several were tried ("nvmlDeviceGetPciInfo_v2" when _v3 is absent).
  std::vector<std::string> variants_bound;

  bool complete() const { return missing_required.empty(); }
  // One line for a report: "missing nvmlInit_v2; optional missing cuDeviceGetUuid; bound
  // nvmlDeviceGetPciInfo_v3".
  std::string Summary() const;
};

// A loaded vendor library and its table; `library` keeps the functions mapped while the table is used.
template <typename Table>
struct LoadedTable {
  LoadStatus status = LoadStatus::kAbsent;  // kLoaded, kAbsent or kBroken
  std::optional<DynamicLibrary> library;
  Table api{};
  LibraryLoadReport load;  // candidates tried, file loaded, dlerror text
  SymbolBindReport symbols;
};

class SymbolBinder {
 public:
  SymbolBinder(const DynamicLibrary& library, SymbolBindReport& report)
      : library_(library), report_(report) {}

  // Binds the first exported name of `names` (newest variant first) into `slot`.
  template <typename Fn>
  void Required(Fn*& slot, std::initializer_list<const char*> names) {
    slot = reinterpret_cast<Fn*>(Find(names, /*required=*/true));
  }
  template <typename Fn>
  void Optional(Fn*& slot, std::initializer_list<const char*> names) {
    slot = reinterpret_cast<Fn*>(Find(names, /*required=*/false));
  }

 private:
  void* Find(std::initializer_list<const char*> names, bool required);

  const DynamicLibrary& library_;
  SymbolBindReport& report_;
};

// Opens the first loadable candidate, then lets `bind` fill the table; the status says
// absent (nothing loaded) or broken (a required symbol is missing).
template <typename Table, typename BindFn>
LoadedTable<Table> LoadTable(const std::vector<std::string>& candidates, BindFn bind) {
  LoadedTable<Table> out;
  auto lib = OpenFirst(candidates, out.load);
  if (!lib.ok()) {
    out.status = LoadStatus::kAbsent;
    if (out.load.last_error.empty()) out.load.last_error = lib.error().message;
    return out;
  }
  out.library.emplace(std::move(lib).value());
  SymbolBinder binder(*out.library, out.symbols);
  bind(binder, out.api);
  out.load.missing_symbols = out.symbols.missing_required;
  out.status = out.symbols.complete() ? LoadStatus::kLoaded : LoadStatus::kBroken;
  return out;
}

}  // namespace gpudoctor
