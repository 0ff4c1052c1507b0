// AMD telemetry through AMD's own libraries, loaded at run time: amd_smi (libamd_smi, ROCm 6+) and ROCm SMI
// (librocm_smi64) on Linux, ADL (atiadlxx.dll, the display driver's) on Windows, each through its one table
// in gpu/api/. A session lists the GPUs the library sees by PCI address; the TelemetryReader asks amd_smi
// first, then rocm_smi, then ADL, then amdgpu's sysfs files for what is still missing (docs/monitor.md says
// which metric each gives, in which unit).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

class AmdLibraryTelemetry {
 public:
  virtual ~AmdLibraryTelemetry() = default;
  // "amd_smi", "rocm_smi" or "adl": the `source` of what it fills.
  virtual const char* SourceName() const = 0;
  // Whether the library lists the GPU at `pci_address` ("0000:03:00.0").
  virtual bool Lists(const std::string& pci_address) const = 0;
  // What the library says of that GPU now, in a sample of its own (units converted to the sample's); a
  // call the GPU does not answer leaves its metric empty, an unexpected failure goes to `warnings`.
  virtual TelemetrySample Read(const std::string& pci_address, std::vector<std::string>& warnings) = 0;
};

// The part every library's session shares: the GPUs it lists, each by PCI address with the library's own
// handle for it (a processor handle, a device index, an adapter index), and the lookup that Read() starts
// with. A session says how it reads one GPU (ReadDevice) and by which name a user knows the library.
template <typename Handle>
class AmdLibraryTelemetryOf : public AmdLibraryTelemetry {
 public:
  bool Lists(const std::string& pci_address) const final { return devices_.count(pci_address) > 0; }

  TelemetrySample Read(const std::string& pci_address, std::vector<std::string>& warnings) final {
    auto it = devices_.find(pci_address);
    if (it == devices_.end()) {
      warnings.push_back(std::string(DisplayName()) + " does not list the GPU at " + pci_address);
      TelemetrySample empty;
      empty.source = SourceName();
      return empty;
    }
    TelemetrySample s = ReadDevice(it->second, warnings);
    s.source = SourceName();
    return s;
  }

 protected:
  explicit AmdLibraryTelemetryOf(std::map<std::string, Handle> devices) : devices_(std::move(devices)) {}
  // "AMD SMI", "ROCm SMI", "ADL": the library as a warning names it.
  virtual const char* DisplayName() const = 0;
  // What the library says of the GPU with this handle (units converted to the sample's).
  virtual TelemetrySample ReadDevice(Handle handle, std::vector<std::string>& warnings) = 0;

 private:
  std::map<std::string, Handle> devices_;  // PCI address -> the library's handle of that GPU
};

// How opening a library ended: a session, or nothing to say (no candidate could be loaded: ROCm is not
// installed), or a problem a user should hear of (missing symbols, an initialization that failed).
struct AmdLibraryOpening {
  std::unique_ptr<AmdLibraryTelemetry> session;
  bool absent = false;
  std::string problem;
};

// Loads the first loadable candidate (full paths or names for the system loader), initializes the library
// and lists its GPUs.
AmdLibraryOpening OpenAmdSmiTelemetry(const std::vector<std::string>& candidates);
AmdLibraryOpening OpenRocmSmiTelemetry(const std::vector<std::string>& candidates);
AmdLibraryOpening OpenAdlTelemetry(const std::vector<std::string>& candidates);

}  // namespace gpudoctor
