// FindTelemetryLibraries (see telemetry_libraries.h).
#include "telemetry/telemetry_libraries.h"

#include "gpu/api/adl_api.h"
#include "gpu/api/library_search.h"

namespace gpudoctor {

TelemetryLibraries FindTelemetryLibraries(const FileSystem& fs, const Environment& env, bool live,
                                          bool windows) {
  TelemetryLibraries out;
  if (!live) return out;
  if (windows) {
    out.adl = AdlLibraryNames();
    return out;
  }
  const auto site_packages = FindSitePackages(fs, env);
  out.amd_smi = CandidatePaths(SearchLibrary(fs, env, site_packages, AmdSmiLibrarySpec()));
  out.rocm_smi = CandidatePaths(SearchLibrary(fs, env, site_packages, RocmSmiLibrarySpec()));
  return out;
}

}  // namespace gpudoctor
