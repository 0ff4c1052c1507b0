// What a backend needs from the outside world, passed in once (nothing below reads the process environment
// or a hard-coded path), and the one helper that loads a vendor table through the library search and turns
// the outcome into a BackendLibrary line for the report.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/api/library_search.h"
#include "gpu/backend.h"
#include "gpu/fake/fake_kernels.h"
#include "platform/environment.h"
#include "platform/filesystem.h"
#include "platform/symbol_binder.h"

namespace gpudoctor {

struct BackendInputs {
  const FileSystem* fs = nullptr;          // where libraries are searched: the live root in real use
  Environment env;                         // ROCM_PATH, CUDA_PATH, VIRTUAL_ENV, PATH, HOME ...
  std::vector<std::string> site_packages;  // FindSitePackages(fs, env), computed once
  // "0000:c1:00.0" -> "gfx1100", from the KFD topology: HIP 6+ reports the architecture only inside a struct
  // whose layout changes between releases, so the HIP backend takes it from the probe when it can.
  std::map<std::string, std::string> arch_by_pci;
  std::string fake_script;       // the fake backend's script (JSON text), see gpu/fake/fake_backend.h
  FakeKernelTable fake_kernels;  // the kernels the fake backend can run (gpu/fake/fake_kernels.h)
};

// Loads the first candidate of `spec` through `load` (LoadNvrtc, LoadHip ...) and records the outcome.
template <typename Table, typename LoadFn>
LoadedTable<Table> LoadSearched(const BackendInputs& in, const LibrarySpec& spec, LoadFn load,
                                BackendLibrary& record) {
  std::vector<LibraryCandidate> candidates;
  if (in.fs)
    candidates = SearchLibrary(*in.fs, in.env, in.site_packages, spec);
  else
    for (const auto& name : spec.file_names)
      candidates.push_back({name, LibraryOrigin::kSystem, "system loader"});
  LoadedTable<Table> table = load(CandidatePaths(candidates));
  record.path = table.load.loaded_path;
  if (const LibraryCandidate* c = LoadedCandidate(candidates, table.load)) {
    record.origin = ToString(c->origin);
    record.where = c->where;
  }
  record.status = table.status;
  record.detail = table.status == LoadStatus::kAbsent
                      ? "not found (tried " + std::to_string(table.load.tried.size()) +
                            " places; last error: " + table.load.last_error + ")"
                      : table.symbols.Summary();
  return table;
}

// The backend for `kind`; the fake one parses `in.fake_script` (an error when it is malformed).
Result<std::unique_ptr<Backend>> MakeBackend(BackendKind kind, const BackendInputs& in);

}  // namespace gpudoctor
