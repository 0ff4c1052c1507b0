// WorkerSamplerOpener (see worker_sampler.h).
#include "gates/worker_sampler.h"

#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_libraries.h"

namespace gpudoctor {

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
#ifdef _WIN32
  constexpr bool kWindows = true;
#else
  constexpr bool kWindows = false;
#endif
  TelemetryLibraries libraries = FindTelemetryLibraries(fs, env, true, kWindows);
  std::string vendor = TelemetryVendorOf(kind);
  return [&fs, libraries, vendor](const std::string& pci_address) {
    return OpenGpuSampler(fs, true, {vendor, pci_address}, libraries);
  };
}

}  // namespace gpudoctor
