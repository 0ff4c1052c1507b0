// ReadAmdSources (see amd_sources.h).
#include "telemetry/amd_sources.h"

namespace gpudoctor {

TelemetrySample ReadAmdSources(const std::vector<std::unique_ptr<AmdLibraryTelemetry>>& libraries,
                               const FileSystem& fs, const AmdSysfsFiles* sysfs,
                               const TelemetryDevice& device, std::vector<std::string>& warnings) {
  TelemetrySample out;
  out.device = device;
  for (const auto& library : libraries) {
    if (library->Lists(device.pci_address))
      FillMissingMetrics(library->Read(device.pci_address, warnings), out);
  }
  if (!sysfs) return out;
  TelemetrySample from_files;
  ReadAmdSysfsTelemetry(fs, *sysfs, from_files);
  if (out.source.empty()) {
    from_files.device = device;
    return from_files;  // no library answered: the sample is sysfs's alone
  }
  FillMissingMetrics(from_files, out);
  return out;
}

}  // namespace gpudoctor
