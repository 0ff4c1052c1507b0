// The AMD telemetry libraries' candidates (see telemetry_libraries.h).
#include "cli/telemetry_libraries.h"

#include "gpu/api/adl_api.h"
#include "gpu/library_search.h"

namespace gpudoctor {

TelemetryLibraries FindTelemetryLibraries(const ProbeInputs& inputs) {
  TelemetryLibraries out;
  if (!inputs.live) return out;
  // Windows: ADL, from System32 (where AMD's display driver puts it); amd_smi and rocm_smi are Linux's.
  if (inputs.windows) {
    out.adl = AdlLibraryNames();
    return out;
  }
  const auto site_packages = FindSitePackages(*inputs.fs, inputs.env);
  out.amd_smi = CandidatePaths(SearchLibrary(*inputs.fs, inputs.env, site_packages, AmdSmiLibrarySpec()));
  out.rocm_smi = CandidatePaths(SearchLibrary(*inputs.fs, inputs.env, site_packages, RocmSmiLibrarySpec()));
  return out;
}

}  // namespace gpudoctor
