// WorkerSamplerOpener (see worker_sampler.h).
#include "gates/worker_sampler.h"

#include "gpu/library_search.h"
#include "telemetry/telemetry_json.h"

namespace gpudoctor {
namespace {

// The AMD libraries where the HIP backend would find its own (framework copies, ROCM_PATH, the system).
TelemetryLibraries WorkerTelemetryLibraries(const FileSystem& fs, const Environment& env) {
  TelemetryLibraries out = DefaultTelemetryLibraries();
#ifndef _WIN32
  const auto site_packages = FindSitePackages(fs, env);
  out.amd_smi = CandidatePaths(SearchLibrary(fs, env, site_packages, AmdSmiLibrarySpec()));
  out.rocm_smi = CandidatePaths(SearchLibrary(fs, env, site_packages, RocmSmiLibrarySpec()));
#else
  (void)fs;
  (void)env;
#endif
  return out;
}

}  // namespace

const char* TelemetryVendorOf(BackendKind kind) {
  switch (kind) {
    case BackendKind::kCuda:
      return "nvidia";
    case BackendKind::kHip:
      return "amd";
    case BackendKind::kFake:
      return "fake";
  }
  return "fake";
}

Result<std::unique_ptr<GpuSampler>> OpenDeviceSampler(Backend& backend, int ordinal,
                                                      const GpuSamplerOpener& open) {
  if (!open) return InternalError("no telemetry sampler was given to this worker");
  auto devices = backend.Devices();
  if (!devices) return devices.error();
  if (ordinal < 0 || static_cast<size_t>(ordinal) >= devices->size())
    return InternalError("device " + std::to_string(ordinal) + " is not among the backend's devices");
  return open((*devices)[static_cast<size_t>(ordinal)].pci_address);
}

GpuSamplerOpener WorkerSamplerOpener(BackendKind kind, const WorkerBackend& backend, const Environment& env) {
  if (kind == BackendKind::kFake) {
    std::string script = backend.fake_script;
    return [script](const std::string&) { return ScriptedSamplerFromJson(script); };
  }
  const FileSystem& fs = *backend.fs;
  TelemetryLibraries libraries = WorkerTelemetryLibraries(fs, env);
  std::string vendor = TelemetryVendorOf(kind);
  return [&fs, libraries, vendor](const std::string& pci_address) {
    return OpenGpuSampler(fs, true, {vendor, pci_address}, libraries);
  };
}

}  // namespace gpudoctor
